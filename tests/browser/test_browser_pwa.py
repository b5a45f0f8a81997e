"""Real browser: Stolik as an installable app (issue 34, part 1). The service worker registers
from the root and controls the page after a reload; Chromium reads the manifest without
errors; with the network gone a navigation shows the offline page, in the page's language, and
the page comes back by itself when the network does. Phone screenshots in /tmp/shots-pwa/ and
artifacts/screenshots/pwa_*.png — look at them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.api.routes import pwa
from tests.browser import helpers as h
from tests.clients import Player
from tests.conftest import Server

if TYPE_CHECKING:
    from playwright.async_api import Page

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-pwa")
OFFLINE_EN = "You are offline; we reconnect when you are back."
OFFLINE_PL = "Jesteś offline; połączymy się ponownie, gdy wrócisz do sieci."


SHELLS_BECOME = """async (name) => {
  const shells = async () => (await caches.keys()).filter(n => n.startsWith("stolik-shell-"));
  for (let i = 0; i < 100; i++) {
    const now = await shells();
    if (now.length === 1 && now[0] === name) return now;
    await new Promise(done => setTimeout(done, 100));
  }
  return shells();
}"""
"""The worker's shell caches once they are just `name` (or, after 10 s, whatever they are)."""


async def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = h.SHOTS / f"pwa_{name}.png"
    await page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


async def controlled(page: Page) -> None:
    """Wait for the worker to be active, reload, and wait until it controls the page."""
    await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    await page.reload()
    await h.settled(page)
    await page.wait_for_function("() => navigator.serviceWorker.controller !== null")


async def test_worker_controls_the_page_and_the_manifest_is_valid(
    web: h.Web, sqlite_server: Server
) -> None:
    ala = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ala")
    try:
        await worker_and_manifest(web, ala)
    finally:
        await ala.close()


async def worker_and_manifest(web: h.Web, ala: Player) -> None:
    page = await web.open("/", ala, viewport=h.PHONE)
    await controlled(page)
    worker = await page.evaluate(
        """navigator.serviceWorker.getRegistration().then(r => ({
             scope: r.scope, script: navigator.serviceWorker.controller.scriptURL}))"""
    )
    assert worker == {"scope": web.url("/"), "script": web.url("/sw.js")}

    cdp = await page.context.new_cdp_session(page)
    got = await cdp.send("Page.getAppManifest")
    assert got["url"] == web.url("/manifest.webmanifest?lang=en")
    assert got["errors"] == [], got["errors"]
    manifest = json.loads(got["data"])
    assert manifest["name"] == "Stolik" and manifest["display"] == "standalone"
    # Nothing stands in the way of installing but the test's own private (incognito) context.
    installable = await cdp.send("Page.getInstallabilityErrors")
    errors = {e["errorId"] for e in installable["installabilityErrors"]}
    assert errors <= {"in-incognito"}, installable
    await shot(page, "start")

    # The app shell is in the worker's cache, named after the version.
    names = await page.evaluate("caches.keys()")
    shells = [n for n in names if n.startswith("stolik-shell-")]
    assert len(shells) == 1, names
    cached = await page.evaluate(
        "(name) => caches.open(name).then(c => c.keys())"
        ".then(ks => ks.map(r => new URL(r.url).pathname))",
        shells[0],
    )
    assert {"/static/css/stolik.css", "/offline", "/static/icons/icon-512.png"} <= set(cached)
    preload = "navigator.serviceWorker.ready.then(r => r.navigationPreload.getState())"
    assert (await page.evaluate(preload))["enabled"] is True


async def test_a_new_deploy_replaces_the_cache(web: h.Web, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new shell version (here: `SHELL_EPOCH` raised, as a deploy that changes a shell file
    does by itself) serves a new worker; it takes over and the old cache is gone."""
    page = await web.open("/name", None, viewport=h.PHONE)
    await controlled(page)
    shells = "caches.keys().then(ns => ns.filter(n => n.startsWith('stolik-shell-')))"
    assert await page.evaluate(shells) == [f"stolik-shell-{pwa.shell_version()}"]
    try:
        monkeypatch.setattr(pwa, "SHELL_EPOCH", "next deploy")
        pwa.shell_version.cache_clear()
        pwa.worker_source.cache_clear()
        new = f"stolik-shell-{pwa.shell_version()}"
        await page.evaluate("navigator.serviceWorker.ready.then(r => r.update())")
        assert await page.evaluate(SHELLS_BECOME, new) == [new]
    finally:
        monkeypatch.undo()
        pwa.shell_version.cache_clear()
        pwa.worker_source.cache_clear()


async def test_offline_navigation_shows_the_offline_page_and_comes_back(web: h.Web) -> None:
    page = await web.open("/name", None, viewport=h.PHONE)
    await controlled(page)
    await page.context.set_offline(True)
    await page.goto(web.url("/history"))
    await page.wait_for_selector("[data-offline-page]")
    assert OFFLINE_EN in await page.locator("main").inner_text()
    assert page.url == web.url("/history")  # it stands in for the page asked for
    panel = "getComputedStyle(document.querySelector('main')).backgroundColor"
    assert await page.evaluate(panel) == "rgb(255, 253, 248)"  # the stylesheet, from the cache
    await shot(page, "offline_en")
    # Back online: the page reloads itself and the real page (here: the name page) is shown.
    await page.context.set_offline(False)
    await page.wait_for_function("() => !document.querySelector('[data-offline-page]')")
    await h.settled(page)
    assert "/name" in page.url


async def test_offline_page_speaks_the_page_language(web: h.Web) -> None:
    page = await web.open("/name", None, viewport=h.PHONE, locale="pl-PL")
    assert await page.evaluate("document.documentElement.lang") == "pl"
    await controlled(page)
    await page.context.set_offline(True)
    await page.goto(web.url("/"))
    await page.wait_for_selector("[data-offline-page]")
    text = await page.locator("main").inner_text()
    assert OFFLINE_PL in text and OFFLINE_EN not in text
    assert await page.evaluate("document.documentElement.lang") == "pl"
    await shot(page, "offline_pl")
