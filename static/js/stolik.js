// Stolik's small page behaviours: errors as toasts, invite copy, connection status,
// and the lobby's game picker. Everything live comes through HTMX's websocket extension.
(function () {
  "use strict";

  // The page's words in its language: base.html puts them, already translated, in
  // <body data-i18n>; "{name}" placeholders are filled here.
  let WORDS = {};
  try { WORDS = JSON.parse(document.body.dataset.i18n || "{}"); } catch (e) { WORDS = {}; }
  function t(key, params) {
    let text = WORDS[key] || key;
    Object.keys(params || {}).forEach(function (k) { text = text.split("{" + k + "}").join(params[k]); });
    return text;
  }

  // Toasts: every error shows in #toast, hides by itself after a few seconds, can be
  // dismissed (click, Esc), is replaced by the next one, and goes once the table has moved on
  // (a stale "not payable" must not stay up after the retried move went through).
  const TOAST_MS = 6000;
  let toastTimer = null;
  let toastShownAt = 0;
  function hideToast() {
    const toast = document.getElementById("toast");
    if (toast) toast.hidden = true;
    clearTimeout(toastTimer);
  }
  function armToast() {
    const toast = document.getElementById("toast");
    if (!toast) return;
    toast.hidden = false;
    toastShownAt = Date.now();
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, TOAST_MS);
  }
  function showToast(message) {
    const toast = document.getElementById("toast");
    if (!toast) return;
    const text = toast.querySelector(".toast-text") || toast;
    text.textContent = message;
    toast.classList.add("error");
    armToast();
  }
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("#toast")) hideToast();
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape") hideToast();
  });

  // HTTP errors from hx-post buttons (join, leave, start) carry {"error": {code, message}}.
  document.addEventListener("htmx:responseError", function (evt) {
    const xhr = evt.detail.xhr;
    let message = t("error", { status: xhr.status });
    try {
      const body = JSON.parse(xhr.responseText);
      if (body.error && body.error.message) message = body.error.message;
      if (body.error && body.error.code === "no_name") {
        // Name first, then the seat that was asked for is taken (the name form does it).
        const page = document.querySelector(".table-page");
        let next = page ? decodeURIComponent(page.dataset.next) : "/";
        const asked = (evt.detail.elt.getAttribute("hx-post") || "").match(/\/join\?seat=(\d+)/);
        if (asked) next += (next.indexOf("?") < 0 ? "?" : "&") + "sit=" + asked[1];
        window.location = "/name?next=" + encodeURIComponent(next);
        return;
      }
    } catch (e) { /* not JSON: keep the generic message */ }
    showToast(message);
  });

  // Turn clocks and "disconnected" times tick in the browser between server pushes. The
  // server renders its own time into data-now on the seats bar / lobby list; each ticking
  // element remembers when it arrived, so the browser's clock may be wrong without harm.
  function mmss(seconds) {
    const total = Math.max(0, Math.floor(seconds));
    const d = Math.floor(total / 86400);
    const h = Math.floor((total % 86400) / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    const pad = function (n) { return (n < 10 ? "0" : "") + n; };
    if (d) return t("days", { n: d }) + " " + h + ":" + pad(m) + ":" + pad(s);
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }
  function serverNow(el) {
    const holder = el.closest("[data-now]");
    if (!holder) return null;
    if (!holder.dataset.seenAt) holder.dataset.seenAt = String(Date.now() / 1000);
    return parseFloat(holder.dataset.now) + (Date.now() / 1000 - parseFloat(holder.dataset.seenAt));
  }
  function tickClocks() {
    // While the socket is down the server's clocks are unknown: the shown times stand still
    // (counting on, then jumping back at the reconnection, misled people).
    const page = document.querySelector(".table-page");
    if (page && page.classList.contains("offline")) return;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      const now = serverNow(el);
      if (now === null) return;
      const left = parseFloat(el.dataset.deadline) - now;
      el.textContent = mmss(left);
      const box = el.closest(".clock") || el;
      box.classList.toggle("low", left < 10);
    });
    document.querySelectorAll("[data-offline-since]").forEach(function (el) {
      const now = serverNow(el);
      if (now !== null) el.textContent = (el.dataset.label || t("disconnected")) + " " + mmss(now - parseFloat(el.dataset.offlineSince));
    });
    document.querySelectorAll("[data-enable-at]").forEach(function (el) {
      const now = serverNow(el);
      if (now !== null && now >= parseFloat(el.dataset.enableAt)) el.hidden = false;
    });
  }
  setInterval(tickClocks, 500);
  document.addEventListener("htmx:oobAfterSwap", tickClocks);

  // Last move: when a new table state replaces the board (or your own area), the parts it
  // changed glow for a few seconds. Parts are matched by their place in the page (tag and
  // index under the board) and compared by content; the smallest changed parts are marked.
  // A state that changes most of the board at once (a new round) marks nothing.
  const MARKABLE = "li, td, [data-mark], [class*='card']";
  const MAX_MARKS = 16;
  function partKey(el, root) {
    const parts = [];
    for (let node = el; node && node !== root; node = node.parentElement) {
      let i = 0;
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (sib.tagName === node.tagName) i++;
      }
      parts.push(node.tagName + i);
    }
    return parts.reverse().join("/");
  }
  function contentOf(el) { return el.innerHTML.replace(/ ?(just-changed|glow-ring)/g, ""); }
  // A part with light text on a colour of its own (a badge) glows by its outline only: the
  // glow's pale background would hide its text.
  function lightText(el) {
    const rgb = (getComputedStyle(el).color.match(/[\d.]+/g) || []).map(Number);
    return rgb.length >= 3 && (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255 > 0.6;
  }
  function snapshot(root) {
    const map = new Map();
    root.querySelectorAll(MARKABLE).forEach(function (el) { map.set(partKey(el, root), contentOf(el)); });
    return { version: root.dataset.version || null, parts: map };
  }
  const GLOW_MS = 4000;
  const glowing = { board: new Map(), me: new Map() };  // part key -> when it changed
  function markChanges(root, before, marks) {
    const now = Date.now();
    // Nothing to compare with (the page's first fill) or the same state again (a re-sync).
    const fresh = before && before.parts.size &&
      !(root.dataset.version && root.dataset.version === before.version);
    if (fresh) {
      const changed = [];
      root.querySelectorAll(MARKABLE).forEach(function (el) {
        if (before.parts.get(partKey(el, root)) !== contentOf(el)) changed.push(el);
      });
      const smallest = changed.filter(function (el) {
        return !changed.some(function (other) { return other !== el && el.contains(other); });
      });
      if (smallest.length > MAX_MARKS) marks.clear();
      else smallest.forEach(function (el) { marks.set(partKey(el, root), now); });
    }
    // Parts changed by a recent state keep glowing through the next ones (bots are quick).
    root.querySelectorAll(MARKABLE).forEach(function (el) {
      const since = marks.get(partKey(el, root));
      if (since === undefined) return;
      if (now - since >= GLOW_MS) { marks.delete(partKey(el, root)); return; }
      el.style.animationDelay = (since - now) + "ms";
      el.classList.add("just-changed");
      if (lightText(el)) el.classList.add("glow-ring");
      setTimeout(function () { el.classList.remove("just-changed", "glow-ring"); }, GLOW_MS - (now - since));
    });
  }
  // Nothing is computed while htmx swaps (a click right after a swap must find the new
  // controls ready): the old part is only kept, and compared a moment later, off the swap.
  const MARK_MS = 30;
  const replaced = {};
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const target = evt.detail.target;
    if (target && (target.id === "board" || target.id === "me")) replaced[target.id] = target;
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    const target = evt.detail.target;
    if (!target || !(target.id === "board" || target.id === "me")) return;
    const id = target.id;
    const old = replaced[id];
    delete replaced[id];
    setTimeout(function () {
      const root = document.getElementById(id);
      if (root) markChanges(root, old ? snapshot(old) : null, glowing[id]);
    }, MARK_MS);
  });

  // Your turn, noticed from another tab: the title flashes ("● Your turn — Karmaka") until
  // the page is looked at; optionally a short tone made with Web Audio and a browser
  // notification. The choices are kept in this browser (localStorage).
  const baseTitle = document.title;
  let lastPrompt = null;
  let flashTimer = null;
  function pref(name) { try { return localStorage.getItem("stolik." + name) === "on"; } catch (e) { return false; } }
  function setPref(name, on) { try { localStorage.setItem("stolik." + name, on ? "on" : "off"); } catch (e) { /* private mode */ } }
  function stopFlash() {
    clearInterval(flashTimer);
    flashTimer = null;
    document.title = baseTitle;
  }
  function flashTitle(game) {
    if (flashTimer) return;
    const alert = "● " + t("your_turn_in", { game: game });
    let on = false;
    document.title = alert;
    flashTimer = setInterval(function () {
      on = !on;
      document.title = on ? baseTitle : alert;
    }, 1000);
  }
  function tone() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, ctx.currentTime);
    osc.frequency.setValueAtTime(880, ctx.currentTime + 0.12);
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.32);
    osc.onended = function () { ctx.close(); };
  }
  function checkTurn() {
    const page = document.querySelector(".table-page");
    if (!page) return;
    const seats = document.getElementById("seats");
    const mine = !!document.querySelector("#seats .seat.mine.to-act");
    const game = page.dataset.title || "Stolik";
    // data-prompt: the version at which this seat's question last changed (a new decision).
    const prompt = seats ? seats.dataset.prompt : null;
    const fresh = prompt !== lastPrompt;
    lastPrompt = prompt;
    if (mine && fresh) {
      if (document.hidden || !document.hasFocus()) {
        flashTitle(game);
        if (pref("sound")) tone();
        if (pref("notify") && "Notification" in window && Notification.permission === "granted") {
          new Notification(t("your_turn_in", { game: game }), { body: document.title, tag: "stolik-turn" });
        }
      }
    }
    if (!mine) stopFlash();
    // Screen readers hear whose turn it is whenever that changes.
    const announcer = document.getElementById("turn-announcer");
    if (announcer) {
      const names = Array.prototype.map.call(
        document.querySelectorAll("#seats .seat.to-act:not(.mine) .seat-name"),
        function (el) { return el.textContent.trim(); });
      const text = mine ? t("your_turn") : names.length ? t("waiting_for", { names: names.join(", ") }) : "";
      if (announcer.textContent !== text) announcer.textContent = text;
    }
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) stopFlash(); });
  window.addEventListener("focus", stopFlash);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "seats") checkTurn();
  });
  document.addEventListener("change", function (evt) {
    const box = evt.target;
    if (!box.matches || !box.matches("input[data-pref]")) return;
    const name = box.dataset.pref;
    if (name === "notify" && box.checked && "Notification" in window) {
      Notification.requestPermission().then(function (answer) {
        box.checked = answer === "granted";
        setPref(name, box.checked);
      });
      return;
    }
    setPref(name, box.checked);
    if (name === "sound" && box.checked) tone();
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-pref]").forEach(function (box) {
      box.checked = pref(box.dataset.pref);
    });
  });

  // Chat: times in the reader's own clock, newest line in view.
  function tidyChat() {
    const list = document.getElementById("chat-log");
    if (!list) return;
    list.querySelectorAll("time[datetime]").forEach(function (t) {
      const when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when)) t.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    });
    list.scrollTop = list.scrollHeight;
  }

  // The game log: after the whole log, a move sends only its new lines, put at the top; the
  // list keeps the newest data-tail lines (as many as a whole log holds).
  function trimLog(list) {
    const tail = parseInt(list.dataset.tail || "0", 10);
    if (!(tail > 0)) return;
    const lines = list.querySelectorAll(":scope > li:not(.empty)");
    for (let i = tail; i < lines.length; i++) lines[i].remove();
  }

  // A chat line refused by the server (its code starts with "chat_", or no name yet) goes
  // back into the box, unless something new was typed there meanwhile. Lines sent and not yet
  // back in the chat are kept in order; the newest of them is the one refused.
  const unsent = [];
  function chatArrived() {
    document.querySelectorAll("#chat-log .chat-text").forEach(function (el) {
      if (el.dataset.seen) return;
      el.dataset.seen = "1";
      const at = unsent.indexOf(el.textContent.trim());
      if (at >= 0) unsent.splice(at, 1);
    });
  }
  function chatRefused() {
    const toast = document.getElementById("toast");  // the new one (the event names the old)
    const code = (toast && toast.dataset.code) || "";
    const box = document.getElementById("chat-text");
    if (!unsent.length || !box || !(code.indexOf("chat_") === 0 || code === "no_name")) return;
    const text = unsent.pop();
    if (!box.value) box.value = text;
  }

  // Errors pushed over the websocket arrive as an out-of-band #toast; keep it visible briefly.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    const target = evt.detail.target;
    if (target && target.id === "log") trimLog(target);
    if (target && target.id === "chat-log") { tidyChat(); chatArrived(); }
    if (target && target.id === "toast") chatRefused();
    if (target && target.id === "toast") armToast();
    // A new table state after the error was read: the error belongs to the past.
    if (target && target.id === "board" && Date.now() - toastShownAt > 1500) hideToast();
  });

  // Compound moves. A <form ws-send data-act-version="N"> sends {type: "act", version: N,
  // action} where `action` is built from the form's fields: each value is read as JSON when
  // it parses ("3", "true", '"red"', '{"a": 1}') and kept as a string otherwise; a name
  // ending in "[]" collects every checked or selected value into a list (empty when none);
  // dotted names ("pay.karma") build nested objects. Only the submit button that was pressed
  // adds its own name/value. Buttons inside such a form that send their own act must be
  // type="button".
  function readValue(raw) {
    try { return JSON.parse(raw); } catch (e) { return raw; }
  }
  function putPath(target, name, value) {
    const isList = name.endsWith("[]");
    const parts = (isList ? name.slice(0, -2) : name).split(".");
    let node = target;
    for (let i = 0; i < parts.length - 1; i++) {
      if (typeof node[parts[i]] !== "object" || node[parts[i]] === null) node[parts[i]] = {};
      node = node[parts[i]];
    }
    const key = parts[parts.length - 1];
    if (isList) {
      if (!Array.isArray(node[key])) node[key] = [];
      if (value !== undefined) node[key].push(value);
    } else if (value !== undefined) {
      node[key] = value;
    }
  }
  function formAction(form, submitter) {
    const action = {};
    for (const el of form.elements) {
      if (!el.name || el.disabled) continue;
      if (el.tagName === "BUTTON" || el.type === "submit") continue;
      if (el.name.endsWith("[]")) putPath(action, el.name, undefined);
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) continue;
      if (el.tagName === "SELECT" && el.multiple) {
        for (const opt of el.selectedOptions) putPath(action, el.name, readValue(opt.value));
        continue;
      }
      putPath(action, el.name, readValue(el.value));
    }
    if (submitter && submitter.name) putPath(action, submitter.name, readValue(submitter.value));
    return action;
  }
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    const form = evt.target;
    if (form && form.id === "chat-form") {
      // Send only {type, text}; clear the box once the line is on its way, but keep the line
      // until the server has taken it: a refusal (too fast, …) puts it back in the box.
      const text = form.elements.text.value;
      evt.detail.messageBody = JSON.stringify({ type: "chat", text: text });
      unsent.push(text.trim());
      setTimeout(function () { form.reset(); form.elements.text.focus(); }, 0);
      return;
    }
    if (!form || form.tagName !== "FORM" || form.dataset.actVersion === undefined) return;
    const trigger = evt.detail.triggeringEvent;
    const action = formAction(form, trigger && trigger.submitter);
    evt.detail.messageBody = JSON.stringify({
      type: "act", version: Number(form.dataset.actVersion), action: action,
    });
  });

  // While the socket is down, the table's controls are disabled (a click would be lost) and
  // the page says so; on reconnect the server sends the full state again.
  function setConn(text, cls) {
    const el = document.getElementById("conn-status");
    if (el) { el.textContent = text; el.className = "conn " + cls; }
    const page = document.querySelector(".table-page");
    if (page) page.classList.toggle("offline", cls === "down");
  }
  document.addEventListener("htmx:wsOpen", function () { setConn(t("live"), "live"); });
  document.addEventListener("htmx:wsClose", function () { setConn(t("reconnecting"), "down"); });
  // 4401: this device was signed out (from "Your devices", here or elsewhere). The page is
  // loaded again, which forgets the signed-out identity: the browser is nobody from then on.
  document.addEventListener("htmx:wsClose", function (evt) {
    const e = evt.detail && evt.detail.event;
    if (e && e.code === 4401) window.location.reload();
  });
  document.addEventListener("htmx:wsError", function () { setConn(t("reconnecting"), "down"); });

  // Your decision in view. When a new decision of yours arrives (or the page opens on one)
  // and its first control is outside the window, the page scrolls just enough to show it —
  // at once when the system asks for reduced motion. A game's script that reveals a control
  // itself (Ganges' payment form) calls Stolik.bringIntoView.
  const CONTROLS = "button:enabled, input:enabled:not([type=hidden]), select:enabled, textarea:enabled";
  const lessMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function isShown(el) {
    return !!(el.offsetParent || el.getClientRects().length) && getComputedStyle(el).visibility !== "hidden";
  }
  function firstControl(root) {
    if (!root) return null;
    return Array.prototype.find.call(root.querySelectorAll(CONTROLS), isShown) || null;
  }
  function decisionControl() {
    if (!document.querySelector("#seats .seat.mine.to-act")) return null;
    return firstControl(document.querySelector("#me .game-me")) || firstControl(document.getElementById("board"));
  }
  function bringIntoView(el) {
    if (!el) return;
    const box = el.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    el.scrollIntoView({ block: "nearest", inline: "nearest",
      behavior: lessMotion && lessMotion.matches ? "auto" : "smooth" });
  }
  window.Stolik = { bringIntoView: bringIntoView };
  // A new decision is brought into view once; after that, a push that moves a decision the
  // person could see out of the window (the board above it grew) brings it back, but one they
  // scrolled away from themselves stays where they left it.
  let broughtPrompt = null;
  let decisionSeen = false;
  function inWindow(el) {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }
  function decisionInView() {
    const seats = document.getElementById("seats");
    const control = decisionControl();
    if (!seats || !control) { decisionSeen = false; return; }
    const board = document.getElementById("board");
    const key = seats.dataset.prompt + "/" + (board ? board.dataset.status : "");
    const fresh = key !== broughtPrompt;
    broughtPrompt = key;
    const active = document.activeElement;
    if (active && active.closest && active.closest(".chat-form")) return;  // typing a chat line
    if (fresh || decisionSeen) {
      bringIntoView(control);
      decisionSeen = true;
    }
  }
  // The page's layout can move a decision the person could see without a push (a clock's
  // words wrapping onto another line, a panel opening, a font arriving): when the page's size
  // changes, a decision that was in view and no longer is comes back.
  if (window.ResizeObserver) {
    const resized = new ResizeObserver(function () {
      if (!decisionSeen) return;
      const control = decisionControl();
      if (control && !inWindow(control)) bringIntoView(control);
    });
    document.addEventListener("DOMContentLoaded", function () { resized.observe(document.body); });
  }
  let scrollCheck = 0;
  window.addEventListener("scroll", function () {
    if (scrollCheck) return;
    scrollCheck = requestAnimationFrame(function () {
      scrollCheck = 0;
      const control = decisionControl();
      decisionSeen = !!control && inWindow(control);
    });
  }, { passive: true });

  // Keyboard focus stays in the decision area: when a push replaces the part that held the
  // focus (the button just pressed), the same control — or the area's first one — takes it
  // again, instead of the focus falling to the top of the page.
  let lostFocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    const target = evt.detail.target;
    const active = document.activeElement;
    if (!target || !(target.id === "board" || target.id === "me")) return;
    if (active && active !== document.body && target.contains(active)) {
      lostFocus = { id: target.id, key: partKey(active, target) };
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    const target = evt.detail.target;
    if (!lostFocus || !target || target.id !== lostFocus.id) return;
    const root = document.getElementById(lostFocus.id);
    const key = lostFocus.key;
    lostFocus = null;
    if (!root || (document.activeElement && document.activeElement !== document.body)) return;
    const same = Array.prototype.find.call(root.querySelectorAll(CONTROLS), function (el) {
      return partKey(el, root) === key && isShown(el);
    });
    const me = document.getElementById("me");
    let next = same || firstControl(document.querySelector("#me .game-me")) || firstControl(root);
    if (!next && me) { me.setAttribute("tabindex", "-1"); next = me; }
    if (next) next.focus({ preventScroll: true });
  });

  // Tooltips opened by a tap (a card's text shown while it has the focus): one at a time, and a
  // tap anywhere else or Esc closes it (on touch screens hover no longer opens them: CSS).
  const TIPPED = ".dc-chip, .km-mini";
  document.addEventListener("pointerdown", function (evt) {
    const active = document.activeElement;
    if (active && active.matches && active.matches(TIPPED) && !active.contains(evt.target)) active.blur();
  });
  document.addEventListener("keydown", function (evt) {
    const active = document.activeElement;
    if (evt.key === "Escape" && active && active.matches && active.matches(TIPPED)) active.blur();
  });

  // A table wider than its box (Dreadful Circus' final scores on a phone) says so: its cue
  // shows while columns are hidden to the right.
  function scrollCues() {
    document.querySelectorAll("[data-scroll-cue]").forEach(function (box) {
      const cue = document.getElementById(box.dataset.scrollCue);
      const more = box.scrollWidth - box.clientWidth - box.scrollLeft > 2;
      box.classList.toggle("has-more", more);
      if (cue) cue.hidden = box.scrollWidth <= box.clientWidth + 2;
    });
  }
  document.addEventListener("scroll", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-scroll-cue]")) scrollCues();
  }, true);
  window.addEventListener("resize", scrollCues);

  // The page says when it has settled, on <html> (for tools and the browser tests, which
  // wait for it instead of racing the pushes):
  // - data-ready: every script of the page has run and bound its handlers (htmx has processed
  //   the page; set after the DOMContentLoaded handlers of all deferred scripts);
  // - data-live: the socket is open, so the server's pushes are being listened to;
  // - data-pushes: how many pushes the page has applied, counted once a push is swapped in,
  //   its new controls are bound and its changed parts marked (a timer of the marks' MARK_MS,
  //   set after theirs, runs after them);
  // - data-version: the table state on screen after that push (#board's data-version).
  const html = document.documentElement;
  let pushes = 0;
  document.addEventListener("DOMContentLoaded", function () {
    setTimeout(function () { html.dataset.ready = "1"; }, 0);
  });
  document.addEventListener("htmx:wsOpen", function () { html.dataset.live = "1"; });
  ["htmx:wsClose", "htmx:wsError"].forEach(function (name) {
    document.addEventListener(name, function () { delete html.dataset.live; });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    setTimeout(function () {
      // The scroll cues first: showing one moves what is below it.
      scrollCues();
      decisionInView();
      pushes += 1;
      const board = document.getElementById("board");
      if (board && board.dataset.version) html.dataset.version = board.dataset.version;
      html.dataset.pushes = String(pushes);
    }, MARK_MS);
  });

  document.addEventListener("click", function (evt) {
    const button = evt.target.closest("button.copy");
    if (!button) return;
    const input = document.querySelector(button.dataset.copy);
    if (!input) return;
    const label = button.textContent;
    const done = function () {
      button.textContent = t("copied");
      setTimeout(function () { button.textContent = label; }, 2000);
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
