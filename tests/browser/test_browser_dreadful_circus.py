"""Dreadful Circus in a real browser: Playwright drives Debian's Chromium against the in-process
server. Four players (one browser context each) play three auction rounds by clicking: first
Attractions, the seller's offer, wagons filled with the − / + steppers and placed, the seller
opening wagons and accepting or refusing them, and any Performance prompt on the way. A fifth
context watches. A second test drives a whole game over the JSON sockets and checks the final
score breakdown in the browser. Screenshots land in artifacts/screenshots/dreadful_circus_*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import helpers as h
from tests.clients import drive_to_end, live_table, make_table
from tests.conftest import Server

NAMES = ["Ala", "Bartek", "Celina", "Darek"]

pytestmark = pytest.mark.browser


async def round_of(page: Any) -> int:
    """The round number in the board's heading (0 before round 1)."""
    heading = await page.locator(".dc-status h2").inner_text()
    found = re.search(r"Round (\d+)", heading)
    return int(found.group(1)) if found else 0


async def test_four_players_play_three_auctions(sqlite_server: Server, web: h.Web) -> None:
    """Four players play rounds 1–3 by clicking and talk in the table chat; a spectator sees
    only public facts (and the chat)."""
    from playwright.async_api import expect

    players, table = await make_table(
        sqlite_server.url, sqlite_server.ws_url, NAMES, game="dreadful_circus"
    )
    path = f"/t/{table['slug']}"
    pages = [await web.open(path, p) for p in players]
    watcher = await web.open(path)
    for page in [*pages, watcher]:
        await expect(page.locator(".dc-status h2")).to_be_visible()

    # Setup: everybody's screen is hidden from the spectator, who has no controls at all.
    await expect(watcher.locator(".dc-player .hidden-info")).to_have_count(4)
    await expect(watcher.locator("#me .spectating")).to_be_visible()
    await expect(pages[0].locator("#me .dc-screen")).to_contain_text("copper")

    latest = await h.shown_version(pages[0])
    shots: set[str] = set()

    async def shot(page: Any, name: str) -> None:
        if name not in shots:
            shots.add(name)
            await h.shot(page, f"dreadful_circus_{name}")

    async def act(page: Any) -> bool:
        """If this page owes a decision, take it by clicking; True when it did."""
        nonlocal latest
        await h.settled(page, version=latest)
        me = page.locator("#me .dc-me")
        prompt = await me.get_attribute("data-prompt")
        if not prompt:
            return False
        rnd = await round_of(page)
        if prompt == "bid":
            place = me.locator(".dc-place").first
            plus = me.locator("form[data-dc-bid] .dc-plus:enabled")
            if await plus.count():
                await expect(place).to_be_disabled()  # an empty wagon cannot go out
                await shot(page, "bid_form")
                await plus.nth(rnd % await plus.count()).click()
                await expect(me.locator("[data-dc-sum]")).to_contain_text("Your wagon: 1 ")
            await place.click()
        elif prompt == "accept_or_refuse":
            await expect(me).to_contain_text("wagon holds")
            await shot(page, "inspect")
            # Round 1 sells to the first wagon; round 2 refuses one first; round 3 none.
            refused = await page.locator(".dc-offer .dc-refused").count()
            refuse = rnd == 3 or (rnd == 2 and refused == 0)
            await me.locator(".dc-refuse" if refuse else ".dc-accept").click()
        elif prompt == "swap":
            await me.get_by_role("button", name="No swap").click()
        else:
            await me.locator(".dc-do:enabled").first.click()
        await h.settled(page, version=latest + 1)
        latest = await h.shown_version(page)
        return True

    seen_rounds: set[int] = set()
    chatted = False
    for _ in range(120):
        if await round_of(pages[0]) >= 4:
            break
        acted = False
        for page in pages:
            if await round_of(page) >= 4:
                continue  # three auctions are done: stop clicking into round 4
            acted = await act(page) or acted
        rnd = await round_of(pages[0])
        seen_rounds.add(rnd)
        phase = await pages[0].locator(".dc").get_attribute("data-phase")
        if phase == "inspect" and not chatted:
            # Negotiation happens in the table chat, visible to everyone at the table.
            chatted = True
            await pages[1].fill("#chat-text", "Open my wagon first, it's the best offer!")
            await pages[1].press("#chat-text", "Enter")
            await pages[0].fill("#chat-text", "We'll see <wink>")
            await pages[0].get_by_role("button", name="Send").click()
            for page in [*pages, watcher]:
                await expect(page.locator("#chat-log li.chat-line")).to_have_count(2)
                await expect(page.locator("#chat-log li.chat-line").first).to_contain_text(
                    f"{NAMES[1]}: Open my wagon first"
                )
                await expect(page.locator("#chat-log")).to_contain_text("We'll see <wink>")
            await shot(watcher, "chat")
        if phase == "inspect":
            # Wagons stand at the offer: contents only in their bidders' own screens.
            await shot(watcher, "spectator")
            await shot(pages[0], "laptop")
            await expect(watcher.locator(".dc-inside")).to_have_count(0)
            await expect(watcher.locator("#me button")).to_have_count(0)
            for page in pages:
                await expect(page.locator(".dc-wagon.mine")).to_have_count(
                    await page.locator(".dc-wagon.mine .dc-inside").count()
                )
                seller = await page.locator("#me .dc-me").get_attribute("data-prompt")
                if seller not in ("inspect", "accept_or_refuse"):
                    others = page.locator(".dc-wagon:not(.mine) .dc-inside")
                    await expect(others).to_have_count(0)
        assert acted or rnd >= 4, "nobody could act, yet the game went on"
    assert seen_rounds >= {1, 2, 3}
    assert chatted
    for page in [*pages, watcher]:
        await expect(page.locator(".dc-status h2")).to_contain_text("Round 4")

    log = watcher.locator("#log")
    await expect(log).to_contain_text(re.compile(r"accepts \w+'s wagon: \w+ wins"))
    await expect(log).to_contain_text(re.compile(r"refuses \w+'s wagon"))
    await expect(log).to_contain_text("Nobody bought")
    await expect(log).not_to_contain_text("wagon holds")
    await expect(log).not_to_contain_text("You ")
    # Hands shrink by one per round for each seller: the first Attraction took one card.
    sizes = [int(t) for t in await watcher.locator(".dc-hand-size").all_inner_texts()]
    assert sum(sizes) == 4 * 8 - 4 - 3, sizes
    await expect(watcher.locator("#me button")).to_have_count(0)
    # Round 4 has begun: only the new seller is asked (seats bar and board agree).
    to_act = watcher.locator(".seat.to-act")
    await expect(to_act).to_have_count(1)
    seller_name = (await to_act.locator(".seat-name").inner_text()).split()[0]
    await expect(watcher.locator(".dc-offer h3")).to_contain_text(f"{seller_name} offers")
    await shot(pages[0], "round_end")

    # A phone-sized screen of a player: nothing scrolls sideways.
    phone = await web.open(path, players[1], viewport=h.PHONE)
    await expect(phone.locator(".dc-status h2")).to_contain_text("Round 4")
    # The chat is kept with the table: a newly opened screen gets the lines again.
    await expect(phone.locator("#chat-log li.chat-line")).to_have_count(2)
    await h.phone_shot(phone, "dreadful_circus_phone")
    assert {"bid_form", "inspect", "spectator", "laptop"} <= shots
    for p in players:
        await p.close()


