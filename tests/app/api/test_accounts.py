"""Accounts without passwords (issue 35 section 1), over HTTP on SQLite and PostgreSQL, with a
local SMTP server: a guest confirms an e-mail address and becomes an account; a fresh browser
signs in with an e-mailed link (looking at the link's page uses nothing; the link works once
and for 15 minutes, injected clock); names of accounts clash case- and accent-insensitively
while guests keep free names; the last way to sign in cannot be removed; an account deleted
leaves its games under "deleted player" (both languages). Passkeys end to end are in
tests/browser/test_browser_accounts.py."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx

from app.accounts import store as accounts
from app.store.engine import make_engine, make_session_factory
from app.store.models import Passkey, User
from tests.conftest import FakeClock, Server, start_server
from tests.mailbox import Mailbox, link_in, mailbox


async def guest(base: str, name: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=base, timeout=10)
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()
    return http


async def whoami(http: httpx.AsyncClient) -> str | None:
    page = (await http.get("/")).text
    found = re.search(r"Playing as <strong>([^<]*)</strong>", page)
    return found.group(1) if found else None


async def confirm_address(box: Mailbox, http: httpx.AsyncClient, email: str) -> None:
    """`http`'s person adds `email` and confirms it from the message."""
    seen = len(box.messages)
    r = await http.post("/account/email", data={"email": email})
    assert r.status_code == 200, r.text
    assert "We sent a link to" in r.text
    token = link_in(await box.next(seen))
    r = await http.post(f"/account/email/{token}")
    assert r.status_code == 303 and r.headers["location"] == "/account?done=email"


async def test_email_sign_in_once_within_15_minutes(db_url: str, tmp_path: Path) -> None:
    clock = FakeClock()
    async with mailbox() as box:
        srv = await start_server(db_url, tmp_path, now=clock, mail_rate_count=20, **box.settings())
        try:
            ala = await guest(srv.url, "Ala Żółć")
            page = (await ala.get("/account")).text
            assert "guest" in page and "Add a passkey" in page
            await confirm_address(box, ala, " Ala@Example.org ")
            letter = box.messages[0]
            assert letter["To"] == "ala@example.org"
            assert "Confirm your e-mail address" in str(letter["Subject"])
            page = (await ala.get("/account")).text
            assert "ala@example.org" in page and "is your account" in page

            # A fresh browser asks for a sign-in link.
            phone = httpx.AsyncClient(base_url=srv.url, timeout=10)
            r = await phone.post("/account/signin/email", data={"email": "ALA@example.org"})
            assert r.status_code == 200 and "a sign-in link is on its way" in r.text
            token = link_in(await box.next(1))
            assert "Ala Żółć" in box.messages[1].get_body(("plain",)).get_content()  # type: ignore[union-attr]

            # A link preview (GET, twice) uses nothing.
            for _ in range(2):
                preview = await phone.get(f"/account/email/{token}")
                assert preview.status_code == 200 and "Sign in on this device" in preview.text
            assert await whoami(phone) is None
            r = await phone.post(f"/account/email/{token}")
            assert r.status_code == 303
            assert await whoami(phone) == "Ala Żółć"

            # Once only.
            async with httpx.AsyncClient(base_url=srv.url, timeout=10) as third:
                assert (await third.post(f"/account/email/{token}")).status_code == 410
                assert (await third.get(f"/account/email/{token}")).status_code == 410
                assert await whoami(third) is None

                # An address of nobody: the same answer, and nothing is sent.
                r = await third.post("/account/signin/email", data={"email": "nobody@example.org"})
                assert r.status_code == 200 and "a sign-in link is on its way" in r.text
                r = await third.post("/account/signin/email", data={"email": "not an address"})
                assert r.status_code == 422
                assert len(box.messages) == 2

                # Expired after 15 minutes.
                await third.post("/account/signin/email", data={"email": "ala@example.org"})
                late = link_in(await box.next(2))
                clock.advance(901)
                assert (await third.get(f"/account/email/{late}")).status_code == 410
                assert (await third.post(f"/account/email/{late}")).status_code == 410
                assert await whoami(third) is None

            # Two browsers using one link at the same moment: exactly one gets in.
            await phone.post("/account/signin/email", data={"email": "ala@example.org"})
            race = link_in(await box.next(3))
            async with (
                httpx.AsyncClient(base_url=srv.url, timeout=10) as one,
                httpx.AsyncClient(base_url=srv.url, timeout=10) as two,
            ):
                answers = await asyncio.gather(
                    one.post(f"/account/email/{race}"), two.post(f"/account/email/{race}")
                )
                assert sorted(a.status_code for a in answers) == [303, 410]

            # A guest on another browser signs in to the account (leaving the guest behind).
            visitor = await guest(srv.url, "Gość")
            page = (await visitor.get("/account")).text
            assert "Already have an account?" in page and "leaves the guest" in page
            await visitor.post("/account/signin/email", data={"email": "ala@example.org"})
            token = link_in(await box.next(4))
            assert (await visitor.post(f"/account/email/{token}")).status_code == 303
            assert await whoami(visitor) == "Ala Żółć"
            await visitor.aclose()

            # The address is never shown to anyone else.
            uid = await _user_id(srv, "Ala Żółć")
            async with httpx.AsyncClient(base_url=srv.url, timeout=10) as stranger:
                profile = await stranger.get(f"/u/{uid}")
                assert profile.status_code == 200 and "Ala Żółć" in profile.text
                assert "example.org" not in profile.text
            await ala.aclose()
            await phone.aclose()
        finally:
            await srv.stop()


