"""Karmaka in a real browser: Playwright drives Debian's Chromium against the in-process server.

Two players (separate browser contexts) play a stretch of at least 10 turns by clicking, with an
ability whose card is then offered to the rival; a third context watches. A 4-player 2-on-2 table
checks the partner play. Screenshots land in artifacts/screenshots/karmaka_*.png — look at them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.helpers import (
    LAPTOP,
    PHONE,
    SHOTS,
    assert_fits_phone,
    launch,
    need_chromium,
    open_as,
    settled,
    shown_version,
)
from tests.clients import Player, make_table, table_of
from tests.conftest import Server

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page


pytestmark = pytest.mark.browser


async def all_at(pages: list[Page], version: int) -> None:
    """Wait until every page has settled on `version` (or a later state)."""
    for page in pages:
        await settled(page, version=version)


async def test_two_players_play_a_whole_game_by_clicking(sqlite_server: Server) -> None:
    """A whole game: abilities with offers, a spectator without buttons, phone size, the end."""
    need_chromium()

    base = sqlite_server.url
    app = sqlite_server.server.config.app
    (ala_p, bartek_p), table = await make_table(
        base, sqlite_server.ws_url, ["Ala", "Bartek"], game="karmaka"
    )
    url = f"{base}/t/{table['slug']}"
    laptop = {"viewport": {"width": 1280, "height": 800}}
    try:
        await play_two(app, base, url, table["slug"], ala_p, bartek_p, laptop)
    finally:
        for client in (ala_p, bartek_p):
            await client.close()


async def play_two(
    app: Any, base: str, url: str, slug: str, ala_p: Player, bartek_p: Player, laptop: Any
) -> None:
    """The clicking part of the two-player test."""
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as pw:
        browser = await launch(pw)
        ala = await open_as(browser, base, url, ala_p, **laptop)
        bartek = await open_as(browser, base, url, bartek_p, **laptop)
        watcher = await open_as(browser, base, url, None, **laptop)
        players = {0: ala, 1: bartek}
        pages = [ala, bartek, watcher]
        for page in pages:
            await expect(page.locator(".km-status h2")).to_be_visible()
        await all_at(pages, 0)

        # Only public information for the spectator: no Hand, no buttons, counts only.
        await expect(watcher.locator("#me")).to_contain_text("You are watching")
        await expect(watcher.locator("#me button")).to_have_count(0)
        await expect(watcher.locator(".km-hand")).to_have_count(0)
        await expect(watcher.locator(".km-player")).to_have_count(2)
        await expect(ala.locator(".km-hand .km-card")).to_have_count(
            len(table_of(app, slug).game.state.players[0].hand)  # type: ignore[union-attr]
        )

        offers_answered = 0
        abilities = 0
        shots: set[str] = set()
        turns = 0
        for _move in range(260):
            # The newest state any page shows (the last mover's), then on every page.
            version = max([await shown_version(p) for p in pages])
            await all_at(pages, version)
            log = await watcher.locator("#log").inner_text()
            turns = len(re.findall(r"'s turn\.|reincarnation\.", log))
            if "Game over" in log:
                break
            if "phone" not in shots and turns >= 8:
                shots.add("phone")
                await phone_check(browser, base, url, bartek_p)
            seat = -1
            for s, candidate in players.items():
                if await candidate.locator(".km-me.km-my-move").count():
                    seat = s
            assert seat in players, "nobody is asked to move"
            page = players[seat]
            other = players[1 - seat]
            me = page.locator("#me")
            # The board tells both players whose move it is.
            await expect(page.locator(".km-status")).to_have_class(re.compile("km-mine"))
            await expect(other.locator(".km-status")).not_to_have_class(re.compile("km-mine"))
            await expect(other.locator("#me .km-ask button")).to_have_count(0)
            if await me.locator(".km-accept").count():
                if "offer" not in shots:
                    shots.add("offer")
                    await page.screenshot(path=SHOTS / "karmaka_offer.png", full_page=True)
                card = await page.locator(".km-inplay .km-card-name").inner_text()
                take = offers_answered % 2 == 0
                button = me.locator(".km-accept" if take else ".km-refuse")
                await button.click()
                offers_answered += 1
                word = "takes the" if take else "refuses the"
                await expect(watcher.locator("#log")).to_contain_text(f"{word} {card}")
            elif await me.locator(".km-way").count():
                # Abilities now and then early on; later Deeds, so that the game reaches its end.
                way = "ability" if abilities == 0 or (turns % 3 == 0 and turns < 14) else "deed"
                if "laptop" not in shots and turns >= 4:
                    shots.add("laptop")
                    await page.screenshot(path=SHOTS / "karmaka_laptop.png")
                    await watcher.screenshot(path=SHOTS / "karmaka_spectator.png", full_page=True)
                holder = me.locator(".km-hand-card", has=page.locator(f".km-way-{way}")).first
                name = await holder.locator(".km-card-name").inner_text()
                card_id = await holder.locator(".km-card").get_attribute("data-id")
                await holder.locator(f".km-way-{way}").click()
                if way == "ability":
                    abilities += 1
                    await expect(watcher.locator("#log")).to_contain_text(
                        f"plays {name} for its ability"
                    )
                else:
                    await expect(watcher.locator("#log")).to_contain_text(f"plays {name} as a Deed")
                # The card left the Hand (a drawn card may take its place).
                await expect(me.locator(f".km-hand .km-card[data-id='{card_id}']")).to_have_count(0)
            elif await me.locator(".km-spend").count():
                await me.locator(".km-spend.primary").click()
            elif await me.locator(".km-end").count():
                await me.locator(".km-end").click()
                await expect(watcher.locator("#log")).to_contain_text("makes no extra play")
            else:
                # An ability's prompt: a target, a card to choose, a face-down pick, draw or stop.
                if "prompt" not in shots:
                    shots.add("prompt")
                    await page.screenshot(path=SHOTS / "karmaka_prompt.png", full_page=True)
                await expect(me.locator(".km-prompt-text")).to_be_visible()
                await me.locator(".km-ask button:enabled").first.click()
            await settled(page, version=version + 1)

        assert turns >= 11, f"only {turns} turns were played"
        assert abilities >= 1 and offers_answered >= 1
        await expect(watcher.locator("#me button")).to_have_count(0)
        await expect(watcher.locator("#log")).not_to_contain_text("You ")
        await expect(ala.locator("#log")).to_contain_text("You draw")

        # The game ran to its end: everyone sees the result and the standings.
        assert "Game over" in log, f"no winner after {turns} turns"
        for page in pages:
            await expect(page.locator(".km-result h3")).to_contain_text("win")
            await expect(page.locator(".km-standings li")).to_have_count(2)
            await expect(page.locator("#me .km-ask button")).to_have_count(0)
        await ala.screenshot(path=SHOTS / "karmaka_final.png", full_page=True)
        await browser.close()


async def phone_check(browser: Browser, base: str, url: str, player: Player) -> None:
    """The same table on a phone: readable, no sideways scroll."""
    from playwright.async_api import expect

    phone = await open_as(browser, base, url, player, viewport=PHONE)
    await expect(phone.locator(".km-status h2")).to_be_visible()
    await phone.screenshot(path=SHOTS / "karmaka_phone.png", full_page=True)
    await assert_fits_phone(phone)
    await phone.context.close()


async def test_teams_partner_play_in_the_browser(sqlite_server: Server) -> None:
    """2 on 2: the player on turn puts a card onto the partner's Future Life by clicking."""
    need_chromium()

    base = sqlite_server.url
    app = sqlite_server.server.config.app
    names = ["Ala", "Bartek", "Celina", "Darek"]
    clients, table = await make_table(
        base, sqlite_server.ws_url, names, game="karmaka", options={"mode": "teams_2v2"}
    )
    game = table_of(app, table["slug"]).game
    assert game is not None
    seat = min(game.engine.to_act(game.state))
    partner = (seat + 2) % 4
    url = f"{base}/t/{table['slug']}"
    try:
        await partner_play(base, url, clients[seat], clients[partner], names[partner], partner)
    finally:
        for client in clients:
            await client.close()


async def partner_play(
    base: str, url: str, player: Player, mate_p: Player, mate_name: str, partner: int
) -> None:
    """The clicking part of the 2-on-2 test."""
    from playwright.async_api import async_playwright, expect

    async with async_playwright() as pw:
        browser = await launch(pw)
        page = await open_as(browser, base, url, player, viewport=LAPTOP)
        mate = await open_as(browser, base, url, mate_p, viewport=PHONE)
        await expect(page.locator(".km-status h2")).to_have_text("Your turn")
        await expect(page.locator(f".km-player[data-seat='{partner}'] .km-partner")).to_be_visible()
        await expect(mate.locator(".km-me.km-my-move")).to_have_count(0)
        future_before = await mate.locator(".km-future .km-card").count()
        button = page.locator(".km-hand-card .km-way-partner").first
        await expect(button).to_have_text(re.compile("partner's Future Life"))
        await button.click()
        await expect(page.locator("#log")).to_contain_text(f"on {mate_name}'s Future Life")
        await expect(mate.locator(".km-future .km-card")).to_have_count(future_before + 1)
        await mate.screenshot(path=SHOTS / "karmaka_teams_phone.png", full_page=True)
        await assert_fits_phone(mate)
        await browser.close()
