"""Real browser: the Content-Security-Policy is on and holds (issue 16). Every browser test
fails on a CSP violation in its pages' consoles (tests/browser/conftest.py); this one checks that
the watch sees one — an injected inline script is refused and reported — and that the
page's own scripts (htmx, the websocket extension, stolik.js) run under the policy."""

from __future__ import annotations

import pytest

from tests.browser.helpers import CSP_VIOLATIONS, LAPTOP, launch, need_chromium
from tests.conftest import Server

pytestmark = pytest.mark.browser


async def test_inline_script_is_refused_and_reported(sqlite_server: Server) -> None:
    need_chromium()
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await launch(pw)
        page = await browser.new_page(viewport=LAPTOP)
        await page.goto(sqlite_server.url + "/name")
        assert await page.evaluate("typeof htmx") == "object"
        assert await page.evaluate("htmx.config.allowEval") is False
        with pytest.raises(PlaywrightError):
            await page.add_script_tag(content="window.injected = 1")
        assert await page.evaluate("window.injected === undefined")
        await page.wait_for_timeout(200)
        await browser.close()
    assert any("script-src" in v for v in CSP_VIOLATIONS), CSP_VIOLATIONS
    CSP_VIOLATIONS.clear()  # expected here; any other test fails on one
