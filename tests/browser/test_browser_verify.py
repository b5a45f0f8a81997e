"""Real browser: a finished table offers "Check the shuffle"; the page says the game verifies,
in both sizes, under the CSP (issue 17). Screenshots: verify_laptop.png, verify_phone.png."""

from __future__ import annotations

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    SHOTS,
    assert_fits_phone,
    launch,
    need_chromium,
    open_as,
)
from tests.clients import drive, make_table
from tests.conftest import Server
from tests.tables import app_of

pytestmark = pytest.mark.browser


async def test_check_the_shuffle_from_the_end_screen(sqlite_server: Server) -> None:
    need_chromium()
    from playwright.async_api import async_playwright, expect

    seats, table = await make_table(
        sqlite_server.url, sqlite_server.ws_url, ["Ala", "Bartek", "Celina"]
    )
    slug = table["slug"]
    try:
        for s in seats:
            await s.connect(slug)
        await seats[0].wait_version(0)
        await drive(app_of(sqlite_server), slug, dict(enumerate(seats)), [], moves=400)
        await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await open_as(
                browser,
                sqlite_server.url,
                f"{sqlite_server.url}/t/{slug}",
                seats[0],
                viewport=LAPTOP,
            )
            await page.get_by_role("link", name="Check the shuffle").click()
            await expect(page.locator(".verdict.ok")).to_contain_text("Verified")
            await page.screenshot(path=SHOTS / "verify_laptop.png", full_page=True)
            await page.set_viewport_size(PHONE)
            await assert_fits_phone(page)
            await page.screenshot(path=SHOTS / "verify_phone.png", full_page=True)
            await browser.close()
    finally:
        for s in seats:
            await s.close()
