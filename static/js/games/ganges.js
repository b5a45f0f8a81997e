// Ganges: Cards & Karma — the main-action picker. The card chosen on the table (board) feeds
// the two forms in your area: take it / take the goods, or pay for it. The payment check here
// only mirrors engines/ganges/payment.py to say whether a selection pays; the server decides.
(function () {
  "use strict";

  const PAID = { building: "build", ship: "ship", palace: "palace" };
  const PAY_LABEL = {
    building: "Pay and build it", ship: "Pay and take the ship", palace: "Pay and use the palace card",
  };

  function target() {
    return document.querySelector("input.gg-target:checked");
  }

  // Whether the chosen dice, jokers and karma pay for the target, and why not.
  function verdict(t, dice, jokers, karma) {
    const kind = t.dataset.kind;
    const cost = Number(t.dataset.cost);
    if (!dice.length && !jokers.length) return { ok: false, text: "Choose dice to pay with." };
    if (kind === "building") {
      const colour = t.dataset.colour;
      if (dice.some(function (d) { return d.colour !== colour; })) {
        return { ok: false, text: "✗ Only " + colour + " dice can pay for this building." };
      }
      const values = dice.map(function (d) { return d.value; }).concat(jokers);
      const total = values.reduce(function (a, b) { return a + b; }, 0);
      if (karma === 0) {
        if (total < cost) return { ok: false, text: "✗ Total " + total + ": " + (cost - total) + " short of " + cost + "." };
        if (total - Math.min.apply(null, values) >= cost) {
          return { ok: false, text: "✗ Total " + total + ": one die is not needed — leave it out." };
        }
        return { ok: true, text: "✓ Pays: total " + total + " (needs " + cost + ")." };
      }
      if (!dice.length) return { ok: false, text: "✗ Karma changes dice cards, not jokers." };
      const room = dice.reduce(function (a, d) { return a + 6 - d.value; }, 0);
      if (karma > room) return { ok: false, text: "✗ Karma cannot raise a die above 6." };
      if (total + karma !== cost) {
        return { ok: false, text: "✗ With karma the total must be exactly " + cost + " (now " + (total + karma) + ")." };
      }
      return { ok: true, text: "✓ Pays: " + total + " + " + karma + " karma = " + cost + "." };
    }
    if (dice.length + jokers.length !== 1) {
      return { ok: false, text: "✗ Pay with exactly one die showing " + cost + "; dice cannot be combined." };
    }
    if (jokers.length) {
      if (jokers[0] !== cost) return { ok: false, text: "✗ The joker must be declared as " + cost + "." };
      if (karma) return { ok: false, text: "✗ Karma changes dice cards, not jokers." };
      return { ok: true, text: "✓ Pays: an administrator as " + cost + "." };
    }
    const gap = Math.abs(dice[0].value - cost);
    if (karma !== gap) {
      return { ok: false, text: "✗ A " + dice[0].value + " needs exactly " + gap + " karma to become " + cost + " (now " + karma + ")." };
    }
    return { ok: true, text: gap ? "✓ Pays: " + dice[0].value + " changed by " + gap + " karma." : "✓ Pays: a " + cost + "." };
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
    form.querySelectorAll("input[name='pay[]']").forEach(function (el) {
      const wrong = kind === "building" && el.dataset.colour !== t.dataset.colour;
      el.disabled = wrong;
      if (wrong) el.checked = false;
      el.closest("label").title = wrong ? "Not " + t.dataset.colour + ": cannot pay for this building" : "";
    });
    form.querySelectorAll(".gg-joker select").forEach(function (s) {
      if (kind !== "building") s.value = String(cost);
    });
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
