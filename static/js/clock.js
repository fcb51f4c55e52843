/* The round's clock (templates/clock/_clock.html): counts down each second from the
 * clock's end, which the server stores (so a reload or a restart changes nothing). Where
 * the element names the clock's API (data-clock-url: the board, the sheet) it asks it
 * every few seconds for a pause, a resumption or an extension, and takes the time left
 * from the answer rather than from this device's own clock. At ten minutes left the
 * clock turns amber and the phone vibrates once where the browser allows it; at the end
 * it says that time is up. Elements replaced by a page's own polling (the player's live
 * part) are found again on every tick. */

(function () {
  const POLL_MS = 15000;
  const ends = new WeakMap();  // element -> end on this device's clock (ms)

  function endOf(el) {
    if (ends.has(el)) { return ends.get(el); }
    const end = Date.parse(el.dataset.ends);
    return Number.isNaN(end) ? null : end;
  }

  function text(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function vibrateOnce(el) {
    const key = "clock-warned-" + (el.dataset.ends || "") + location.pathname;
    try {
      if (sessionStorage.getItem(key)) { return; }
      sessionStorage.setItem(key, "1");
    } catch (e) { /* no storage: vibrate anyway */ }
    if (typeof navigator.vibrate === "function") {
      try { navigator.vibrate([400, 200, 400]); } catch (e) { /* not allowed */ }
    }
  }

  function show(el) {
    const state = el.dataset.state;
    el.hidden = !state;
    if (!state) { return; }
    let left = Number(el.dataset.remaining) || 0;
    if (state === "running" || state === "over") {
      const end = endOf(el);
      if (end !== null) { left = Math.max(0, Math.ceil((end - Date.now()) / 1000)); }
    }
    const over = state !== "paused" && left <= 0;
    const warn = !over && left <= (Number(el.dataset.warn) || 600);
    el.querySelector(".clock-time").textContent = text(left);
    const note = el.querySelector(".clock-note");
    note.textContent = over ? note.dataset.over : (state === "paused" ? note.dataset.paused : "");
    el.classList.toggle("clock-over", over);
    el.classList.toggle("clock-paused", state === "paused");
    el.classList.toggle("clock-running", !over && state === "running");
    el.classList.toggle("clock-warn", warn);
    if (warn && state === "running") { vibrateOnce(el); }
  }

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(show);
  }

  async function poll(el) {
    try {
      const resp = await fetch(el.dataset.clockUrl, {cache: "no-store", credentials: "same-origin",
                                                    headers: {"Accept": "application/json"}});
      if (resp.status !== 200) { return; }
      const clock = (await resp.json()).clock;
      el.dataset.state = clock ? clock.state : "";
      el.dataset.ends = clock && clock.ends_at ? clock.ends_at : "";
      el.dataset.remaining = clock ? String(clock.remaining_seconds) : "0";
      if (clock && clock.state !== "paused") {
        ends.set(el, Date.now() + clock.remaining_seconds * 1000);
      } else {
        ends.delete(el);
      }
      show(el);
    } catch (e) {
      // offline for a moment: keep counting, the next poll asks again
    }
  }

  function pollAll() {
    document.querySelectorAll("[data-clock][data-clock-url]").forEach(poll);
  }

  tick();
  pollAll();
  setInterval(tick, 1000);
  setInterval(pollAll, POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { pollAll(); }
  });
})();
