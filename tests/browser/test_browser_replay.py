"""Real browser: open a finished game from "Your games", step through it with the keyboard and
the slider, switch to another seat and to every hand, and open the shared link to a step
(issue 17). Screenshots: replay_laptop.png, replay_phone.png, history_laptop.png."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    SHOTS,
    assert_fits_phone,
    launch,
    need_chromium,
    open_as,
    settled,
)
from tests.clients import drive, make_table
from tests.conftest import Server
from tests.tables import app_of

pytestmark = pytest.mark.browser


async def test_replay_from_your_games(sqlite_server: Server) -> None:
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
        await drive(app_of(sqlite_server), slug, dict(enumerate(seats)), [], moves=400, seed=2)
        await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
        last = seats[0].version
        async with async_playwright() as pw:
            browser = await launch(pw)
            page = await open_as(
                browser,
                sqlite_server.url,
                f"{sqlite_server.url}/history",
                seats[0],
                viewport=LAPTOP,
            )
            await expect(page.locator(".history-games tbody tr")).to_have_count(1)
            await page.screenshot(path=SHOTS / "history_laptop.png", full_page=True)
            await page.get_by_role("link", name="Replay").click()
            at = page.locator(".replay-at")

            async def shows(step: int) -> None:
                """The replay page of `step` has loaded and listens to the keyboard."""
                await expect(at).to_have_text(f"Move {step} of {last}")
                await settled(page)

            await shows(last)
            for key, step in (("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)):
                await page.keyboard.press(key)
                await shows(step)
            await page.locator("[data-replay-slider]").fill(str(last // 2))
            await page.locator("[data-replay-slider]").dispatch_event("change")
            await expect(at).to_have_text(f"Move {last // 2} of {last}")
            await page.get_by_role("link", name="Bartek").click()
            await expect(page).to_have_url(re.compile(r"seat=1"))
            await expect(at).to_have_text(f"Move {last // 2} of {last}")
            await page.get_by_role("link", name="every hand").click()
            await expect(page.locator(".replay-hands .game-me")).to_have_count(3)
            await page.screenshot(path=SHOTS / "replay_laptop.png", full_page=True)
            shared = await page.locator("#replay-link").input_value()
            assert "seat=all" in shared and f"at={last // 2}" in shared

            phone = await open_as(browser, sqlite_server.url, shared, None, viewport=PHONE)
            await expect(phone.locator(".replay-at")).to_have_text(f"Move {last // 2} of {last}")
            await assert_fits_phone(phone)
            await phone.screenshot(path=SHOTS / "replay_phone.png", full_page=True)
            await browser.close()
    finally:
        for s in seats:
            await s.close()
