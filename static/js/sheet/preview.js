/* The value of the deal in the form, computed by the server before saving. */

import {call} from "./api.js";
import {cfg, strings} from "./context.js";
import {clearErrors, collect, seatName} from "./form.js";

let previewTimer = null;
let inFlight = 0;
let currentNumber = function () { return null; };

/* The value shown is being worked out (a tap waits for its preview, or its answer is on the
   way): aria-busy tells a screen reader to wait for the live region, and anyone else. */
function showBusy() {
  var out = document.getElementById("preview");
  if (out) { out.setAttribute("aria-busy", String(previewTimer !== null || inFlight > 0)); }
}

/* ``numberOf`` tells which deal number the form holds (new, corrected or refused). */
export function previewNumber(numberOf) { currentNumber = numberOf; }

export function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(function () { previewTimer = null; preview(); }, 250);
  showBusy();
}

export async function preview() {
  inFlight += 1;
  showBusy();
  try {
    await show();
  } finally {
    inFlight -= 1;
    showBusy();
  }
}

async function show() {
  var out = document.getElementById("preview");
  var number = currentNumber();
  if (!number || number > cfg.sheetLength) { return; }
  var sent = JSON.stringify(Object.assign({number: number}, collect()));
  // An answer to a form that has changed meanwhile (saved and emptied, a refused deal
  // opened, an answer held back by the network) would show errors of another deal.
  function stale() { return JSON.stringify(Object.assign({number: currentNumber()}, collect())) !== sent; }
  var resp;
  try {
    resp = await call("POST", "preview/", JSON.parse(sent));
  } catch (e) {
    if (!stale()) { out.textContent = strings.offline; }
    return;
  }
  var body = await resp.json().catch(function () { return {}; });
  if (stale()) { return; }
  if (resp.ok) {
    clearErrors();
    var parts = body.scores.map(function (s, i) { return s ? seatName(i + 1) + " " + (s > 0 ? "+" : "") + s : null; });
    out.textContent = strings.value + ": " + (parts.filter(Boolean).join(" · ") || "0");
  } else {
    // An unfinished deal is no error while the players are still choosing: errors are
    // shown when they save (the server's answer then), never by the preview; the errors
    // of a refused save stay until the deal is fine.
    out.textContent = "";
  }
}
