// Replay page: ← / → step through the moves, Home / End jump to the ends, the slider goes to
// any move. Each step is a plain link (shareable); pressing a key or moving the slider fetches
// that step and puts it in place without reloading the page, so quick presses all count: each
// one steps from the move last asked for, and only the newest answer is shown.
(function () {
  "use strict";
  const page = document.querySelector("[data-replay]");
  if (!page) return;
  let at = Number(page.dataset.at);
  const last = Number(page.dataset.last);
  let asked = 0;

  function show(url, html, mine) {
    if (mine !== asked) return;  // a newer step was asked for meanwhile
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.querySelector("[data-replay]");
    if (!fresh) { window.location.href = url; return; }
    page.innerHTML = fresh.innerHTML;
    page.dataset.at = fresh.dataset.at;
    document.title = doc.title;
    history.replaceState(null, "", url);
  }
  function go(step) {
    step = Math.max(0, Math.min(last, step));
    if (step === at) return;
    at = step;
    const url = page.dataset.base + step;
    const mine = ++asked;
    const counter = page.querySelector(".replay-at");
    if (counter) counter.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) { show(url, html, mine); })
      .catch(function () { if (mine === asked) window.location.href = url; });
  }
  const STEPS = {
    Home: function () { return 0; },
    End: function () { return last; },
    ArrowLeft: function () { return at - 1; },
    ArrowRight: function () { return at + 1; },
  };
  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
    const target = evt.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    const step = STEPS[evt.key];
    if (!step || !page.querySelector('[data-replay-key="' + evt.key + '"]')) return;
    evt.preventDefault();
    go(step());
  });
  document.addEventListener("change", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-replay-slider]")) go(Number(evt.target.value));
  });
})();
