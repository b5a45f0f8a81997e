"""Real browser: a game that exists only in the tests (High Card, tests/high_card, registered
for the session by tests/conftest.py) is played to the end by clicking, against a bot — its
screen found in the tests' own template folder, its card hidden from the other seat until the
reveal. Screenshot: artifacts/screenshots/registered_game.png."""

from __future__ import annotations

import re

import pytest

from tests.browser import helpers as h
from tests.clients import table_of
from tests.conftest import Server
from tests.high_card import ENGINE
from tests.tables import app_of, bot_game

pytestmark = pytest.mark.browser


async def test_a_game_registered_by_the_tests_plays_to_the_end_by_clicking(
    sqlite_server: Server, web: h.Web
) -> None:
    from playwright.async_api import expect

    async with bot_game(sqlite_server, ENGINE.spec.id) as ((me,), slug):
        page = await web.open(f"/t/{slug}", me)
        board = page.locator("#board")
        hidden_card = page.locator(".hc-player:not(.mine) .hc-card")
        await expect(page.locator(".hc-player.mine .hc-card")).to_have_text(re.compile(r"^\d+$"))
        await expect(page.locator(".hc-me .hc-mine")).to_have_text(re.compile(r"^\d+$"))
        await expect(hidden_card).to_have_text("face down")
        clicks = 0
        for _ in range(10):
            version = int(await board.get_attribute("data-version") or 0)
            if await board.get_attribute("data-status") == "finished":
                break
            choice = page.locator("#me button[ws-send]").last
            if await choice.is_visible():
                await choice.click()
                clicks += 1
            await h.settled(page, version=version + 1)
        await expect(board).to_have_attribute("data-status", "finished")
        await expect(board.locator(".result-banner")).to_contain_text("win")
        game_state = table_of(app_of(sqlite_server), slug).game
        assert game_state is not None and ENGINE.outcome(game_state.state) is not None
        revealed = [str(card) for card in game_state.state.hands]
        await expect(page.locator(".hc-card")).to_have_text(revealed)
        await h.shot(page, "registered_game")
    assert clicks == 1, "the person played their one turn by clicking"
