/* The entry form: the hints for a deal number (dealer, seats in play, cards), the bid and
 * trick counters, reading a record from the form and filling the form from one, and the
 * errors at the fields. A dotted field name ("extras.re.fuchs") is a field of an object
 * field: read into and filled from the nested object. */

import {cfg, form, strings} from "./context.js";

/* The hints of deal ``number``: a stored deal's from its row of the list, the next
 * deal's from the list (both re-read with the list), else the page's plan; a deal whose
 * hints depend on deals not stored yet (Doppelkopf offline: a Pflichtsolo keeps the
 * dealer) gets none known — no dealer marked, every seat in play, nothing due — rather
 * than another deal's. */
export function hintsFor(number) {
  var t = document.querySelector("#sheet table.paper-list");
  if (t) {
    var row = t.querySelector('tr.deal-row[data-number="' + number + '"]');
    if (row && row.dataset.hints) { return JSON.parse(row.dataset.hints); }
    var next = t.dataset.next ? JSON.parse(t.dataset.next) : null;
    if (next && next.number === number) { return next; }
  }
  return cfg.plan.find(function (h) { return h.number === number; }) ||
    {number: number, dealer: null, active_seats: cfg.seats.map(function (s) { return s.seat; }), due: null};
}

export function seatName(seat) {
  var s = cfg.seats.find(function (x) { return x.seat === seat; });
  return s ? s.name : String(seat);
}

export function applyHints(h) {
  document.querySelectorAll(".seats li").forEach(function (li) {
    li.classList.toggle("dealer", Number(li.dataset.seat) === h.dealer);
  });
  document.querySelectorAll("[data-seat-option]").forEach(function (label) {
    var seat = Number(label.dataset.seatOption);
    var out = h.active_seats.indexOf(seat) < 0;
    label.classList.toggle("inactive", out);
    label.querySelector("input").disabled = out;
  });
  // a seat the hints name (data-hint-seat="due"): shown with the seat's name, else hidden
  document.querySelectorAll("[data-hint-seat]").forEach(function (el) {
    var seat = h[el.dataset.hintSeat];
    el.hidden = seat === null || seat === undefined;
    var out = el.querySelector("output");
    if (out && !el.hidden) { out.textContent = seatName(seat); }
  });
  if (h.cards !== undefined) {
    form.querySelectorAll("[data-field=cards]").forEach(function (el) { el.dataset.value = h.cards; });
    form.querySelectorAll(".seat-counts").forEach(function (set) { buildCounts(set, h); });
  }
}

export function buildCounts(set, h) {
  var rows = set.querySelectorAll(".count-row");
  var bySeat = {};
  rows.forEach(function (row) { bySeat[row.dataset.seat] = row; });
  h.bidding_order.forEach(function (seat) {
    var row = bySeat[seat];
    set.insertBefore(row, set.querySelector(":scope > .field-error"));
    var box = row.querySelector(".count-buttons");
    if (Number(box.dataset.cards) === h.cards) { return; }
    var kept = chosen(row);  // a tap survives a rebuild: only an emptied form forgets it
    box.dataset.cards = h.cards;
    box.innerHTML = "";
    for (var v = 0; v <= h.cards; v++) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(v === kept));
      b.dataset.value = v;
      b.textContent = v;
      box.appendChild(b);
    }
  });
  set.dataset.last = h.bidding_order[h.bidding_order.length - 1];
  set.dataset.total = h.forbidden_total === null || h.forbidden_total === undefined ? "" : h.forbidden_total;
  updateCounts(set);
}

export function chosen(row) {
  var b = row.querySelector("[aria-checked=true]");
  return b ? Number(b.dataset.value) : null;
}

