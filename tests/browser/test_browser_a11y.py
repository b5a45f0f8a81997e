"""Accessibility, checked by axe-core in Debian's Chromium: no serious or critical violation on
the name page, the lobby, and every game's table page for a seat and for a spectator."""

from __future__ import annotations

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    launch,
    need_chromium,
    open_as,
    serious_a11y_violations,
)
from tests.clients import Player
from tests.conftest import Server
from tests.tables import players, seat_bots, shipped_games

pytestmark = pytest.mark.browser


async def test_name_page_and_lobby(sqlite_server: Server) -> None:
    """The first two pages anyone sees."""
    need_chromium()
    from playwright.async_api import async_playwright, expect

    me = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    await me.http.post("/api/tables", json={"game": "karmaka", "seats": 2})
    async with async_playwright() as pw:
        browser = await launch(pw)
        page = await open_as(browser, sqlite_server.url, sqlite_server.url + "/name", None)
        assert await serious_a11y_violations(page) == []
        lobby = await open_as(browser, sqlite_server.url, sqlite_server.url + "/", me)
        await expect(lobby.locator("#lobby-tables")).to_contain_text("Karmaka")
        assert await serious_a11y_violations(lobby) == []
        await browser.close()
    await me.close()


@pytest.mark.parametrize("game", shipped_games())
async def test_table_page_for_a_seat_and_a_spectator(sqlite_server: Server, game: str) -> None:
    """A game under way with bots: the player's page (laptop and phone) and a spectator's."""
    need_chromium()
    from playwright.async_api import async_playwright, expect

    me = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    r = await me.http.post("/api/tables", json={"game": game, "seats": players(game)})
    slug = r.json()["slug"]
    await seat_bots(me, slug, list(range(1, players(game))))
    assert (await me.http.post(f"/api/tables/{slug}/start")).status_code == 200
    url = sqlite_server.url + f"/t/{slug}"
    async with async_playwright() as pw:
        browser = await launch(pw)
        for who, size in ((me, LAPTOP), (me, PHONE), (None, LAPTOP)):
            page = await open_as(browser, sqlite_server.url, url, who, viewport=size)
            await expect(page.locator("#board")).not_to_have_attribute("data-status", "open")
            problems = await serious_a11y_violations(page)
            assert problems == [], f"{game}, {'seat' if who else 'spectator'}, {size}: {problems}"
        await browser.close()
    await me.close()
