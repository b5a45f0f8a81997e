"""Real browser: passkeys end to end (issue 35 section 1) with Chromium's virtual authenticator
(DevTools protocol: WebAuthn.enable, addVirtualAuthenticator). A guest adds a passkey and
becomes an account; removing that last way back is refused; they sign out; a fresh browser
context whose authenticator holds the same passkey (as a synced passkey or a security key
would) signs in with it and is the same person. Screenshots of the account page at laptop
and phone sizes, in English and Polish.

The server is opened as http://localhost:PORT: WebAuthn needs a secure context and a
relying-party id that is a domain name (not 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser import helpers as h
from tests.browser.test_browser_languages import english_on, english_only_messages
from tests.conftest import start_server
from tests.mailbox import mailbox

if TYPE_CHECKING:
    from playwright.async_api import Browser, CDPSession, Page

pytestmark = pytest.mark.browser

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


async def authenticator(page: Page) -> tuple[CDPSession, str]:
    """A virtual platform authenticator for `page` (its DevTools session and id)."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable", {"enableUI": False})
    added = await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, str(added["authenticatorId"])


async def test_passkey_register_sign_out_sign_in(tmp_path: Path, browser: Browser) -> None:

    async with mailbox() as box:  # e-mail is on (the page shows its forms); nothing is sent
        srv = await start_server(
            f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path, **box.settings()
        )
        try:
            await passkey_journey(h.Web(browser, srv.url.replace("127.0.0.1", "localhost")))
        finally:
            await srv.stop()
        assert box.messages == []