export function updateCounts(set) {
  var rows = Array.from(set.querySelectorAll(".count-row"));
  var cards = Number(rows[0].querySelector(".count-buttons").dataset.cards);
  var values = rows.map(chosen);
  var sum = values.reduce(function (a, v) { return a + (v || 0); }, 0);
  var countdown = set.querySelector("[data-countdown-for]");
  if (countdown && !countdown.hidden) {
    var left = cards - sum;
    // More tricks entered than cards dealt is an error, not a count to go.
    countdown.textContent = left < 0 ? strings.tooMany.replace("{n}", -left) : strings.left + ": " + left;
    countdown.classList.toggle("over", left < 0);
  }
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

export function visible(el) { return !el.closest("[hidden]"); }

export function rawValue(name) {
  var el = form.querySelector('[data-field="' + name + '"]');
  if (!el) { return ""; }
  if (el.dataset.type === "bool") { return el.querySelector("input").checked ? "true" : "false"; }
  var c = el.querySelector("input:checked");
  return c ? c.value : "";
}

/* A field that does not apply to the game chosen is hidden, never sent, and emptied: a
 * value typed for another game (or left in a restored draft) cannot come back into a
 * later deal when the field shows again. */
function emptyField(el) {
  el.querySelectorAll("input").forEach(function (input) {
    if (input.type === "checkbox" || input.type === "radio") { input.checked = input.defaultChecked; }
    else { input.value = input.defaultValue; }
    delete input.dataset.tap;
  });
  el.querySelectorAll("[aria-checked=true]").forEach(function (b) { b.setAttribute("aria-checked", "false"); });
  el.querySelectorAll(".row-list").forEach(function (l) { l.innerHTML = ""; });
  el.querySelectorAll("[data-type=matadors] output").forEach(function (o) { o.dataset.value = 1; });
  el.querySelectorAll(".tap-order").forEach(function (m) { m.textContent = ""; });
}

export function applyShowIf() {
  form.querySelectorAll("[data-show-if]").forEach(function (el) {
    var parts = el.dataset.showIf.split(":");
    el.hidden = parts[1].split(",").indexOf(rawValue(parts[0])) < 0;
    if (el.hidden) { emptyField(el); }
  });
  // a row's input that belongs to one kind of row only ("kind:minor"): the penalty's sub-fields
  form.querySelectorAll("[data-row] [data-row-if]").forEach(function (el) {
    var parts = el.dataset.rowIf.split(":");
    var by = el.closest("[data-row]").querySelector('[data-key="' + parts[0] + '"]');
    el.hidden = !by || parts[1].split(",").indexOf(by.value) < 0;
  });
  var game = rawValue("game");
  form.querySelectorAll("[data-type=matadors]").forEach(function (el) { setMatadors(el, 0, game); });
}

// A stepper's bound: data-max, or the bound data-max-by gives for the value of the field it
// depends on ("grand:4"); the page renders both from the game's record description.
export function boundFor(el, value) {
  var max = Number(el.dataset.max);
  (el.dataset.maxBy || "").split(",").forEach(function (pair) {
    var p = pair.split(":");
    if (p.length === 2 && p[0] === value) { max = Number(p[1]); }
  });
  return max;
}

export function setMatadors(el, step, game) {
  var out = el.querySelector("output");
  var max = boundFor(el, game);
  var v = Number(out.dataset.value) + step;
  if (v === 0) { v += step; }
  v = Math.max(-max, Math.min(max, v)) || 1;
  out.dataset.value = v;
  out.textContent = (v > 0 ? strings.mit : strings.ohne) + " " + Math.abs(v);
}

function setPath(rec, name, v) {
  var parts = name.split(".");
  var node = rec;
  parts.slice(0, -1).forEach(function (p) { node = node[p] = node[p] || {}; });
  node[parts[parts.length - 1]] = v;
}

function flatten(record, prefix, out) {
  Object.keys(record).forEach(function (k) {
    var v = record[k];
    var name = prefix + k;
    if (v && typeof v === "object" && !Array.isArray(v) &&
        !form.querySelector('[data-field="' + name + '"]')) {
      flatten(v, name + ".", out);
    } else { out[name] = v; }
  });
  return out;
}

export function collect() {
  var rec = {};
  form.querySelectorAll("[data-field]").forEach(function (el) {
    var t = el.dataset.type;
    if (!visible(el) || t === "mode") { return; }
    var c;
    var v;
    if (t === "seat" || t === "choice" || t === "seat-or-null" || t === "bool-choice") {
      c = el.querySelector("input:checked");
      if (!c || (t === "choice" && c.value === "")) { return; }
      v = c.value;
      if (t === "seat") { v = Number(v); }
      if (t === "seat-or-null") { v = v === "" ? null : Number(v); }
      if (t === "bool-choice") { v = v === "true"; }
    } else if (t === "seats") {
      v = tapped(el).map(function (i) { return Number(i.value); });
      if (!v.length) { return; }
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
        row.querySelectorAll("[data-key]").forEach(function (s) {
          if (s.value === "" || s.hidden) { return; } // "—" or not this kind's: not given
          o[s.dataset.key] = s.dataset.int ? Number(s.value) : s.dataset.bool ? s.value === "true" : s.value;
        });
        return o;
      });
    }
    setPath(rec, el.dataset.field, v);
  });
  return rec;
}

