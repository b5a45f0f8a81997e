"""Real browser: "Your bots" (make a bot, its token shown once, revoke it), the lobby's option
that lets outside bots sit, and the bot API page, in English and Polish, at laptop and phone
size; no serious accessibility violation."""

from __future__ import annotations

import httpx
import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_your_bots_and_the_bot_api_page(web: h.Web) -> None:
    from playwright.async_api import expect

    laptop = await web.page()
    await laptop.goto(web.url("/name"))
    await h.choose_name(laptop, "Zofia")
    await laptop.get_by_role("link", name="your bots").click()
    await expect(laptop.locator("h1")).to_have_text("Your bots")
    await laptop.fill("#bot-name", "Rysiek")
    await laptop.get_by_role("button", name="Make a bot and its token").click()
    token = await laptop.locator("#bot-token").input_value()
    assert token.startswith("stolik_bot_")
    await h.shot(laptop, "bots_laptop")
    assert await h.serious_a11y_violations(laptop) == []

    # A table that lets outside bots sit: the bot joins by its token, and the seat says a
    # program sits there.
    made = await laptop.request.post(
        web.url("/api/tables"), data={"game": "karmaka", "seats": 3, "outside_bots": True}
    )
    slug = (await made.json())["slug"]
    async with httpx.AsyncClient(base_url=web.base) as bot:
        joined = await bot.post(
            f"/api/bot/tables/{slug}/join", headers={"Authorization": f"Bearer {token}"}
        )
        assert joined.json()["seat"] == 1
    table = await web.again(laptop, f"/t/{slug}", viewport=h.LAPTOP)
    # In the seats bar and in the waiting room's list of seats.
    await expect(table.locator(".badge.program")).to_have_count(2)
    await expect(table.locator(".badge.program").first).to_contain_text("outside bot")
    await h.shot(table, "outside_bot_waiting_laptop")

    phone = await web.again(laptop, "/bots")
    await expect(phone.locator("#bot-token")).to_have_count(0)  # shown once
    await expect(phone.locator("li.device")).to_have_count(1)
    await h.phone_shot(phone, "bots_phone")
    await phone.get_by_role("button", name="Revoke token").click()
    await expect(phone.locator("li.device .badge")).to_have_text("revoked")

    polish = await web.again(laptop, "/bots?lang=pl")
    await expect(polish.locator("h1")).to_have_text("Twoje boty")
    await h.phone_shot(polish, "bots_phone_pl")

    await laptop.goto(web.url("/"))
    box = laptop.get_by_label("Outside bots may sit (programs with a bot token)")
    await box.check()
    await h.shot(laptop, "lobby_outside_bots_laptop", full_page=False)

    for lang, heading in (("en", "Bot API"), ("pl", "API dla botów")):
        page = await web.page(viewport=h.PHONE)
        await page.goto(web.url(f"/bots/api?lang={lang}"))
        await expect(page.locator("h1")).to_have_text(heading)
        await h.phone_shot(page, f"bot_api_phone_{lang}")
        wide = await web.page()
        await wide.goto(web.url(f"/bots/api?lang={lang}"))
        await h.shot(wide, f"bot_api_laptop_{lang}")
        assert await h.serious_a11y_violations(wide) == []