async def passkey_journey(web: h.Web) -> None:
    """Register, refuse removing the last way, sign out, sign in on a fresh context."""
    from playwright.async_api import expect

    laptop = await web.page()
    cdp, auth_id = await authenticator(laptop)
    await laptop.goto(web.url("/name"))
    await h.choose_name(laptop, "Żaneta Wiśniewska")
    await expect(laptop.locator(".whoami")).to_contain_text("Żaneta Wiśniewska")
    await laptop.get_by_role("link", name="account").click()
    await expect(laptop.locator("h1")).to_have_text("Your account")
    await expect(laptop.locator("main")).to_contain_text("You play as the guest")
    await h.shot(laptop, "account_guest_laptop")

    await laptop.get_by_role("button", name="Add a passkey").click()
    await expect(laptop.locator(".notice")).to_have_text("Your passkey is saved.")
    await expect(laptop.locator("li.passkey")).to_have_count(1)
    await expect(laptop.locator("main")).to_contain_text("is your account")
    creds: dict[str, Any] = await cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth_id})
    assert len(creds["credentials"]) == 1
    assert creds["credentials"][0]["isResidentCredential"]
    await h.shot(laptop, "account_laptop")
    assert not await h.serious_a11y_violations(laptop)

    # The only way back cannot be removed.
    await laptop.locator("li.passkey").get_by_role("button", name="Remove").click()
    await expect(laptop.locator("p.form-error[role=alert]:not([hidden])")).to_contain_text(
        "This is your last way to sign in"
    )
    await laptop.goto(web.url("/account"))
    await expect(laptop.locator("li.passkey")).to_have_count(1)

    # Sign out here: this browser is nobody again.
    await laptop.goto(web.url("/devices"))
    await laptop.get_by_role("button", name="Sign out here").click()
    await expect(laptop.locator(".whoami")).to_have_count(0)

    # A fresh context (a phone) with the same passkey signs in as the same person.
    phone = await web.page(viewport=h.PHONE)
    phone_cdp, phone_auth = await authenticator(phone)
    await phone_cdp.send(
        "WebAuthn.addCredential",
        {"authenticatorId": phone_auth, "credential": creds["credentials"][0]},
    )
    await phone.goto(web.url("/"))
    await phone.get_by_role("link", name="Sign in", exact=True).click()
    await expect(phone.locator("h1")).to_have_text("Sign in to Stolik")
    await h.phone_shot(phone, "account_signin_phone")
    await phone.get_by_role("button", name="Sign in with a passkey").click()
    await expect(phone.locator(".whoami")).to_contain_text("Żaneta Wiśniewska")
    await phone.goto(web.url("/account"))
    await expect(phone.locator("li.passkey")).to_have_count(1)
    await h.settled(phone)
    await h.phone_shot(phone, "account_phone")

    # The laptop's copy of the passkey is now behind the phone's signature counter: a
    # cloned authenticator, refused. Synced again, it signs the laptop back in.
    await laptop.goto(web.url("/account"))
    await laptop.get_by_role("button", name="Sign in with a passkey").click()
    await expect(laptop.locator("#passkey-error")).to_contain_text("could not be checked")
    await expect(laptop.locator(".whoami")).to_have_count(0)
    synced = await phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_auth})
    await cdp.send("WebAuthn.clearCredentials", {"authenticatorId": auth_id})
    await cdp.send(
        "WebAuthn.addCredential",
        {"authenticatorId": auth_id, "credential": synced["credentials"][0]},
    )
    await laptop.goto(web.url("/account"))
    await laptop.get_by_role("button", name="Sign in with a passkey").click()
    await expect(laptop.locator(".whoami")).to_contain_text("Żaneta Wiśniewska")
    await laptop.goto(web.url("/devices"))
    await expect(laptop.locator("li.device")).to_have_count(2)

    # In Polish.
    await phone.locator("form.lang-switch button[value=pl]").click()
    await expect(phone.locator("h1")).to_have_text("Twoje konto")
    english = english_only_messages()
    assert await english_on(phone, english, "body") == []
    await h.phone_shot(phone, "account_phone_pl")
    await laptop.locator("form.lang-switch button[value=pl]").click()
    await laptop.goto(web.url("/account"))
    await expect(laptop.locator("h1")).to_have_text("Twoje konto")
    await h.shot(laptop, "account_laptop_pl")
    fresh = await web.page(locale="pl-PL")
    await fresh.goto(web.url("/account"))
    await expect(fresh.locator("h1")).to_have_text("Logowanie do Stolika")
    assert await english_on(fresh, english, "body") == []
    await h.shot(fresh, "account_signin_laptop_pl")
    await fresh.goto(web.url("/account"))
    await fresh.set_viewport_size(h.PHONE)
    await h.phone_shot(fresh, "account_signin_phone_pl")
    await laptop.set_viewport_size(h.LAPTOP)
    await fresh.set_viewport_size(h.LAPTOP)
    await laptop.goto(web.url("/"))
    await h.shot(laptop, "account_lobby_header_pl", full_page=False)


async def test_a_passkey_of_nobody_is_refused(tmp_path: Path, browser: Browser) -> None:
    """A passkey this server does not know (removed, or another site's copy) signs nobody in,
    and the page says why."""
    from playwright.async_api import expect

    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path)
    web = h.Web(browser, srv.url.replace("127.0.0.1", "localhost"))
    try:
        page = await web.page()
        cdp, auth_id = await authenticator(page)
        # A discoverable credential for this site that the server never registered.
        await page.goto(web.url("/account"))
        made = await page.evaluate(
            """async () => {
              const c = await navigator.credentials.create({publicKey: {
                challenge: new Uint8Array(32), rp: {name: "x", id: "localhost"},
                user: {id: new Uint8Array([1]), name: "x", displayName: "x"},
                pubKeyCredParams: [{type: "public-key", alg: -7}],
                authenticatorSelection: {residentKey: "required"}}});
              return c.id;
            }"""
        )
        assert made
        await page.get_by_role("button", name="Sign in with a passkey").click()
        await expect(page.locator("#passkey-error")).to_contain_text("belongs to no account")
        await expect(page.locator(".whoami")).to_have_count(0)
        del cdp, auth_id
    finally:
        await srv.stop()
