"""Real browser: a games night's standings page (issue 35, section 4) follows the night live —
a game finished elsewhere moves the standings, the host's end brings the podium — without a
reload and without inline scripts (htmx polling), in English and Polish, at laptop and phone
size.

Screenshots (artifacts/screenshots/night_*.png) — look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import helpers as h
from tests.conftest import Server
from tests.nights import bots_play_it, login, next_table, start_night

pytestmark = pytest.mark.browser


async def test_standings_page_follows_the_night(sqlite_server: Server, web: h.Web) -> None:
    """Bartek keeps the night's page open while a second table finishes and the host ends
    the night: the standings, then the podium, appear on his page by themselves."""
    from playwright.async_api import expect

    server = sqlite_server
    ala, bartek = await login(server, "Ala"), await login(server, "Bartek")
    try:
        night = await start_night(ala, "Piątkowe karty")
        first, code = await next_table(ala, night, "high_card", 3)
        r = await bartek.http.post(f"/api/tables/{first}/join", params={"code": code})
        r.raise_for_status()
        r = await ala.http.post(f"/api/tables/{first}/bots", params={"seat": 2, "level": "easy"})
        r.raise_for_status()
        await bots_play_it(server, first, [ala, bartek])
        second, _ = await next_table(ala, night, "high_card", 3)

        lobby = await web.open("/", ala)
        await expect(lobby.locator("#start-night")).to_be_visible()
        await h.shot(lobby, "night_lobby_en_laptop")
        await lobby.context.close()

        page = await web.open(f"/n/{night}", bartek)
        rows = page.locator("table.standings tbody tr")
        await expect(rows).to_have_count(3)
        await expect(page.locator("tr.you")).to_contain_text("Bartek")
        await expect(page.locator("tr.you td").nth(3)).to_have_text("1")  # games played
        await expect(page.locator(".podium")).to_have_count(0)
        await h.shot(page, "night_standings_en_laptop")
        phone_pl = await web.open(f"/n/{night}", ala, viewport=h.PHONE, locale="pl-PL")
        await phone_pl.context.add_cookies([{"name": "lang", "value": "pl", "url": web.base}])
        await phone_pl.goto(web.url(f"/n/{night}"))
        await h.settled(phone_pl)
        await expect(phone_pl.locator("#standings-title")).to_contain_text("Klasyfikacja")
        await expect(phone_pl.locator("#night-next")).to_be_visible()  # the host's form
        await h.phone_shot(phone_pl, "night_standings_pl_phone")

        # The second table is played to the end elsewhere: the open page follows.
        await bots_play_it(server, second, [ala, bartek])
        await expect(page.locator("tr.you td").nth(3)).to_have_text("2", timeout=15_000)
        assert not await h.serious_a11y_violations(page)

        # The host ends the night (from her phone): the podium comes to Bartek's page.
        await phone_pl.get_by_role("button", name="Zakończ wieczór").click()
        await expect(phone_pl.locator(".podium")).to_be_visible()
        await expect(page.locator(".podium")).to_be_visible(timeout=15_000)
        await expect(page.locator("#standings-title")).to_have_text("Final standings")
        steps = page.locator(".podium-step")
        await expect(steps).to_have_count(3)
        await expect(steps.first).not_to_contain_text("—")
        assert await page.locator("[hx-trigger]").count() == 0, "the final page stops polling"
        await h.shot(page, "night_podium_en_laptop")
        await h.phone_shot(phone_pl, "night_podium_pl_phone")
        phone_en = await web.again(page, viewport=h.PHONE)
        await h.phone_shot(phone_en, "night_podium_en_phone")
        laptop_pl = await web.again(phone_pl, viewport=h.LAPTOP)
        await expect(laptop_pl.locator(".podium h2")).to_have_text("Podium")
        await h.shot(laptop_pl, "night_podium_pl_laptop")
        assert not await h.serious_a11y_violations(laptop_pl)
    finally:
        for p in (ala, bartek):
            await p.close()
