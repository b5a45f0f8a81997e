"""Real browser: a profile's ratings with their charts, a leaderboard a page at a time, and
ratings beside names at a rated table — in English and Polish, at laptop and phone size.

Screenshots (artifacts/screenshots/ratings_*.png) — look at them.
"""

from __future__ import annotations

import pytest

from tests.app.ratings.seed import seed_rated_games
from tests.browser import helpers as h
from tests.conftest import Server
from tests.tables import bot_table

pytestmark = pytest.mark.browser


async def test_profile_and_leaderboard_in_both_languages(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    ids = await seed_rated_games(sqlite_server, 200, 60)
    for lang, locale in (("en", "en-GB"), ("pl", "pl-PL")):
        for size, viewport in (("laptop", h.LAPTOP), ("phone", h.PHONE)):
            page = await web.open(f"/u/{ids['Ala']}", viewport=viewport, locale=locale)
            panels = page.locator(".rating-item")
            await expect(panels).to_have_count(2)
            await expect(page.locator(".rating-chart polyline")).to_have_count(2)
            provisional = page.locator(".rating-item .badge.provisional")
            await expect(provisional).to_have_count(0)  # 150 and 50 games: settled
            await h.shot(page, f"ratings_profile_{lang}_{size}")
            if viewport is h.PHONE:
                await h.assert_fits_phone(page)
            await page.context.close()

            page = await web.open("/ratings/incan_gold", viewport=viewport, locale=locale)
            rows = page.locator("table.leaderboard tbody tr")
            await expect(rows).to_have_count(50)
            await expect(rows.first.locator("td").first).to_have_text("1")
            await h.shot(page, f"ratings_leaderboard_{lang}_{size}")
            if viewport is h.PHONE:
                await h.assert_fits_phone(page)
            await page.locator("a[rel=next]").click()
            await h.settled(page)
            await expect(rows.first.locator("td").first).to_have_text("51")
            await page.context.close()


async def test_a_rated_table_shows_ratings_beside_names(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, "karmaka", rated=True, start=False)
    try:
        for lang, locale in (("en", "en-GB"), ("pl", "pl-PL")):
            page = await web.open(f"/t/{table['slug']}", me, locale=locale)
            await expect(page.locator(".rated-note")).to_be_visible()
            await expect(page.locator(".waiting .seat-rating")).to_have_count(1)  # the bot's
            await h.shot(page, f"ratings_table_{lang}_laptop")
            await page.context.close()
    finally:
        await me.close()
