"""Real browser: the How to play pages read well on a laptop and a phone, in both languages
(screenshots artifacts/screenshots/rules_*.png — look at them)."""

from __future__ import annotations

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    SHOTS,
    assert_fits_phone,
    launch,
    need_chromium,
    serious_a11y_violations,
)
from tests.conftest import Server

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("game", "locale"), [("karmaka", "pl-PL"), ("dreadful_circus", "en-GB")])
async def test_rules_pages_at_both_sizes(sqlite_server: Server, game: str, locale: str) -> None:
    need_chromium()
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as pw:
        browser = await launch(pw)
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            ctx = await browser.new_context(viewport=viewport, locale=locale)
            page = await ctx.new_page()
            await page.goto(f"{sqlite_server.url}/rules/{game}")
            await expect(page.locator("h1")).to_contain_text(
                "Jak grać" if locale.startswith("pl") else "How to play"
            )
            await expect(page.locator(".choices-made li").first).to_be_visible()
            await page.screenshot(path=SHOTS / f"rules_{game}_{size}.png", full_page=True)
            if viewport is PHONE:
                await assert_fits_phone(page)
            else:
                assert await serious_a11y_violations(page) == []
            await ctx.close()
        await browser.close()
