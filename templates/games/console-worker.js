{% load static %}/* The scorer's console service worker (issue 9): keeps the console pages and their files for offline use.

Served from /games/ so that its scope covers /games/<id>/console/. The console page puts itself and its files (its
strings' catalogue in the reader's language too, portal.i18n) in the cache when it loads (window.caches); this worker
answers from the network while it answers and from that cache when it does not (network first, so a console online always runs the newest page). It never
touches the API: entries go through the page's own outbox (IndexedDB), never through a cache.
*/
"use strict";

const CACHE = "ihtc-console-v1";  // "ihtc-console-": logging out deletes these caches (static/logout.js, issue 23)
const STATIC_PREFIX = "{% get_static_prefix %}";
const CATALOGUE_PREFIX = "{{ catalogue_prefix }}";  // the scripts' strings, one URL per language (portal.i18n)
const CONSOLE_PAGE = /^\/games\/\d+\/console\/$/;
const NETWORK_WAIT_MS = 4000;  // a rink's Wi-Fi that answers nothing counts as no network

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function fromNetwork(request, key) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer")), NETWORK_WAIT_MS);
    fetch(request).then((response) => {
      clearTimeout(timer);
      if (response.ok && !response.redirected) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy));
      }
      resolve(response);
    }, (error) => { clearTimeout(timer); reject(error); });
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const isPage = CONSOLE_PAGE.test(url.pathname);
  if (!isPage && !url.pathname.startsWith(STATIC_PREFIX) && !url.pathname.startsWith(CATALOGUE_PREFIX)) return;
  const key = isPage ? url.pathname : url.pathname + url.search;
  event.respondWith(
    fromNetwork(request, key).catch(() =>
      caches.match(key, {ignoreVary: true}).then((hit) => hit || Response.error())
    )
  );
});
