"""Real browser: carrying your identity to another device (issue 16). A laptop makes a
one-time link on "Your devices"; a phone opens it, confirms, and plays as the same person;
the link then fails a second time and a later one fails after 10 minutes (injected clock).
Screenshots of the devices page at laptop and phone sizes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser import helpers as h
from tests.conftest import FakeClock, start_server

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytestmark = pytest.mark.browser


async def test_device_link_in_the_browser(tmp_path: Path, browser: Browser) -> None:
    from playwright.async_api import expect

    clock = FakeClock()
    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path, now=clock)
    web = h.Web(browser, srv.url)
    try:
        laptop = await web.page()
        await laptop.goto(web.url("/name"))
        await h.choose_name(laptop, "Zofia Ćwik")
        await laptop.goto(web.url("/devices"))
        await laptop.get_by_role("button", name="Make a one-time link").click()
        link = await laptop.locator("#device-link").input_value()
        assert "/link/" in link
        await expect(laptop.locator(".qr svg")).to_be_visible()
        await h.shot(laptop, "devices_laptop")

        phone = await web.page(viewport=h.PHONE)
        await phone.goto(link)
        await phone.get_by_role("button", name="Sign in").click()
        await expect(phone.locator(".whoami")).to_contain_text("Zofia Ćwik")
        await phone.goto(web.url("/devices"))
        await expect(phone.locator("li.device")).to_have_count(2)
        await h.phone_shot(phone, "devices_phone")

        again = await web.page(viewport=h.PHONE)
        await again.goto(link)
        await again.get_by_role("button", name="Sign in").click()
        await expect(again.locator("h1")).to_have_text("This link no longer works")
        await expect(again.locator(".whoami")).to_have_count(0)

        await laptop.goto(web.url("/devices"))
        await laptop.get_by_role("button", name="Make a one-time link").click()
        late = await laptop.locator("#device-link").input_value()
        clock.advance(601)
        await again.goto(late)
        await again.get_by_role("button", name="Sign in").click()
        await expect(again.locator("h1")).to_have_text("This link no longer works")

        # Signing the phone out from the laptop: the phone is nobody at its next click.
        await laptop.goto(web.url("/devices"))
        await laptop.get_by_role("button", name="Sign out all other devices").click()
        await expect(laptop.locator("li.device")).to_have_count(1)
        await phone.goto(web.url("/"))
        await expect(phone.locator(".whoami")).to_have_count(0)
    finally:
        await srv.stop()


async def test_a_signed_out_page_leaves_its_table_at_once(web: h.Web) -> None:
    """Issue 32: the phone has its table page open (its socket live) when the laptop signs it
    out. Without a click the phone's socket is closed (4401), the page loads again and the
    phone is nobody there: a spectator, no longer Ala."""
    from playwright.async_api import expect

    laptop = await web.page()
    await laptop.goto(web.url("/name"))
    await h.choose_name(laptop, "Ala")
    r = await laptop.request.post(
        web.url("/api/tables"),
        data={"game": "incan_gold", "seats": 3, "private": False, "options": {}},
        headers={"Origin": web.base},
    )
    assert r.ok, await r.text()
    slug = (await r.json())["slug"]
    await laptop.goto(web.url("/devices"))
    await laptop.get_by_role("button", name="Make a one-time link").click()
    link = await laptop.locator("#device-link").input_value()

    phone = await web.page(viewport=h.PHONE)
    await phone.goto(link)
    await phone.get_by_role("button", name="Sign in").click()
    await phone.goto(web.url(f"/t/{slug}"))
    await expect(phone.locator(".whoami")).to_contain_text("Ala")
    await expect(phone.locator("html")).to_have_attribute("data-live", "1")
    async with phone.expect_navigation(timeout=5000):
        await laptop.goto(web.url("/devices"))
        await laptop.get_by_role("button", name="Sign out all other devices").click()
    await expect(phone.locator(".whoami")).to_have_count(0)
    await expect(phone.locator("html")).to_have_attribute("data-live", "1")
