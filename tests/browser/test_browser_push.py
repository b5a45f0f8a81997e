"""Real browser: Web Push (issue 34, part 2). The devices page asks for the notification
permission only after a click on "Turn on" (never on load). A Polish person's device is
subscribed at the local push service; the opponent's move makes the server push "your turn",
which the push service decrypts, and Chromium's DevTools protocol delivers that very payload to
the page's service worker (ServiceWorker.deliverPushMessage): the worker shows a notification
with the Polish title and the table's link, tagged per table; a second push of the table
replaces it; a push no longer true (the person has moved) is not shown and takes the old one
away. (A click on a notification cannot be made through DevTools, so the click handler — focus
the table's tab or open it — is not driven here.) The devices page's notification settings at
phone and laptop size: artifacts/screenshots/push_*.png."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser import helpers as h
from tests.clients import Player
from tests.conftest import Server, start_server
from tests.push_service import PushService, start_push_service

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = pytest.mark.browser


@pytest.fixture
async def push_server(tmp_path: Path) -> AsyncIterator[tuple[Server, PushService]]:
    served = await start_push_service()
    srv = await start_server(
        f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}",
        tmp_path,
        push_insecure_endpoints=True,
        push_poll=0.05,
    )
    try:
        yield srv, served.service
    finally:
        await srv.stop()
        await served.stop()


NOTIFICATIONS = """navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns =>
  ns.map(n => ({title: n.title, body: n.body, tag: n.tag, lang: n.lang, data: n.data})))"""


async def registration_id(page: Page) -> tuple[Any, str]:
    """A DevTools session of the page and its service worker's registration id."""
    cdp = await page.context.new_cdp_session(page)
    found: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def updated(event: dict[str, Any]) -> None:
        for reg in event["registrations"]:
            if not reg.get("isDeleted") and not found.done():
                found.set_result(reg["registrationId"])

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    await cdp.send("ServiceWorker.enable")
    return cdp, await asyncio.wait_for(found, 10)


async def deliver(page: Page, cdp: Any, reg: str, payload: dict[str, Any]) -> None:
    origin = page.url.split("/", 3)[:3]
    await cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": "/".join(origin), "registrationId": reg, "data": json.dumps(payload)},
    )


async def notifications(page: Page, count: int) -> list[dict[str, Any]]:
    for _ in range(100):
        shown: list[dict[str, Any]] = await page.evaluate(NOTIFICATIONS)
        if len(shown) == count:
            return shown
        await asyncio.sleep(0.1)
    return await page.evaluate(NOTIFICATIONS)  # type: ignore[no-any-return]


async def test_a_push_reaches_the_worker_in_polish(
    browser: Browser, push_server: tuple[Server, PushService]
) -> None:
    srv, push = push_server
    web = h.Web(browser, srv.url)
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    bartek = await Player(srv.url, srv.ws_url).login("Bartek")
    try:
        await bartek.http.post("/lang", data={"lang": "pl"})
        r = await ala.http.post(
            "/api/tables", json={"game": "high_card", "seats": 2, "clock": "slow"}
        )
        slug = r.json()["slug"]
        (await bartek.http.post(f"/api/tables/{slug}/join")).raise_for_status()
        sub = push.subscribe()
        (await bartek.http.post("/push/subscriptions", json=sub.as_json())).raise_for_status()

        page = await web.open("/devices", bartek, viewport=h.PHONE, locale="pl-PL")
        await page.context.grant_permissions(["notifications"], origin=srv.url)
        await page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        await page.reload()
        await h.settled(page)
        assert await page.locator("#notifications").inner_text() == "Powiadomienia"
        assert await page.locator("li.push-device").count() == 1
        await h.phone_shot(page, "push_devices_pl")
        assert await h.serious_a11y_violations(page) == []
        laptop = await web.again(page, "/devices", viewport=h.LAPTOP, locale="pl-PL")
        await h.shot(laptop, "push_devices_pl_laptop")
        await laptop.context.close()
        cdp, reg = await registration_id(page)

        # Ala starts and moves: the server pushes Bartek "your turn" (and "started").
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await ala.connect(slug)
        await ala.wait_version(0)
        await ala.act({"type": "keep"}, 0)
        got = await push.wait(2)
        turn = next(r.payload for r in got if r.payload["kind"] == "turn")
        start = next(r.payload for r in got if r.payload["kind"] == "start")

        await deliver(page, cdp, reg, start)
        shown = await notifications(page, 1)
        assert shown[0]["title"] == "Gra się zaczęła: High Card"
        await deliver(page, cdp, reg, turn)  # the same table: it replaces the first
        await asyncio.sleep(0.5)
        shown = await notifications(page, 1)
        assert len(shown) == 1, shown
        assert shown[0]["title"] == "Twój ruch: High Card"
        assert shown[0]["body"] == f"Stół {slug}: teraz Twój ruch."
        assert shown[0]["tag"] == f"stolik-{slug}" and shown[0]["lang"] == "pl"
        assert shown[0]["data"]["url"] == f"/t/{slug}"

        # Bartek moves from another device; the same push delivered again is no longer true.
        await bartek.connect(slug)
        await bartek.wait_version(1)
        await bartek.act({"type": "keep"}, 1)
        await bartek.wait_version(2)
        await deliver(page, cdp, reg, turn)
        assert await notifications(page, 0) == []
        await h.phone_shot(page, "push_devices_pl_after")
    finally:
        await ala.close()
        await bartek.close()


COUNT_PROMPTS = """(() => {
  window.__prompts = 0;
  if (!("Notification" in window)) return;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = function () { window.__prompts += 1; return ask(); };
})();"""
"""Counts the page's permission prompts (installed before any page script runs)."""


async def test_the_permission_is_asked_only_after_the_click(
    browser: Browser, push_server: tuple[Server, PushService]
) -> None:
    srv, _push = push_server
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    try:
        context = await browser.new_context(viewport=h.PHONE)
        await context.add_init_script(COUNT_PROMPTS)
        cookie = ala.http.cookies.get("stolik")
        assert cookie
        await context.add_cookies([{"name": "stolik", "value": cookie, "url": srv.url}])
        page = await context.new_page()
        await page.goto(srv.url + "/devices")
        await h.settled(page)
        await page.wait_for_selector("#push-enable:not([hidden])")
        await asyncio.sleep(0.5)
        assert await page.evaluate("window.__prompts") == 0  # none on load
        await page.click("#push-enable")
        await page.wait_for_function("() => window.__prompts === 1")
        # Not granted (headless: the prompt is dismissed): the page says why, nothing else.
        status = page.locator("#push-status")
        await page.wait_for_function(
            "() => document.getElementById('push-status').textContent !== ''"
        )
        assert "blocked" in await status.inner_text() or "could not" in await status.inner_text()
        await context.close()
    finally:
        await ala.close()