/* A seats field whose order means something (data-ordered: the engine's positional
 * items, as Doppelkopf's Hochzeiter before his partner) keeps the order of the taps,
 * numbered at the names; any other seats field reads in seat order. */
function tapped(el) {
  var boxes = Array.from(el.querySelectorAll("input:checked"));
  if (el.dataset.ordered === undefined) { return boxes; }
  return boxes.sort(function (a, b) { return Number(a.dataset.tap || 1e9) - Number(b.dataset.tap || 1e9); });
}

function showTaps(el) {
  if (el.dataset.ordered === undefined) { return; }
  var order = tapped(el);
  el.querySelectorAll("input").forEach(function (i) {
    var at = order.indexOf(i);
    if (at >= 0) { i.dataset.tap = at + 1; } else { delete i.dataset.tap; }
    var mark = i.parentElement.querySelector(".tap-order");
    if (mark) { mark.textContent = at >= 0 && order.length > 1 ? (at + 1) + "." : ""; }
  });
}

if (form) {
  form.addEventListener("change", function (ev) {
    var el = ev.target.closest("[data-type=seats][data-ordered]");
    if (!el) { return; }
    if (ev.target.checked) { ev.target.dataset.tap = Date.now(); } else { delete ev.target.dataset.tap; }
    showTaps(el);
  });
}

export function resetForm() {
  form.reset();
  form.querySelectorAll("[data-type=seats][data-ordered]").forEach(function (el) {
    el.querySelectorAll("input").forEach(function (i) { delete i.dataset.tap; });
    showTaps(el);
  });
  form.querySelectorAll("[aria-checked=true]").forEach(function (b) { b.setAttribute("aria-checked", "false"); });
  form.querySelectorAll(".row-list").forEach(function (l) { l.innerHTML = ""; });
  form.querySelectorAll("[data-type=matadors] output").forEach(function (o) { o.dataset.value = 1; });
  clearErrors();
  document.getElementById("preview").textContent = "";
  applyShowIf();
  form.querySelectorAll(".seat-counts").forEach(updateCounts);
}

export function fill(record) {
  resetForm();
  form.querySelectorAll("[data-type=mode] input").forEach(function (input) {
    input.checked = input.value === (record.ramsch ? "ramsch" : "game");
  });
  var flat = flatten(record, "", {});
  Object.keys(flat).forEach(function (name) {
    var el = form.querySelector('[data-field="' + name + '"]');
    var v = flat[name];
    if (!el || v === undefined) { return; }
    var t = el.dataset.type;
    if (t === "bool") { el.querySelector("input").checked = v === true; }
    else if (t === "int") { el.querySelector("input").value = v === null ? "" : v; }
    else if (t === "matadors") { el.querySelector("output").dataset.value = v || 1; }
    else if (t === "seats") {
      el.querySelectorAll("input").forEach(function (input) {
        var at = (v || []).indexOf(Number(input.value));
        input.checked = at >= 0;
        if (at >= 0) { input.dataset.tap = at + 1; } else { delete input.dataset.tap; }
      });
      showTaps(el);
    }
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
        row.querySelectorAll("[data-key]").forEach(function (s) {
          var x = obj[s.dataset.key];
          s.value = x === undefined || x === null || x === false ? "" : String(x);
        });
      });
    } else if (t !== "const") {
      var value = v === null ? "" : String(v);
      el.querySelectorAll("input").forEach(function (input) { input.checked = input.value === value; });
    }
  });
  applyShowIf();
  form.querySelectorAll(".seat-counts").forEach(updateCounts);
}

export function addRow(fieldset) {
  var row = fieldset.querySelector("template").content.firstElementChild.cloneNode(true);
  fieldset.querySelector(".row-list").appendChild(row);
  applyShowIf();
  return row;
}

export function clearErrors() {
  document.querySelectorAll("[data-error-for]").forEach(function (el) { el.textContent = ""; });
}

/* A message names its field ("Tricks of Anna: please enter it.") unless it already does
 * ("The tricks must add up to 5."): the label is the one the form shows for the field. */
function named(target, message) {
  var label = (target.dataset.label || "").trim();
  if (!label) { return message; }
  // the label as a whole word of the message ("Re" is no part of "erforderlich")
  var escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  var said = new RegExp("(^|[^\\p{L}])" + escaped + "($|[^\\p{L}])", "iu");
  return said.test(String(message)) ? message : label + ": " + message;
}

export function showErrors(body) {
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
    target.textContent = (target.textContent ? target.textContent + " " : "") + named(target, e.message);
  });
}
