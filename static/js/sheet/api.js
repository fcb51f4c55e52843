/* Calls to the table's API: the page's token under its scheme (a table's "Table" token,
 * or a player's personal "Player" token on their own phone) or the staff's session, the
 * request's language, an Idempotency-Key per new deal. */

import {cfg} from "./context.js";

export function cookie(name) {
  var m = document.cookie.match("(^|;)\\s*" + name + "=([^;]*)");
  return m ? decodeURIComponent(m[2]) : "";
}

export function headers(extra) {
  var h = {"Content-Type": "application/json", "Accept-Language": cfg.lang};
  // the tablet's table token, or a player's personal token on their own phone
  if (cfg.token) { h.Authorization = (cfg.authScheme || "Table") + " " + cfg.token; }
  else { h["X-CSRFToken"] = cookie("csrftoken"); }
  return Object.assign(h, extra || {});
}

export function newKey() {
  var bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
}

export function call(method, path, body, extra) {
  return fetch(cfg.api + path, {method: method, headers: headers(extra), credentials: "same-origin",
                            body: body === undefined ? undefined : JSON.stringify(body)});
}

export function setOnline(online) {
  var el = document.getElementById("net-status");
  el.textContent = online ? el.dataset.online : el.dataset.offline;
  el.classList.toggle("offline", !online);
}
