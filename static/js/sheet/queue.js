/* The device's queue of deals (queued → sending → refused), in order, in localStorage,
 * and the device's own history (what was discarded here). */

import {cfg, keys, load, strings} from "./context.js";

export function queue() { return load(keys.queue, []); }

export function saveQueue(items) {
  localStorage.setItem(keys.queue, JSON.stringify(items));
  renderPending();
}

export function sheetTable() { return document.querySelector("#sheet table"); }
export function serverCount() { var t = sheetTable(); return t ? Number(t.dataset.count) : 0; }
export function nextNumber() { return serverCount() + queue().length + 1; }

/* Queued deals always follow the stored ones without a gap: after a discard, or when
 * another device stored deals meanwhile, the waiting deals move up. */
export function renumber(items) {
  var first = serverCount() + 1;
  items.forEach(function (item, i) { item.number = first + i; });
  return items;
}

export function setState(key, changes) {
  var items = queue();
  items.forEach(function (x) { if (x.key === key) { Object.assign(x, changes); } });
  saveQueue(items);
}

export function renderPending() {
  var list = document.getElementById("pending");
  list.innerHTML = "";
  var blocked = false;
  queue().forEach(function (item) {
    var li = document.createElement("li");
    li.className = item.state;
    li.dataset.key = item.key;
    li.dataset.number = item.number;
    var label = item.state === "refused" ? strings.refused
      : item.state === "conflict" ? strings.conflictWaiting
      : item.state === "sending" ? strings.sending
      : blocked ? strings.waitingBehind : strings.pending;
    li.textContent = "#" + item.number + " · " + label;
    if (item.state === "refused" || item.state === "conflict") { li.tabIndex = 0; blocked = true; }
    list.appendChild(li);
  });
}

export function note(text) {
  var log = load(keys.log, []);
  log.push({at: new Date().toISOString(), text: text});
  localStorage.setItem(keys.log, JSON.stringify(log.slice(-50)));
  renderLog();
}

export function renderLog() {
  var box = document.getElementById("device-log");
  if (!box) { return; }
  var log = load(keys.log, []);
  box.hidden = !log.length;
  var list = box.querySelector("ol");
  list.innerHTML = "";
  log.slice().reverse().forEach(function (entry) {
    var li = document.createElement("li");
    li.textContent = new Date(entry.at).toLocaleTimeString(cfg.lang) + " · " + entry.text;
    list.appendChild(li);
  });
}
