"""Racing Hedgehogs in a real browser: Playwright drives Debian's Chromium against the server.

Ala creates the table in the lobby (advanced scoring ticked), Bartek and Celina join through the
invite link, a fourth browser watches, and the three play the whole game by clicking cards (a
rainbow joker asks which hedgehog it moves). Screenshots land in artifacts/screenshots/rh_*.png.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.browser import helpers as h

if TYPE_CHECKING:
    from playwright.async_api import Page


pytestmark = pytest.mark.browser


async def hand_count_shown(page: Page, seat: int) -> int:
    """A seat's card count as the players table shows it."""
    return int(await page.locator(f".rh-players tr[data-seat='{seat}'] .rh-count").inner_text())


def best_of(buttons: list[tuple[int, int]], pick: int, greedy: bool) -> int:
    """Which of (index, destination field) to click: the furthest move, or a rotating one."""
    if greedy:
        return max(buttons, key=lambda b: b[1])[0]
    return buttons[pick % len(buttons)][0]


async def test_whole_game_played_by_clicking(web: h.Web) -> None:
    """Create in the lobby, join, watch and play all three rounds in the browser."""
    from playwright.async_api import expect

    pages = [await web.page() for _ in range(4)]
    ala, bartek, celina, watcher = pages
    players = [ala, bartek, celina]

    # Ala names herself and creates a private 3-seat table with advanced scoring.
    await ala.goto(web.url("/"))
    await h.choose_name(ala, "Ala")
    await ala.select_option("#game", "racing_hedgehogs")
    options = ala.locator("fieldset.game-options[data-game=racing_hedgehogs]")
    await expect(options).to_be_visible()
    advanced = options.get_by_label(re.compile("Advanced scoring"))
    await expect(advanced).to_be_visible()
    await expect(advanced).not_to_be_checked()
    await advanced.check()
    await ala.fill("#seats", "3")
    await ala.check("input[name=visibility][value=private]")
    await h.shot(ala, "rh_lobby")
    await ala.click("#create-table button[type=submit]")
    await h.settled(ala)
    invite = await ala.locator("#invite-link").input_value()

    for page, name in ((bartek, "Bartek"), (celina, "Celina")):
        await h.take_seat_by_invite(page, invite, name)
    await watcher.goto(invite)
    await h.settled(watcher)
    await ala.get_by_role("button", name="Start the game").click()

    for page in pages:
        await expect(page.locator(".rh-head h2")).to_have_text("Round 1 of 3")
        await expect(page.locator(".rh-mode")).to_contain_text("Advanced scoring")
        await expect(page.locator(".rh-field")).to_have_count(14)
        await expect(page.locator(".rh-start .rh-token")).to_have_count(4)
    # Each player holds 15 cards and sees only their own; the spectator sees none.
    for seat, page in enumerate(players):
        await expect(page.locator("#me [data-card]")).to_have_count(15)
        assert await hand_count_shown(watcher, seat) == 15
    await expect(watcher.locator("#me")).to_contain_text("You are watching")
    await expect(watcher.locator("[data-card]")).to_have_count(0)
    await expect(watcher.locator("#me button, #board button")).to_have_count(0)
    await expect(watcher.locator(".rh-hand")).to_have_count(0)
    await expect(watcher.locator(".rh-turn")).to_contain_text("is playing a card")

    moves = 0
    moves_in_round = 0
    joker_played = False
    round_no = 1
    shots: set[str] = set()
    for _ in range(200):
        if await ala.locator(".rh-final").count():
            break
        turn = [p for p in players if await p.locator("#me button.rh-tile").count()]
        assert len(turn) == 1, "exactly one player has playable cards"
        page = turn[0]
        seat = players.index(page)
        await expect(page.locator(".rh-turn")).to_contain_text("Your turn")
        await expect(watcher.locator(".rh-turn")).to_contain_text(["Ala", "Bartek", "Celina"][seat])
        before = await h.shown_version(page)
        held = await page.locator("#me [data-card]").count()
        assert await hand_count_shown(watcher, seat) == held
        jokers = page.locator("#me button.rh-tile.rh-c-rainbow")
        tiles = page.locator("#me button.rh-tile:not(.rh-c-rainbow)")
        greedy = moves_in_round >= 6
        if await jokers.count() and (not joker_played or not await tiles.count()):
            # A joker asks which hedgehog it moves.
            card = await jokers.first.get_attribute("data-card") or ""
            await jokers.first.click()
            prompt = page.locator(".rh-joker:popover-open")
            await expect(prompt).to_be_visible()
            await expect(prompt).to_contain_text("Choose which hedgehog")
            if not joker_played:
                await h.shot(page, "rh_joker_prompt", full_page=False)
            choices = prompt.locator("button[data-hog]")
            await expect(choices).to_have_count(4)
            targets = [
                (i, int(await choices.nth(i).get_attribute("data-to") or 0)) for i in range(4)
            ]
            button = choices.nth(best_of(targets, moves, greedy))
            hog = await button.get_attribute("data-hog")
            await button.click()
            joker_played = True
            await expect(watcher.locator("#log")).to_contain_text(
                f"plays {card} and moves the {hog} hedgehog"
            )
        else:
            count = await tiles.count()
            targets = [
                (i, int(await tiles.nth(i).get_attribute("data-to") or 0)) for i in range(count)
            ]
            tile = tiles.nth(best_of(targets, moves, greedy))
            card = await tile.get_attribute("data-card") or ""
            await tile.click()
        await h.settled(page, version=before + 1)
        after = await h.shown_version(page)
        for other in pages:
            await h.settled(other, version=after)
        moves += 1
        moves_in_round += 1
        new_round = int(await ala.locator(".rh").get_attribute("data-round") or 0)
        over = await ala.locator(".rh-final").count()
        if new_round == round_no and not over:
            # The card left the hand, everyone sees the new count, and the turn moved on.
            await expect(page.locator("#me [data-card]")).to_have_count(held - 1)
            assert await hand_count_shown(watcher, seat) == held - 1
            await expect(page.locator(".rh-turn")).not_to_contain_text("Your turn")
            nxt = players[(seat + 1) % 3]
            await expect(nxt.locator(".rh-turn")).to_contain_text("Your turn")
            await expect(watcher.locator(".rh-last")).to_contain_text(
                ["Ala", "Bartek", "Celina"][seat]
            )
            suit, pluses = card.split("+")
            await expect(watcher.locator(".rh-lastcard")).to_have_text(
                re.compile(rf"{suit}\s+\+{{{pluses}}}\s*$")
            )
            if moves_in_round == 3 and "mid" not in shots:
                shots.add("mid")
                await h.shot(ala, "rh_laptop_mid")
                await h.shot(watcher, "rh_spectator")
        else:
            # The round is over: its result is public, set-aside cards included.
            for other in pages:
                result = other.locator(".rh-result")
                await expect(result).to_contain_text(f"Round {round_no} result")
                await expect(result.locator(".rh-removed .rh-chip")).to_have_count(10)
                await expect(result.locator(".rh-scoring tbody tr")).to_have_count(3)
            await expect(watcher.locator("#log")).to_contain_text(f"Round {round_no} ends")
            if round_no == 1:
                await h.shot(ala, "rh_round_end")
                await ala.locator(".rh-mid").scroll_into_view_if_needed()
                await h.shot(ala, "rh_round_end_scores", full_page=False)
                await check_phone(web, celina, invite)
                # Round 1's points are in the running score table.
                first = await watcher.locator(".rh-players tbody td.rh-r").first.inner_text()
                assert first.strip().isdigit()
            if not over:
                for other in pages:
                    await expect(other.locator(".rh-head h2")).to_have_text(
                        f"Round {round_no + 1} of 3"
                    )
                for p in players:
                    await expect(p.locator("#me [data-card]")).to_have_count(15)
            round_no = new_round
            moves_in_round = 0

    assert joker_played, "a rainbow joker was played through its prompt"
    for page in pages:
        final = page.locator(".rh-final")
        await expect(final).to_contain_text(re.compile(r"wins!|Shared win"))
        await expect(final.locator(".rh-standings li")).to_have_count(3)
        await expect(page.locator(".rh-players tbody td.rh-r .hint")).to_have_count(0)
    await expect(ala.locator("#me")).to_contain_text("The game is over. You finished #")
    await expect(ala.locator("#me .game-me button")).to_have_count(0)
    await expect(watcher.locator("#log")).to_contain_text("Game over")
    await expect(watcher.locator("#me button, #board button")).to_have_count(0)
    await h.shot(ala, "rh_final")
    assert moves >= 9


async def check_phone(web: h.Web, player: Page, invite: str) -> None:
    """A phone-sized screen of the same player: everything fits without sideways scrolling."""
    from playwright.async_api import expect

    phone = await web.again(player, invite)
    await expect(phone.locator(".rh-result")).to_be_visible()
    await expect(phone.locator("#me [data-card]")).to_have_count(15)
    await h.shot(phone, "rh_phone_viewport", full_page=False)
    await h.phone_shot(phone, "rh_phone")
    await phone.context.close()
