"""Signing a device out closes its open sockets at once (issue 32, item 2), seen from outside:
the signed-out device's table and lobby sockets are closed with 4401 "signed out" within a
second, a frame it sends after the sign-out changes nothing, and reconnecting with its old
cookie is refused with the same code. On one process (SQLite and PostgreSQL) and on two
processes sharing Redis (tests/app/table/test_processes.py), the sign-out going through the
other process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.realtime.connection import CLOSE_SIGNED_OUT
from tests.app.api.test_devices import make_link, whoami
from tests.clients import Player, make_table, table_of
from tests.conftest import Server, start_server
from tests.tables import app_of

CLOSE_WITHIN = 2.0
"""Seconds a signed-out device's socket may stay open (it closes in milliseconds)."""


async def socket_of(server: Server, path: str, cookie: str) -> ClientConnection:
    return await connect(
        f"{server.ws_url}{path}", additional_headers={"Cookie": cookie}, open_timeout=5
    )


async def closed_with(ws: ClientConnection, within: float = CLOSE_WITHIN) -> tuple[int, str]:
    """Read (and drop) frames until the server closes the socket; its close code and reason,
    and how long it took."""

    async def drain() -> None:
        try:
            while True:
                await ws.recv()
        except ConnectionClosed:
            pass

    await asyncio.wait_for(drain(), within)
    assert ws.close_code is not None
    return ws.close_code, ws.close_reason or ""


async def phone_of(laptop: httpx.AsyncClient, base: str) -> httpx.AsyncClient:
    """A second device of the laptop's person, signed in with a one-time link through `base`."""
    token = await make_link(laptop)
    phone = httpx.AsyncClient(base_url=base, timeout=10)
    assert (await phone.post(f"/link/{token}")).status_code == 303
    assert await whoami(phone) == await whoami(laptop)
    return phone


def cookie_of(http: httpx.AsyncClient) -> str:
    return f"stolik={http.cookies.get('stolik')}"


async def phone_at_the_table(
    laptop: httpx.AsyncClient, server: Server, slug: str
) -> tuple[httpx.AsyncClient, str, ClientConnection, ClientConnection]:
    """The laptop person's phone (signed in through `server`) with its cookie, a table socket
    on `slug` (its first state seen: it plays seat 0) and a lobby socket."""
    phone = await phone_of(laptop, server.url)
    cookie = cookie_of(phone)
    table_ws = await socket_of(server, f"/ws/t/{slug}?format=json", cookie)
    lobby_ws = await socket_of(server, "/ws/lobby?format=json", cookie)
    first = json.loads(await asyncio.wait_for(table_ws.recv(), 5))
    assert first["type"] == "state" and first["room"]["your_seat"] == 0
    return phone, cookie, table_ws, lobby_ws


async def refused_on_reconnect(server: Server, path: str, cookie: str) -> None:
    """A socket opened with a signed-out device's cookie is refused: an error that says so,
    then 4401."""
    ws = await socket_of(server, path, cookie)
    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert msg["type"] == "error" and msg["code"] == "signed_out", msg
    code, _ = await closed_with(ws)
    assert code == CLOSE_SIGNED_OUT


async def _act_of(server: Server, slug: str, seat: int) -> dict[str, Any]:
    game = table_of(app_of(server), slug).game
    assert game is not None
    actions = game.engine.legal_actions(game.state, seat)
    assert actions, "the seat has something to do"
    return {"type": "act", "version": game.version, "action": game.engine.dump_action(actions[0])}


@pytest.mark.parametrize("which", ["others", "one"])
async def test_a_signed_out_device_loses_its_sockets_at_once(
    db_url: str, tmp_path: Path, which: str
) -> None:
    srv = await start_server(db_url, tmp_path)
    try:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek", "Celina"])
        slug = table["slug"]
        laptop = seats[0].http
        phone, phone_cookie, table_ws, lobby_ws = await phone_at_the_table(laptop, srv, slug)
        act = await _act_of(srv, slug, 0)
        game = table_of(app_of(srv), slug).game
        assert game is not None
        version = game.version

        started = time.monotonic()
        if which == "others":
            r = await laptop.post("/devices/signout-others")
        else:
            page = (await laptop.get("/devices")).text
            ids = re.findall(r'action="/devices/([^"/]+)/signout"', page)
            this = laptop_device(page)
            (phone_id,) = [d for d in ids if d != this]
            r = await laptop.post(f"/devices/{phone_id}/signout")
        assert r.status_code == 303
        # An act sent after the sign-out answered is not played (the socket may already be
        # closed: then it is not even sent).
        with contextlib.suppress(ConnectionClosed):
            await table_ws.send(json.dumps(act))
        code, reason = await closed_with(table_ws)
        took = time.monotonic() - started
        assert (code, reason) == (CLOSE_SIGNED_OUT, "signed out")
        assert (await closed_with(lobby_ws))[0] == CLOSE_SIGNED_OUT
        assert took < CLOSE_WITHIN
        game = table_of(app_of(srv), slug).game
        assert game is not None and game.version == version  # nothing was played
        assert not app_of(srv).state.tables.sockets.devices()  # none left behind

        await refused_on_reconnect(srv, f"/ws/t/{slug}?format=json", phone_cookie)
        await refused_on_reconnect(srv, "/ws/lobby?format=json", phone_cookie)
        # The laptop is still Ala, and plays.
        assert await whoami(laptop) == "Ala"
        await seats[0].connect(slug)
        await seats[0].wait_version(version)
        await seats[0].send(await _act_of(srv, slug, 0))
        await seats[0].wait_version(version + 1)
        await phone.aclose()
        for s in seats:
            await s.close()
    finally:
        await srv.stop()


def laptop_device(page: str) -> str:
    """The device id of the browser looking at "Your devices" (the one marked as this)."""
    this = re.search(
        r'action="/devices/([^"/]+)/signout">\s*<button type="submit" class="small danger"',
        page,
    )
    assert this, page[:500]
    return this.group(1)


async def test_signing_in_as_someone_else_closes_the_old_identitys_sockets(
    sqlite_server: Server,
) -> None:
    """A browser that signs in with another person's link was signed out as its old self:
    a socket still open as that self closes too."""
    srv = sqlite_server
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    other = await Player(srv.url, srv.ws_url).login("Bartek")
    token = await make_link(other.http)
    lobby_ws = await socket_of(srv, "/ws/lobby?format=json", ala.cookie)
    assert (await ala.http.post(f"/link/{token}")).status_code == 303
    assert (await closed_with(lobby_ws))[0] == CLOSE_SIGNED_OUT
    await ala.close()
    await other.close()
