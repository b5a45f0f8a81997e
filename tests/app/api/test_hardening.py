"""What an operator of a public Stolik needs refused and seen (issue 16), on a live server
over loopback, on SQLite and PostgreSQL: cross-site requests, act and creation budgets, slow
readers, health and readiness, metrics, security headers and structured logs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.guard import CSP
from app.logs import JsonFormatter, request_id
from app.store.migrate import head_revision
from tests.clients import Live, Player, drive, live_table, make_table, table_of
from tests.conftest import Server, served
from tests.tables import app_of


async def test_cross_site_handshake_and_post_are_refused(server: Server) -> None:
    """A page on another site cannot use a player's cookie: its websocket handshake and its
    POSTs are refused; the same requests from the site itself (or without Origin) pass."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    p = seats[0]
    url = f"{server.ws_url}/ws/t/{table['slug']}?format=json"
    evil = {"Cookie": p.cookie, "Origin": "https://evil.example"}
    with pytest.raises(InvalidStatus) as refused:
        await connect(url, additional_headers=evil, open_timeout=5)
    assert refused.value.response.status_code == 403
    own = {"Cookie": p.cookie, "Origin": server.url}
    ws = await connect(url, additional_headers=own, open_timeout=5)
    first = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert first["type"] in ("state", "presence", "chat")
    await ws.close()

    r = await p.http.post(
        f"/api/tables/{table['slug']}/close", headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "bad_origin"
    assert (await p.http.get(f"/api/tables/{table['slug']}")).json()["status"] == "playing"
    r = await p.http.post("/api/guest", json={"name": "Ala"}, headers={"Origin": server.url})
    assert r.status_code == 200
    r = await p.http.post("/api/guest", json={"name": "Ala"}, headers={"Origin": "null"})
    assert r.status_code == 403
    for s in seats:
        await s.close()


async def test_public_origins_fix_origin_and_host(db_url: str, tmp_path: Path) -> None:
    """With PUBLIC_ORIGINS set, only those origins and their host are served state changes."""
    async with (
        served(db_url, tmp_path, public_origins="https://stolik.example") as srv,
        httpx.AsyncClient(base_url=srv.url, timeout=10) as http,
    ):
        good = {"Host": "stolik.example", "Origin": "https://stolik.example"}
        r = await http.post("/api/guest", json={"name": "Ola"}, headers=good)
        assert r.status_code == 200
        r = await http.post(
            "/api/guest",
            json={"name": "Ola"},
            headers={"Host": "stolik.example", "Origin": "http://stolik.example"},
        )
        assert r.status_code == 403
        r = await http.post("/api/guest", json={"name": "Ola"}, headers={"Host": "127.0.0.1"})
        assert r.status_code == 403


async def test_act_rate_limit_then_close(db_url: str, tmp_path: Path) -> None:
    """Past the per-socket budget each message is answered `rate_limited` and changes
    nothing; far past it the socket is closed with 4429."""
    async with served(
        db_url, tmp_path, act_rate_count=5, act_rate_window=60.0, act_rate_close=5
    ) as srv:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek", "Celina"])
        p = seats[0]
        await p.connect(table["slug"])
        await p.wait_version(0)
        for _ in range(5):
            await p.send({"type": "sync"})
        await p.send({"type": "sync"})
        err = await p.wait_error(1)
        assert err["code"] == "rate_limited"
        assert p.version == 0
        assert p.ws is not None
        with contextlib.suppress(ConnectionClosed):
            for _ in range(20):
                await p.send({"type": "sync"})
                await asyncio.sleep(0.02)
        await asyncio.wait_for(p.ws.wait_closed(), 5)
        assert p.ws.close_code == 4429
        for s in seats:
            await s.close()


async def test_creation_budget_per_address(db_url: str, tmp_path: Path) -> None:
    """One address may create a few guests (and tables) per window, then gets 429."""
    async with served(db_url, tmp_path, create_rate_count=2) as srv:
        codes = []
        for name in ("A1", "A2", "A3"):
            async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
                r = await http.post("/api/guest", json={"name": name})
                codes.append(r.status_code)
                if r.status_code == 429:
                    assert r.json()["error"]["code"] == "rate_limited"
        assert codes == [200, 200, 429]


async def test_a_reader_that_never_reads_has_a_short_queue(server: Server) -> None:
    """State pushes to a socket that never reads are coalesced: while the players play 30
    moves, a spectator socket that reads nothing keeps no more than a couple of items queued
    on the server."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    for s in seats:
        await s.connect(table["slug"])
    watcher = await Player(server.url, server.ws_url).login("Widz")
    sleeper = await connect(
        f"{server.ws_url}/ws/t/{table['slug']}?format=json",
        additional_headers={"Cookie": watcher.cookie},
        open_timeout=5,
        max_queue=1,  # the client library stops reading from the socket at once
    )
    app = app_of(server)
    hub = table_of(app, table["slug"])
    longest = 0

    def choose(state: object, seat: int, actions: list[object]) -> object:
        nonlocal longest
        longest = max([longest, *(c.queue.qsize() for c in hub.presence.connections)])
        return actions[0]

    played = await drive(app, table["slug"], dict(enumerate(seats)), [], moves=30, choose=choose)
    assert played >= 10
    assert len(hub.presence.connections) == 4
    assert longest <= 3
    await sleeper.close()
    await watcher.close()
    for s in seats:
        await s.close()


async def test_health_readiness_and_headers(server: Server) -> None:
    """/healthz answers while the process is up, /readyz once the database is at the newest
    migration; every page carries the security headers."""
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        r = await http.get("/healthz")
        assert r.status_code == 200 and r.json()["status"] == "ok"
        r = await http.get("/readyz")
        assert r.status_code == 200
        assert r.json() == {"status": "ready", "revision": head_revision()}
        page = await http.get("/")
        assert page.headers["content-security-policy"] == CSP
        assert (
            "script-src 'self'" in CSP
            and "unsafe-inline" not in CSP.split("script-src")[1].split(";")[0]
        )
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "same-origin"
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-request-id"]


async def first_seat_goes_deeper(server: Server, live: Live) -> int:
    """The first seat to act at a live Incan Gold table goes deeper (version 1); returns it."""
    hub = table_of(app_of(server), live.slug)
    assert hub.game is not None
    seat = sorted(hub.game.engine.to_act(hub.game.state))[0]
    await live.seats[seat].act({"type": "torch"})
    await live.seats[seat].wait_version(1)
    return seat


async def test_metrics_need_the_token_and_count_moves(db_url: str, tmp_path: Path) -> None:
    """/metrics is hidden without its token; with it, it counts moves, refusals and sockets."""
    async with (
        served(db_url, tmp_path, metrics_token="s3cret") as srv,
        live_table(srv, ["Ala", "Bartek", "Celina"]) as live,
    ):
        seat = await first_seat_goes_deeper(srv, live)
        await live.seats[(seat + 1) % 3].send({"type": "act", "version": 0, "action": {"x": 1}})
        await live.seats[(seat + 1) % 3].wait_error(1)
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
            assert (await http.get("/metrics")).status_code == 404
            bad = {"Authorization": "Bearer nope"}
            assert (await http.get("/metrics", headers=bad)).status_code == 404
            r = await http.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert r.status_code == 200
        text = r.text
        assert 'stolik_moves_applied_total{game="incan_gold"} 1.0' in text
        assert 'stolik_open_sockets{kind="seat"} 3.0' in text
        assert "stolik_live_hubs 1.0" in text
        assert "stolik_act_to_broadcast_seconds_count 1.0" in text
        assert "stolik_move_transaction_seconds_count 1.0" in text
        assert "stolik_messages_refused_total" in text


def test_json_log_lines_carry_the_request_id_and_fields() -> None:
    """A JSON log line is one object with the request id and the call's extra fields."""
    record = logging.LogRecord("stolik.hub", logging.INFO, __file__, 1, "move", None, None)
    record.room = "abc"
    record.version = 7
    token = request_id.set("r-42")
    try:
        line = JsonFormatter().format(record)
    finally:
        request_id.reset(token)
    data = json.loads(line)
    assert data["message"] == "move" and data["level"] == "info"
    assert data["request_id"] == "r-42"
    assert data["room"] == "abc" and data["version"] == 7


def test_a_connection_queue_is_bounded() -> None:
    """However many states and presence changes wait for a slow reader, one of each is
    queued (the writer sends the newest); other pushes stop at `max_queue`, and the
    connection is marked for dropping (its writer then closes it with 4408)."""
    from app.realtime.connection import Connection

    conn = Connection(user_id=1, fmt="json", max_queue=50)
    for _ in range(1000):
        conn.notify("state")
        conn.notify("presence")
    assert conn.queue.qsize() == 2 and not conn.overflow
    kind, _ = conn.queue.get_nowait()
    conn.taken(kind)
    conn.notify(kind)
    assert conn.queue.qsize() == 2
    for i in range(1000):
        conn.notify("chat", f"line {i}")
    assert conn.queue.qsize() == 50
    assert conn.overflow


class _NeverReads:
    """A websocket whose client stopped reading: a push waits for ever."""

    def __init__(self) -> None:
        self.waiting = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.waiting.set()
        await asyncio.Event().wait()


class _Reads:
    """A websocket whose client reads: a push is written at once."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)


async def test_a_push_the_client_never_reads_is_given_up_after_the_timeout() -> None:
    """A push is watched while it is written: one still waiting at the sweep after the
    timeout is cancelled and its writer told the client is too slow (then it closes the
    socket with 4408); a younger one is left alone, and a written one leaves nothing behind.
    A writer cancelled for another reason (the socket went away) is still cancelled."""
    from app.api.routes.ws import TooSlow, _send
    from app.realtime.connection import Connection, SendWatch

    sends = SendWatch(timeout=15.0)
    reads, conn_ok = _Reads(), Connection(user_id=2, fmt="json")
    await _send(reads, conn_ok, {"type": "presence"}, sends)  # type: ignore[arg-type]
    assert reads.sent == ['{"type":"presence"}'] and len(sends) == 0

    stuck, conn = _NeverReads(), Connection(user_id=1, fmt="json")
    push = asyncio.create_task(_send(stuck, conn, "state", sends))  # type: ignore[arg-type]
    await stuck.waiting.wait()
    assert len(sends) == 1
    began = time.monotonic()
    assert sends.sweep(began + 14.0) == 0
    await asyncio.sleep(0)
    assert not push.done() and not conn.too_slow
    assert sends.sweep(began + 16.0) == 1
    with pytest.raises(TooSlow):
        await push
    assert conn.too_slow and len(sends) == 0
    with pytest.raises(TooSlow):  # nothing more is written to it
        await _send(reads, conn, "later", sends)
    assert reads.sent == ['{"type":"presence"}']

    gone, conn_gone = _NeverReads(), Connection(user_id=3, fmt="json")
    push = asyncio.create_task(_send(gone, conn_gone, "state", sends))
    await gone.waiting.wait()
    push.cancel()
    with pytest.raises(asyncio.CancelledError):
        await push
    assert not conn_gone.too_slow and len(sends) == 0


async def test_the_ticker_sweeps_pushes_stuck_past_the_timeout(server: Server) -> None:
    """The running server's ticker is what gives up on a stuck push."""
    from app.api.routes.ws import TooSlow, _send
    from app.realtime.connection import Connection

    sends = app_of(server).state.tables.runtime.sends
    before, sends.timeout = sends.timeout, 0.2
    try:
        stuck, conn = _NeverReads(), Connection(user_id=1, fmt="json")
        push = asyncio.create_task(_send(stuck, conn, "state", sends))  # type: ignore[arg-type]
        with pytest.raises(TooSlow):
            await asyncio.wait_for(push, 5 * server.settings.clock_tick)
        assert conn.too_slow
    finally:
        sends.timeout = before


async def test_cookies_are_secure_over_https_only(server: Server) -> None:
    """Over plain http (this loopback server) the session cookie has no Secure flag; behind
    a trusted proxy that says the client used https, it has."""
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        r = await http.post("/api/guest", json={"name": "Ala"})
        assert "secure" not in r.headers["set-cookie"].lower()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        r = await http.post(
            "/api/guest", json={"name": "Ala"}, headers={"X-Forwarded-Proto": "https"}
        )
        assert r.status_code == 200
        assert "; secure" in r.headers["set-cookie"].lower()


async def test_moves_and_room_changes_are_logged(server: Server) -> None:
    """The operator's log has every room change at info and, at debug, every move, with the
    room's slug (a line per move is not for a busy server's everyday log)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    stolik = logging.getLogger("stolik")
    level = stolik.level
    stolik.addHandler(handler)
    stolik.setLevel(logging.DEBUG)
    try:
        async with live_table(server, ["Ala", "Bartek", "Celina"]) as live:
            seat = await first_seat_goes_deeper(server, live)
    finally:
        stolik.removeHandler(handler)
        stolik.setLevel(level)
    mine = [r for r in records if getattr(r, "room", None) == live.slug]
    said = [(r.getMessage(), r.levelno) for r in mine]
    assert said.count(("room join", logging.INFO)) == 2, said
    assert ("room start", logging.INFO) in said, said
    move = next(r for r in mine if r.getMessage() == "move")
    assert move.levelno == logging.DEBUG
    assert getattr(move, "version", None) == 1 and getattr(move, "seat", None) == seat
