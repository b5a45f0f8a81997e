"""Real browser: nothing covers the board. On every game, at laptop and phone sizes, every
enabled control and every card the page shows passes Playwright's actionability checks
(visible, stable, enabled and the one element that would receive the click — no `force`), at
several decision points of a game against bots (issue 14)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    SHOTS,
    launch,
    need_chromium,
    open_as,
    settled,
)
from tests.clients import table_of
from tests.conftest import Server
from tests.tables import app_of, bot_table, my_turn_alone, room_of, shipped_games

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

    await settled(page, version=version)
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
async def test_every_control_and_card_can_be_clicked(sqlite_server: Server, game: str) -> None:
    need_chromium()
    from playwright.async_api import async_playwright

    people, table = await bot_table(sqlite_server, game)
    me = people[0]
    await me.connect(table["slug"])
    url = f"{sqlite_server.url}/t/{table['slug']}"
    rng = random.Random(14)
    try:
        async with async_playwright() as pw:
            browser = await launch(pw)
            pages = {
                "laptop": await open_as(browser, sqlite_server.url, url, me, viewport=LAPTOP),
                "phone": await open_as(browser, sqlite_server.url, url, me, viewport=PHONE),
            }
            checked = 0
            failures: list[str] = []
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
                        await page.screenshot(path=SHOTS / f"clickable_{game}_{size}.png")
                game_state = table_of(app_of(sqlite_server), table["slug"]).game
                assert game_state is not None and game_state.version == version
                action = rng.choice(game_state.engine.legal_actions(game_state.state, 0))
                await me.act(game_state.engine.dump_action(action), version)
                await me.wait_for(lambda p, v=version: p.version > v, timeout=30)
            await browser.close()
    finally:
        await me.close()
    assert checked >= 10, f"only {checked} controls and cards were found"
    assert not failures, "\n".join(failures[:12])
