/* The players' voice: each confirms (the tablet: tap your name; a phone: its own seat),
 * the last confirmation submits; an objection holds the sheet until the director decides;
 * a call shows when it has been seen. Other devices' confirmations: refreshVoice. */

import {call} from "./api.js";
import {cfg, strings} from "./context.js";

var confirmBox = document.getElementById("confirm");
var confirmed = (cfg.confirmed || []).slice();
var voiceTag = null;
var callId = null;
var callTimer = null;
// One confirmation at a time, so that their answers come in the order they were sent: two
// players tapping at once must not see the first answer (one name) after the second (two).
var confirming = Promise.resolve();
// confirmations tapped so far: a poll that began before one may answer with the list before it
var confirmationsSent = 0;

function errorsOf(answer) {
  var out = {};
  (answer.errors || []).forEach(function (e) {
    out[e.field] = (out[e.field] ? out[e.field] + " " : "") + e.message;
  });
  if (!answer.errors && answer.detail) { out[""] = answer.detail; }
  return out;
}

function showErrorsIn(root, answer, fallback) {
  var errors = errorsOf(answer);
  root.querySelectorAll("[data-error-for]").forEach(function (el) {
    el.textContent = errors[el.dataset.errorFor] || "";
    delete errors[el.dataset.errorFor];
  });
  var rest = Object.values(errors).join(" ");
  var general = root.querySelector('[data-error-for="' + fallback + '"]');
  if (rest && general) { general.textContent = (general.textContent + " " + rest).trim(); }
}

async function send(method, path, body) {
  try {
    var resp = await call(method, path, body);
    var answer = await resp.json().catch(function () { return {}; });
    if (resp.status === 429) { answer = {detail: strings.tooMuch}; }
    return {ok: resp.ok, status: resp.status, body: answer};
  } catch (e) {
    return {ok: false, status: 0, body: {detail: strings.correctOffline}};
  }
}


function showConfirmed() {
  if (!confirmBox) { return; }
  var names = {};
  (cfg.seats || []).forEach(function (s) { names[s.seat] = s.name; });
  confirmBox.querySelectorAll(".confirm-seat").forEach(function (b) {
    var done = confirmed.indexOf(Number(b.dataset.seat)) >= 0;
    b.disabled = done;
    b.setAttribute("aria-pressed", String(done));
  });
  var done = confirmed.map(function (s) { return names[s]; });
  var missing = (cfg.seats || []).filter(function (s) { return confirmed.indexOf(s.seat) < 0; })
    .map(function (s) { return s.name; });
  var words = [done.length ? strings.confirmedBy.replace("{names}", done.join(", ")) : strings.confirmedNobody];
  words.push(missing.length ? strings.confirmMissing.replace("{names}", missing.join(", ")) : strings.confirmAll);
  if (!missing.length && document.querySelector("#objection-list .objection.open")) {
    words.push(strings.objectionHolds);
  }
  document.getElementById("confirm-status").textContent = words.join(" ");
  confirmBox.classList.toggle("all-confirmed", !missing.length);
}

async function confirmSeat(button) {
  var body = cfg.ownSeat ? {} : {seat: Number(button.dataset.seat)};
  var answer = await send("POST", "confirm/", body);
  showErrorsIn(confirmBox, answer.ok ? {} : answer.body, "submit");
  if (!answer.ok) { button.disabled = false; return; }
  confirmed = answer.body.confirmed;
  if (answer.body.submitted) { window.location.reload(); return; }
  showConfirmed();
}

if (confirmBox) {
  confirmBox.addEventListener("click", function (ev) {
    var b = ev.target.closest(".confirm-seat");
    if (b && !b.disabled) {
      b.disabled = true;
      confirmationsSent += 1;
      confirming = confirming.then(function () { return confirmSeat(b); })
        .catch(function () { b.disabled = false; });
    }
  });
  var reason = document.getElementById("unconfirmed-reason");
  if (reason) {
    reason.addEventListener("input", function () {
      document.getElementById("submit-unconfirmed").disabled = !reason.value.trim();
    });
    document.getElementById("submit-unconfirmed").addEventListener("click", async function () {
      var answer = await send("POST", "submit/", {confirmed_by: confirmed,
                                                  unconfirmed_reason: reason.value.trim()});
      if (answer.ok) { window.location.reload(); return; }
      showErrorsIn(confirmBox, answer.body, "unconfirmed_reason");
    });
  }
  showConfirmed();
}


