"""Accessibility, checked by axe-core in Debian's Chromium: no serious or critical violation on
the name page, the lobby, and every game's table page for a seat and for a spectator."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h
from tests.clients import Player
from tests.conftest import Server
from tests.tables import bot_table, shipped_games

pytestmark = pytest.mark.browser


async def test_name_page_and_lobby(sqlite_server: Server, web: h.Web) -> None:
    """The first two pages anyone sees."""
    from playwright.async_api import expect

    me = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    await me.http.post("/api/tables", json={"game": "karmaka", "seats": 2})
    page = await web.open("/name")
    assert await h.serious_a11y_violations(page) == []
    lobby = await web.open("/", me)
    await expect(lobby.locator("#your-tables")).to_contain_text("Karmaka")
    assert await h.serious_a11y_violations(lobby) == []
    await me.close()


@pytest.mark.parametrize("game", shipped_games())
async def test_table_page_for_a_seat_and_a_spectator(
    sqlite_server: Server, web: h.Web, game: str
) -> None:
    """A game under way with bots: the player's page (laptop and phone) and a spectator's."""
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, game)
    for who, size in ((me, h.LAPTOP), (me, h.PHONE), (None, h.LAPTOP)):
        page = await web.open(f"/t/{table['slug']}", who, viewport=size)
        await expect(page.locator("#board")).not_to_have_attribute("data-status", "open")
        problems = await h.serious_a11y_violations(page)
        assert problems == [], f"{game}, {'seat' if who else 'spectator'}, {size}: {problems}"
    await me.close()
