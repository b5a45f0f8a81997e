"""Real browser: one person fills a table with two bots, plays Incan Gold to the end by
clicking while a turn clock counts down on screen, then presses "Play again".

Screenshots (artifacts/screenshots/bots_*.png) at laptop and phone sizes — look at them.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_person_and_two_bots_play_to_the_end_and_again(web: h.Web) -> None:
    """Bots seated from the waiting room, a running clock, the end screen, the rematch."""
    from playwright.async_api import expect

    page = await web.page()
    await page.goto(web.url("/"))
    await h.choose_name(page, "Zoë Łucja")
    await page.fill("#seats", "3")
    await page.select_option("#clock", "fast")
    await page.click("#create-table button[type=submit]")
    await h.settled(page)

    # Two bots from the waiting room: one easy, one normal.
    await page.select_option("#bot-level", "easy")
    await page.get_by_role("button", name="Add a bot").first.click()
    await expect(page.locator(".seat-list")).to_contain_text("Bot 2 (easy)")
    await page.select_option("#bot-level", "normal")
    await page.get_by_role("button", name="Add a bot").first.click()
    await expect(page.locator(".seat-list")).to_contain_text("Bot 3 (normal)")
    await expect(page.locator(".seat.bot .bot-mark")).to_have_count(2)
    await h.shot(page, "bots_waiting")
    await page.get_by_role("button", name="Remove Bot 3 (normal)").click()
    await expect(page.locator(".seat-list")).not_to_contain_text("Bot 3")
    await page.get_by_role("button", name="Add a bot").first.click()
    await expect(page.locator(".seat-list")).to_contain_text("Bot 3 (normal)")
    await page.get_by_role("button", name="Start the game").click()

    # The clock of the seat(s) deciding counts down on screen.
    clock = page.locator(".seat.mine .clock.running .time")
    await expect(clock).to_be_visible()
    first = await clock.inner_text()
    assert re.fullmatch(r"3:[0-2]\d", first), first
    await expect(clock).not_to_have_text(first, timeout=3000)
    await expect(page.locator("#me")).to_contain_text("Let a bot play for me")
    await h.shot(page, "bots_game_laptop")

    phone = await web.again(page)
    await expect(phone.locator(".seat.mine .clock.running")).to_be_visible()
    await h.phone_shot(phone, "bots_game_phone")
    await phone.context.close()

    # Play by clicking: go deeper twice per round, then camp.
    assert await h.play_incan_gold_to_the_end(page, "Play again", looks=400) > 0
    await expect(page.get_by_role("button", name="Play again")).to_be_visible()
    await expect(page.locator("#log")).to_contain_text("Bot 2 (easy)")
    await expect(page.locator(".seat .clock.running")).to_have_count(0)
    await h.shot(page, "bots_end_laptop")

    # Play again: a new table, same seats, bots included, me in my own seat.
    old_url = page.url
    await page.get_by_role("button", name="Play again").click()
    await expect(page).not_to_have_url(old_url)
    await h.settled(page)
    seats = page.locator(".seat-list li")
    await expect(seats.nth(0)).to_contain_text("Zoë Łucja")
    await expect(seats.nth(1)).to_contain_text("Bot 2 (easy)")
    await expect(seats.nth(2)).to_contain_text("Bot 3 (normal)")
    await expect(page.locator(".waiting")).to_contain_text("Fast")
    await h.shot(page, "bots_rematch")

    # The old table's page now links to the rematch.
    await page.goto(old_url)
    await expect(page.get_by_role("button", name="Join the rematch")).to_be_visible()
