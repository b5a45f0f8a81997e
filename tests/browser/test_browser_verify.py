"""Real browser: a finished table offers "Check the shuffle"; the page says the game verifies,
in both sizes, under the CSP (issue 17). Screenshots: verify_laptop.png, verify_phone.png."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h
from tests.clients import drive_to_end, live_table
from tests.conftest import Server

pytestmark = pytest.mark.browser


async def test_check_the_shuffle_from_the_end_screen(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    async with live_table(sqlite_server, ["Ala", "Bartek", "Celina"]) as live:
        await drive_to_end(sqlite_server, live)
        page = await web.open(f"/t/{live.slug}", live.seats[0])
        await page.get_by_role("link", name="Check the shuffle").click()
        await expect(page.locator(".verdict.ok")).to_contain_text("Verified")
        await h.shot(page, "verify_laptop")
        await page.set_viewport_size(h.PHONE)
        await h.phone_shot(page, "verify_phone")
