"""Real browser: the header's menu. At laptop size the signed-in person's pages are a row of
links after "Playing as"; on a phone they fold under "Menu" (two lines of header instead of
four), open with a tap or the keyboard and lead to the page; in English and Polish."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_the_header_folds_its_links_under_menu_on_a_phone(web: h.Web) -> None:
    from playwright.async_api import expect

    laptop = await web.page()
    await laptop.goto(web.url("/name"))
    await h.choose_name(laptop, "Zofia")
    await h.settled(laptop)
    await expect(laptop.locator(".site-menu-label")).to_be_hidden()
    games = laptop.locator("#site-nav").get_by_role("link", name="your games")
    await expect(games).to_be_visible()

    phone = await web.again(laptop, "/")
    head = phone.locator(".site-head")
    menu = phone.get_by_role("navigation", name="Main menu")
    folded = await head.bounding_box()
    assert folded is not None
    await expect(menu.get_by_role("link", name="your games")).to_be_hidden()
    await expect(phone.locator(".whoami")).to_contain_text("Zofia")
    await h.phone_shot(phone, "menu_folded_phone")
    assert await h.serious_a11y_violations(phone) == []

    await phone.locator(".site-menu-label").click()
    for name in ("change name", "friends", "your games", "your devices", "account"):
        await expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    opened = await head.bounding_box()
    assert opened is not None and opened["height"] > folded["height"] + 100
    await h.phone_shot(phone, "menu_open_phone")
    assert await h.serious_a11y_violations(phone) == []
    await menu.get_by_role("link", name="your games").click()
    await expect(phone).to_have_url(web.url("/history"))
    await h.settled(phone)
    # A new page starts folded again.
    await expect(menu.get_by_role("link", name="your games")).to_be_hidden()

    # The keyboard opens it too (the checkbox keeps the focus ring on its label).
    await phone.locator("#site-menu-toggle").focus()
    await phone.keyboard.press("Space")
    await expect(menu.get_by_role("link", name="friends", exact=True)).to_be_visible()

    polish = await web.again(laptop, "/", locale="pl-PL")
    await polish.get_by_role("button", name="Polski").click()
    await h.settled(polish)
    await expect(polish.locator(".site-menu-label")).to_have_text("Menu")
    await expect(polish.locator("#site-nav")).to_have_attribute("aria-label", "Menu główne")
    await polish.locator(".site-menu-label").click()
    await expect(polish.locator("#site-nav").get_by_role("link", name="twoje gry")).to_be_visible()
    await h.phone_shot(polish, "menu_open_phone_pl")
    await h.assert_fits_phone(polish)
