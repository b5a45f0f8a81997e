"""A Polish table with a woman, a man, a person who chose neutral words and a bot, in a real
browser (issue 33): the seats bar, the log and the end screen speak of each in their own words.

Screenshots: artifacts/screenshots/pl_gender_*.png — look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import helpers as h
from tests.clients import make_table
from tests.conftest import Server

pytestmark = pytest.mark.browser


async def test_a_polish_table_speaks_of_each_person_in_their_words(
    sqlite_server: Server, web: h.Web
) -> None:
    from playwright.async_api import expect

    names = ["Bożena Wójcik", "Jan Kowalski", "Alex Nowak"]
    players, table = await make_table(
        sqlite_server.url, sqlite_server.ws_url, names, game="karmaka", seats=4, start=False
    )
    bozena, jan, alex = players
    slug = table["slug"]
    for person, gender in ((bozena, "she"), (jan, "he"), (alex, "neutral")):
        r = await person.http.post(
            "/name", data={"name": names[players.index(person)], "gender": gender}
        )
        assert r.status_code == 303
    assert (await bozena.http.post(f"/api/tables/{slug}/bots", params={"level": "easy"})).is_success
    assert (await bozena.http.post(f"/api/tables/{slug}/start")).is_success
    assert (await jan.http.post(f"/api/tables/{slug}/autopilot", params={"on": "true"})).is_success
    assert (await alex.http.post(f"/api/tables/{slug}/resign")).is_success
    path = f"/t/{slug}"
    try:
        her = await web.open(path, bozena, locale="pl-PL")
        his = await web.open(path, jan, locale="pl-PL")
        # Bots play for Jan and Alex until it is Bożena's turn.
        await expect(her.locator(".seat.mine .jump")).to_have_text("twój ruch ↓", timeout=30_000)
        await h.settled(his)
        await expect(her.locator(".seat.mine")).to_contain_text("(ty)")
        bar = his.locator("#seats")
        await expect(bar.locator('.seat[data-seat="0"] .turn')).to_have_text("▶ jej ruch")
        await expect(bar.locator('.seat[data-seat="1"]')).to_contain_text("gra bot")
        await expect(bar.locator('.seat[data-seat="2"] .badge.control')).to_have_text("rezygnacja")
        log = his.locator("#log")
        await expect(log).to_contain_text("Jan Kowalski oddaje grę botowi; bot gra za niego.")
        await expect(log).to_contain_text("Alex Nowak poddaje grę; bot ją dokończy.")
        await her.screenshot(path=h.SHOTS / "pl_gender_her_turn_laptop.png", full_page=True)
        await his.screenshot(path=h.SHOTS / "pl_gender_his_view_laptop.png", full_page=True)
        # She resigns too: bots finish the game; the end screen names each in their words.
        assert (await bozena.http.post(f"/api/tables/{slug}/resign")).is_success
        await expect(her.locator("#me")).to_contain_text("Poddałaś się; bot dokończy twoją grę.")
        await expect(her.locator("#board .result-banner")).to_be_visible(timeout=120_000)
        await expect(her.locator(".seat.mine .badge.control")).to_have_text("poddała się")
        board = his.locator("#board")
        await expect(board).to_contain_text("Bożena Wójcik – poddała się")
        await expect(board).to_contain_text("Alex Nowak – rezygnacja")
        assert "poddał(a)" not in await his.locator("body").inner_text()
        await his.screenshot(path=h.SHOTS / "pl_gender_end_laptop.png", full_page=True)
        await his.set_viewport_size(h.PHONE)
        await his.screenshot(path=h.SHOTS / "pl_gender_end_phone.png", full_page=True)
    finally:
        for p in players:
            await p.close()
