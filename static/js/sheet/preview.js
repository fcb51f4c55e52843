/* The value of the deal in the form, computed by the server before saving. */

import {call} from "./api.js";
import {cfg, strings} from "./context.js";
import {clearErrors, collect, seatName} from "./form.js";

let previewTimer = null;
let currentNumber = function () { return null; };

/* ``numberOf`` tells which deal number the form holds (new, corrected or refused). */
export function previewNumber(numberOf) { currentNumber = numberOf; }

export function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 250);
}

export async function preview() {
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
