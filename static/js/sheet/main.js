/* Stichliste tablet sheet.
 *
 * Builds a deal record from the game's form, shows its value before saving (the API's
 * preview), and saves it through the API with an Idempotency-Key.
 *
 * A new deal moves through named states: draft (the form, kept on the device while it is
 * typed) → queued (kept in localStorage, in order) → sending → stored, or refused.
 * - Online, a deal saved from the form is sent at once; when the server refuses it, it
 *   leaves the queue again and the form keeps it with the errors at the fields.
 * - Offline, deals queue in order. When the server refuses one on sending, sending stops
 *   there: the form opens that deal (its own number and dealer) with the errors, and the
 *   deals after it wait, visibly, until it is fixed or discarded (discarding asks and is
 *   written to this device's history).
 * A retry carries the same key, so a deal whose answer was lost is stored once. The sheet
 * polls its list with the table's ETag, so a second device at the table sees new deals.
 */

import {call, newKey, setOnline} from "./api.js";
import {cfg, form, keys, load, strings} from "./context.js";
import {
  addRow, applyHints, applyShowIf, clearErrors, collect, fill, hintsFor, rawValue, resetForm,
  setMatadors, showErrors, updateCounts,
} from "./form.js";
import {previewNumber, schedulePreview} from "./preview.js";
import {refreshVoice} from "./voice.js";
import {
  note, nextNumber, queue, renderLog, renderPending, renumber, saveQueue, serverCount, setState,
  sheetTable,
} from "./queue.js";

let editing = null; // {number, etag} while a stored deal is corrected
let fixing = null;  // the key of the refused queued deal open in the form
let flushing = false;
let conflictKey = null; // the queued deal whose number another device has taken meanwhile

previewNumber(function () {
  if (editing) { return editing.number; }
  if (fixing) { var item = queue().find(function (x) { return x.key === fixing; }); return item ? item.number : null; }
  return nextNumber();
});

/* The draft names the deal it is for: once a deal of that number is stored (here, or on
 * another device while this one was closed), the draft is that deal's and goes. */
function saveDraft() {
  if (!form || editing) { return; }
  localStorage.setItem(keys.draft, JSON.stringify({fixing: fixing, number: fixing ? null : nextNumber(),
                                                   record: collect()}));
}

function dropDraft() { localStorage.removeItem(keys.draft); }

// ------------------------------------------------------------------ sending

/* Send the queue's head deals in order. ``direct`` is true when the head is the deal the
 * player has just saved from the form while online: a refusal then goes back to the
 * form instead of into the queue. */
async function flush(direct) {
  if (flushing) { return; }
  flushing = true;
  try {
    for (;;) {
      var items = queue();
      var item = items[0];
      if (!item || item.state === "refused" || item.state === "conflict") { break; }
      item.state = "sending";
      saveQueue(items);
      var resp;
      try {
        resp = await call("POST", "deals/", Object.assign({number: item.number}, item.record),
                          {"Idempotency-Key": item.key});
      } catch (e) {
        resp = null;
      }
      if (!resp || resp.status >= 500) {  // no answer: the deal waits, same key
        setState(item.key, {state: "queued"});
        if (!resp) { setOnline(false); }
        if (direct) { resetForm(); dropDraft(); }
        break;
      }
      setOnline(true);
      if (resp.status === 201 || resp.status === 200) {
        saveQueue(queue().filter(function (x) { return x.key !== item.key; }));
        if (direct) { resetForm(); dropDraft(); direct = false; }
        await refreshSheet(true);
        continue;
      }
      var body = await resp.json().catch(function () { return {}; });
      if (direct && resp.status !== 409) {
        // Leave the queue before the list is re-read: while it waits there, the next
        // number (and its hints: cards, bidding order) would move on and rebuild the form.
        saveQueue(queue().filter(function (x) { return x.key !== item.key; }));
      }
      if (resp.status === 409 || resp.status === 400) { await refreshSheet(true); }
      if (resp.status === 409 && serverCount() >= item.number) {
        // Another device stored this number first. Never renumber silently: keep the
        // entry, show both versions, and let the players decide.
        setState(item.key, {state: "conflict", errors: null});
        if (direct) { resetForm(); dropDraft(); }
        showConflict(item.key);
        break;
      }
      if (direct) {
        // Never queued for the player: the form still holds it; show why at the fields.
        saveQueue(queue().filter(function (x) { return x.key !== item.key; }));
        showErrors(body);
        saveDraft();
        break;
      }
      setState(item.key, {state: "refused", errors: body});
      openRefused(item.key);
      break;
    }
  } finally {
    flushing = false;
    updateNext();
  }
}


