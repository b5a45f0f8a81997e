"""Real browser: friends and an invitation over two browser contexts (issue 35 section 2).
Bartek pastes Ola's profile link and asks; Ola accepts; Ola opens a friends-only table and
invites Bartek in one click; Bartek's open lobby shows the invitation at once and its link
seats him; a stranger who tries to sit is told why. Screenshots of the friends page, the
lobby with an invitation and the table's invite panel, at laptop and phone sizes, in
English and Polish."""

from __future__ import annotations

import re

import pytest

from tests.browser import helpers as h

pytestmark = pytest.mark.browser


async def test_friends_and_an_invitation(web: h.Web) -> None:
    from playwright.async_api import expect

    ola = await web.page()
    await ola.goto(web.url("/name?next=/friends"))
    await h.choose_name(ola, "Ola Żak")
    await expect(ola.locator("h1")).to_have_text("Friends")
    ola_link = await ola.locator("#profile-link").input_value()
    assert re.search(r"/u/\d+$", ola_link)

    bartek = await web.page()
    await bartek.goto(web.url("/name?next=/friends"))
    await h.choose_name(bartek, "Bartek")
    await bartek.fill("#friend-who", ola_link)
    await bartek.get_by_role("button", name="Send a friend request").click()
    await expect(bartek.locator(".notice")).to_have_text("Friend request sent to Ola Żak.")
    await expect(bartek.locator(".people")).to_contain_text("waiting for an answer")

    await ola.reload()
    await expect(ola.locator(".people").first).to_contain_text("Bartek")
    await ola.get_by_role("button", name="Accept").click()
    friend = ola.locator(".friends .person")
    await expect(friend).to_contain_text("Bartek")
    await expect(friend).to_contain_text("on Stolik now")

    # Bartek waits in the lobby (its socket is live); Ola opens a friends-only table.
    await bartek.goto(web.url("/"))
    await h.settled(bartek)
    await expect(bartek.locator(".friends-box")).to_contain_text("Ola Żak")
    await ola.goto(web.url("/"))
    await h.settled(ola)
    await ola.select_option("#game", "incan_gold")
    await ola.check("input[name=friends_only]")
    await ola.get_by_role("button", name="Create table").click()
    await expect(ola).to_have_url(re.compile(r"/t/[\w-]+$"))
    await h.settled(ola)
    await expect(ola.locator(".table-head .badge")).to_have_text("friends only")
    invite = ola.get_by_role("button", name="Invite Bartek")
    await invite.click()
    await expect(ola.locator(".invited")).to_have_text("Invited Bartek ✓")
    await h.shot(ola, "friends_invite_panel_laptop", full_page=False)
    assert await h.serious_a11y_violations(ola) == []
    table_url = ola.url
    ola_table_phone = await web.again(ola)
    await expect(ola_table_phone.locator("#invite-friends")).to_contain_text("Bartek")
    await h.phone_shot(ola_table_phone, "friends_invite_panel_phone")

    # Live: the invitation appears in Bartek's open lobby, without a reload.
    box = bartek.locator("#invitations")
    await expect(box).to_contain_text("Ola Żak invites you to Incan Gold")
    await h.shot(bartek, "friends_invitation_lobby_laptop")
    assert await h.serious_a11y_violations(bartek) == []
    phone = await web.again(bartek, "/")
    await expect(phone.locator("#invitations")).to_contain_text("invites you")
    await h.phone_shot(phone, "friends_invitation_lobby_phone")
    await bartek.get_by_role("link", name="Go to the table").click()
    await expect(bartek).to_have_url(table_url)
    await h.settled(bartek)
    await bartek.get_by_role("button", name="Take this seat").first.click()
    await expect(bartek.locator(".seat.mine")).to_contain_text("Bartek")

    # A stranger may watch but not sit: the refusal says why.
    stranger = await web.page()
    await stranger.goto(web.url("/name?next=" + table_url.removeprefix(web.base)))
    await h.choose_name(stranger, "Celina")
    await h.settled(stranger)
    await stranger.get_by_role("button", name="Take this seat").first.click()
    await expect(stranger.locator("#toast")).to_contain_text(
        "Only the host's friends can take a seat at this table."
    )
    await expect(stranger.locator(".seat.mine")).to_have_count(0)

    # The friends page at both sizes and in both languages.
    await ola.goto(web.url("/friends"))
    await h.shot(ola, "friends_laptop")
    assert await h.serious_a11y_violations(ola) == []
    ola_phone = await web.again(ola, "/friends")
    await h.phone_shot(ola_phone, "friends_phone")
    ola_pl = await web.again(ola, "/friends", viewport=h.LAPTOP, locale="pl-PL")
    await expect(ola_pl.locator("h1")).to_have_text("Znajomi")
    await expect(ola_pl.locator(".friends .person")).to_contain_text("teraz na Stoliku")
    await h.shot(ola_pl, "friends_laptop_pl")
    ola_pl_phone = await web.again(ola, "/friends", locale="pl-PL")
    await h.phone_shot(ola_pl_phone, "friends_phone_pl")
    bartek_pl = await web.again(bartek, "/", locale="pl-PL")
    await expect(bartek_pl.locator("#invitations")).to_contain_text("zaprasza cię do gry")
    await h.phone_shot(bartek_pl, "friends_invitation_lobby_phone_pl")
    profile = await web.again(bartek, ola_link.removeprefix(web.base), viewport=h.LAPTOP)
    await expect(profile.locator(".friend-button")).to_contain_text("You are friends")