function renderObjections(open) {
  var list = document.getElementById("objection-list");
  if (!list) { return; }
  var template = document.getElementById("objection-template");
  list.querySelectorAll(".objection.open").forEach(function (li) { li.remove(); });
  open.forEach(function (o) {
    var li = template.content.firstElementChild.cloneNode(true);
    li.querySelector(".objection-what").textContent =
      (o.deal ? template.dataset.deal.replace("{n}", o.deal) : template.dataset.whole) +
      " · " + (o.by || template.dataset.tablet) + ": " + o.note;
    list.appendChild(li);
  });
  document.getElementById("objections").hidden = !list.children.length;
}

var objectionForm = document.getElementById("objection-form");
function toggle(button, form) {
  var open = form.hidden;
  form.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
  if (open) { form.querySelector("textarea, input, select").focus(); }
}
if (objectionForm) {
  var note = document.getElementById("objection-note");
  var counter = document.getElementById("objection-count");
  note.addEventListener("input", function () { counter.textContent = note.value.length + " / 500"; });
  document.getElementById("objection-open").addEventListener("click", function (ev) {
    toggle(ev.currentTarget, objectionForm);
  });
  objectionForm.addEventListener("submit", async function (ev) {
    ev.preventDefault();
    var deal = document.getElementById("objection-deal").value;
    var body = {note: note.value};
    if (deal) { body.deal = Number(deal); }
    var answer = await send("POST", "objections/", body);
    showErrorsIn(objectionForm, answer.ok ? {} : answer.body, "note");
    if (!answer.ok) { return; }
    note.value = "";
    counter.textContent = "0 / 500";
    objectionForm.hidden = true;
    document.getElementById("objection-open").setAttribute("aria-expanded", "false");
    voiceTag = null;
    await refreshVoice();
  });
}


var callForm = document.getElementById("call-form");
var callKey = "stichliste:call:" + cfg.tableId + ":" + (cfg.ownSeat || "tablet");

function showCall(status) {
  var out = document.getElementById("call-status");
  out.textContent = {open: strings.callOpen, seen: strings.callSeen, closed: strings.callClosed}[status] || "";
  out.className = "call-status " + (status || "");
  if (status === "closed" || !status) {
    localStorage.removeItem(callKey);
    callId = null;
    clearInterval(callTimer);
    callTimer = null;
  }
}

async function pollCall() {
  if (!callId) { return; }
  var answer = await send("GET", "calls/" + callId + "/");
  if (answer.ok) { showCall(answer.body.status); }
  else if (answer.status === 404) { showCall(null); }
}

function watchCall(id) {
  callId = id;
  localStorage.setItem(callKey, String(id));
  if (!callTimer) { callTimer = setInterval(pollCall, 5000); }
}

if (callForm) {
  document.getElementById("call-open").addEventListener("click", function (ev) {
    toggle(ev.currentTarget, callForm);
  });
  callForm.addEventListener("submit", async function (ev) {
    ev.preventDefault();
    var answer = await send("POST", "calls/", {reason: document.getElementById("call-reason").value});
    showErrorsIn(callForm, answer.ok ? {} : answer.body, "reason");
    if (!answer.ok) { return; }
    callForm.hidden = true;
    document.getElementById("call-open").setAttribute("aria-expanded", "false");
    document.getElementById("call-reason").value = "";
    showCall(answer.body.status);
    watchCall(answer.body.id);
  });
  // the page names the caller's call not yet closed; a call made before this page
  // was rendered by an older one is still in this browser
  var earlier = document.getElementById("call-status").dataset.callId || localStorage.getItem(callKey);
  if (earlier) { callId = Number(earlier); watchCall(callId); pollCall(); }
}


/* Re-read who has confirmed and the open objections (other devices, the director). */
export async function refreshVoice() {
  // while the sheet is still being entered nobody confirms: no need to ask every 5 s
  if (cfg.submitted || (confirmBox && confirmBox.hidden &&
                        !document.querySelector("#objection-list .objection.open"))) { return; }
  var extra = voiceTag ? {"If-None-Match": voiceTag} : {};
  var before = confirmationsSent;
  var resp;
  try { resp = await call("GET", "", undefined, extra); } catch (e) { return; }
  if (resp.status === 304 || !resp.ok) { return; }
  // a confirmation was sent meanwhile: its own answer is newer; the next poll reads again
  if (confirmationsSent !== before) { return; }
  voiceTag = resp.headers.get("ETag");
  var state = await resp.json();
  if (state.submitted) { window.location.reload(); return; }
  confirmed = state.confirmed;
  renderObjections(state.objections);
  showConfirmed();
}