// ------------------------------------------------------------------ two devices, one number

function cell(row, text) {
  var td = document.createElement(row.children.length ? "td" : "th");
  if (!row.children.length) { td.scope = "row"; }
  td.textContent = text;
  row.appendChild(td);
}

function signed(n) { return n === null || n === undefined ? "–" : (n > 0 ? "+" + n : String(n)); }

async function scoresOf(method, path, body) {
  try {
    var resp = await call(method, path, body);
    if (!resp.ok) { return null; }
    return (await resp.json()).scores || null;
  } catch (e) {
    return null;
  }
}

/* Show the stored deal and this device's entry side by side, per player. */
async function showConflict(key) {
  var item = queue().find(function (x) { return x.key === key; });
  var box = document.getElementById("conflict");
  if (!item || !box) { return; }
  if (editing) { stopEditing(); }
  conflictKey = key;
  var n = item.number;
  var next = serverCount() + 1;
  document.getElementById("conflict-text").textContent = strings.conflictText.split("{n}").join(n);
  document.getElementById("conflict-stored-head").textContent = strings.conflictStored.replace("{n}", n);
  document.getElementById("conflict-next-number").textContent = next;
  document.getElementById("entry").hidden = true;
  box.hidden = false;
  var rows = document.getElementById("conflict-rows");
  rows.innerHTML = "";
  var stored = await scoresOf("GET", "deals/" + n + "/");
  var mine = await scoresOf("POST", "preview/", Object.assign({}, item.record, {number: next}));
  var words = document.querySelector('#sheet tr[data-number="' + n + '"] .words');
  if (words) {
    var gameRow = document.createElement("tr");
    cell(gameRow, strings.gameLabel);
    cell(gameRow, words.textContent.trim());
    cell(gameRow, "");
    rows.appendChild(gameRow);
  }
  cfg.seats.forEach(function (seat, i) {
    var tr = document.createElement("tr");
    cell(tr, seat.name);
    cell(tr, stored ? signed(stored[i]) : "–");
    cell(tr, mine ? signed(mine[i]) : "–");
    if (stored && mine && stored[i] !== mine[i]) { tr.className = "differs"; }
    rows.appendChild(tr);
  });
  box.scrollIntoView({block: "start"});
}

function settleConflict(keep) {
  var item = queue().find(function (x) { return x.key === conflictKey; });
  conflictKey = null;
  document.getElementById("conflict").hidden = true;
  if (!item) { updateNext(); return; }
  var items;
  if (keep) {
    // A new key: the same key with another number would be refused as a different body.
    var fresh = newKey();
    items = queue();
    items.forEach(function (x) { if (x.key === item.key) { Object.assign(x, {state: "queued", key: fresh}); } });
    items = renumber(items);
    var moved = items.find(function (x) { return x.key === fresh; });
    note(strings.conflictMoved.replace("{n}", item.number).replace("{m}", moved.number));
  } else {
    items = renumber(queue().filter(function (x) { return x.key !== item.key; }));
    note(strings.conflictDiscarded.replace("{n}", item.number));
  }
  saveQueue(items);
  updateNext();
  flush(false);
}

