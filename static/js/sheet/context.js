/* What every part of the tablet sheet shares: the page's configuration, the entry form,
 * the translated strings, and the device's storage keys. */

export const cfg = JSON.parse(document.getElementById("sheet-config").textContent);
export const form = document.getElementById("deal-form");
export const strings = {};
document.getElementById("strings").content.querySelectorAll("[data-s]").forEach(function (el) {
  strings[el.dataset.s] = el.textContent;
});
export const keys = {
  queue: "stichliste:queue:" + cfg.tableId,
  draft: "stichliste:draft:" + cfg.tableId,
  log: "stichliste:log:" + cfg.tableId,
  parked: "stichliste:parked:" + cfg.tableId,
};

export function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
}
