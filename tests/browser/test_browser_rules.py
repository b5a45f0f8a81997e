"""Real browser: the How to play pages read well on a laptop and a phone, in both languages
(screenshots artifacts/screenshots/rules_*.png — look at them)."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("game", "locale"), [("karmaka", "pl-PL"), ("dreadful_circus", "en-GB")])
async def test_rules_pages_at_both_sizes(web: h.Web, game: str, locale: str) -> None:
    from playwright.async_api import expect

    for size, viewport in (("laptop", h.LAPTOP), ("phone", h.PHONE)):
        page = await web.page(viewport=viewport, locale=locale)
        await page.goto(web.url(f"/rules/{game}"))
        await expect(page.locator("h1")).to_contain_text(
            "Jak grać" if locale.startswith("pl") else "How to play"
        )
        await expect(page.locator(".choices-made li").first).to_be_visible()
        await h.shot(page, f"rules_{game}_{size}")
        if viewport is h.PHONE:
            await h.assert_fits_phone(page)
        else:
            assert await h.serious_a11y_violations(page) == []
        await page.context.close()