function openRefused(key) {
  var item = queue().find(function (x) { return x.key === key; });
  if (!item || !form) { return; }
  if (editing) { stopEditing(); }
  var draft = load(keys.draft, null);
  if (!fixing && draft && !draft.fixing) {  // a deal being typed waits until this one is settled
    localStorage.setItem(keys.parked, JSON.stringify(draft));
  }
  fixing = key;
  showMode("fix", item.number);
  var h = hintsFor(item.number);
  if (h) { applyHints(h); }
  fill(item.record);
  showErrors(item.errors);
  document.getElementById("entry").hidden = false;
}

function discardRefused() {
  var item = queue().find(function (x) { return x.key === fixing; });
  if (!item || !window.confirm(strings.discardConfirm.replace("{n}", item.number))) { return; }
  note(strings.discarded.replace("{n}", item.number));
  fixing = null;
  saveQueue(renumber(queue().filter(function (x) { return x.key !== item.key; })));
  showMode("new");
  resetForm();
  dropDraft();
  unpark();
  updateNext();
  flush(false);
}

function unpark() {
  var parked = load(keys.parked, null);
  localStorage.removeItem(keys.parked);
  if (parked && parked.record) {
    fill(parked.record);
    localStorage.setItem(keys.draft, JSON.stringify({fixing: null, number: nextNumber(), record: parked.record}));
  }
}

// ------------------------------------------------------------------ the sheet list

// The page embeds the list at this version: its first re-read is a 304 unless a deal
// moved in between (or the page is an older offline copy), and a row being tapped is
// not replaced by an identical one under the finger.
let listTag = cfg.listTag || null;

/* Re-read the sheet's list; ``force`` skips the conditional request. A 304 costs the
 * server one small query, so devices poll it while the page is visible. */
/* The list is being re-read: aria-busy on it until the answer is shown (or none came). */
var refreshing = 0;

async function refreshSheet(force) {
  var sheet = document.getElementById("sheet");
  refreshing += 1;
  sheet.setAttribute("aria-busy", "true");
  try {
    await reread(force);
  } finally {
    refreshing -= 1;
    sheet.setAttribute("aria-busy", String(refreshing > 0));
  }
}

async function reread(force) {
  var extra = listTag && !force ? {"If-None-Match": listTag} : {};
  var resp;
  try {
    resp = await fetch(cfg.sheetUrl, {credentials: "same-origin", headers: extra, cache: "no-store"});
  } catch (e) {
    return;
  }
  if (resp.status === 304 || !resp.ok) { return; }
  listTag = resp.headers.get("ETag");
  // A deal another device stored is shown at once; a deal of this device that waits
  // under a number now taken is refused by the server (409) and opens for the players
  // to decide (save it as the next deal, or discard it as entered twice).
  document.getElementById("sheet").innerHTML = await resp.text();
  updateNext();
}

function updateNext() {
  var t = sheetTable();
  var complete = t && t.dataset.complete === "1";
  var pending = queue().length;
  var number = nextNumber();
  var entry = document.getElementById("entry");
  var done = number > cfg.sheetLength || complete;
  if (entry && !editing && !fixing) { entry.hidden = conflictKey ? true : (done && !pending ? true : done); }
  var confirm = document.getElementById("confirm");
  if (confirm) { confirm.hidden = !(complete && !pending); }
  var numberEl = document.getElementById("deal-number");
  if (numberEl) { numberEl.textContent = number; }
  if (fixing) { return; }
  var hints = editing ? storedHints(editing.number) : hintsFor(number);
  if (hints) { applyHints(hints); }
}


// ------------------------------------------------------------------ saving

