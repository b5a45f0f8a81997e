"""Karmaka in a real browser: Playwright drives Debian's Chromium against the in-process server.

Two players (separate browser contexts) play a stretch of at least 10 turns by clicking, with an
ability whose card is then offered to the rival; a third context watches. A 4-player 2-on-2 table
checks the partner play. Screenshots land in artifacts/screenshots/karmaka_*.png — look at them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from app.table import Table
from tests.browser import helpers as h
from tests.clients import Live, Player, live_table, table_of
from tests.conftest import Server

if TYPE_CHECKING:
    from playwright.async_api import Page


pytestmark = pytest.mark.browser


async def all_at(pages: list[Page], version: int) -> None:
    """Wait until every page has settled on `version` (or a later state)."""
    for page in pages:
        await h.settled(page, version=version)


async def test_two_players_play_a_whole_game_by_clicking(sqlite_server: Server, web: h.Web) -> None:
    """A whole game: abilities with offers, a spectator without buttons, phone size, the end."""
    async with live_table(sqlite_server, ["Ala", "Bartek"], game="karmaka") as live:
        await play_two(web, table_of(sqlite_server.server.config.app, live.slug), live)


async def play_two(web: h.Web, hub: Table, live: Live) -> None:
    """The clicking part of the two-player test."""
    from playwright.async_api import expect

    ala, bartek, watcher = [
        await web.open(f"/t/{live.slug}", person) for person in [*live.seats, None]
    ]
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
        len(hub.game.state.players[0].hand)  # type: ignore[union-attr]
    )

    offers_answered = 0
    abilities = 0
    shots: set[str] = set()
    turns = 0
    for _move in range(260):
        # The newest state any page shows (the last mover's), then on every page.
        version = max([await h.shown_version(p) for p in pages])
        await all_at(pages, version)
        log = await watcher.locator("#log").inner_text()
        turns = len(re.findall(r"'s turn\.|reincarnation\.", log))
        if "Game over" in log:
            break
        if "phone" not in shots and turns >= 8:
            shots.add("phone")
            await phone_check(web, f"/t/{live.slug}", live.seats[1])
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
                await h.shot(page, "karmaka_offer")
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
                await h.shot(page, "karmaka_laptop", full_page=False)
                await h.shot(watcher, "karmaka_spectator")
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
                await h.shot(page, "karmaka_prompt")
            await expect(me.locator(".km-prompt-text")).to_be_visible()
            await me.locator(".km-ask button:enabled").first.click()
        await h.settled(page, version=version + 1)

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
    await h.shot(ala, "karmaka_final")


async def phone_check(web: h.Web, path: str, player: Player) -> None:
    """The same table on a phone: readable, no sideways scroll."""
    from playwright.async_api import expect

    phone = await web.open(path, player, viewport=h.PHONE)
    await expect(phone.locator(".km-status h2")).to_be_visible()
    await h.phone_shot(phone, "karmaka_phone")
    await phone.context.close()


async def test_teams_partner_play_in_the_browser(sqlite_server: Server, web: h.Web) -> None:
    """2 on 2: the player on turn puts a card onto the partner's Future Life by clicking."""
    from playwright.async_api import expect

    names = ["Ala", "Bartek", "Celina", "Darek"]
    options = {"mode": "teams_2v2"}
    async with live_table(sqlite_server, names, game="karmaka", options=options) as live:
        game = table_of(sqlite_server.server.config.app, live.slug).game
        assert game is not None
        seat = min(game.engine.to_act(game.state))
        partner = (seat + 2) % 4
        page = await web.open(f"/t/{live.slug}", live.seats[seat])
        mate = await web.open(f"/t/{live.slug}", live.seats[partner], viewport=h.PHONE)
        await expect(page.locator(".km-status h2")).to_have_text("Your turn")
        await expect(page.locator(f".km-player[data-seat='{partner}'] .km-partner")).to_be_visible()
        await expect(mate.locator(".km-me.km-my-move")).to_have_count(0)
        future_before = await mate.locator(".km-future .km-card").count()
        button = page.locator(".km-hand-card .km-way-partner").first
        await expect(button).to_have_text(re.compile("partner's Future Life"))
        await button.click()
        await expect(page.locator("#log")).to_contain_text(f"on {names[partner]}'s Future Life")
        await expect(mate.locator(".km-future .km-card")).to_have_count(future_before + 1)
        await h.phone_shot(mate, "karmaka_teams_phone")
