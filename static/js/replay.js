// Replay page: ← / → step through the moves, Home / End jump to the ends, the slider goes to
// any move. Each step is a plain link (shareable), so this only follows them.
(function () {
  "use strict";
  const page = document.querySelector("[data-replay]");
  if (!page) return;
  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
    const target = evt.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    const link = page.querySelector('[data-replay-key="' + evt.key + '"]');
    if (link) {
      evt.preventDefault();
      window.location.href = link.href;
    }
  });
  const slider = page.querySelector("[data-replay-slider]");
  if (slider) {
    slider.addEventListener("change", function () {
      window.location.href = page.dataset.base + slider.value;
    });
  }
})();
