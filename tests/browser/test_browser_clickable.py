"""Real browser: nothing covers the board. On every game, at laptop and phone sizes, every
enabled control and every card the page shows passes Playwright's actionability checks
(visible, stable, enabled and the one element that would receive the click — no `force`), at
several decision points of a game against bots (issue 14)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser import helpers as h
from tests.conftest import Server
from tests.tables import bot_game, my_turn_alone, random_move, room_of, shipped_games

pytestmark = pytest.mark.browser

TARGETS = (
    "#board button:enabled, #me button:enabled, #me input:enabled, "
    "#board [class*='card']:not(.km-tip), #me [class*='card']:not(.km-tip)"
)
CHECKS_AT = (0, 3, 7)
"""The person's decisions at which the pages are checked."""


async def uncovered(page: Any, version: int) -> tuple[int, list[str]]:
    """Trial-click every visible target on `page` once it shows `version`; returns how many
    were checked and the failures."""
    from playwright.async_api import Error as PlaywrightError

    await h.settled(page, version=version)
    targets = page.locator(TARGETS)
    checked = 0
    failures: list[str] = []
    for i in range(await targets.count()):
        target = targets.nth(i)
        if not await target.is_visible():
            continue  # folded away on purpose (a closed <details>, a hidden panel)
        try:
            await target.click(trial=True, timeout=2500)
        except PlaywrightError as exc:
            html = (await target.evaluate("e => e.outerHTML"))[:120]
            failures.append(f"{html}: {str(exc).splitlines()[0]}")
        checked += 1
    return checked, failures


@pytest.mark.parametrize("game", sorted(shipped_games()))
async def test_every_control_and_card_can_be_clicked(
    sqlite_server: Server, web: h.Web, game: str
) -> None:
    rng = random.Random(14)
    checked = 0
    failures: list[str] = []
    async with bot_game(sqlite_server, game) as ((me,), slug):
        pages = {
            "laptop": await web.open(f"/t/{slug}", me),
            "phone": await web.open(f"/t/{slug}", me, viewport=h.PHONE),
        }
        for decision in range(max(CHECKS_AT) + 1):
            await my_turn_alone(me)
            if room_of(me)["status"] == "finished":
                break
            version = me.version
            if decision in CHECKS_AT:
                for size, page in pages.items():
                    count, failed = await uncovered(page, version)
                    checked += count
                    failures += [f"{size} @v{version}: {f}" for f in failed]
                    await h.shot(page, f"clickable_{game}_{size}", full_page=False)
            await random_move(sqlite_server, slug, me, version, rng)
    assert checked >= 10, f"only {checked} controls and cards were found"
    assert not failures, "\n".join(failures[:12])