async function saveRecord(record) {
  clearErrors();
  if (editing) {
    var resp;
    try {
      // why, beside the record (optional; the players see it among their score's changes)
      var reason = document.getElementById("correction-reason");
      var body = reason && reason.value.trim() ? Object.assign({}, record, {reason: reason.value.trim()}) : record;
      resp = await call("PUT", "deals/" + editing.number + "/", body, {"If-Match": editing.etag});
    } catch (e) {
      showErrors({errors: [{field: "deal", message: strings.correctOffline}]});
      return;
    }
    if (resp.ok) { stopEditing(); await refreshSheet(true); return; }
    if (resp.status === 409 || resp.status === 412) { await refreshSheet(true); }
    showErrors(await resp.json().catch(function () { return {}; }));
    return;
  }
  var items = queue();
  if (fixing) {
    // The corrected deal takes its place at the head again, under a new key.
    items.forEach(function (x) {
      if (x.key === fixing) { Object.assign(x, {record: record, state: "queued", errors: null, key: newKey()}); }
    });
    fixing = null;
    showMode("new");
    saveQueue(renumber(items));
    resetForm();
    dropDraft();
    unpark();
    updateNext();
    await flush(false);
    return;
  }
  items.push({key: newKey(), number: nextNumber(), record: record, state: "queued"});
  saveQueue(items);
  if (items.length === 1 && navigator.onLine !== false) {
    await flush(true);  // the form keeps the deal until the server stored or refused it
    return;
  }
  resetForm();
  dropDraft();
  updateNext();
  await flush(false);
}

function showMode(mode, number) {
  document.querySelector("[data-mode-new]").hidden = mode !== "new";
  document.querySelectorAll("[data-mode-edit]").forEach(function (el) { el.hidden = mode !== "edit"; });
  document.querySelectorAll("[data-mode-fix]").forEach(function (el) { el.hidden = mode !== "fix"; });
  if (mode === "edit") { document.getElementById("edit-number").textContent = number; }
  if (mode === "fix") { document.getElementById("fix-number").textContent = number; }
  document.getElementById("cancel-edit").hidden = mode !== "edit";
  var discard = document.getElementById("discard-refused");
  if (discard) { discard.hidden = mode !== "fix"; }
}

/* The hints of a stored deal (its dealer greyed, its seats in play) come with its row of
 * the list; the page's plan only holds the deals still to come. */
function storedHints(number) {
  var row = document.querySelector('#sheet tr.deal-row[data-number="' + number + '"]');
  if (row && row.dataset.hints) {
    try { return JSON.parse(row.dataset.hints); } catch (e) { /* fall back to the plan */ }
  }
  return hintsFor(number);
}

function startEditing(row) {
  if (fixing) { return; }  // a refused deal is open: fix or discard it first
  editing = {number: Number(row.dataset.number), etag: row.dataset.etag};
  document.getElementById("entry").hidden = false;
  showMode("edit", editing.number);
  var h = storedHints(editing.number);
  if (h) { applyHints(h); }
  fill(JSON.parse(row.dataset.record));
  document.getElementById("entry").scrollIntoView({behavior: "smooth"});
}

function stopEditing() {
  editing = null;
  var reason = document.getElementById("correction-reason");
  if (reason) { reason.value = ""; }
  showMode("new");
  resetForm();
  updateNext();
}

// ------------------------------------------------------------------ events

if (form) {
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b) { return; }
    if (b.dataset.step && b.closest("[data-type=matadors]")) {
      setMatadors(b.closest("[data-type=matadors]"), Number(b.dataset.step), rawValue("game"));
    } else if (b.dataset.step) {
      var input = b.parentElement.querySelector("input");
      var v = (input.value === "" ? Number(input.min || 0) : Number(input.value)) + Number(b.dataset.step);
      input.value = Math.max(Number(input.min), Math.min(Number(input.max), v));
    } else if (b.getAttribute("role") === "radio") {
      b.parentElement.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-checked", String(x === b)); });
      updateCounts(b.closest(".seat-counts"));
    } else if (b.classList.contains("add-row")) {
      addRow(b.closest("[data-type=rows]"));
    } else if (b.classList.contains("remove-row")) {
      b.closest("[data-row]").remove();
    } else if (b.classList.contains("passed-button")) {
      saveRecord(JSON.parse(b.dataset.record));
      return;
    } else if (b.id === "cancel-edit") {
      stopEditing();
      return;
    } else if (b.id === "discard-refused") {
      discardRefused();
      return;
    } else {
      return;
    }
    schedulePreview();
    saveDraft();
  });
  form.addEventListener("change", function (ev) {
    var pair = ev.target.closest("[data-type=pair]");
    if (pair && pair.dataset.total && ev.target.dataset.index !== undefined) {
      var other = pair.querySelector('[data-index="' + (1 - Number(ev.target.dataset.index)) + '"]');
      other.value = Number(pair.dataset.total) - Number(ev.target.value);
    }
    applyShowIf();
    schedulePreview();
    saveDraft();
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    saveRecord(collect());
  });
}

