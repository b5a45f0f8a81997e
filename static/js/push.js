// The devices page's notification switch for this device: the browser's permission prompt
// comes only after a click on "Turn on" (never on load); the subscription (made with the
// server's VAPID key from /push/key) goes to the server, and "Turn off" undoes both.
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  const on = document.getElementById("push-enable");
  const off = document.getElementById("push-disable");
  const status = document.getElementById("push-status");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    document.getElementById("push-unsupported").hidden = false;
    return;
  }

  function keyBytes(text) {
    const b64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(b64);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r; });
  }

  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  navigator.serviceWorker.ready
    .then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (sub) { show(!!sub); })
    .catch(function () { show(false); });

  on.addEventListener("click", function () {
    status.textContent = "";
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        status.textContent = box.dataset.denied;
        return null;
      }
      return Promise.all([
        navigator.serviceWorker.ready,
        fetch("/push/key").then(function (r) { return r.json(); }),
      ]).then(function (got) {
        return got[0].pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(got[1].key) });
      }).then(function (sub) {
        return post("/push/subscriptions", sub.toJSON());
      }).then(function () { location.reload(); });
    }).catch(function () { status.textContent = box.dataset.failed; });
  });

  off.addEventListener("click", function () {
    navigator.serviceWorker.ready
      .then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub) return null;
        const endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () { return post("/push/unsubscribe", { endpoint: endpoint }); });
      })
      .then(function () { location.reload(); })
      .catch(function () { status.textContent = box.dataset.failed; });
  });
})();
