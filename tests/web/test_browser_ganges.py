"""Ganges in a real browser: two players and a spectator play two rounds by clicking.

The table is made over the JSON API (seed fixed, so the deal is known); every move is a click.
The test reads the authoritative state only to decide what to click: a building paid with two
dice and a ship are bought deliberately through the payment picker. Screenshots land in
artifacts/screenshots/ganges_*.png — look at them.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.realtime import hub as hub_module
from engines.ganges.actions import Build, BuyShip, EndTurn, TakeDie
from tests.conftest import Server, start_server
from tests.web.clients import hub_of, make_table

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

SEED = 0
"""A deal where both players can afford a two-dice building and a ship in round 1."""
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


@pytest.fixture
async def sqlite_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app on the embedded SQLite default."""
    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path)
    try:
        yield srv
    finally:
        await srv.stop()


def plan(engine: Any, state: Any, seat: int, done: set[str]) -> tuple[Any, str | None]:
    """The move to click: a two-dice building and a ship when possible, else a die card."""
    actions = engine.legal_actions(state, seat)
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


async def test_two_rounds_by_clicking(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players and a spectator; a two-dice building and a ship go through the picker."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is required in CI")
        pytest.skip("chromium is not installed")
    from playwright.async_api import Page, async_playwright, expect

    monkeypatch.setattr(hub_module.secrets, "randbits", lambda bits: SEED)
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = sqlite_server.url
    app = sqlite_server.server.config.app
    clients, table = await make_table(
        base, sqlite_server.ws_url, ["Ala", "Bartek"], game="ganges", private=True
    )
    slug = table["slug"]
    url = f"{base}/t/{slug}?code={table['invite_code']}"

    def game() -> Any:
        live = hub_of(app, slug).game
        assert live is not None
        return live

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        pages: list[Page] = []
        for client in [*clients, None]:
            ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
            if client is not None:
                cookie = client.http.cookies.get("stolik")
                await ctx.add_cookies([{"name": "stolik", "value": cookie or "", "url": base}])
            pages.append(await ctx.new_page())
        for page in pages:
            await page.goto(url)
            await expect(page.locator("#conn-status")).to_have_text("live")
            await expect(page.locator(".gg-status h2")).to_contain_text("Round 1")
        watcher = pages[2]

        # Hidden information on screen: own dice show values, other hands only colours.
        await expect(pages[0].locator(".gg-player[data-seat='0'] .gg-hand .gg-die")).to_have_count(
            4
        )
        own = await pages[0].locator(".gg-player[data-seat='0'] .gg-die-v").all_inner_texts()
        assert all(v.isdigit() for v in own), own
        for page, other in ((pages[0], 1), (watcher, 0), (watcher, 1)):
            shown = await page.locator(
                f".gg-player[data-seat='{other}'] .gg-die-v"
            ).all_inner_texts()
            assert shown == ["?"] * 4, shown
        await expect(watcher.locator("#me button, #me form")).to_have_count(0)
        await expect(watcher.locator("#board input, #board button")).to_have_count(0)
        await expect(watcher.locator("#me")).to_contain_text("You are watching")

        done: set[str] = set()
        shot_prompt = False
        turns_seen: set[tuple[int, int, int]] = set()
        for _ in range(60):
            live = game()
            state = live.state
            if state.over or (state.round >= 3 and len(done) == 2):
                break
            seat = min(live.engine.to_act(state))
            page = pages[seat]
            turns_seen.add((state.round, state.phase, seat))
            version = str(live.version)
            await expect(page.locator("#board")).to_have_attribute("data-version", version)
            action, tag = plan(live.engine, state, seat, done)
            me = page.locator("#me")
            if isinstance(action, Build | BuyShip | TakeDie):
                await expect(page.locator(".gg-turn")).to_have_text("▶ Your turn")
                other = pages[1 - seat]
                await expect(other.locator(".gg-turn")).to_contain_text("'s turn")
                await expect(other.locator("#me button")).to_have_count(0)
                await page.locator(f"label.gg-slot:has(input[value='{action.card}'])").click()
                await expect(me.locator("[data-gg-selected]")).to_contain_text(action.card)
            if isinstance(action, Build | BuyShip):
                pay_form = me.locator("form.gg-pay")
                await expect(pay_form).to_be_visible()
                for i, card in enumerate(action.pay):
                    await pay_form.locator(
                        f"label.gg-paydie:has(input[value='\"{card}\"'])"
                    ).click()
                    if i < len(action.pay) - 1:
                        # One of two dice is not enough: the picker says so before paying.
                        await expect(pay_form.locator("[data-gg-verdict]")).to_contain_text("✗")
                await expect(pay_form.locator("[data-gg-verdict]")).to_contain_text("✓ Pays")
                if not shot_prompt:
                    await page.screenshot(path=SHOTS / "ganges_prompt_pay.png", full_page=True)
                    shot_prompt = True
                row = "buildings" if isinstance(action, Build) else "ships"
                player_row = page.locator(f".gg-player[data-seat='{seat}'] .gg-row-{row}")
                before = await player_row.locator(".gg-card").count()
                fame_before = state.players[seat].fame
                await pay_form.locator("button[data-gg-paybtn]").click()
                await expect(page.locator("#board")).not_to_have_attribute("data-version", version)
                await expect(player_row.locator(f"[data-card='{action.card}']")).to_have_count(1)
                assert await player_row.locator(".gg-card").count() == before + 1 or row == "ships"
                verb = "builds" if row == "buildings" else "adds ship"
                await expect(watcher.locator("#log")).to_contain_text(f"{verb} {action.card}")
                if isinstance(action, Build):
                    assert game().state.players[seat].fame > fame_before
                    await page.screenshot(path=SHOTS / "ganges_laptop_built.png", full_page=True)
                assert tag is not None
                done.add(tag)
                continue
            if isinstance(action, TakeDie):
                hand = page.locator(f".gg-player[data-seat='{seat}'] .gg-hand .gg-die")
                before = await hand.count()
                await me.get_by_role("button", name="Take it into your hand as a die").click()
                await expect(page.locator("#board")).not_to_have_attribute("data-version", version)
                if game().state.prompt is not None and game().state.prompt.kind != "discard":
                    await expect(hand).to_have_count(before + 1)
                    await expect(
                        watcher.locator(f".gg-player[data-seat='{seat}'] .gg-hand .gg-die")
                    ).to_have_count(before + 1)
                continue
            # Any other prompt (end of turn, picks, triples, track flips): its first button.
            buttons = me.locator("button:enabled")
            assert await buttons.count(), f"no button for prompt {state.prompt.kind}"
            if state.prompt.kind == "end_turn":
                await me.get_by_role("button", name="End my turn").click()
            else:
                await buttons.first.click()
            await expect(page.locator("#board")).not_to_have_attribute("data-version", version)
            if state.prompt.kind == "pick" and not shot_prompt:
                await page.screenshot(path=SHOTS / "ganges_prompt_pick.png", full_page=True)

        final = game().state
        assert done == {"build2", "ship"}, done
        assert final.round >= 3 or final.over, f"only reached round {final.round}"
        assert {(1, 1, 0), (1, 1, 1), (1, 2, 0), (1, 2, 1)} <= turns_seen
        for page in pages:
            await expect(page.locator(".gg-status h2")).to_contain_text(f"Round {final.round}")
        await expect(watcher.locator("#log")).to_contain_text("Round 2, phase 2")
        await expect(watcher.locator("#log")).not_to_contain_text("You take")
        await watcher.screenshot(path=SHOTS / "ganges_spectator.png", full_page=True)
        await pages[0].screenshot(path=SHOTS / "ganges_laptop_round3.png", full_page=True)

        # A player's screen on a phone: it fits without sideways scrolling.
        phone_ctx = await browser.new_context(viewport={"width": 390, "height": 844})
        cookie = clients[1].http.cookies.get("stolik")
        await phone_ctx.add_cookies([{"name": "stolik", "value": cookie or "", "url": base}])
        phone = await phone_ctx.new_page()
        await phone.goto(url)
        await expect(phone.locator(".gg-status h2")).to_contain_text(f"Round {final.round}")
        await phone.screenshot(path=SHOTS / "ganges_phone.png", full_page=True)
        await phone.screenshot(path=SHOTS / "ganges_phone_viewport.png")
        width = await phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, f"page scrolls sideways on a phone ({width}px)"
        await browser.close()
    for client in clients:
        await client.close()
