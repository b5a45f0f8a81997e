"""Real browser, the smaller things of issue 33: a resigned player's controls are off; the
keyboard reaches the game first (a skip link) and keeps its focus in the decision area after
a move; tooltips opened by a tap go one at a time and close on a tap elsewhere; a chat line the
rate limit refused stays in the box; the clocks stand still while the socket is down; the
replay steps without reloading, so quick presses all count.

Screenshots: artifacts/screenshots/native_*.png."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser import helpers as h
from tests.clients import Player, table_of
from tests.conftest import Server
from tests.tables import app_of, bot_table, my_turn_alone, play_until_over, post

pytestmark = pytest.mark.browser


async def test_a_resigned_player_has_no_live_controls(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    (me, other), table = await bot_table(sqlite_server, "incan_gold", humans=2)
    slug = table["slug"]
    try:
        r = await post(me, f"/api/tables/{slug}/resign")
        r.raise_for_status()
        page = await web.open(f"{sqlite_server.url}/t/{slug}", me, viewport=h.LAPTOP)
        await expect(page.locator("#me .seat-controls")).to_contain_text("You resigned")
        await expect(page.locator("#me fieldset.game-me[disabled]")).to_have_count(1)
        assert await page.locator("#me .game-me button:enabled").count() == 0
    finally:
        await me.close()
        await other.close()


async def test_keyboard_reaches_the_game_first_and_keeps_its_focus(
    sqlite_server: Server, web: h.Web
) -> None:
    """Tab, Enter: the skip link leads into your area; a move made with the keyboard leaves
    the focus there (not at the top of the page)."""
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, "incan_gold")
    slug = table["slug"]
    try:
        page = await web.open(f"{sqlite_server.url}/t/{slug}", me, viewport=h.LAPTOP)
        await expect(page.locator("#me button.torch")).to_be_enabled()
        await page.keyboard.press("Tab")
        await expect(page.locator(".skip-link")).to_be_focused()
        await page.screenshot(path=h.SHOTS / "native_skip_link.png")
        await page.keyboard.press("Enter")
        for _ in range(6):
            await page.keyboard.press("Tab")
            inside = await page.evaluate("document.activeElement.closest('#me .game-me') !== null")
            if inside:
                break
        assert inside, "Tab after the skip link did not reach the decision"
        shown = await h.shown_version(page)
        await page.keyboard.press("Enter")
        await h.settled(page, version=shown + 1)
        where = await page.evaluate(
            "document.activeElement === document.body ? 'body' : "
            "(document.activeElement.closest('#me') ? 'me' : document.activeElement.tagName)"
        )
        assert where == "me", where
    finally:
        await me.close()


async def test_tapped_tooltips_open_one_at_a_time(sqlite_server: Server, web: h.Web) -> None:
    """On a touch phone, a tap opens a card's tooltip; the next tap on another card closes the
    first; a tap outside closes it."""
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, "dreadful_circus")
    slug = table["slug"]
    try:
        page = await web.open(
            f"{sqlite_server.url}/t/{slug}",
            me,
            viewport=h.PHONE,
            has_touch=True,
            is_mobile=True,
        )
        chips = page.locator(".dc-area .dc-chip:visible")
        await me.connect(slug)
        rng = random.Random(4)
        for _ in range(4):  # a few moves: the Attractions placed show as chips
            if await chips.count() >= 2:
                break
            await my_turn_alone(me)
            version = me.version
            live = table_of(app_of(sqlite_server), slug).game
            assert live is not None
            action = rng.choice(live.engine.legal_actions(live.state, 0))
            await me.act(live.engine.dump_action(action), version)
            await me.wait_for(lambda p, v=version: p.version > v, timeout=30)
            await h.settled(page, version=version + 1)
        await expect(chips.nth(1)).to_be_visible()
        tips = page.locator(".dc-tip:visible")
        await chips.nth(0).tap()
        await expect(tips).to_have_count(1)
        await chips.nth(1).tap()
        await expect(tips).to_have_count(1)
        await page.screenshot(path=h.SHOTS / "native_tooltip_phone.png")
        await page.locator(".table-head h1").tap()
        await expect(tips).to_have_count(0)
    finally:
        await me.close()


async def test_a_refused_chat_line_stays_in_the_box(sqlite_server: Server, web: h.Web) -> None:
    from playwright.async_api import expect

    me = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    r = await me.http.post("/api/tables", json={"game": "incan_gold", "seats": 3})
    url = sqlite_server.url + r.json()["url"]
    page = await web.open(url, me, viewport=h.LAPTOP)
    toast = page.locator("#toast")
    sent = 0
    while sent < 12 and not await toast.is_visible():
        await page.fill("#chat-text", f"line {sent}")
        await page.press("#chat-text", "Enter")
        sent += 1
        await expect(page.locator("#chat-text")).to_have_value(re.compile(r"^$|^line \d+$"))
    await expect(toast).to_contain_text("too fast")
    await expect(page.locator("#chat-text")).to_have_value(f"line {sent - 1}")
    await me.close()


async def test_clocks_stand_still_while_disconnected(sqlite_server: Server, web: h.Web) -> None:
    """While the socket is down (the page's own signal) the clocks do not count; back online
    they count again."""
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, "karmaka", clock="slow")
    slug = table["slug"]
    try:
        page = await web.open(f"{sqlite_server.url}/t/{slug}", me, viewport=h.LAPTOP)
        clock = page.locator("#seats [data-deadline]").first
        await expect(clock).to_be_visible()
        await page.evaluate("document.dispatchEvent(new CustomEvent('htmx:wsClose'))")
        await expect(page.locator(".table-page.offline")).to_have_count(1)
        frozen = await clock.text_content()
        await page.wait_for_timeout(2200)
        assert await clock.text_content() == frozen
        await page.evaluate("document.dispatchEvent(new CustomEvent('htmx:wsOpen'))")
        await expect(clock).not_to_have_text(frozen or "", timeout=4000)
    finally:
        await me.close()


async def test_replay_steps_without_reloading(sqlite_server: Server, web: h.Web) -> None:
    """Four quick presses after Home land on move 3, on the same page (no reload)."""
    from playwright.async_api import expect

    (me,), table = await bot_table(sqlite_server, "incan_gold")
    slug = table["slug"]
    try:
        await me.connect(slug)
        await play_until_over(sqlite_server, slug, me, 0, seed=5)
        page = await web.open(
            f"{sqlite_server.url}/t/{slug}/replay",
            me,
            viewport=h.LAPTOP,
        )
        at = page.locator(".replay-at")
        last = int((await page.locator("[data-replay]").get_attribute("data-last")) or 0)
        assert last > 5
        await page.evaluate("window.stayed = true")
        await page.keyboard.press("Home")
        await expect(at).to_have_text(f"Move 0 of {last}")
        for _ in range(3):
            await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowLeft")
        await expect(at).to_have_text(f"Move 3 of {last}")
        await expect(page).to_have_url(re.compile(r"at=3$"))
        assert await page.evaluate("window.stayed === true"), "the page was reloaded"
    finally:
        await me.close()
