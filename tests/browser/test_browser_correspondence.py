"""Real browser: a two-person game on the 1-day clock played through the correspondence
dashboard only (issue 34, section 3). Each person returns to `/`, sees "your turn" (and the
count in the title), clicks into the table, moves and goes back; the other's dashboard
follows over the lobby's socket without a reload, and the time left ticks. Then the
dashboard at laptop and phone size, in English and Polish, with a vacation shown:
artifacts/screenshots/dashboard_{laptop,phone}_{en,pl}.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser import helpers as h
from tests.clients import Player
from tests.conftest import Server
from tests.high_card import ENGINE
from tests.tables import post

pytestmark = pytest.mark.browser

GAME = ENGINE.spec.id


async def two_on_a_slow_table(server: Server, clock: str = "slow", **extra: object) -> str:
    """Ola hosts a High Card table for two on `clock`; Ewa sits down; started (Ola acts)."""
    ola, ewa = await people(server)
    r = await ola.http.post("/api/tables", json={"game": GAME, "seats": 2, "clock": clock, **extra})
    r.raise_for_status()
    slug: str = r.json()["slug"]
    (await post(ewa, f"/api/tables/{slug}/join", seat=1)).raise_for_status()
    (await post(ola, f"/api/tables/{slug}/start")).raise_for_status()
    return slug


_PEOPLE: dict[str, tuple[Player, Player]] = {}


async def people(server: Server) -> tuple[Player, Player]:
    """Ola and Ewa on `server` (the same two for every table of a test)."""
    if server.url not in _PEOPLE:
        ola = await Player(server.url, server.ws_url).login("Ola")
        ewa = await Player(server.url, server.ws_url).login("Ewa")
        _PEOPLE[server.url] = (ola, ewa)
    return _PEOPLE[server.url]


BADGE_SPY = """window.badges = [];
navigator.setAppBadge = (n) => { window.badges.push(n); return Promise.resolve(); };
navigator.clearAppBadge = () => { window.badges.push(0); return Promise.resolve(); };"""
"""Records what the page puts on the app badge (headless Chromium shows no badge); added by
the DevTools protocol before the page's scripts, so the page's CSP is not loosened."""


async def badge_watched(web: h.Web, player: Player) -> Any:
    """`player` on the dashboard in a context whose app badge calls are recorded."""
    context = await web.browser.new_context(viewport=h.LAPTOP)
    cookie = player.http.cookies.get("stolik")
    assert cookie
    await context.add_cookies([{"name": "stolik", "value": cookie, "url": web.base}])
    await context.add_init_script(BADGE_SPY)
    page = await context.new_page()
    await page.goto(web.url("/"))
    await h.settled(page)
    return page


async def move_from_the_dashboard(page: object, slug: str) -> None:
    """On the dashboard: the row of `slug` says "your turn"; its Play link opens the table,
    the one move is made by clicking, and the Stolik link leads back to the dashboard."""
    from playwright.async_api import Page, expect

    assert isinstance(page, Page)
    row = page.locator(f'#your-tables .dash-row[data-slug="{slug}"]')
    await expect(row).to_have_class(re.compile("your-turn"))
    await expect(row).to_contain_text("your turn")
    await expect(page).to_have_title(re.compile(r"^\(1\) "))
    await row.get_by_role("link", name="Play").click()
    await expect(page).to_have_url(re.compile(f"/t/{slug}"))
    await h.settled(page)
    board = page.locator("#board")
    version = int(await board.get_attribute("data-version") or 0)
    await page.locator("#me button[ws-send]").last.click()
    await h.settled(page, version=version + 1)
    await page.locator("a.brand").click()
    await expect(page).to_have_url(re.compile(r"/$"))
    await h.settled(page)


async def test_a_game_on_the_one_day_clock_played_from_the_dashboard(
    sqlite_server: Server, web: h.Web
) -> None:
    from playwright.async_api import expect

    try:
        slug = await two_on_a_slow_table(sqlite_server)
        ola, ewa = await people(sqlite_server)
        her = await web.open("/", ola)
        hers = await badge_watched(web, ewa)
        row = hers.locator(f'#your-tables .dash-row[data-slug="{slug}"]')
        await expect(row).to_contain_text("waiting for Ola")
        await expect(row).to_contain_text("High Card")
        await expect(row.locator(".dash-seats")).to_contain_text("Ola")
        await expect(hers).to_have_title("Lobby · Stolik")

        # The time left (a day, less the seconds since the start) ticks without a reload.
        left = her.locator(f'.dash-row[data-slug="{slug}"] .time')
        await expect(left).to_have_text(re.compile(r"^23:59:\d\d$"))
        before = await left.text_content()
        await expect(left).not_to_have_text(before or "", timeout=5_000)

        await move_from_the_dashboard(her, slug)
        mine = her.locator(f'#your-tables .dash-row[data-slug="{slug}"]')
        await expect(mine).to_contain_text("waiting for Ewa")
        await expect(her).to_have_title("Lobby · Stolik")

        # Ewa's dashboard, open all along, now says it is her turn (the lobby's socket).
        await expect(row).to_contain_text("your turn", timeout=10_000)
        await expect(hers).to_have_title("(1) Lobby · Stolik")
        assert await hers.evaluate("window.badges") == [0, 1], "the app badge follows"
        await move_from_the_dashboard(hers, slug)

        # The game is over: it leaves both dashboards.
        await expect(hers.locator(f'.dash-row[data-slug="{slug}"]')).to_have_count(0)
        await expect(mine).to_have_count(0, timeout=10_000)
        await expect(hers).to_have_title("Lobby · Stolik")
        assert await hers.evaluate("window.badges") == [0], "back on the dashboard: none"
    finally:
        for p in _PEOPLE.pop(sqlite_server.url, ()):
            await p.close()


async def test_the_dashboard_at_laptop_and_phone_size_in_both_languages(
    sqlite_server: Server, web: h.Web
) -> None:
    """Ola's dashboard with her turn at two tables (the nearer deadline first), Ewa's turn
    at a third where Ewa is away, and a table waiting for players; the pause choice shows
    only with a correspondence clock."""
    from playwright.async_api import expect

    try:
        ola, ewa = await people(sqlite_server)
        late = await two_on_a_slow_table(sqlite_server, "slow7")
        soon = await two_on_a_slow_table(sqlite_server, "slow2")
        theirs = await two_on_a_slow_table(sqlite_server, "slow3", away_days=7)
        # Ola moves at the third table: Ewa's turn; Ewa is away for ten days.
        await ola.connect(theirs)
        await ola.wait_for(lambda p: bool(p.states))
        await ola.act({"type": "keep"}, ola.version)
        await ola.wait_for(lambda p: p.version >= 1 or bool(p.errors))
        assert not ola.errors, ola.errors
        day = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 10 * 86400))
        r = await ewa.http.post("/away", data={"until": day, "tz": "0"})
        assert r.status_code == 303
        r = await ola.http.post("/api/tables", json={"game": "karmaka", "seats": 3})
        r.raise_for_status()

        for lang, locale in (("en", "en-GB"), ("pl", "pl-PL")):
            for size, viewport in (("laptop", h.LAPTOP), ("phone", h.PHONE)):
                page = await web.open("/", ola, viewport=viewport, locale=locale)
                rows = page.locator("#your-tables .dash-row")
                await expect(rows).to_have_count(4)
                order = [await rows.nth(i).get_attribute("data-slug") for i in range(3)]
                assert order == [soon, late, theirs]
                await expect(page).to_have_title(re.compile(r"^\(2\) "))
                await expect(rows.nth(2)).to_contain_text(
                    "away until" if lang == "en" else "na urlopie do"
                )
                if size == "laptop":
                    assert await h.serious_a11y_violations(page) == []
                    pause = page.locator(".away-days")
                    await expect(pause).to_be_hidden()
                    await page.select_option("#clock", "slow3")
                    await expect(pause).to_be_visible()
                    await page.select_option("#clock", "none")
                    await expect(pause).to_be_hidden()
                    await h.shot(page, f"dashboard_{size}_{lang}", full_page=False)
                else:
                    await page.locator(".away-form summary").click()
                    await expect(page.locator("#away-until")).to_be_visible()
                    await h.phone_shot(page, f"dashboard_{size}_{lang}")
                await page.context.close()
        # At the table, Ola sees until when Ewa is away, beside Ewa's paused clock.
        table = await web.open(f"/t/{theirs}", ola, viewport=h.PHONE)
        await expect(table.locator('.seat[data-seat="1"]')).to_contain_text("away until")
        await h.phone_shot(table, "correspondence_table_away_phone")
    finally:
        for p in _PEOPLE.pop(sqlite_server.url, ()):
            await p.close()
