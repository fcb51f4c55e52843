/* Stichliste service worker: the tablet reopens its sheet without a network.
 *
 * - /static/ files: answered from the cache, refreshed from the network behind it.
 * - the sheet pages and their lists: from the network, the last good answer kept; while
 *   the network is down, that copy answers. Everything else (the API above all) passes
 *   through untouched: deals wait in the page's own queue, never in here.
 */
"use strict";

const STATIC = "stichliste-static-{{ version }}";
const PAGES = "stichliste-pages";
const SHEET = /^\/(t\/[^/]+|console\/table\/\d+)\/(sheet\/)?$|^\/me\/[^/]+\/sheet\/(list\/)?$/;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("stichliste-static-") === 0 && k !== STATIC; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function remember(cacheName, key, response) {
  if (response.status === 200) {
    var copy = response.clone();
    caches.open(cacheName).then(function (cache) { cache.put(key, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf("{{ static_prefix|escapejs }}") === 0) {
    event.respondWith(caches.open(STATIC).then(function (cache) {
      return cache.match(url.pathname).then(function (hit) {
        var fresh = fetch(request).then(function (resp) { return remember(STATIC, url.pathname, resp); });
        return hit || fresh;
      });
    }));
    return;
  }
  if (SHEET.test(url.pathname)) {
    event.respondWith(fetch(request).then(function (resp) {
      return remember(PAGES, url.pathname, resp);
    }).catch(function () {
      return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })
        .then(function (hit) { return hit || Response.error(); });
    }));
  }
});
