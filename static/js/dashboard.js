// The lobby as a correspondence dashboard: the number of tables waiting for you goes into the
// page title ("(2) Lobby · Stolik") and, where the browser has one, the app badge; it follows
// every push of the lobby's socket. Also the create-table form's pause-for-vacation choice,
// shown only with a correspondence clock, and the away form's time zone.
(function () {
  "use strict";

  const COUNT = /^\(\d+\) /;
  let shown = -1;  // the count last put on the badge (a push that changes nothing is quiet)

  function showWaiting() {
    const list = document.getElementById("your-tables");
    if (!list) return;
    const waiting = parseInt(list.dataset.waiting || "0", 10) || 0;
    const title = document.title.replace(COUNT, "");
    document.title = waiting ? "(" + waiting + ") " + title : title;
    if (waiting === shown) return;
    shown = waiting;
    if (!("setAppBadge" in navigator)) {
      // Some browsers have the badge in the worker only: it reads the count itself.
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (worker) worker.postMessage({ badge: "refresh" });
      return;
    }
    const done = waiting ? navigator.setAppBadge(waiting) : navigator.clearAppBadge();
    if (done && done.catch) done.catch(function () { /* not installed, or not allowed */ });
  }

  function showAwayDays() {
    const clock = document.getElementById("clock");
    const box = document.querySelector(".away-days");
    if (!clock || !box) return;
    const slow = clock.selectedOptions[0] && clock.selectedOptions[0].hasAttribute("data-slow");
    box.hidden = !slow;
    box.querySelector("select").disabled = !slow;
  }

  document.addEventListener("DOMContentLoaded", function () {
    showWaiting();
    showAwayDays();
    // "Away until" a date means until the end of that day where the person is.
    document.querySelectorAll(".away-form input[name=tz]").forEach(function (input) {
      input.value = String(new Date().getTimezoneOffset());
    });
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail && evt.detail.target && evt.detail.target.id === "your-tables") showWaiting();
  });
  document.addEventListener("change", function (evt) {
    if (evt.target.id === "clock") showAwayDays();
  });
})();