async def test_final_scores_in_the_browser(sqlite_server: Server, web: h.Web) -> None:
    """A whole game played over the sockets ends with the score breakdown on every screen."""
    from playwright.async_api import expect

    async with live_table(sqlite_server, NAMES, game="dreadful_circus") as live:
        players = live.seats
        played = await drive_to_end(sqlite_server, live, seed=3, moves=1500)
        assert players[0].view["phase"] == "over", f"not over after {played} moves"
        laptop = await web.open(f"/t/{live.slug}", players[0])
        await expect(laptop.locator(".dc-result")).to_contain_text("wins")
        rows = laptop.locator(".dc-scores tbody tr")
        await expect(rows).to_have_count(4)
        totals = players[0].view["outcome"]["scores"]
        for seat in range(4):
            row = laptop.locator(f".dc-scores tr[data-seat='{seat}']")
            await expect(row.locator(".dc-total")).to_have_text(str(totals[str(seat)]))
        await expect(laptop.locator("#me")).to_contain_text("Your final score")
        await expect(laptop.locator(".dc-player .hidden-info")).to_have_count(0)
        await h.shot(laptop, "dreadful_circus_final")
        phone = await web.open(f"/t/{live.slug}", viewport=h.PHONE)
        await expect(phone.locator(".dc-scores tbody tr")).to_have_count(4)
        # A card in an area shows its effect when tapped (focused) on a phone.
        chip = phone.locator("#board .dc-chip").first
        await expect(chip.locator(".dc-tip")).to_be_hidden()
        await chip.focus()
        await expect(chip.locator(".dc-tip")).to_be_visible()
        await expect(chip.locator(".dc-tip")).not_to_be_empty()
        await chip.blur()
        await h.phone_shot(phone, "dreadful_circus_final_phone")