async def _user_id(srv: Server, name: str) -> int:
    engine = make_engine(srv.settings.resolved_database_url)
    try:
        async with make_session_factory(engine)() as session:
            from sqlalchemy import select

            found = await session.execute(select(User.id).where(User.name == name))
            return int(found.scalar_one())
    finally:
        await engine.dispose()


async def test_account_names_clash_guests_keep_free_names(db_url: str, tmp_path: Path) -> None:
    async with mailbox() as box:
        srv = await start_server(db_url, tmp_path, **box.settings())
        try:
            zaneta = await guest(srv.url, "Żaneta")
            await confirm_address(box, zaneta, "zaneta@example.org")

            # Guests keep free names: a guest may be called "zaneta" too.
            other = await guest(srv.url, "zaneta")
            assert await whoami(other) == "zaneta"
            # ... but cannot make it an account: said before any e-mail is sent.
            r = await other.post("/account/email", data={"email": "other@example.org"})
            assert r.status_code == 409
            assert "Another account is already called “zaneta”" in r.text
            assert len(box.messages) == 1
            r = await other.post("/account/passkeys/options")
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"

            # An account cannot rename itself into another account's name either.
            bob = await guest(srv.url, "Bob")
            await confirm_address(box, bob, "bob@example.org")
            r = await bob.post("/name", data={"name": "ŻANETA", "next": "/"})
            assert r.status_code == 409 and "Another account is already called" in r.text
            assert await whoami(bob) == "Bob"
            r = await bob.post("/api/guest", json={"name": "żaneta"})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
            # A free name is fine, and frees the old one.
            r = await bob.post("/name", data={"name": "Robert", "next": "/"})
            assert r.status_code == 303 and await whoami(bob) == "Robert"
            r = await other.post("/name", data={"name": "BOB", "next": "/"})
            assert r.status_code == 303
            await confirm_address(box, other, "other@example.org")

            # An address confirmed for one account is not another's.
            r = await bob.post("/account/email", data={"email": "zaneta@example.org"})
            assert r.status_code == 409 and "belongs to another account" in r.text
            for http in (zaneta, other, bob):
                await http.aclose()
        finally:
            await srv.stop()


