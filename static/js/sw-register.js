// Registers the service worker (/sw.js, scope: the whole site) and tells it the page's
// language, so that its offline page speaks it. On the offline page itself: reload as soon as
// the network or the server is back (the browser's "online" event, and a look at /healthz
// every 10 s, since a server that is down leaves the browser "online").
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const lang = document.documentElement.lang;

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function (reg) {
    const worker = navigator.serviceWorker.controller || reg.active || reg.waiting || reg.installing;
    if (worker) worker.postMessage({ lang: lang });
  }).catch(function () { /* no worker: the site works as before */ });
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ lang: lang });
  });

  // The offline page stands in for the page asked for (same address); opened as /offline
  // itself it has nothing to reload.
  if (!document.querySelector("[data-offline-page]") || location.pathname === "/offline") return;
  function back() { location.reload(); }
  window.addEventListener("online", back);
  setInterval(function () {
    if (!navigator.onLine) return;
    fetch("/healthz", { cache: "no-store" }).then(function (r) { if (r.ok) back(); }).catch(function () {});
  }, 10000);
})();
