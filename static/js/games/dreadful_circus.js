// Dreadful Circus: the wagon form's − / + steppers, a live summary of what goes into the
// wagon, and the "place" buttons held back while a wagon that must hold something is empty.
// The form itself is sent by stolik.js (compound move); this only helps fill it in.
// Also keeps the hand panel open or closed across re-renders, as the player left it.
(function () {
  "use strict";

  const VALUES = { copper: 1, silver: 2, gold: 3 };

  // The words come translated from the server (the bid form's data-words, me.html).
  function W(form, key, params) {
    let words = {};
    try { words = JSON.parse(form.dataset.words || "{}"); } catch (e) { words = {}; }
    let text = words[key] || key;
    Object.keys(params || {}).forEach(function (k) { text = text.split("{" + k + "}").join(params[k]); });
    return text;
  }

  function count(input) {
    const n = Number(input.value);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  }

  function refresh(form) {
    const parts = [];
    let items = 0;
    let value = 0;
    for (const input of form.querySelectorAll("input[type=number]")) {
      const n = count(input);
      if (!n) continue;
      items += n;
      value += n * (VALUES[input.name] || 0);
      parts.push(n + " " + W(form, input.name));
    }
    const sum = form.querySelector("[data-dc-sum]");
    const holds = Number(form.dataset.holds || 0);
    if (sum && form.hasAttribute("data-dc-bid")) {
      if (items) {
        sum.textContent = value
          ? W(form, "wagon_value", { goods: parts.join(", "), value: value })
          : W(form, "wagon", { goods: parts.join(", ") });
      } else {
        sum.textContent = holds ? W(form, "empty") : W(form, "nothing_held");
      }
    }
    if (form.hasAttribute("data-dc-bid")) {
      for (const button of form.querySelectorAll("button[type=submit]")) {
        button.disabled = holds > 0 && items === 0;
        button.title = button.disabled ? W(form, "fill_first") : "";
      }
    }
  }

  // The hand opens by itself when a card must be chosen from it; otherwise it stays as the
  // player last left it (every state push re-renders it).
  const HAND_KEY = "dcHandOpen";
  function restoreHand() {
    const hand = document.querySelector("details[data-dc-hand]");
    if (hand && !hand.dataset.needed && sessionStorage.getItem(HAND_KEY) === "1") hand.open = true;
  }
  document.addEventListener("toggle", function (evt) {
    const hand = evt.target;
    if (!hand.matches || !hand.matches("details[data-dc-hand]") || hand.dataset.needed) return;
    sessionStorage.setItem(HAND_KEY, hand.open ? "1" : "0");
  }, true);

  function refreshAll() {
    document.querySelectorAll("form[data-dc-bid]").forEach(refresh);
    restoreHand();
  }

  document.addEventListener("click", function (evt) {
    const step = evt.target.closest("[data-dc-step]");
    if (!step) return;
    const input = step.parentElement.querySelector("input[type=number]");
    if (!input || input.disabled) return;
    const max = Number(input.max);
    const next = Math.min(max, Math.max(0, count(input) + Number(step.dataset.dcStep)));
    input.value = String(next);
    refresh(input.form);
  });

  document.addEventListener("input", function (evt) {
    const input = evt.target;
    if (input.form && input.form.hasAttribute("data-dc-bid")) refresh(input.form);
  });

  document.addEventListener("htmx:oobAfterSwap", refreshAll);
  document.addEventListener("htmx:afterSwap", refreshAll);
  document.addEventListener("DOMContentLoaded", refreshAll);
})();
