// Stolik's small page behaviours: errors as toasts, invite copy, connection status,
// and the lobby's game picker. Everything live comes through HTMX's websocket extension.
(function () {
  "use strict";

  let toastTimer = null;
  function showToast(message) {
    const toast = document.getElementById("toast");
    if (!toast) return;
    toast.textContent = message;
    toast.hidden = false;
    toast.classList.add("error");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toast.hidden = true; }, 6000);
  }

  // HTTP errors from hx-post buttons (join, leave, start) carry {"error": {code, message}}.
  document.addEventListener("htmx:responseError", function (evt) {
    const xhr = evt.detail.xhr;
    let message = "Something went wrong (" + xhr.status + ").";
    try {
      const body = JSON.parse(xhr.responseText);
      if (body.error && body.error.message) message = body.error.message;
      if (body.error && body.error.code === "no_name") {
        const page = document.querySelector(".table-page");
        window.location = "/name?next=" + (page ? page.dataset.next : "/");
        return;
      }
    } catch (e) { /* not JSON: keep the generic message */ }
    showToast(message);
  });

  // Errors pushed over the websocket arrive as an out-of-band #toast; keep it visible briefly.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    const target = evt.detail.target;
    if (target && target.id === "toast") {
      target.hidden = false;
      clearTimeout(toastTimer);
      toastTimer = setTimeout(function () { target.hidden = true; }, 6000);
    }
  });

  function setConn(text, cls) {
    const el = document.getElementById("conn-status");
    if (el) { el.textContent = text; el.className = "conn " + cls; }
  }
  document.addEventListener("htmx:wsOpen", function () { setConn("live", "live"); });
  document.addEventListener("htmx:wsClose", function () { setConn("reconnecting…", "down"); });
  document.addEventListener("htmx:wsError", function () { setConn("reconnecting…", "down"); });

  document.addEventListener("click", function (evt) {
    const button = evt.target.closest("button.copy");
    if (!button) return;
    const input = document.querySelector(button.dataset.copy);
    if (!input) return;
    const done = function () {
      button.textContent = "Copied!";
      setTimeout(function () { button.textContent = "Copy"; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
      try { document.execCommand("copy"); done(); } catch (e) { /* selected for manual copy */ }
    }
  });

  // Lobby: show the chosen game's options and its seat limits.
  document.addEventListener("change", function (evt) {
    if (evt.target.id !== "game") return;
    const select = evt.target;
    const option = select.selectedOptions[0];
    document.querySelectorAll(".game-options").forEach(function (fs) {
      const on = fs.dataset.game === select.value;
      fs.hidden = !on;
      fs.disabled = !on;
    });
    const seats = document.getElementById("seats");
    seats.min = option.dataset.min;
    seats.max = option.dataset.max;
    const value = Number(seats.value);
    if (value < Number(seats.min) || value > Number(seats.max)) seats.value = seats.min;
  });
})();
