// Ganges: Cards & Karma — the main-action picker. The card chosen on the table (board) feeds
// the two forms in your area: take it / take the goods, or pay for it. Whether a selection pays
// is looked up in the ways to pay the engine put in the view; the server decides again.
(function () {
  "use strict";

  const PAID = { building: "build", ship: "ship", palace: "palace" };

  // The words come translated from the server (the payment form's data-words, me.html);
  // "{name}" placeholders are filled here.
  function W(key, params) {
    let words = {};
    const form = document.querySelector("form.gg-pay");
    try { words = JSON.parse((form && form.dataset.words) || "{}"); } catch (e) { words = {}; }
    let text = words[key] || key;
    Object.keys(params || {}).forEach(function (k) { text = text.split("{" + k + "}").join(params[k]); });
    return text;
  }

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
    const parts = way.dice.map(function (d) { const cv = d.split(":"); return W(cv[0]) + " " + cv[1]; });
    way.jokers.forEach(function (v) { parts.push(W("admin_as", { value: v })); });
    if (way.karma) parts.push(W("karma", { count: way.karma }));
    return parts.join(" + ");
  }
  function verdict(t, dice, jokers, karma) {
    const list = ways(t);
    if (!list.length) return { ok: false, text: W("cannot_pay") };
    if (!dice.length && !jokers.length) return { ok: false, text: W("choose_dice") };
    const key = dice.map(function (d) { return d.colour + ":" + d.value; }).sort();
    const match = list.find(function (w) {
      return sameList(w.dice, key) && w.jokers.length === jokers.length && w.karma === karma;
    });
    if (!match) return { ok: false, text: W("not_a_way") };
    return { ok: true, text: W("pays", { way: describe(match) }), way: match };
  }

  // One button per way to pay: pressing it selects exactly those dice, jokers and karma.
  function showWays(form, t) {
    const box = form.querySelector("[data-gg-ways]");
    if (!box) return;
    box.textContent = "";
    if (ways(t).length) {
      const label = document.createElement("span");
      label.className = "gg-rlabel";
      label.textContent = W("ways") + " ";
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
      el.textContent = W("chosen", { card: t.dataset.label });
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
    form.querySelector("[data-gg-paybtn]").textContent = W("pay_" + kind);
    const letter = t.dataset.colour ? W(t.dataset.colour)[0].toUpperCase() : "";
    form.querySelector("[data-gg-cost]").textContent = (kind === "building"
      ? W("cost_building", { colour: W(t.dataset.colour), letter: letter, cost: cost })
      : W("cost_exact", { cost: cost })) + (t.dataset.payable === "no" ? W("cannot_now") : "");
    // Only dice that take part in some way to pay can be chosen.
    const usable = new Set();
    ways(t).forEach(function (w) { w.dice.forEach(function (k) { usable.add(k); }); });
    form.querySelectorAll("input[name='pay[]']").forEach(function (el) {
      const wrong = !usable.has(el.dataset.colour + ":" + el.dataset.value);
      el.disabled = wrong;
      if (wrong) el.checked = false;
      el.closest("label").title = wrong ? W("useless_die") : "";
    });
    form.querySelectorAll(".gg-joker select").forEach(function (s) {
      if (kind !== "building") s.value = String(cost);
    });
    showWays(form, t);
    refreshPay();
  }

  document.addEventListener("change", function (evt) {
    const el = evt.target;
    if (el.matches && el.matches("input.gg-target")) {
      choose(el);
      // The form the card needs comes into view (it is in your area, under the board).
      const pay = document.querySelector("form.gg-pay:not([hidden])");
      const take = document.querySelector("form.gg-simple button[data-gg-for]:enabled:not([hidden])");
      if (window.Stolik) window.Stolik.bringIntoView(pay || take);
    } else if (el.closest && el.closest("form.gg-pay")) refreshPay();
  });
  document.addEventListener("input", function (evt) {
    if (evt.target.closest && evt.target.closest("form.gg-pay")) refreshPay();
  });
})();