async def test_the_last_way_back_stays(db_url: str, tmp_path: Path) -> None:
    async with mailbox() as box:
        srv = await start_server(db_url, tmp_path, **box.settings())
        try:
            ola = await guest(srv.url, "Ola")
            await confirm_address(box, ola, "ola@example.org")
            r = await ola.post("/account/email/remove")
            assert r.status_code == 409
            assert "This is your last way to sign in" in r.text
            assert "ola@example.org" in (await ola.get("/account")).text

            # With a passkey besides, the address may go; then the passkey is the last way.
            uid = await _user_id(srv, "Ola")
            engine = make_engine(srv.settings.resolved_database_url)
            try:
                async with make_session_factory(engine)() as session:
                    session.add(
                        Passkey(
                            id="cred-1", user_id=uid, public_key=b"k", sign_count=0, created=1.0
                        )
                    )
                    await session.commit()
            finally:
                await engine.dispose()
            assert (await ola.post("/account/email/remove")).status_code == 303
            assert "ola@example.org" not in (await ola.get("/account")).text
            r = await ola.post("/account/passkeys/cred-1/remove")
            assert r.status_code == 409 and "This is your last way to sign in" in r.text
            r = await ola.post("/account/passkeys/nope/remove")
            assert r.status_code == 404
            await ola.aclose()
        finally:
            await srv.stop()


async def test_deleting_an_account_keeps_its_games(db_url: str, tmp_path: Path) -> None:
    async with mailbox() as box:
        srv = await start_server(db_url, tmp_path, **box.settings())
        try:
            kasia = await guest(srv.url, "Kasia")
            await kasia.post("/name", data={"name": "Kasia", "gender": "she", "next": "/"})
            await confirm_address(box, kasia, "kasia@example.org")
            host = await guest(srv.url, "Host")
            made = await host.post(
                "/api/tables", json={"game": "incan_gold", "seats": 3, "private": False}
            )
            assert made.status_code == 201, made.text
            slug = made.json()["slug"]
            assert (await kasia.post(f"/api/tables/{slug}/join")).status_code == 200
            assert (await host.post(f"/api/tables/{slug}/bots?level=easy")).status_code == 200
            assert (await host.post(f"/api/tables/{slug}/start")).status_code == 200

            # Tables that have not started: hers closes, she leaves the other.
            own = await kasia.post("/api/tables", json={"game": "incan_gold", "seats": 3})
            own_slug = own.json()["slug"]
            waiting = await host.post("/api/tables", json={"game": "incan_gold", "seats": 4})
            waiting_slug = waiting.json()["slug"]
            assert (await kasia.post(f"/api/tables/{waiting_slug}/join")).status_code == 200
            kasia_id = await _user_id(srv, "Kasia")
            r = await kasia.post("/account/delete", data={})
            assert r.status_code == 422  # the box was not ticked: nothing changes
            assert await whoami(kasia) == "Kasia"
            r = await kasia.post("/account/delete", data={"confirm": "yes"})
            assert r.status_code == 303
            assert await whoami(kasia) is None

            page = (await host.get(f"/api/tables/{slug}")).text
            assert "deleted player" in page and "Kasia" not in page
            seat = (await host.get(f"/api/tables/{slug}")).json()["seats"][1]
            assert (seat["name"], seat["grammar"]) == ("deleted player", "neutral")
            assert (await host.get(f"/api/tables/{own_slug}")).json()["status"] == "closed"
            seats = (await host.get(f"/api/tables/{waiting_slug}")).json()["seats"]
            assert [s["name"] for s in seats if s["name"]] == ["Host"]
            profile = (await host.get(f"/u/{kasia_id}")).text
            assert "<h1>deleted player</h1>" in profile and "Kasia" not in profile
            await host.post("/lang", data={"lang": "pl", "next": "/"})
            page = (await host.get(f"/api/tables/{slug}")).text
            assert "usunięty gracz" in page

            # Name and address are free again; the old sign-in link does not work.
            seen = len(box.messages)
            await host.post("/account/signin/email", data={"email": "kasia@example.org"})
            assert len(box.messages) == seen
            again = await guest(srv.url, "kasia")
            await confirm_address(box, again, "kasia@example.org")
            for http in (kasia, host, again):
                await http.aclose()
        finally:
            await srv.stop()


