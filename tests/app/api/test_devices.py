"""Sessions people can manage (issue 16), over HTTP on SQLite and PostgreSQL: every sign-in
starts a new device, "Your devices" lists and signs them out (a signed-out browser is nobody,
on pages, the API and the websocket), and a one-time link carries the identity to another
browser — once, within 10 minutes (injected clock)."""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from itsdangerous import TimestampSigner
from websockets.asyncio.client import connect

from app.identity import TOUCH_EVERY, Known
from app.store.models import User
from tests.clients import make_table
from tests.conftest import FakeClock, Server, start_server


async def guest(base: str, name: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=base, timeout=10)
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()
    return http


async def whoami(http: httpx.AsyncClient) -> str | None:
    """The name the lobby says this browser plays as (None: nobody)."""
    page = (await http.get("/")).text
    found = re.search(r"Playing as <strong>([^<]*)</strong>", page)
    return found.group(1) if found else None


async def make_link(http: httpx.AsyncClient) -> str:
    page = await http.post("/devices/link")
    assert page.status_code == 200
    assert "<svg" in page.text  # the QR code
    found = re.search(r'value="(http[^"]*/link/([^"]+))"', page.text)
    assert found, page.text[:500]
    return found.group(2)


async def test_link_carries_the_identity_once(db_url: str, tmp_path: Path) -> None:
    clock = FakeClock()
    srv = await start_server(db_url, tmp_path, now=clock)
    try:
        ala = await guest(srv.url, "Ala Żółć")
        assert await whoami(ala) == "Ala Żółć"
        token = await make_link(ala)

        phone = await guest(srv.url, "Telefon")
        old_cookie = phone.cookies.get("stolik")
        confirm = await phone.get(f"/link/{token}")
        assert confirm.status_code == 200 and "Telefon" in confirm.text
        assert await whoami(phone) == "Telefon"  # looking at the page uses nothing
        r = await phone.post(f"/link/{token}")
        assert r.status_code == 303
        assert await whoami(phone) == "Ala Żółć"
        assert phone.cookies.get("stolik") != old_cookie

        # The phone's former identity cookie is worth nothing now (rotation on sign-in).
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as stolen:
            stolen.cookies.set("stolik", old_cookie or "")
            assert await whoami(stolen) is None

        # Second use: refused, changes nothing.
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as third:
            r = await third.post(f"/link/{token}")
            assert r.status_code == 410
            assert await whoami(third) is None

        # Expired: a link older than 10 minutes is refused.
        late = await make_link(ala)
        clock.advance(601)
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as slow:
            assert (await slow.post(f"/link/{late}")).status_code == 410
        fresh = await make_link(ala)
        clock.advance(590)
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as quick:
            assert (await quick.post(f"/link/{fresh}")).status_code == 303
            assert await whoami(quick) == "Ala Żółć"

        devices = (await ala.get("/devices")).text
        assert devices.count('<li class="device') == 3
        assert "this device" in devices
        for c in (ala, phone):
            await c.aclose()
    finally:
        await srv.stop()


async def test_signed_out_devices_are_nobody(db_url: str, tmp_path: Path) -> None:
    """ "Sign out all other devices" ends the others everywhere: pages, API, websocket seat."""
    srv = await start_server(db_url, tmp_path)
    try:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek", "Celina"])
        laptop = seats[0].http
        token = await make_link(laptop)
        phone = httpx.AsyncClient(base_url=srv.url, timeout=10)
        assert (await phone.post(f"/link/{token}")).status_code == 303
        assert await whoami(phone) == "Ala"
        r = await phone.get(f"/api/tables/{table['slug']}")
        assert r.status_code == 200

        assert (await laptop.post("/devices/signout-others")).status_code == 303
        assert await whoami(phone) is None
        assert await whoami(laptop) == "Ala"
        r = await phone.post(f"/api/tables/{table['slug']}/resign")
        assert r.status_code == 401
        # Its websocket is a spectator's now: an act is refused.
        ws = await connect(
            f"{srv.ws_url}/ws/t/{table['slug']}?format=json",
            additional_headers={"Cookie": f"stolik={phone.cookies.get('stolik')}"},
            open_timeout=5,
        )
        await ws.send(json.dumps({"type": "act", "version": 0, "action": {"type": "torch"}}))
        for _ in range(10):
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                assert msg["code"] == "spectator"
                break
        else:
            raise AssertionError("no refusal")
        await ws.close()
        # Signing out this device: this browser is nobody too.
        page = (await laptop.get("/devices")).text
        this = re.search(
            r'action="/devices/([^"/]+)/signout">\s*<button type="submit" class="small danger"',
            page,
        )
        assert this
        assert (await laptop.post(f"/devices/{this.group(1)}/signout")).status_code == 303
        assert await whoami(laptop) is None
        await phone.aclose()
        for s in seats:
            await s.close()
    finally:
        await srv.stop()


