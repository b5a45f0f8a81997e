"""What every real-browser test shares: Debian's Chromium through Playwright (never a
downloaded browser), screenshots in artifacts/screenshots/, signed-in browser contexts (`Web`),
the wait for the page's own "settled" signal (`settled`, never a sleep) and the phone-width
check. The fixtures that hand these to a test (`browser`, `web`) are in conftest.py; a test
imports this module once, as `h`."""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.clients import Player

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Playwright,
        ViewportSize,
    )

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def need_chromium() -> None:
    """Skip locally without Debian's chromium; in CI (CI set) its absence is a failure."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is required in CI")
        pytest.skip("chromium is not installed")
    SHOTS.mkdir(parents=True, exist_ok=True)


CSP_VIOLATIONS: list[str] = []
"""Console reports of Content-Security-Policy violations in any page of any browser test
(tests/browser/conftest.py fails the test that caused one)."""


def _watch_csp(context: BrowserContext) -> BrowserContext:
    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            CSP_VIOLATIONS.append(message.text)

    context.on("console", on_console)
    return context


async def launch(pw: Playwright) -> Browser:
    """Headless Debian Chromium; every context it opens reports CSP violations."""
    browser = await pw.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
    )
    new_context = browser.new_context

    async def watched_context(**kwargs: Any) -> BrowserContext:
        return _watch_csp(await new_context(**kwargs))

    async def watched_page(**kwargs: Any) -> Page:
        context = await watched_context(**kwargs)
        return await context.new_page()

    browser.new_context = watched_context  # type: ignore[method-assign]
    browser.new_page = watched_page  # type: ignore[method-assign]
    return browser


@dataclass
class Web:
    """A browser and the server its pages are opened on: each page in a context of its own,
    at laptop size unless a test asks for another (`viewport=PHONE`, `locale="pl-PL"`, ...)."""

    browser: Browser
    base: str

    def url(self, path: str) -> str:
        """`path` on the server ("/t/abc"), or `path` itself when it is a whole address."""
        return path if "://" in path else self.base + path

    async def page(self, *, viewport: ViewportSize = LAPTOP, **ctx: Any) -> Page:
        """A blank page in a new context: a person without a cookie yet."""
        context = await self.browser.new_context(viewport=viewport, **ctx)
        return await context.new_page()

    async def open(
        self,
        path: str,
        player: Player | None = None,
        *,
        viewport: ViewportSize = LAPTOP,
        **ctx: Any,
    ) -> Page:
        """A new context on `path`, signed in with `player`'s cookie (None: anonymous), once the
        page has settled."""
        context = await self.browser.new_context(viewport=viewport, **ctx)
        if player is not None:
            cookie = player.http.cookies.get("stolik")
            assert cookie
            await context.add_cookies([{"name": "stolik", "value": cookie, "url": self.base}])
        page = await context.new_page()
        await page.goto(self.url(path))
        await settled(page)
        return page

    async def again(
        self, page: Page, path: str | None = None, *, viewport: ViewportSize = PHONE, **ctx: Any
    ) -> Page:
        """The person of `page` (its context's cookies) on another screen, a phone unless
        told otherwise, on `path` (`page`'s own address by default) once it has settled."""
        context = await self.browser.new_context(viewport=viewport, **ctx)
        cookies = await page.context.cookies()
        await context.add_cookies(
            [{"name": c["name"], "value": c["value"], "url": self.base} for c in cookies]
        )
        other = await context.new_page()
        await other.goto(self.url(path or page.url))
        await settled(other)
        return other


async def choose_name(page: Page, name: str) -> None:
    """On the name page: `name`, submitted."""
    await page.fill("#name", name)
    await page.click("button[type=submit]")


async def take_seat_by_invite(page: Page, invite: str, name: str) -> None:
    """A newcomer follows the invite link, presses "Take this seat", names themselves and
    lands in that seat (the seat asked for before the name is taken once it is chosen)."""
    from playwright.async_api import expect

    await page.goto(invite)
    await page.get_by_role("button", name="Take this seat").first.click()
    await expect(page).to_have_url(re.compile(r"/name"))
    await choose_name(page, name)
    await expect(page.locator(".seat.mine")).to_contain_text(name)


SETTLED = """(version) => {
  const d = document.documentElement.dataset;
  if (!d.ready) return false;
  if (document.querySelector("[ws-connect]") && !(d.live && d.pushes)) return false;
  return version === null || Number(d.version) >= version;
}"""


async def settled(page: Page, version: int | None = None, *, timeout: float = 30_000) -> None:
    """Wait until the page says it has settled (static/js/stolik.js marks <html>): its scripts
    have bound their handlers; on a live page (one with `ws-connect`) its socket is open and a
    push has been applied. `version`: the table state on screen is that version or a later
    one (after a move: `settled(page, version=shown + 1)`)."""
    await page.wait_for_function(SETTLED, arg=version, timeout=timeout)


async def shown_version(page: Page) -> int:
    """The table state on screen once the page has settled (the version of its last push)."""
    await settled(page)
    return int(await page.evaluate("Number(document.documentElement.dataset.version)"))


async def act_if_offered(page: Page, selector: str, *, timeout: float = 5_000) -> bool:
    """Click the control `selector` if the page still offers it, enabled; False when the page
    moved on before the click (at a table with bots, a push may replace the control between
    seeing it and clicking it: the bots moved first, or the clock chose for this seat). The
    caller then reads the page's next state (`settled`) instead of clicking a stale control."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        await page.locator(f"{selector}:enabled").click(timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


async def play_incan_gold_to_the_end(
    page: Page,
    play_again: str,
    *,
    looks: int,
    at_each_choice: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Click through an Incan Gold game (bots at the table) until its end screen offers
    `play_again`: go deeper twice a round, then camp, each click only while the page still
    offers it, then wait for the next state (at most `looks` looks). `at_each_choice` runs
    whenever the page offers a choice, before the click. Returns the clicks that landed."""
    clicks = 0
    deeper = 0
    for _ in range(looks):
        shown = await shown_version(page)
        if await page.get_by_role("button", name=play_again).count():
            break
        if await page.locator("#me button.torch:enabled").count():
            if at_each_choice is not None:
                await at_each_choice()
            choice = "torch" if deeper < 2 else "camp"
            deeper = 0 if choice == "camp" else deeper + 1
            if await act_if_offered(page, f"#me button.{choice}"):
                clicks += 1
        await settled(page, version=shown + 1)
    return clicks


WIDE_ELEMENTS = """[...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > 391)
  .slice(0, 8)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


async def assert_fits_phone(page: Page) -> None:
    """The page fits a 390 px wide phone; else name the elements that stick out."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"] + 2:
        wide = await page.evaluate(WIDE_ELEMENTS)
        pytest.fail(f"page scrolls sideways on a phone ({width}px): {wide}")


async def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    """A screenshot of `page` as artifacts/screenshots/`name`.png."""
    await page.screenshot(path=SHOTS / f"{name}.png", full_page=full_page)


async def phone_shot(page: Page, name: str) -> None:
    """A phone-sized page: its screenshot (`name`.png), and it fits without sideways scroll."""
    await shot(page, name)
    await assert_fits_phone(page)


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


async def serious_a11y_violations(page: Page) -> list[str]:
    """axe-core (npm, pinned in package.json) run on the page: its serious and critical
    violations, each as "rule: first offending elements"."""
    assert AXE.exists(), "axe-core is missing: run scripts/install.sh"
    # Evaluated by the browser's debugger, not added as a <script>: the page's CSP allows no
    # inline script, and must not be loosened for a test.
    await page.evaluate(AXE.read_text())
    found: list[dict[str, Any]] = await page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ["violations"]});
          return r.violations.map(v => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
        }"""
    )
    return [
        f"{v['id']}: {', '.join(v['nodes'])}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
