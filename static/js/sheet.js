/* Stichliste tablet sheet.
 *
 * Builds a deal record from the game's form, shows its value before saving (the API's
 * preview), and saves it through the API with an Idempotency-Key. Every new deal goes
 * through a queue kept in localStorage: while the tablet is offline the deal waits
 * there, shown as pending, and is sent when the connection returns. A retry carries the
 * same key, so the server stores it once however often it is sent.
 */
(function () {
  "use strict";

  var cfg = JSON.parse(document.getElementById("sheet-config").textContent);
  var form = document.getElementById("deal-form");
  var api = cfg.api;
  var queueKey = "stichliste:queue:" + cfg.tableId;
  var strings = {};
  document.getElementById("strings").content.querySelectorAll("[data-s]").forEach(function (el) {
    strings[el.dataset.s] = el.textContent;
  });
  var editing = null; // {number, etag} while a deal is corrected
  var flushing = false;
  var previewTimer = null;

  // ------------------------------------------------------------------ helpers

  function cookie(name) {
    var m = document.cookie.match("(^|;)\\s*" + name + "=([^;]*)");
    return m ? decodeURIComponent(m[2]) : "";
  }

  function headers(extra) {
    var h = {"Content-Type": "application/json", "Accept-Language": cfg.lang};
    if (cfg.token) { h.Authorization = "Table " + cfg.token; }
    else { h["X-CSRFToken"] = cookie("csrftoken"); }
    return Object.assign(h, extra || {});
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function call(method, path, body, extra) {
    return fetch(api + path, {method: method, headers: headers(extra), credentials: "same-origin",
                              body: body === undefined ? undefined : JSON.stringify(body)});
  }

  function setOnline(online) {
    var el = document.getElementById("net-status");
    el.textContent = online ? el.dataset.online : el.dataset.offline;
    el.classList.toggle("offline", !online);
  }

  // ------------------------------------------------------------------ the queue

  function queue() {
    try { return JSON.parse(localStorage.getItem(queueKey)) || []; } catch (e) { return []; }
  }

  function saveQueue(items) {
    localStorage.setItem(queueKey, JSON.stringify(items));
    renderPending();
  }

  function sheetTable() { return document.querySelector("#sheet table"); }
  function serverCount() { var t = sheetTable(); return t ? Number(t.dataset.count) : 0; }
  function nextNumber() { return serverCount() + queue().length + 1; }

  function hintsFor(number) {
    return cfg.plan.find(function (h) { return h.number === number; }) || null;
  }

  function seatName(seat) {
    var s = cfg.seats.find(function (x) { return x.seat === seat; });
    return s ? s.name : String(seat);
  }

  function renderPending() {
    var list = document.getElementById("pending");
    list.innerHTML = "";
    queue().forEach(function (item) {
      var li = document.createElement("li");
      li.className = item.refused ? "refused" : "waiting";
      li.dataset.key = item.key;
      li.textContent = "#" + item.number + " · " + (item.refused ? strings.refused : strings.pending);
      if (item.refused) { li.tabIndex = 0; }
      list.appendChild(li);
    });
  }

  async function flush() {
    if (flushing) { return; }
    flushing = true;
    try {
      for (;;) {
        var items = queue();
        var item = items[0];
        if (!item || item.refused) { break; }
        var resp;
        try {
          resp = await call("POST", "deals/", Object.assign({number: item.number}, item.record),
                            {"Idempotency-Key": item.key});
        } catch (e) {
          setOnline(false);
          break;
        }
        setOnline(true);
        if (resp.status === 201) {
          saveQueue(queue().filter(function (x) { return x.key !== item.key; }));
          await refreshSheet();
          continue;
        }
        var body = await resp.json().catch(function () { return {}; });
        items[0] = Object.assign({}, item, {refused: true, errors: body});
        saveQueue(items);
        break;
      }
    } finally {
      flushing = false;
      updateNext();
    }
  }

  // ------------------------------------------------------------------ the sheet list

  async function refreshSheet() {
    var resp = await fetch(cfg.sheetUrl, {credentials: "same-origin"});
    if (!resp.ok) { return; }
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
    if (entry && !editing) { entry.hidden = done && !pending ? true : done; }
    var confirm = document.getElementById("confirm");
    if (confirm) { confirm.hidden = !(complete && !pending); }
    var numberEl = document.getElementById("deal-number");
    if (numberEl) { numberEl.textContent = number; }
    var hints = hintsFor(editing ? editing.number : number);
    if (hints) { applyHints(hints); }
  }

  function applyHints(h) {
    document.querySelectorAll(".seats li").forEach(function (li) {
      li.classList.toggle("dealer", Number(li.dataset.seat) === h.dealer);
    });
    document.querySelectorAll("[data-seat-option]").forEach(function (label) {
      var seat = Number(label.dataset.seatOption);
      var out = h.active_seats.indexOf(seat) < 0;
      label.classList.toggle("inactive", out);
      label.querySelector("input").disabled = out;
    });
    if (h.cards !== undefined) {
      form.querySelectorAll("[data-field=cards]").forEach(function (el) { el.dataset.value = h.cards; });
      form.querySelectorAll(".seat-counts").forEach(function (set) { buildCounts(set, h); });
    }
  }

  // ------------------------------------------------------------------ bids and tricks

  function buildCounts(set, h) {
    var rows = set.querySelectorAll(".count-row");
    var bySeat = {};
    rows.forEach(function (row) { bySeat[row.dataset.seat] = row; });
    h.bidding_order.forEach(function (seat) {
      var row = bySeat[seat];
      set.insertBefore(row, set.querySelector(":scope > .field-error"));
      var box = row.querySelector(".count-buttons");
      if (Number(box.dataset.cards) === h.cards) { return; }
      box.dataset.cards = h.cards;
      box.innerHTML = "";
      for (var v = 0; v <= h.cards; v++) {
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("role", "radio");
        b.setAttribute("aria-checked", "false");
        b.dataset.value = v;
        b.textContent = v;
        box.appendChild(b);
      }
    });
    set.dataset.last = h.bidding_order[h.bidding_order.length - 1];
    set.dataset.total = h.forbidden_total === null || h.forbidden_total === undefined ? "" : h.forbidden_total;
    updateCounts(set);
  }

  function chosen(row) {
    var b = row.querySelector("[aria-checked=true]");
    return b ? Number(b.dataset.value) : null;
  }

  function updateCounts(set) {
    var rows = Array.from(set.querySelectorAll(".count-row"));
    var cards = Number(rows[0].querySelector(".count-buttons").dataset.cards);
    var values = rows.map(chosen);
    var sum = values.reduce(function (a, v) { return a + (v || 0); }, 0);
    var countdown = set.querySelector("[data-countdown-for]");
    if (countdown && !countdown.hidden) { countdown.textContent = strings.left + ": " + (cards - sum); }
    if (set.dataset.forbid && set.dataset.total !== "") {
      var lastRow = set.querySelector('.count-row[data-seat="' + set.dataset.last + '"]');
      var others = rows.filter(function (r) { return r !== lastRow; });
      var allOthers = others.every(function (r) { return chosen(r) !== null; });
      var forbidden = allOthers ? Number(set.dataset.total) - others.reduce(function (a, r) { return a + chosen(r); }, 0) : -1;
      lastRow.querySelectorAll("button").forEach(function (b) {
        var struck = Number(b.dataset.value) === forbidden;
        b.classList.toggle("struck", struck);
        b.disabled = struck;
        if (struck && b.getAttribute("aria-checked") === "true") { b.setAttribute("aria-checked", "false"); }
      });
    }
  }

  // ------------------------------------------------------------------ reading and filling the form

  function visible(el) { return !el.closest("[hidden]"); }

  function rawValue(name) {
    var el = form.querySelector('[data-field="' + name + '"]');
    if (!el) { return ""; }
    if (el.dataset.type === "bool") { return el.querySelector("input").checked ? "true" : "false"; }
    var c = el.querySelector("input:checked");
    return c ? c.value : "";
  }

  function applyShowIf() {
    form.querySelectorAll("[data-show-if]").forEach(function (el) {
      var parts = el.dataset.showIf.split(":");
      el.hidden = parts[1].split(",").indexOf(rawValue(parts[0])) < 0;
    });
    var game = rawValue("game");
    form.querySelectorAll("[data-type=matadors]").forEach(function (el) { setMatadors(el, 0, game); });
  }

  function setMatadors(el, step, game) {
    var out = el.querySelector("output");
    var max = game === "grand" ? 4 : 11;
    var v = Number(out.dataset.value) + step;
    if (v === 0) { v += step; }
    v = Math.max(-max, Math.min(max, v)) || 1;
    out.dataset.value = v;
    out.textContent = (v > 0 ? strings.mit : strings.ohne) + " " + Math.abs(v);
  }

  function collect() {
    var rec = {};
    form.querySelectorAll("[data-field]").forEach(function (el) {
      var t = el.dataset.type;
      if (!visible(el) || t === "mode") { return; }
      var c;
      var v;
      if (t === "seat" || t === "choice" || t === "seat-or-null" || t === "bool-choice") {
        c = el.querySelector("input:checked");
        if (!c) { return; }
        v = c.value;
        if (t === "seat") { v = Number(v); }
        if (t === "seat-or-null") { v = v === "" ? null : Number(v); }
        if (t === "bool-choice") { v = v === "true"; }
      } else if (t === "bool") {
        v = el.querySelector("input").checked;
        if (!v) { return; }
      } else if (t === "int") {
        c = el.querySelector("input");
        if (c.value === "") { return; }
        v = Number(c.value);
      } else if (t === "matadors") {
        v = Number(el.querySelector("output").dataset.value);
      } else if (t === "const") {
        v = JSON.parse(el.dataset.value);
      } else if (t === "seats-int") {
        v = cfg.seats.map(function (s) {
          return chosen(el.querySelector('.count-row[data-seat="' + s.seat + '"]'));
        });
      } else if (t === "pair") {
        v = Array.from(el.querySelectorAll("input"), function (i) { return i.value === "" ? null : Number(i.value); });
      } else if (t === "rows") {
        v = Array.from(el.querySelectorAll("[data-row]"), function (row) {
          var o = {};
          row.querySelectorAll("[data-key]").forEach(function (s) { o[s.dataset.key] = s.dataset.int ? Number(s.value) : s.value; });
          return o;
        });
      }
      rec[el.dataset.field] = v;
    });
    return rec;
  }

  function resetForm() {
    form.reset();
    form.querySelectorAll("[aria-checked=true]").forEach(function (b) { b.setAttribute("aria-checked", "false"); });
    form.querySelectorAll(".row-list").forEach(function (l) { l.innerHTML = ""; });
    form.querySelectorAll("[data-type=matadors] output").forEach(function (o) { o.dataset.value = 1; });
    clearErrors();
    document.getElementById("preview").textContent = "";
    applyShowIf();
    form.querySelectorAll(".seat-counts").forEach(updateCounts);
  }

  function fill(record) {
    resetForm();
    form.querySelectorAll("[data-type=mode] input").forEach(function (input) {
      input.checked = input.value === (record.ramsch ? "ramsch" : "game");
    });
    Object.keys(record).forEach(function (name) {
      var el = form.querySelector('[data-field="' + name + '"]');
      var v = record[name];
      if (!el || v === undefined) { return; }
      var t = el.dataset.type;
      if (t === "bool") { el.querySelector("input").checked = v === true; }
      else if (t === "int") { el.querySelector("input").value = v === null ? "" : v; }
      else if (t === "matadors") { el.querySelector("output").dataset.value = v || 1; }
      else if (t === "seats-int") {
        cfg.seats.forEach(function (s, i) {
          var row = el.querySelector('.count-row[data-seat="' + s.seat + '"]');
          row.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-checked", String(Number(b.dataset.value) === v[i])); });
        });
      } else if (t === "pair") {
        el.querySelectorAll("input").forEach(function (input, i) { input.value = v[i] === null ? "" : v[i]; });
      } else if (t === "rows") {
        (v || []).forEach(function (obj) {
          var row = addRow(el);
          row.querySelectorAll("[data-key]").forEach(function (s) { s.value = obj[s.dataset.key]; });
        });
      } else if (t !== "const") {
        var value = v === null ? "" : String(v);
        el.querySelectorAll("input").forEach(function (input) { input.checked = input.value === value; });
      }
    });
    applyShowIf();
    form.querySelectorAll(".seat-counts").forEach(updateCounts);
  }

  function addRow(fieldset) {
    var row = fieldset.querySelector("template").content.firstElementChild.cloneNode(true);
    fieldset.querySelector(".row-list").appendChild(row);
    return row;
  }

  // ------------------------------------------------------------------ errors and preview

  function clearErrors() {
    document.querySelectorAll("[data-error-for]").forEach(function (el) { el.textContent = ""; });
  }

  function showErrors(body) {
    clearErrors();
    var errors = (body && body.errors) || [];
    if (!errors.length && body) {
      Object.keys(body).forEach(function (k) {
        if (Array.isArray(body[k])) { errors.push({field: k, message: body[k].join(" ")}); }
      });
      if (body.detail) { errors.push({field: "deal", message: body.detail}); }
    }
    errors.forEach(function (e) {
      var path = String(e.field || "deal").split(".");
      var target = null;
      while (path.length && !target) {
        target = document.querySelector('[data-error-for="' + path.join(".") + '"]');
        path.pop();
      }
      target = target || document.querySelector('[data-error-for="deal"]');
      target.textContent = (target.textContent ? target.textContent + " " : "") + e.message;
    });
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 250);
  }

  async function preview() {
    var out = document.getElementById("preview");
    var number = editing ? editing.number : nextNumber();
    if (number > cfg.sheetLength) { return; }
    var resp;
    try {
      resp = await call("POST", "preview/", Object.assign({number: number}, collect()));
    } catch (e) {
      out.textContent = strings.offline;
      return;
    }
    var body = await resp.json().catch(function () { return {}; });
    if (resp.ok) {
      clearErrors();
      var parts = body.scores.map(function (s, i) { return s ? seatName(i + 1) + " " + (s > 0 ? "+" : "") + s : null; });
      out.textContent = strings.value + ": " + (parts.filter(Boolean).join(" · ") || "0");
    } else {
      out.textContent = "";
      showErrors(body);
    }
  }

  // ------------------------------------------------------------------ saving

  async function saveRecord(record) {
    if (editing) {
      var resp;
      try {
        resp = await call("PUT", "deals/" + editing.number + "/", record, {"If-Match": editing.etag});
      } catch (e) {
        showErrors({errors: [{field: "deal", message: strings.correctOffline}]});
        return;
      }
      if (resp.ok) { stopEditing(); await refreshSheet(); return; }
      showErrors(await resp.json().catch(function () { return {}; }));
      return;
    }
    var items = queue();
    items.push({key: newKey(), number: nextNumber(), record: record});
    saveQueue(items);
    resetForm();
    updateNext();
    await flush();
  }

  function startEditing(row) {
    editing = {number: Number(row.dataset.number), etag: row.dataset.etag};
    document.getElementById("entry").hidden = false;
    document.querySelector("[data-mode-new]").hidden = true;
    document.querySelector("[data-mode-edit]").hidden = false;
    document.getElementById("edit-number").textContent = editing.number;
    document.getElementById("cancel-edit").hidden = false;
    var h = hintsFor(editing.number);
    if (h) { applyHints(h); }
    fill(JSON.parse(row.dataset.record));
    document.getElementById("entry").scrollIntoView({behavior: "smooth"});
  }

  function stopEditing() {
    editing = null;
    document.querySelector("[data-mode-new]").hidden = false;
    document.querySelector("[data-mode-edit]").hidden = true;
    document.getElementById("cancel-edit").hidden = true;
    resetForm();
    updateNext();
  }

  function fixRefused(key) {
    var items = queue();
    var item = items.find(function (x) { return x.key === key; });
    if (!item) { return; }
    saveQueue(items.filter(function (x) { return x.key !== key; }));
    fill(item.record);
    showErrors(item.errors);
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
      } else {
        return;
      }
      schedulePreview();
    });
    form.addEventListener("change", function (ev) {
      var pair = ev.target.closest("[data-type=pair]");
      if (pair && pair.dataset.total && ev.target.dataset.index !== undefined) {
        var other = pair.querySelector('[data-index="' + (1 - Number(ev.target.dataset.index)) + '"]');
        other.value = Number(pair.dataset.total) - Number(ev.target.value);
      }
      applyShowIf();
      schedulePreview();
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
    if (li) { fixRefused(li.dataset.key); }
  });

  var confirmBox = document.getElementById("confirm");
  if (confirmBox) {
    confirmBox.addEventListener("change", function () {
      var boxes = confirmBox.querySelectorAll(".confirm-seat");
      document.getElementById("submit-sheet").disabled = !Array.from(boxes).every(function (b) { return b.checked; });
    });
    document.getElementById("submit-sheet").addEventListener("click", async function () {
      var resp = await call("POST", "submit/");
      if (resp.ok) { window.location.reload(); return; }
      var body = await resp.json().catch(function () { return {}; });
      document.querySelector('[data-error-for="submit"]').textContent =
        body.detail || (body.errors || []).map(function (e) { return e.message; }).join(" ");
    });
  }

  window.addEventListener("online", function () { setOnline(true); flush(); });
  window.addEventListener("offline", function () { setOnline(false); });
  setInterval(function () { if (queue().length) { flush(); } }, 10000);

  renderPending();
  if (form) { applyShowIf(); }
  updateNext();
  flush();
})();
