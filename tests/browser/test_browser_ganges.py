"""Ganges in a real browser: two players and a spectator play a whole game by clicking.

The table is made over the JSON API (seed fixed, so the deal is known); every move is a click.
The test reads the authoritative state only to decide what to click. In the first two rounds a
building paid with two dice and a ship are bought deliberately through the payment picker; after
that paid cards (with karma and administrator jokers as the engine's canonical payments say)
are preferred so the game ends quickly, and every payment must read "✓ Pays" in the picker
before it is sent. Screenshots land in artifacts/screenshots/ganges_*.png — look at them.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.ganges.actions import Build, BuyShip, EndTurn, TakeDie, TakeGoods, UsePalace
from engines.ganges.cards import card_words
from tests.browser import helpers as h
from tests.clients import make_table, table_of
from tests.conftest import Server

pytestmark = pytest.mark.browser


SEED = 123
"""A deal where both players afford a two-dice building and a ship early, and the rest of the
game (74 moves) meets every prompt: picks, triples, track flips and bonuses, the hand limit."""
LATE = {"build": 0, "ship": 1, "palace": 2, "goods": 3, "take": 4}
"""After round 2: which main action to prefer (paid cards first, to end the game sooner)."""


def plan(engine: Any, state: Any, seat: int, done: set[str]) -> tuple[Any, str | None]:
    """The move to click: early a two-dice building and a ship, later any paid card."""
    actions = engine.legal_actions(state, seat)
    if state.prompt.kind == "action" and state.round >= 3:
        main = [a for a in actions if a.type in LATE]
        return min(main, key=lambda a: (LATE[a.type], -len(getattr(a, "pay", ())))), None
    if state.prompt.kind == "action":
        for a in actions:
            two_dice = isinstance(a, Build) and len(a.pay) == 2 and not a.jokers and not a.karma
            if "build2" not in done and two_dice:
                return a, "build2"
        for a in actions:
            if "ship" not in done and isinstance(a, BuyShip) and len(a.pay) == 1 and not a.karma:
                return a, "ship"
        return next(a for a in actions if isinstance(a, TakeDie)), None
    if state.prompt.kind == "end_turn":
        return EndTurn(), None
    return actions[0], None


async def test_full_game_by_clicking(
    sqlite_server: Server, web: h.Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players and a spectator play to the end; the picker pays for every paid card."""
    from playwright.async_api import Page, expect

    monkeypatch.setattr("app.table.seating.verify.seed_from_secret", lambda secret: SEED)
    app = sqlite_server.server.config.app
    clients, table = await make_table(
        sqlite_server.url, sqlite_server.ws_url, ["Ala", "Bartek"], game="ganges", private=True
    )
    slug = table["slug"]
    url = f"/t/{slug}?code={table['invite_code']}"

    def game() -> Any:
        live = table_of(app, slug).game
        assert live is not None
        return live

    pages: list[Page] = [await web.open(url, client) for client in [*clients, None]]
    for page in pages:
        await h.settled(page)
        await expect(page.locator(".gg-status h2")).to_contain_text("Round 1")
    watcher = pages[2]

    async def open_phone() -> Page:
        """Bartek's table page on a phone-sized screen."""
        return await web.open(url, clients[1], viewport=h.PHONE)

    # Hidden information on screen: own dice show values, other hands only colours.
    mine = pages[0].locator(".gg-player[data-seat='0'] .gg-hand .gg-die")
    await expect(mine).to_have_count(4)
    own = await pages[0].locator(".gg-player[data-seat='0'] .gg-die-v").all_inner_texts()
    assert all(v.isdigit() for v in own), own
    for page, other in ((pages[0], 1), (watcher, 0), (watcher, 1)):
        dice = page.locator(f".gg-player[data-seat='{other}'] .gg-die-v")
        assert await dice.all_inner_texts() == ["?"] * 4
    await expect(watcher.locator("#me button, #me form")).to_have_count(0)
    await expect(watcher.locator("#board input, #board button")).to_have_count(0)
    await expect(watcher.locator("#me")).to_contain_text("You are watching")

    done: set[str] = set()
    shots: set[str] = set()
    kinds: set[str] = set()
    turns_seen: set[tuple[int, int, int]] = set()
    two_rounds_checked = False
    for _ in range(160):
        live = game()
        state = live.state
        if state.over:
            break
        if state.round == 3 and not two_rounds_checked:
            # Two rounds played: both seats had a turn in both phases of each.
            assert done == {"build2", "ship"}, done
            assert {(r, ph, s) for r in (1, 2) for ph in (1, 2) for s in (0, 1)} <= turns_seen
            await expect(watcher.locator("#log")).to_contain_text("Round 2, phase 2")
            await expect(watcher.locator("#log")).not_to_contain_text("You take")
            await h.shot(watcher, "ganges_spectator")
            await h.shot(pages[0], "ganges_laptop_round3", full_page=False)
            two_rounds_checked = True
            phone = await open_phone()
            await expect(phone.locator(".gg-status h2")).to_contain_text("Round 3")
            await h.shot(phone, "ganges_phone")
            await h.shot(phone, "ganges_phone_viewport", full_page=False)
            await h.assert_fits_phone(phone)
            await phone.context.close()
        seat = min(live.engine.to_act(state))
        page = pages[seat]
        kind = state.prompt.kind
        kinds.add(kind)
        turns_seen.add((state.round, state.phase, seat))
        version = live.version
        await h.settled(page, version=version)
        action, tag = plan(live.engine, state, seat, done)
        me = page.locator("#me")
        if kind not in shots and kind != "action":
            await h.shot(page, f"ganges_prompt_{kind}", full_page=False)
            shots.add(kind)
        if isinstance(action, Build | BuyShip | UsePalace | TakeDie | TakeGoods):
            await expect(page.locator(".gg-turn")).to_have_text("▶ Your turn")
            other = pages[1 - seat]
            await h.settled(other, version=version)  # its own push of this version
            await expect(other.locator(".gg-turn")).to_contain_text("'s turn")
            await expect(other.locator("#me .game-me button")).to_have_count(0)
            await page.locator(f"label.gg-slot:has(input[value='{action.card}'])").click()
            # The chosen card is named in the game's words, never by its internal id.
            await expect(me.locator("[data-gg-selected]")).to_contain_text(
                card_words(action.card).text
            )
            await expect(me.locator("[data-gg-selected]")).not_to_contain_text(action.card)
        if isinstance(action, Build | BuyShip | UsePalace):
            pay_form = me.locator("form.gg-pay")
            verdict = pay_form.locator("[data-gg-verdict]")
            await expect(pay_form).to_be_visible()
            # The engine's ways to pay are offered as buttons (the picker has no rules).
            await expect(pay_form.locator("button.gg-way").first).to_be_visible()
            for i, card in enumerate(action.pay):
                await pay_form.locator(f"label.gg-paydie:has(input[value='\"{card}\"'])").click()
                if tag == "build2" and i == 0:
                    # One of two dice is not enough: the picker says so before paying.
                    await expect(verdict).to_contain_text("✗")
                    await expect(pay_form.locator("button[data-gg-paybtn]")).to_be_disabled()
            jokers = pay_form.locator(".gg-joker")
            for i, value in enumerate(action.jokers):
                await jokers.nth(i).locator("input[data-gg-joker]").check()
                await jokers.nth(i).locator("select").select_option(str(value))
            if action.karma:
                await pay_form.locator("input[name=karma]").fill(str(action.karma))
            await expect(verdict).to_contain_text("✓ Pays")
            if (action.jokers or action.karma) and "pay_joker_karma" not in shots:
                await h.shot(page, "ganges_prompt_pay_joker_karma", full_page=False)
                shots.add("pay_joker_karma")
            if tag and "pay" not in shots:
                await h.shot(page, "ganges_prompt_pay")
                shots.add("pay")
            row_name = {"build": "buildings", "ship": "ships", "palace": "goods"}[action.type]
            row = page.locator(f".gg-player[data-seat='{seat}'] .gg-row-{row_name}")
            fame_before = state.players[seat].fame
            await pay_form.locator("button[data-gg-paybtn]").click()
            await h.settled(page, version=version + 1)
            if tag:
                # Bought deliberately: the card now lies in the player's row.
                await expect(row.locator(f"[data-card='{action.card}']")).to_have_count(1)
                words = card_words(action.card).text
                line = f"builds a {words}" if tag == "build2" else f"adds {words}"
                await expect(watcher.locator("#log")).to_contain_text(line)
                await expect(watcher.locator("#log")).not_to_contain_text(action.card)
                done.add(tag)
            if tag == "build2":
                assert game().state.players[seat].fame > fame_before
                await h.shot(page, "ganges_laptop_built")
            continue
        if isinstance(action, TakeDie):
            hand = page.locator(f".gg-player[data-seat='{seat}'] .gg-hand .gg-die")
            before = await hand.count()
            await me.get_by_role("button", name="Take it into your hand as a die").click()
            await h.settled(page, version=version + 1)
            if len(game().state.players[seat].hand) == before + 1:
                await expect(hand).to_have_count(before + 1)
                spectated = watcher.locator(f".gg-player[data-seat='{seat}'] .gg-hand .gg-die")
                await expect(spectated).to_have_count(before + 1)
            continue
        if isinstance(action, TakeGoods):
            await me.get_by_role("button", name="Put it in your goods row").click()
            await h.settled(page, version=version + 1)
            continue
        # Any other prompt (end of turn, picks, triples, track flips, hand limit): the
        # planned answer is the first button offered.
        if kind == "end_turn":
            await me.get_by_role("button", name="End my turn").click()
        else:
            await me.locator(".game-me button:enabled").first.click()
        await h.settled(page, version=version + 1)

    final = game().state
    assert final.over, f"game not over (round {final.round})"
    assert {"pick", "resolve", "choose", "convert", "discard", "end_turn"} <= kinds, kinds
    outcome = game().engine.outcome(final)
    winner = ["Ala", "Bartek"][min(outcome.winners)]
    for page in pages:
        await expect(page.locator(".gg-result h3")).to_contain_text(winner)
        await expect(page.locator(".gg-standings tbody tr")).to_have_count(2)
        await expect(page.locator("#me .game-me button")).to_have_count(0)
    await expect(pages[0].locator("#me")).to_contain_text("The game is over")
    await expect(watcher.locator("#log")).to_contain_text("The round is over and so is the game.")
    await h.shot(pages[0], "ganges_final")

    # The final screen on a phone: it fits without sideways scrolling.
    phone = await open_phone()
    await expect(phone.locator(".gg-result h3")).to_contain_text(winner)
    await h.phone_shot(phone, "ganges_phone_final")
    for client in clients:
        await client.close()
