"""Real browser: open a finished game from "Your games", step through it with the keyboard and
the slider, switch to another seat and to every hand, and open the shared link to a step
(issue 17). Screenshots: replay_laptop.png, replay_phone.png, history_laptop.png."""

from __future__ import annotations

import re

import pytest

from tests.browser import helpers as h
from tests.clients import drive_to_end, live_table
from tests.conftest import Server

pytestmark = pytest.mark.browser


async def test_replay_from_your_games(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    async with live_table(sqlite_server, ["Ala", "Bartek", "Celina"]) as live:
        await drive_to_end(sqlite_server, live, seed=2)
        last = live.seats[0].version
        page = await web.open("/history", live.seats[0])
        await expect(page.locator(".history-games tbody tr")).to_have_count(1)
        await h.shot(page, "history_laptop")
        await page.get_by_role("link", name="Replay").click()
        at = page.locator(".replay-at")

        async def shows(step: int) -> None:
            """The replay page of `step` has loaded and listens to the keyboard."""
            await expect(at).to_have_text(f"Move {step} of {last}")
            await h.settled(page)

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
        await h.shot(page, "replay_laptop")
        shared = await page.locator("#replay-link").input_value()
        assert "seat=all" in shared and f"at={last // 2}" in shared

        phone = await web.open(shared, viewport=h.PHONE)
        await expect(phone.locator(".replay-at")).to_have_text(f"Move {last // 2} of {last}")
        await h.phone_shot(phone, "replay_phone")