document.getElementById("sheet").addEventListener("click", async function (ev) {
  var del = ev.target.closest(".delete-last");
  if (del) {
    ev.stopPropagation();
    if (!window.confirm(strings.deleteConfirm)) { return; }
    var row = del.closest("tr");
    var resp = await call("DELETE", "deals/" + row.dataset.number + "/", undefined, {"If-Match": row.dataset.etag});
    if (resp.ok) { await refreshSheet(); }
    return;
  }
  var tr = ev.target.closest("tr.deal-row");
  if (tr && form && (!cfg.submitted || cfg.staff)) { startEditing(tr); }
});

document.getElementById("pending").addEventListener("click", function (ev) {
  var li = ev.target.closest("li.refused");
  if (li) { openRefused(li.dataset.key); }
  var twice = ev.target.closest("li.conflict");
  if (twice) { showConflict(twice.dataset.key); }
});

if (document.getElementById("conflict")) {
  document.getElementById("conflict-discard").addEventListener("click", function () { settleConflict(false); });
  document.getElementById("conflict-next").addEventListener("click", function () { settleConflict(true); });
}

window.addEventListener("online", function () { setOnline(true); flush(false); });
window.addEventListener("offline", function () { setOnline(false); });
window.addEventListener("focus", function () { refreshSheet(false); });
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible") { refreshSheet(false); }
});
setInterval(function () {
  if (document.visibilityState === "visible" && !flushing) { refreshSheet(false); refreshVoice(); }
}, 5000);
setInterval(function () { if (queue().length) { flush(false); } }, 10000);

// A reload or a browser restart resumes where the device was: a deal that was being
// sent waits again (same key), a refused one opens in the form, a draft is restored.
saveQueue(queue().map(function (x) {
  return Object.assign(x, {state: x.state === "sending" ? "queued" : (x.state || (x.refused ? "refused" : "queued"))});
}));
renderLog();
if (form) { applyShowIf(); }
updateNext();
var head = queue()[0];
var draft = load(keys.draft, null);
if (draft && !draft.fixing && draft.number && draft.number <= serverCount()) {
  dropDraft();  // its deal is stored: the next one starts from an empty form
  draft = null;
}
if (form && head && head.state === "conflict") {
  showConflict(head.key);
} else if (form && head && head.state === "refused") {
  openRefused(head.key);
  if (draft && draft.fixing === head.key) { fill(draft.record); }
} else if (form && draft && draft.record && !draft.fixing) {
  fill(draft.record);
}
refreshSheet(false);  // a page reopened from the offline copy may be older than its list
flush(false);

// Offline reopening: the service worker (HTTPS or localhost only) keeps this page, its
// list, scripts and styles. What loaded before it took over is fetched once more
// through it, so the very first visit can already be reopened without a network.
function controlled() {
  if (navigator.serviceWorker.controller) { return Promise.resolve(); }
  return new Promise(function (resolve) {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true});
  });
}
if ("serviceWorker" in navigator && window.isSecureContext && cfg.serviceWorker) {
  navigator.serviceWorker.register(cfg.serviceWorker, {scope: "/"})
    .then(function () { return navigator.serviceWorker.ready; })
    .then(controlled)
    .then(function () {
      var urls = Array.from(document.querySelectorAll("script[src], link[rel=stylesheet]"),
                            function (el) { return el.src || el.href; });
      urls.push(location.pathname, cfg.sheetUrl);
      return Promise.all(urls.map(function (u) { return fetch(u, {credentials: "same-origin"}); }));
    })
    .then(function () { document.body.dataset.offlineReady = "1"; })
    .catch(function () { /* no offline copy: the page still works online */ });
}