async def test_a_cookie_from_before_devices_keeps_working(server: Server) -> None:
    """Upgrading keeps people signed in: a cookie holding only the person gets a device."""
    http = await guest(server.url, "Stary")
    uid = (await http.post("/api/guest", json={"name": "Stary"})).json()["id"]
    data = base64.b64encode(json.dumps({"uid": uid}).encode())
    legacy = TimestampSigner("test-secret").sign(data).decode()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as old:
        old.cookies.set("stolik", legacy)
        assert await whoami(old) == "Stary"
        page = (await old.get("/devices")).text
        assert page.count('<li class="device') == 2  # the first guest cookie and this one
        assert "this device" in page
    await http.aclose()


def test_known_devices_are_trusted_briefly_and_forgotten_on_change() -> None:
    """A process's memory of checked devices: only for the cookie's own person, only for
    `Known.SECONDS`, never past a due last-use note, and gone when the person changes."""
    known = Known()
    ala = User(id=7, name="Ala", language="pl", created_at=datetime(2026, 1, 1, tzinfo=UTC))
    known.put("dev-1", ala, last_seen=1000.0, now=1000.0)
    first, second = known.get("dev-1", 7, 1001.0), known.get("dev-1", 7, 1001.0)
    assert first is not None and second is not None
    assert (first.id, first.name, first.language) == (7, "Ala", "pl")
    assert first is not second  # never one shared row object
    assert known.get("dev-1", 8, 1001.0) is None  # a cookie naming another person
    assert known.get("dev-1", 7, 1000.0 + Known.SECONDS) is None  # expired: check again
    known.put("dev-1", ala, last_seen=1000.0 - TOUCH_EVERY, now=1000.0)
    assert known.get("dev-1", 7, 1000.5) is None  # its last use is due to be noted
    known.put("dev-1", ala, last_seen=1000.0, now=1000.0)
    known.put("dev-2", ala, last_seen=1000.0, now=1000.0)
    known.forget(7)
    assert known.get("dev-1", 7, 1000.5) is None and known.get("dev-2", 7, 1000.5) is None
    known.put("dev-1", ala, last_seen=1000.0, now=1000.0)
    assert known.get("dev-1", 7, 1000.5) is not None
    known.clear()  # the bus may have missed a change: check everyone again
    assert known.get("dev-1", 7, 1000.5) is None


async def test_a_recently_checked_device_needs_no_database_session(server: Server) -> None:
    """A request or socket from a device this process checked moments ago is answered
    without the database (the check is kept, `Known`); once forgotten, the next one checks
    the device again exactly once, through the store (`Store.signed_in`: one statement on
    PostgreSQL, a session on SQLite), and is the same person."""
    from tests.clients import table_of
    from tests.tables import app_of

    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    app = app_of(server)
    slug = table["slug"]
    ala = seats[0]
    real = app.state.sessions
    opened: list[object] = []

    def counting(*args: object, **kwargs: object) -> object:
        opened.append(args)
        return real(*args, **kwargs)

    store = app.state.tables.store
    checked: list[object] = []
    real_check = store.signed_in

    async def counting_check(*args: Any) -> Any:
        checked.append(args)
        return await real_check(*args)

    app.state.sessions = counting
    store.signed_in = counting_check
    try:
        r = await ala.http.get(f"/api/tables/{slug}")
        assert r.status_code == 200 and r.json()["your_seat"] == 0
        await ala.connect(slug)
        await ala.wait_for(lambda p: bool(p.states))
        assert ala.states[-1]["room"]["your_seat"] == 0  # the socket knows her too
        assert opened == [] and checked == []

        uid = table_of(app, slug).seats[0].user_id
        assert uid is not None
        app.state.tables.known.forget(uid)
        r = await ala.http.get(f"/api/tables/{slug}")
        assert r.status_code == 200 and r.json()["your_seat"] == 0
        assert len(checked) == 1 and opened == []
        r = await ala.http.get(f"/api/tables/{slug}")
        assert r.json()["your_seat"] == 0 and len(checked) == 1  # kept again

        # A browser with no cookie is nobody, and needs no database to be told so.
        nobody = httpx.AsyncClient(base_url=server.url, timeout=10)
        r = await nobody.get(f"/api/tables/{slug}")
        assert r.status_code == 200 and r.json()["your_seat"] is None
        assert len(checked) == 1 and opened == []
        await nobody.aclose()
    finally:
        app.state.sessions = real
        del store.signed_in  # the class's method again
        for s in seats:
            await s.close()
