/* The player's own page: its live part (seat, standing, earlier rounds, changes) is
 * re-fetched with the last ETag (a 304 while nothing moved): behind the proxy's push when
 * a message on the channels the part names says something changed (an EventSource on
 * /push/, tournaments/push.py), and once a minute for what no message announces (an
 * earlier round's rank); without push every few seconds. The score card of the player's
 * table is a part of its own, which a deal renews: fetched on its table's message at the
 * URL of the message's version (so the proxy renders it once for the whole table, never
 * answering from what it kept before), and with the live part's polls. The standing (rank and score) from the ranks part the live part names (one answer for many
 * players, kept by the proxy: a recompute does not make every phone's live part new),
 * applied only when it is of a computation no older than the one shown. When the
 * seat changes — a new round drawn — the page says so in a notice that stays until the
 * player taps it away, and the phone vibrates where it can (navigator.vibrate; nothing
 * here needs HTTPS, so it works on the club's plain-HTTP Wi-Fi). */

const EVERY_MS = 10000;
// behind push, the live part and the card at least this often, give or take a quarter:
// the phones that a draw's message made ask at once do not ask at once again
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
let partDue = 0;
let source = null;
let sourceUrl = "";
let cardEtag = "";
let cardBusy = false;
let cardNext = null;  // the version the next card fetch asks for ("": none), null: none due
let cardSeen = {scope: "", version: ""};  // the latest message of the card's table

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
    if (!pushed() || Date.now() >= partDue) {
      await refreshPart();
      // the latest version a message named (a proxy keeps that URL's answer a moment)
      await refreshCard(cardSeen.version);
    }
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
      partDue = Date.now() + PUSHED_EVERY_MS * (0.75 + Math.random() / 2);
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
    // "<scope> <version>": the scope's kind and id (t, v: the whole tournament's; tb, ta:
    // a table's)
    const [scope, version] = String(event.data).split(" ");
    const card = live.querySelector("[data-card-scope]");
    const spread = /^t[ab]/.test(scope) ? TABLE_SPREAD_MS : SPREAD_MS;
    if (card && scope === card.dataset.cardScope) {
      cardSeen = {scope: scope, version: version || ""};
      setTimeout(function () { refreshCard(cardSeen.version); }, Math.random() * spread);
    } else {
      setTimeout(refreshPart, Math.random() * spread);
    }
  };
  source.onopen = function () {  // (re)connected: what a lost connection missed
    refreshPart();
    refreshCard("");
  };
}

/* One fetch of the card at a time, the latest version asked for after it. */
async function refreshCard(version) {
  cardNext = version;
  if (cardBusy) { return; }
  cardBusy = true;
  try {
    while (cardNext !== null) {
      const asked = cardNext;
      cardNext = null;
      await fetchCard(asked);
    }
  } finally {
    cardBusy = false;
  }
}

async function fetchCard(version) {
  const section = live.querySelector("[data-card-url]");
  const card = document.getElementById("me-card");
  if (!section || !card) { return; }
  const url = section.dataset.cardUrl + (version ? "?v=" + encodeURIComponent(version) : "");
  try {
    const resp = await fetch(url, {
      headers: cardEtag ? {"If-None-Match": cardEtag} : {}, cache: "no-store", credentials: "same-origin"});
    if (resp.status !== 200) { return; }  // 304: unchanged; anything else: keep what is shown
    const html = await resp.text();
    cardEtag = resp.headers.get("ETag") || "";
    card.innerHTML = html;
  } catch (e) {
    // offline for a moment: the next message or poll tries again
  }
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
    // the card came with the part, as it was when the part was made: a newer message of
    // its table may have come meanwhile
    cardEtag = "";
    const card = live.querySelector("[data-card-scope]");
    if (card && card.dataset.cardScope === cardSeen.scope && cardSeen.version) {
      refreshCard(cardSeen.version);
    }
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
