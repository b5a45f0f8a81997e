"""Real browser: the Content-Security-Policy is on and holds (issue 16). Every browser test
fails on a CSP violation in its pages' consoles (tests/browser/conftest.py); this one checks that
the watch sees one — an injected inline script is refused and reported — and that the
page's own scripts (htmx, the websocket extension, stolik.js) run under the policy."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_inline_script_is_refused_and_reported(web: h.Web) -> None:
    from playwright.async_api import Error as PlaywrightError

    page = await web.page()
    await page.goto(web.url("/name"))
    assert await page.evaluate("typeof htmx") == "object"
    assert await page.evaluate("htmx.config.allowEval") is False
    with pytest.raises(PlaywrightError):
        await page.add_script_tag(content="window.injected = 1")
    assert await page.evaluate("window.injected === undefined")
    await page.wait_for_timeout(200)
    assert any("script-src" in v for v in h.CSP_VIOLATIONS), h.CSP_VIOLATIONS
    h.CSP_VIOLATIONS.clear()  # expected here; any other test fails on one
