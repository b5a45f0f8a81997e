"""Real browser: the game as it happened — a score chart on the end screens of the games that
score over time, and the last move glowing on the board (issue 14, item 8).

Screenshots (artifacts/screenshots/chart_*.png, last_move_*.png) — look at them.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.browser import helpers as h
from tests.conftest import Server
from tests.tables import bot_game, bot_table, play_until_over, players

pytestmark = pytest.mark.browser

CHARTED = ["incan_gold", "racing_hedgehogs", "karmaka", "ganges"]


@pytest.mark.parametrize("game", CHARTED)
async def test_end_screen_draws_a_score_chart(sqlite_server: Server, web: h.Web, game: str) -> None:
    """A finished game's table page charts every seat's score round by round: one line and
    one named legend entry per seat, the legend's last values equal to the view's history."""
    from playwright.async_api import expect

    async with bot_game(sqlite_server, game) as ((me,), slug):
        await play_until_over(sqlite_server, slug, me, 0, seed=3)
        history = me.view["score_history"]
        n = players(game)
        assert history and all(len(row) == n for row in history)
        for size, viewport in (("laptop", h.LAPTOP), ("phone", h.PHONE)):
            page = await web.open(f"/t/{slug}", me, viewport=viewport)
            chart = page.locator("#board .score-chart")
            await expect(chart).to_be_visible()
            await expect(chart.locator("polyline")).to_have_count(n)
            legend = chart.locator(".chart-legend li")
            await expect(legend).to_have_count(n)
            await expect(legend.nth(0)).to_contain_text("Person 0 (you)")
            for s in range(n):
                await expect(legend.nth(s)).to_contain_text(f": {history[-1][s]}")
            # Every line has one point per round.
            points = await chart.locator("polyline").first.get_attribute("points")
            assert points is not None and len(points.split()) == len(history)
            label = await chart.locator("svg[role=img]").get_attribute("aria-label")
            assert label is not None and "Person 0" in label
            await chart.scroll_into_view_if_needed()
            await h.shot(page, f"chart_{game}_{size}")
            await chart.screenshot(path=h.SHOTS / f"chart_{game}_{size}_only.png")
            if viewport is h.PHONE:
                await h.assert_fits_phone(page)
            await page.context.close()


@contextlib.asynccontextmanager
async def _two_people_at_incan_gold(server: Server, web: h.Web) -> AsyncIterator[tuple[Any, Any]]:
    """An Incan Gold table of two people and bots, the host's page open at laptop size:
    yields that page and the other person (a websocket client)."""
    (host, other), table = await bot_table(server, "incan_gold", humans=2)
    try:
        await other.connect(table["slug"])
        yield await web.open(f"/t/{table['slug']}", host), other
    finally:
        await other.close()
        await host.close()


async def still(page: Any, player: Any) -> None:
    """Wait until only the two people must choose and the page has settled on that state."""
    await player.wait_for(
        lambda p: bool(p.states) and set(p.states[-1]["room"]["to_act"]) == {0, 1}, timeout=15
    )
    await h.settled(page, version=player.version)


async def test_the_last_move_glows_on_the_board(sqlite_server: Server, web: h.Web) -> None:
    """When the other explorers' choices are revealed, the new path card and the changed rows
    are marked `just-changed` — a few parts, not the whole board; nothing glows on load."""
    from playwright.async_api import expect

    async with _two_people_at_incan_gold(sqlite_server, web) as (page, other):
        await still(page, other)
        await expect(page.locator("#me button.torch")).to_be_enabled()
        await expect(page.locator(".just-changed")).to_have_count(0)
        grown = False
        # Both people go deeper until a decision reveals a new path card (a round that ends
        # in flight, which changes most of the board, is skipped).
        for _ in range(10):
            # The bot has chosen; only the two people are left to choose: a still state.
            await still(page, other)
            before = await page.locator(".ig-path li").count()
            version = other.version
            await page.locator("#me button.torch").click()
            await other.act({"type": "torch"}, version)
            await other.wait_for(lambda p, v=version: p.version > v + 1, timeout=30)
            await still(page, other)
            if await page.locator(".ig-path li").count() == before + 1:
                grown = True
                break
        assert grown, "no decision revealed a new path card"
        await expect(page.locator(".ig-path li.just-changed").last).to_be_visible()
        marked = await page.locator("#board .just-changed").count()
        assert 1 <= marked <= 16, marked
        await h.shot(page, "last_move_laptop")


# A state that adds two parts to the board: a badge with white text on its own colour and a
# part with dark text (as htmx swaps a pushed board: before-swap, replace, after-swap).
_PUSH_TWO_PARTS = """() => {
  const old = document.getElementById("board");
  const fresh = old.cloneNode(true);
  fresh.dataset.version = String(Number(old.dataset.version) + 1);
  const light = document.createElement("span");
  light.id = "t-light"; light.dataset.mark = ""; light.textContent = "exposed";
  light.style.color = "#fff"; light.style.backgroundColor = "rgb(138, 100, 18)";
  const dark = document.createElement("span");
  dark.id = "t-dark"; dark.dataset.mark = ""; dark.textContent = "new";
  dark.style.color = "#222";
  (fresh.querySelector("section") || fresh).append(light, dark);
  document.dispatchEvent(new CustomEvent("htmx:oobBeforeSwap", {detail: {target: old}}));
  old.replaceWith(fresh);
  document.dispatchEvent(new CustomEvent("htmx:oobAfterSwap", {detail: {target: fresh}}));
}"""


async def test_a_badge_with_light_text_glows_by_its_outline(
    sqlite_server: Server, web: h.Web
) -> None:
    """A changed part whose text is light (a badge on its own colour) glows by its outline
    only, its own background kept, so its words stay readable; a dark-text part gets the
    glow's pale background as before."""
    async with _two_people_at_incan_gold(sqlite_server, web) as (page, other):
        await still(page, other)
        await page.evaluate(_PUSH_TWO_PARTS)
        await page.wait_for_function(
            "() => document.getElementById('t-dark')?.classList.contains('just-changed')"
        )
        looks = await page.evaluate(
            """() => ["t-light", "t-dark"].map((id) => {
                  const el = document.getElementById(id), css = getComputedStyle(el);
                  return [el.className, css.animationName, css.backgroundColor];
                })"""
        )
        (light_cls, light_anim, light_bg), (dark_cls, dark_anim, _) = looks
        assert light_cls.split() == ["just-changed", "glow-ring"], looks
        assert light_anim == "just-changed-ring", looks
        assert light_bg == "rgb(138, 100, 18)", looks  # its own colour, not the glow's
        assert dark_cls.split() == ["just-changed"] and dark_anim == "just-changed", looks
