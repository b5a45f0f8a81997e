"""Real browser test: Playwright drives Debian's Chromium against the in-process server.

Three players create, join and play a private Incan Gold table by clicking; a fourth browser
watches through the invite link. Screenshots land in artifacts/screenshots/ — look at them.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_private_table_played_by_clicking(web: h.Web) -> None:
    """Create, invite, join, spectate and play one full round in the browser."""
    from playwright.async_api import expect

    pages = [await web.page() for _ in range(4)]
    ala, bartek, celina, watcher = pages

    # Ala names herself, lands in the lobby, creates a private 3-seat table.
    await ala.goto(web.url("/"))
    await expect(ala).to_have_url(re.compile(r"/name"))
    await h.choose_name(ala, "Ala")
    await expect(ala.locator("h2", has_text="Create a table")).to_be_visible()
    await h.shot(ala, "lobby")
    await ala.fill("#seats", "3")
    await ala.check("input[name=visibility][value=private]")
    await ala.click("#create-table button[type=submit]")
    await h.settled(ala)
    invite = await ala.locator("#invite-link").input_value()
    assert "code=" in invite

    # Bartek and Celina follow the invite link, name themselves and take seats.
    for page, name in ((bartek, "Bartek"), (celina, "Celina")):  # seats 2 and 3
        await h.take_seat_by_invite(page, invite, name)
    await expect(ala.locator(".seat-list")).to_contain_text("Celina")
    await h.shot(ala, "table_waiting")

    # A fourth browser watches through the invite link, without a name.
    await watcher.goto(invite)
    await h.settled(watcher)

    # Table chat: players write, everyone (the anonymous watcher too) reads.
    await ala.fill("#chat-text", "Hi both, <b>good luck</b>!")
    await ala.press("#chat-text", "Enter")
    await bartek.fill("#chat-text", "Thanks, you too")
    await bartek.get_by_role("button", name="Send").click()
    for page in pages:
        await expect(page.locator("#chat-log li.chat-line")).to_have_count(2)
        await expect(page.locator("#chat-log")).to_contain_text("Hi both, <b>good luck</b>!")
        await expect(page.locator("#chat-log li.chat-line").last).to_contain_text("Bartek")
    await expect(ala.locator("#chat-text")).to_have_value("")
    await expect(watcher.locator("#chat-form")).to_have_count(0)
    await expect(watcher.locator(".chat")).to_contain_text("Choose a name to chat")
    await ala.get_by_role("button", name="Start the game").click()
    # Usually round 1; a seed whose opening cards are two alike hazards already ends it.
    for page in pages:
        await expect(page.locator(".ig-round h2")).to_contain_text(re.compile(r"Round \d"))
    heading = await ala.locator(".ig-round h2").inner_text()
    first_round = int(re.findall(r"\d+", heading)[0])
    # A later round (a round can also end at once when its opening cards are two alike
    # hazards, so the next one seen may be two rounds on; the deal is random each run).
    later = "|".join(str(r) for r in range(first_round + 1, 6)) or "none"
    next_heading = re.compile(rf"Round ({later}) ")

    # Spectators see no tents and no buttons; players see their own tent.
    await expect(watcher.locator("#me .choice")).to_have_count(0)
    await expect(watcher.locator(".ig-players .hidden-info")).to_have_count(3)
    await expect(ala.locator(".ig-mine")).to_contain_text("Your tent")

    # The log: after the whole log a move sends only its new lines, and the page keeps
    # its newest `data-tail` (the server's log tail; two for the watcher here).
    await watcher.locator("#log").evaluate("el => { el.dataset.tail = '2'; }")

    # Play the round: everyone goes deeper once, then camps (unless a hazard ends it first).
    decisions = {id(p): 0 for p in pages[:3]}
    for _ in range(40):
        if await ala.locator(".ig-round h2").filter(has_text=next_heading).count():
            break
        for page in pages[:3]:
            round_heading = await page.locator(".ig-round h2").inner_text()
            if f"Round {first_round} " not in round_heading + " ":
                continue  # this round is over: stop clicking into the next one
            torch = page.locator("#me button.torch")
            if await torch.count() and await torch.is_enabled():
                decisions[id(page)] += 1
                button = "torch" if decisions[id(page)] < 2 else "camp"
                shown = await h.shown_version(page)
                await page.locator(f"#me button.{button}").click()
                # Every page has applied the move before the next one looks at its own.
                for each in pages:
                    await h.settled(each, version=shown + 1)
        if decisions[id(ala)] == 1:
            await h.shot(watcher, "game_spectator")
    for page in pages:
        await expect(page.locator(".ig-round h2")).to_contain_text(next_heading)
    await expect(ala.locator("#log")).to_contain_text(f"Round {first_round} is over.")
    await h.shot(ala, "game_laptop")
    await expect(watcher.locator("#log")).not_to_contain_text("You ")

    await expect(watcher.locator("#log > li:not(.empty)")).to_have_count(2)

    # Reload: the same view comes back, and the same log (sent whole this time).
    before = await bartek.locator("#board").inner_text()
    log_before = await bartek.locator("#log").inner_text()
    assert log_before.count("\n") >= 4
    await bartek.reload()
    await h.settled(bartek)
    await expect(bartek.locator("#conn-status")).to_have_text("live")
    await expect(bartek.locator(".ig-round h2")).to_contain_text(next_heading)
    assert await bartek.locator("#board").inner_text() == before
    assert await bartek.locator("#log").inner_text() == log_before

    # Phone-sized screen of a player mid-game.
    phone = await web.again(celina, invite)
    await expect(phone.locator("#me .choice.torch")).to_be_visible()
    await h.phone_shot(phone, "game_phone")