async def test_store_deletion_and_ways(db_url: str, tmp_path: Path) -> None:
    """The store alone: a deleted person's row keeps its id (games point at it) but not its
    name, address or passkeys."""
    from app.store.migrate import upgrade_database

    await upgrade_database(db_url)
    engine = make_engine(db_url)
    try:
        sessions = make_session_factory(engine)
        async with sessions() as session:
            user = User(name="Łucja")
            session.add(user)
            await session.flush()
            await accounts.confirm_email(session, user.id, "l@example.org")
            session.add(
                Passkey(id="c", user_id=user.id, public_key=b"k", sign_count=0, created=1.0)
            )
            await session.commit()
            uid = user.id
        async with sessions() as session:
            await accounts.delete_account(session, uid, 5.0)
            await session.commit()
        async with sessions() as session:
            row = await accounts.fresh(session, uid)
            assert row is not None
            assert (row.name, row.name_key, row.email) == ("\x7f", None, None)
            assert await accounts.passkeys(session, uid) == []
    finally:
        await engine.dispose()


async def test_sign_in_mails_are_budgeted(tmp_path: Path) -> None:
    """Past MAIL_RATE_COUNT a caller gets 429 and nothing is sent (SQLite: no database
    question here)."""
    async with mailbox() as box:
        srv = await start_server(
            f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}",
            tmp_path,
            mail_rate_count=1,
            **box.settings(),
        )
        try:
            ewa = await guest(srv.url, "Ewa")
            await confirm_address(box, ewa, "ewa@example.org")
            async with httpx.AsyncClient(base_url=srv.url, timeout=10) as other:
                r = await other.post("/account/signin/email", data={"email": "ewa@example.org"})
                assert r.status_code == 429 and "Too many e-mails" in r.text
            assert len(box.messages) == 1
            await ewa.aclose()
        finally:
            await srv.stop()


async def test_mail_off_or_down_and_bad_passkey_answers_change_nothing(tmp_path: Path) -> None:
    """No SMTP server configured: e-mail is off (503, the page offers passkeys only); one
    configured but down: 503 "could not be sent" and no link is kept. A passkey answer that
    is not JSON, names no passkey, or comes without a pending challenge is refused (400)
    and signs nobody in."""
    import socket

    with socket.socket() as probe:  # a port where nothing listens
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    url = f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}"
    srv = await start_server(url, tmp_path)
    try:
        ela = await guest(srv.url, "Ela")
        page = (await ela.get("/account")).text
        assert "This server does not send e-mail" in page and 'action="/account/email"' not in page
        r = await ela.post("/account/email", data={"email": "ela@example.org"})
        assert r.status_code == 503
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as nobody:
            r = await nobody.post("/account/signin/email", data={"email": "ela@example.org"})
            assert r.status_code == 503
            for body in (b"not json", b"[]", b"{}", b'{"rawId": "abc"}'):
                r = await nobody.post(
                    "/account/signin/passkey",
                    content=body,
                    headers={"content-type": "application/json"},
                )
                assert r.status_code == 400, body
                assert r.json()["error"]["code"] in ("passkey_failed", "unknown_passkey")
            options = (await nobody.post("/account/signin/passkey/options")).json()
            assert options["rpId"] == "127.0.0.1" and options["challenge"]
            assert await whoami(nobody) is None
        r = await ela.post("/account/passkeys", json={"id": "x", "rawId": "x", "response": {}})
        assert r.status_code == 400 and r.json()["error"]["code"] == "passkey_failed"
        assert "is your account" not in (await ela.get("/account")).text
        await ela.aclose()
    finally:
        await srv.stop()

    srv = await start_server(url, tmp_path, smtp_host="127.0.0.1", smtp_port=dead)
    try:
        ela = await guest(srv.url, "Ela")
        r = await ela.post("/account/email", data={"email": "ela@example.org"})
        assert r.status_code == 503 and "could not be sent" in r.text
        engine = make_engine(url)
        try:
            async with make_session_factory(engine)() as session:
                from sqlalchemy import func, select

                from app.store.models import EmailLink

                count = await session.execute(select(func.count()).select_from(EmailLink))
                assert count.scalar_one() == 0
        finally:
            await engine.dispose()
        await ela.aclose()
    finally:
        await srv.stop()
