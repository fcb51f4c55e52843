/* The player's own page: its live part (seat, score card, standing, earlier rounds) is
 * re-fetched with the last ETag (a 304 while nothing moved): behind the proxy's push when
 * a message on the channels the part names says something changed (an EventSource on
 * /push/, tournaments/push.py), and once a minute for what no message announces (an
 * earlier round's rank); without push every few seconds. The standing (rank and score) from the ranks part the live part names (one answer for many
 * players, kept by the proxy: a recompute does not make every phone's live part new),
 * applied only when it is of a computation no older than the one shown. When the
 * seat changes — a new round drawn — the page says so in a notice that stays until the
 * player taps it away, and the phone vibrates where it can (navigator.vibrate; nothing
 * here needs HTTPS, so it works on the club's plain-HTTP Wi-Fi). */

const EVERY_MS = 10000;
const PUSHED_EVERY_MS = 60000;
// a message of the whole tournament (a draw, the clock, a call) reaches every phone in the
// hall at once: each waits up to this long, so the server answers them one after another
const SPREAD_MS = 5000;
// a message of the player's table reaches its three or four phones at once: each waits up
// to this long, so the first one's answer (its reads are kept per version of the table)
// makes the others' cheap, instead of all of them reading the same at the same time
const TABLE_SPREAD_MS = 1000;
const live = document.getElementById("me-live");
const notice = document.getElementById("me-notice");
let etag = live.dataset.etag || "";
let ranksEtag = "";
let busy = false;
let partBusy = false;
let partAgain = false;
let partAt = 0;
let source = null;
let sourceUrl = "";

function seatKey() {
  const part = live.querySelector("[data-seat-key]");
  return part ? part.dataset.seatKey : "";
}

function announce(text) {
  document.getElementById("me-notice-text").textContent = text;
  notice.hidden = false;
  notice.focus();
  if (typeof navigator.vibrate === "function") {
    try { navigator.vibrate([300, 150, 300]); } catch (e) { /* not allowed: the notice is enough */ }
  }
}

function pushed() {
  return source !== null && source.readyState === EventSource.OPEN;
}

async function refresh() {
  if (busy) { return; }
  busy = true;
  try {
    if (!pushed() || Date.now() - partAt >= PUSHED_EVERY_MS) { await refreshPart(); }
    await refreshStanding();
  } finally {
    busy = false;
  }
}

/* One fetch of the live part at a time; a message during it asks once more after it. */
async function refreshPart() {
  if (partBusy) { partAgain = true; return; }
  partBusy = true;
  try {
    do {
      partAgain = false;
      partAt = Date.now();
      await fetchPart();
    } while (partAgain);
  } finally {
    partBusy = false;
  }
  subscribe();
}

/* Subscribe to the channels the live part names (new ones after a draw), if any. */
function subscribe() {
  const part = live.querySelector("[data-push]");
  const url = part ? part.dataset.push : "";
  if (url === sourceUrl || typeof EventSource !== "function") { return; }
  if (source !== null) { source.close(); source = null; }
  sourceUrl = url;
  if (!url) { return; }
  source = new EventSource(url);
  source.onmessage = function (event) {
    const spread = String(event.data).startsWith("tb ") ? TABLE_SPREAD_MS : SPREAD_MS;
    setTimeout(refreshPart, Math.random() * spread);
  };
  source.onopen = refreshPart;  // (re)connected: what a lost connection missed
}

async function fetchPart() {
  try {
    const resp = await fetch(live.dataset.url, {
      headers: etag ? {"If-None-Match": etag} : {}, cache: "no-store", credentials: "same-origin"});
    if (resp.status !== 200) { return; }  // 304: unchanged; anything else: keep what is shown
    const html = await resp.text();
    const before = seatKey();
    etag = resp.headers.get("ETag") || "";
    live.innerHTML = html;
    const after = live.querySelector("[data-seat-key]");
    if (after && after.dataset.seatKey && after.dataset.seatKey !== before) {
      announce(after.dataset.notice);
    }
  } catch (e) {
    // offline for a moment: the next poll tries again
  }
}

async function refreshStanding() {
  const part = live.querySelector("[data-ranks-url]");
  if (!part) { return; }
  try {
    const resp = await fetch(part.dataset.ranksUrl, {
      headers: ranksEtag ? {"If-None-Match": ranksEtag} : {}, cache: "no-store", credentials: "same-origin"});
    if (resp.status !== 200) { return; }
    const data = await resp.json();
    ranksEtag = resp.headers.get("ETag") || "";
    const mine = data.standings[part.dataset.participant];
    if (!mine || data.computation < Number(part.dataset.computation || 0)) { return; }
    part.dataset.computation = String(data.computation);
    document.getElementById("me-rank").textContent = mine.rank;
    document.getElementById("me-score").textContent = mine.score;
    part.querySelector("dl").hidden = false;
    document.getElementById("me-not-computed").hidden = true;
  } catch (e) {
    // offline for a moment: the next poll tries again
  }
}

document.getElementById("me-notice-ok").addEventListener("click", function () {
  notice.hidden = true;
});
subscribe();
setInterval(refresh, EVERY_MS);
document.addEventListener("visibilitychange", function () {
  if (!document.hidden) { refresh(); }
});
