// Ganges: Cards & Karma — the main-action picker. The card chosen on the table (board) feeds
// the two forms in your area: take it / take the goods, or pay for it. Whether a selection pays
// is looked up in the ways to pay the engine put in the view; the server decides again.
(function () {
  "use strict";

  const PAID = { building: "build", ship: "ship", palace: "palace" };
  const PAY_LABEL = {
    building: "Pay and build it", ship: "Pay and take the ship", palace: "Pay and use the palace card",
  };

  function target() {
    return document.querySelector("input.gg-target:checked");
  }

  // The ways to pay come from the engine (the target's data-payments, engines/ganges/view.py):
  // a selection pays when it is one of them — the same dice (equal colour and value are
  // interchangeable), as many administrator jokers, the same karma. No payment rule lives here.
  function ways(t) {
    try { return JSON.parse(t.dataset.payments || "[]"); } catch (e) { return []; }
  }
  function sameList(a, b) {
    return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
  }
  function describe(way) {
    const parts = way.dice.map(function (d) { const cv = d.split(":"); return cv[0] + " " + cv[1]; });
    way.jokers.forEach(function (v) { parts.push("administrator as " + v); });
    if (way.karma) parts.push(way.karma + " karma");
    return parts.join(" + ");
  }
  function verdict(t, dice, jokers, karma) {
    const list = ways(t);
    if (!list.length) return { ok: false, text: "✗ You cannot pay for this card now." };
    if (!dice.length && !jokers.length) return { ok: false, text: "Choose dice to pay with, or one of the ways above." };
    const key = dice.map(function (d) { return d.colour + ":" + d.value; }).sort();
    const match = list.find(function (w) {
      return sameList(w.dice, key) && w.jokers.length === jokers.length && w.karma === karma;
    });
    if (!match) return { ok: false, text: "✗ Not a way to pay for this card — pick one of the ways above." };
    return { ok: true, text: "✓ Pays: " + describe(match) + ".", way: match };
  }

  // One button per way to pay: pressing it selects exactly those dice, jokers and karma.
  function showWays(form, t) {
    const box = form.querySelector("[data-gg-ways]");
    if (!box) return;
    box.textContent = "";
    if (ways(t).length) {
      const label = document.createElement("span");
      label.className = "gg-rlabel";
      label.textContent = "Ways to pay: ";
      box.appendChild(label);
    }
    ways(t).forEach(function (w) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small gg-way";
      b.textContent = describe(w);
      b.addEventListener("click", function () { select(form, w); });
      box.appendChild(b);
    });
  }
  function select(form, w) {
    const wanted = w.cards.slice();
    form.querySelectorAll("input[name='pay[]']").forEach(function (el) {
      const id = JSON.parse(el.value);
      const at = wanted.indexOf(id);
      el.checked = at >= 0;
      if (at >= 0) wanted.splice(at, 1);
    });
    form.querySelectorAll(".gg-joker").forEach(function (row, i) {
      row.querySelector("[data-gg-joker]").checked = i < w.jokers.length;
      if (i < w.jokers.length) row.querySelector("select").value = String(w.jokers[i]);
    });
    const karmaInput = form.querySelector("input[name=karma]");
    if (karmaInput) karmaInput.value = String(w.karma);
    refreshPay();
  }

  function refreshPay() {
    const form = document.querySelector("form.gg-pay");
    const t = target();
    if (!form || !t || !PAID[t.dataset.kind]) return;
    const dice = [];
    form.querySelectorAll("input[name='pay[]']:checked").forEach(function (el) {
      dice.push({ colour: el.dataset.colour, value: Number(el.dataset.value) });
    });
    const jokers = [];
    form.querySelectorAll(".gg-joker").forEach(function (row) {
      const on = row.querySelector("[data-gg-joker]").checked;
      const select = row.querySelector("select");
      select.disabled = !on;
      if (on) jokers.push(Number(select.value));
    });
    const karmaInput = form.querySelector("input[name=karma]");
    const karma = karmaInput ? Math.max(0, Number(karmaInput.value) || 0) : 0;
    const v = verdict(t, dice, jokers, karma);
    if (v.way) {
      // Jokers take the values the engine declared for this way (the server checks it again).
      form.querySelectorAll(".gg-joker").forEach(function (row) {
        const select = row.querySelector("select");
        if (!select.disabled) select.value = String(v.way.jokers.shift());
      });
    }
    const out = form.querySelector("[data-gg-verdict]");
    out.textContent = v.text;
    out.classList.toggle("gg-ok", v.ok);
    out.classList.toggle("gg-bad", !v.ok && (dice.length + jokers.length > 0));
    // A payment the picker already marks ✗ cannot be sent (the server would refuse it).
    form.querySelector("[data-gg-paybtn]").disabled = !v.ok;
  }

  function choose(t) {
    const kind = t.dataset.kind;
    const cost = Number(t.dataset.cost);
    document.querySelectorAll("[data-gg-selected]").forEach(function (el) {
      el.textContent = "Chosen: " + t.dataset.label;
    });
    document.querySelectorAll("form.gg-act [data-gg-card]").forEach(function (el) {
      el.value = JSON.stringify(t.value);
    });
    document.querySelectorAll("form.gg-simple button[data-gg-for]").forEach(function (b) {
      b.disabled = b.dataset.ggFor !== "any" && b.dataset.ggFor !== kind;
      b.hidden = b.dataset.ggFor !== "any" && b.dataset.ggFor !== kind;
    });
    const form = document.querySelector("form.gg-pay");
    if (!form) return;
    form.hidden = !PAID[kind];
    if (!PAID[kind]) return;
    form.querySelector("[data-gg-type]").value = JSON.stringify(PAID[kind]);
    form.querySelector("[data-gg-paybtn]").textContent = PAY_LABEL[kind];
    form.querySelector("[data-gg-cost]").textContent = kind === "building"
      ? t.dataset.colour + " dice (letter " + t.dataset.colour[0].toUpperCase() + ") with a total of at least " + cost
        + (t.dataset.payable === "no" ? " — you cannot pay this now" : "")
      : "exactly one die showing " + cost + " (any colour)"
        + (t.dataset.payable === "no" ? " — you cannot pay this now" : "");
    // Only dice that take part in some way to pay can be chosen.
    const usable = new Set();
    ways(t).forEach(function (w) { w.dice.forEach(function (k) { usable.add(k); }); });
    form.querySelectorAll("input[name='pay[]']").forEach(function (el) {
      const wrong = !usable.has(el.dataset.colour + ":" + el.dataset.value);
      el.disabled = wrong;
      if (wrong) el.checked = false;
      el.closest("label").title = wrong ? "This die cannot help pay for this card" : "";
    });
    form.querySelectorAll(".gg-joker select").forEach(function (s) {
      if (kind !== "building") s.value = String(cost);
    });
    showWays(form, t);
    refreshPay();
  }

  document.addEventListener("change", function (evt) {
    const el = evt.target;
    if (el.matches && el.matches("input.gg-target")) choose(el);
    else if (el.closest && el.closest("form.gg-pay")) refreshPay();
  });
  document.addEventListener("input", function (evt) {
    if (evt.target.closest && evt.target.closest("form.gg-pay")) refreshPay();
  });
})();
