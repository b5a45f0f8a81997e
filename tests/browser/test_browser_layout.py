"""Real browser, laptop screens (issue 33): in every game and each phase met in a game against
bots, at 1280×800 and 1366×768, in Polish and in English, the acting person's first enabled
control is inside the window — as the page shows it, or once the page has brought it into
view by itself (reduced motion: at once) — and no text spills out of its box. Ganges: tapping
a card brings its form into view.

Screenshots: artifacts/screenshots/layout_<game>_<lang>_<size>.png."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser import helpers as h
from tests.clients import table_of
from tests.conftest import Server
from tests.tables import app_of, bot_table, my_turn_alone, room_of, shipped_games

pytestmark = pytest.mark.browser

SCREENS: dict[str, Any] = {
    "pl-1280x800": ("pl-PL", h.LAPTOP),
    "en-1280x800": ("en-GB", h.LAPTOP),
    "pl-1366x768": ("pl-PL", {"width": 1366, "height": 768}),
    "en-1366x768": ("en-GB", {"width": 1366, "height": 768}),
}
DECISIONS = 10
"""The person's decisions played per game (each new phase among them is checked)."""

DECISION = """() => {
  const sel = "button:enabled, input:enabled:not([type=hidden]), select:enabled";
  const shown = e => !!(e.offsetParent || e.getClientRects().length)
    && getComputedStyle(e).visibility !== "hidden";
  const first = root => root ? [...root.querySelectorAll(sel)].find(shown) : null;
  const c = first(document.querySelector("#me .game-me"))
    || first(document.getElementById("board"));
  if (!c) return null;
  const r = c.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: innerHeight,
          what: c.outerHTML.slice(0, 100)};
}"""

SPILLS = """(where) => {
  // Text that runs past the content box of the block that holds it (element scroll width over
  // its client width, measured on the text itself so a decorative corner is not counted).
  const out = [];
  const hidden = e => {
    for (let n = e; n && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.display === "none" || s.visibility === "hidden") return true;
      if (s.position === "absolute" && n.clientWidth <= 1) return true;  // visually hidden
    }
    return false;
  };
  for (const root of document.querySelectorAll(where)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!t.textContent.trim()) continue;
      let box = t.parentElement;
      while (box && getComputedStyle(box).display.startsWith("inline")
             && !getComputedStyle(box).display.startsWith("inline-")) box = box.parentElement;
      if (!box || hidden(t.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      const text = range.getBoundingClientRect();
      if (!text.width) continue;
      // The block holding the text and its blocks up to the area: none may be overrun by it.
      for (let b = box, up = 0; b && up < 8 && b !== root.parentElement;
           b = b.parentElement, up++) {
        const s = getComputedStyle(b);
        if (s.overflowX !== "visible") break;
        if (b.scrollWidth <= b.clientWidth + 1) continue;
        const edge = b.getBoundingClientRect();
        const right = edge.left + b.clientLeft + b.clientWidth;
        if (text.right > right + 1) {
          out.push(b.tagName + "." + b.className + ": " + t.textContent.trim().slice(0, 40)
                   + " (" + Math.round(text.right - right) + " px)");
          break;
        }
      }
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push("the page scrolls sideways");
  return out.slice(0, 6);
}"""


def phase_of(state: Any) -> str:
    """A game state's phase (or round) as the checks count them."""
    for name in ("phase", "step", "stage"):
        value = getattr(state, name, None)
        if value is not None:
            return str(value)
    return str(getattr(state, "round", "play"))


async def check(page: Any, screen: str, version: int) -> list[str]:
    """What is wrong with `page` at `version`: the decision outside the window, spilled text."""
    await h.settled(page, version=version)
    problems = []
    decision = await page.evaluate(DECISION)
    if decision is not None and not (
        decision["top"] >= 0 and decision["bottom"] <= decision["height"] + 0.5
    ):
        problems.append(
            f"{screen}: decision at {decision['top']:.0f}–{decision['bottom']:.0f} px "
            f"of {decision['height']}: {decision['what']}"
        )
    problems += [
        f"{screen}: spills: {s}" for s in await page.evaluate(SPILLS, "#board, #me, #seats")
    ]
    return problems


async def ganges_card_tap(page: Any) -> list[str]:
    """Tap the first card that must be paid for: its payment form comes into view."""
    card = page.locator(
        "#board label:has(input.gg-target:enabled[data-kind='building']), "
        "#board label:has(input.gg-target:enabled[data-kind='ship']), "
        "#board label:has(input.gg-target:enabled[data-kind='palace'])"
    )
    if not await card.count():
        return []
    await page.evaluate("window.scrollTo(0, 0)")
    await card.first.click()
    form = page.locator("form.gg-pay:not([hidden])")
    await form.wait_for(state="visible", timeout=5000)
    box = await form.evaluate(
        "f => { const r = f.getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }"
    )
    if box[0] < 0 or box[0] > box[2] - 80:
        return [f"ganges: the payment form is at {box[0]:.0f} px of {box[2]} after a card tap"]
    return []


@pytest.mark.parametrize("game", sorted(shipped_games()))
async def test_the_decision_is_in_view_and_no_text_spills(
    sqlite_server: Server, game: str, web: h.Web
) -> None:

    people, table = await bot_table(sqlite_server, game)
    me = people[0]
    await me.connect(table["slug"])
    url = f"{sqlite_server.url}/t/{table['slug']}"
    rng = random.Random(33)
    problems: list[str] = []
    phases: set[str] = set()
    checked = 0
    try:
        pages = {
            screen: await web.open(
                url,
                me,
                viewport=size,
                locale=locale,
                reduced_motion="reduce",
            )
            for screen, (locale, size) in SCREENS.items()
        }
        tapped = False
        for _ in range(DECISIONS):
            await my_turn_alone(me)
            if room_of(me)["status"] == "finished":
                break
            version = me.version
            live = table_of(app_of(sqlite_server), table["slug"]).game
            assert live is not None and live.version == version
            phase = phase_of(live.state)
            if phase not in phases:
                phases.add(phase)
                for screen, page in pages.items():
                    problems += [f"[{phase}] {p}" for p in await check(page, screen, version)]
                    checked += 1
                    if len(phases) == 1:
                        await page.screenshot(path=h.SHOTS / f"layout_{game}_{screen}.png")
            if game == "ganges" and not tapped:
                found = await ganges_card_tap(pages["pl-1280x800"])
                tapped = await pages["pl-1280x800"].locator("form.gg-pay:not([hidden])").count() > 0
                problems += found
            action = rng.choice(live.engine.legal_actions(live.state, 0))
            await me.act(live.engine.dump_action(action), version)
            await me.wait_for(lambda p, v=version: p.version > v, timeout=30)
    finally:
        await me.close()
    assert checked >= 4, f"only {checked} checks ran"
    assert not problems, "\n".join(problems[:16])
