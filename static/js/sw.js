// Stolik's service worker. Served at /sw.js (scope: the whole site) by app/api/routes/pwa.py,
// which fills in the version (a hash of everything cached) and the lists below.
//
// - At install: the app shell (stylesheet, page scripts, icons, the offline page in every
//   language) goes into a cache named after the version; at activation every other cache of
//   ours is deleted, so a new deploy replaces the old shell.
// - Pages (navigations) always go to the network; only when the network fails does the
//   worker answer with the offline page, in the language of the last page the person saw.
// - Shell files go to the network too, and come from the cache only when that fails.
// - Anything else (the API, form posts, other files) is not touched; websockets never pass
//   through a service worker.
"use strict";

const VERSION = "__VERSION__";
const SHELL = ["__SHELL__"];
const LANGUAGES = ["__LANGUAGES__"];
const PREFIX = "stolik-shell-";
const CACHE = PREFIX + VERSION;
const PREFS = "stolik-prefs";
const LANG_KEY = "/sw/lang";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(SHELL.map(function (u) { return new Request(u, { cache: "reload" }); })); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (n) { return n.startsWith(PREFIX) && n !== CACHE; })
          .map(function (n) { return caches.delete(n); }));
      })
      // The page's request starts while the worker boots (no delay added to navigations).
      .then(function () { return self.registration.navigationPreload && self.registration.navigationPreload.enable(); })
      .then(function () { return self.clients.claim(); })
  );
});

// A page tells the worker its language (<html lang>); kept in a small cache of its own, since
// a worker's memory does not outlive its idle stop.
self.addEventListener("message", function (event) {
  const lang = event.data && event.data.lang;
  if (LANGUAGES.indexOf(lang) < 0) return;
  event.waitUntil(caches.open(PREFS).then(function (c) { return c.put(LANG_KEY, new Response(lang)); }));
});

function language() {
  return caches.open(PREFS)
    .then(function (c) { return c.match(LANG_KEY); })
    .then(function (r) { return r ? r.text() : ""; })
    .then(function (lang) {
      if (LANGUAGES.indexOf(lang) >= 0) return lang;
      const guess = (self.navigator.language || "").slice(0, 2).toLowerCase();
      return LANGUAGES.indexOf(guess) >= 0 ? guess : LANGUAGES[0];
    })
    .catch(function () { return LANGUAGES[0]; });
}

function offlinePage() {
  return language().then(function (lang) {
    return caches.match("/offline?lang=" + lang, { cacheName: CACHE });
  }).then(function (page) {
    return page || Response.error();
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      Promise.resolve(event.preloadResponse)
        .then(function (preloaded) { return preloaded || fetch(request); })
        .catch(offlinePage)
    );
    return;
  }
  if (SHELL.indexOf(url.pathname + url.search) >= 0) {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request, { cacheName: CACHE }).then(function (hit) { return hit || Response.error(); });
    }));
  }
});

// The app badge: how many tables wait for you (the dashboard's count, from the listing). An
// open lobby sets it itself; the worker sets it when asked to — by a page whose window has no
// badge API, or by whatever wakes the worker with news of a turn (a push).
function refreshBadge() {
  if (!self.navigator.setAppBadge) return Promise.resolve();
  return fetch("/api/tables", { credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (rows) {
      if (!Array.isArray(rows)) return undefined;
      const waiting = rows.filter(function (row) { return row.your_turn; }).length;
      return waiting ? self.navigator.setAppBadge(waiting) : self.navigator.clearAppBadge();
    })
    .catch(function () { /* offline, or not allowed: the badge stays as it was */ });
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.badge === "refresh") event.waitUntil(refreshBadge());
});

// ---- Web Push (app/push): a push carries the table, what happened in words, a link and a
// tag per table (a newer push of a table replaces the older notification). A "your turn" push
// names a check: if the person has moved meanwhile it is no longer true and is not shown (an
// older notification of that table goes too). A click focuses an open tab of the table, or
// opens one.
function stillTrue(data) {
  if (!data.check) return Promise.resolve(true);
  return fetch(data.check, { credentials: "same-origin", cache: "no-store" })
    .then(function (r) { return r.ok ? r.json() : { current: true }; })
    .then(function (answer) { return answer.current !== false; })
    .catch(function () { return true; });  // offline: better shown than lost
}

self.addEventListener("push", function (event) {
  let data = null;
  try { data = event.data ? event.data.json() : null; } catch (e) { data = null; }
  if (!data || !data.title) return;
  // The app badge (the correspondence dashboard's count), where the worker keeps one.
  const badge = typeof refreshBadge === "function" ? refreshBadge() : Promise.resolve();
  event.waitUntil(Promise.all([badge, stillTrue(data).then(function (current) {
    if (!current) {
      return self.registration.getNotifications({ tag: data.tag }).then(function (shown) {
        shown.forEach(function (n) { n.close(); });
      });
    }
    return self.registration.showNotification(data.title, {
      body: data.body,
      tag: data.tag,
      renotify: true,
      lang: data.lang,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      data: { url: data.url, table: data.table, version: data.version },
    });
  })]));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    for (const tab of tabs) {
      if (new URL(tab.url).pathname === target.pathname && "focus" in tab) return tab.focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
