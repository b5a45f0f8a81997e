"""The socket layer under a hostile or unlucky client (issue 32), on a live loopback server:
a client that never reads is really closed (table, metric, kernel socket and memory), bad
frames are refused without breaking the socket, and the act budget holds across reconnects
and addresses while refusals never make a prompt reader look slow."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import json
import logging
import os
import socket
import struct
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.realtime.connection import Connection
from tests.clients import Player, drive, make_table, table_of
from tests.conftest import Server, served, start_server
from tests.tables import app_of


def _handshake(port: int, path: str, cookie: str, rcvbuf: int = 0) -> socket.socket:
    """A raw TCP client that opens a websocket (in a thread: the server runs in this loop)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:  # byte by byte: not one byte of a frame is read
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock


async def raw_socket(
    srv: Server, slug: str, fmt: str, cookie: str, rcvbuf: int = 0
) -> socket.socket:
    """A table socket whose client, after the handshake, reads only when a test says so
    (`rcvbuf`: the receive buffer it asks its kernel for)."""
    port = int(srv.url.rsplit(":", 1)[1])
    path = f"/ws/t/{slug}?format={fmt}"
    return await asyncio.to_thread(_handshake, port, path, cookie, rcvbuf)


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """The next server frame (opcode, payload); blocking (call it in a thread)."""

    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    b0, b1 = exactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", exactly(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", exactly(8))[0]
    return b0 & 0x0F, exactly(n)


def read_until_close(sock: socket.socket, frames: list[tuple[int, bytes]], stop: int) -> int:
    """Read frames into `frames` until a close (its code is returned) or `stop` errors."""
    errors = 0
    while True:
        opcode, payload = read_frame(sock)
        frames.append((opcode, payload))
        if opcode == 8:
            code: int = struct.unpack("!H", payload[:2])[0]
            return code
        if opcode == 1 and json.loads(payload).get("type") == "error":
            errors += 1
            if errors >= stop:
                return 0


def protocol_of(srv: Server, client_port: int) -> Any:
    """The server's protocol object of the connection from `client_port`."""
    found: Any = next(
        p
        for p in srv.server.server_state.connections
        if (getattr(p, "client", None) or ("", 0))[1] == client_port
    )
    return found


def kernel_socket(server_port: int, client_port: int) -> tuple[int, int] | None:
    """The server's TCP socket to a client as the kernel lists it: (state, bytes in its
    send queue), or None once it is gone."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":")[1], fields[2].split(":")[1]
        if int(local, 16) == server_port and int(remote, 16) == client_port:
            return int(fields[3], 16), int(fields[4].split(":")[0], 16)
    return None


async def open_sockets(srv: Server, kind: str) -> float:
    """The open-sockets metric of `kind`."""
    async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
        r = await http.get("/metrics", headers={"Authorization": "Bearer t"})
    for line in r.text.splitlines():
        if line.startswith(f'stolik_open_sockets{{kind="{kind}"}}'):
            return float(line.split()[-1])
    raise AssertionError(r.text)


@contextlib.contextmanager
def kept_logs() -> Iterator[list[logging.LogRecord]]:
    """The records logged meanwhile by the app and by uvicorn."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    loggers = [logging.getLogger(n) for n in ("stolik", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


SEND_TIMEOUT, CLOSE_TIMEOUT, TICK = 1.0, 1.0, 0.2


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's socket table")
@pytest.mark.parametrize("fmt", ["json", "html"])
async def test_a_socket_that_never_reads_is_closed(db_url: str, tmp_path: Path, fmt: str) -> None:
    """A spectator whose client never reads a byte after the handshake, over 200 moves: the
    kernel's buffer for it stays bounded, and once a push has waited `ws_send_timeout` the
    table lets it go, the open-sockets metric is back down, the server's TCP socket is gone
    (reset, its buffers freed) `ws_close_timeout` later, and nothing of it is left in memory."""
    srv = await start_server(
        db_url,
        tmp_path,
        clock_tick=TICK,
        ws_send_timeout=SEND_TIMEOUT,
        ws_close_timeout=CLOSE_TIMEOUT,
        metrics_token="t",
    )
    sock: socket.socket | None = None
    try:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek"], game="karmaka")
        for s in seats:
            await s.connect(table["slug"])
        watcher = await Player(srv.url, srv.ws_url).login("Widz")
        app = app_of(srv)
        hub = table_of(app, table["slug"])
        mine = set(hub.presence.connections)
        sock = await raw_socket(srv, table["slug"], fmt, watcher.cookie)
        await asyncio.sleep(0.2)
        assert len(hub.presence.connections) == 3
        assert await open_sockets(srv, "spectator") == 1
        (conn,) = set(hub.presence.connections) - mine
        conn_id = id(conn)
        del conn
        server_port = int(srv.url.rsplit(":", 1)[1])
        client_port = sock.getsockname()[1]
        protocol = weakref.ref(protocol_of(srv, client_port))
        most_held = 0
        stuck_at = gone_at = 0.0

        def look() -> None:
            nonlocal most_held, stuck_at, gone_at
            held, transport = kernel_socket(server_port, client_port), protocol()
            most_held = max(most_held, held[1] if held else 0)
            if not stuck_at and transport is not None and not transport.writable.is_set():
                stuck_at = time.monotonic()  # the transport takes no more: pushes wait
            if not gone_at and held is None:
                gone_at = time.monotonic()

        def choose(state: object, seat: int, actions: list[object]) -> object:
            look()
            return actions[len(actions) // 2]

        played = await drive(
            app, table["slug"], dict(enumerate(seats)), [], moves=200, choose=choose
        )
        assert played == 200
        # The kernel never held more than its bounded buffer (2 × ws_send_buffer, with
        # Linux's book-keeping) for the client: not the megabytes of 200 moves.
        assert most_held <= 256 * 1024, most_held
        assert stuck_at
        within = SEND_TIMEOUT + 2 * TICK + CLOSE_TIMEOUT + 2.0  # the stated time, and slack
        while not gone_at:
            assert time.monotonic() - stuck_at < within, kernel_socket(server_port, client_port)
            await asyncio.sleep(0.05)
            look()
        assert gone_at - stuck_at < within
        print(f"never-reader {fmt}: kernel held <= {most_held} B, gone {gone_at - stuck_at:.1f} s")
        assert len(hub.presence.connections) == 2
        assert conn_id not in {id(c) for c in hub.presence.connections}
        assert await open_sockets(srv, "spectator") == 0
        with pytest.raises(StopIteration):
            protocol_of(srv, client_port)
        gc.collect()
        assert protocol() is None
        assert conn_id not in {id(o) for o in gc.get_objects() if isinstance(o, Connection)}
        # The client sees a reset connection, not one that stays open.
        sock.settimeout(5)
        with pytest.raises(OSError):
            while sock.recv(65536):
                pass
        for s in [*seats, watcher]:
            await s.close()
    finally:
        if sock is not None:
            sock.close()
        await srv.stop()


async def test_a_huge_version_is_refused_and_the_socket_goes_on(server: Server) -> None:
    """An act or a sync naming a version no game can reach (10**30) is refused as malformed,
    changes nothing and leaves the socket open and answering; nothing fails in the writer."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    p = seats[0]
    await p.connect(table["slug"])
    await p.wait_version(0)
    with kept_logs() as records:
        for kind in ("act", "sync"):
            huge = 10**30
            await p.send(f'{{"type":"{kind}","version":{huge},"action":{{"type":"torch"}}}}')
        first, second = await p.wait_error(1), await p.wait_error(2)
        assert first["code"] == second["code"] == "malformed"
        states = len(p.states)
        await p.send({"type": "sync"})
        await p.wait_for(lambda q: len(q.states) > states)
    assert p.version == 0 and p.ws is not None and p.ws.close_code is None
    assert not [r for r in records if r.levelno >= logging.ERROR], records
    for s in seats:
        await s.close()


async def test_a_frame_over_the_size_limit_closes_cleanly(server: Server) -> None:
    """A frame over the server's size limit closes its socket with 1009. A push the table
    makes for that socket before the close has gone out (its client is behind with its
    reading, so the close waits in the transport's buffer; its reader is still busy with an
    act) is dropped quietly, without "socket writer failed … after sending
    'websocket.close'"; the connection is gone within the close timeout."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek"], game="karmaka")
    for s in seats:
        await s.connect(table["slug"])
    watcher = await Player(server.url, server.ws_url).login("Widz")
    sock = await raw_socket(server, table["slug"], "html", watcher.cookie, rcvbuf=4096)
    app = app_of(server)
    port = sock.getsockname()[1]
    protocol = protocol_of(server, port)

    def behind() -> bool:  # some of its pushes wait in the transport, which still takes more
        return bool(protocol.transport.get_write_buffer_size()) and protocol.writable.is_set()

    with kept_logs() as records:
        for _ in range(400):
            if behind():
                break
            await drive(app, table["slug"], dict(enumerate(seats)), [], moves=1)
        assert behind()
        async with table_of(app, table["slug"]).lock:  # its reader waits here with an act
            act = {"type": "act", "version": 0, "action": {}}
            sock.sendall(frame(json.dumps(act).encode()))
            await asyncio.sleep(0.2)
            sock.sendall(frame(b"x" * 70_000))
            await asyncio.sleep(0.3)
            assert protocol.close_sent
            assert seats[1].ws is not None
            await seats[1].ws.close()  # a seat goes offline: a presence push for everyone
            await asyncio.sleep(0.3)
        failed = [r for r in records if r.levelno >= logging.ERROR]
        assert not failed, [(r.getMessage(), r.exc_text) for r in failed]
        gone = time.monotonic()
        while not protocol.disconnected:
            assert time.monotonic() - gone < 5.0 + 2  # ws_close_timeout and slack
            await asyncio.sleep(0.1)
    sock.close()
    for s in [*seats, watcher]:
        await s.close()


async def test_the_act_budget_holds_across_reconnects(db_url: str, tmp_path: Path) -> None:
    """The budget is a person's, not a socket's: reconnecting does not reset it, and a person
    far past it has each new socket closed with 4429 at its first message."""
    async with served(
        db_url, tmp_path, act_rate_count=5, act_rate_window=60.0, act_rate_close=3
    ) as srv:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek", "Celina"])
        p = seats[0]
        await p.connect(table["slug"])
        for _ in range(5):
            await p.send({"type": "sync"})
        await p.wait_for(lambda q: len(q.states) >= 6)
        assert not p.errors
        assert p.ws is not None
        await p.ws.close()
        await p.connect(table["slug"])  # a new socket: the same person, the same budget
        await p.send({"type": "sync"})
        assert (await p.wait_error(1))["code"] == "rate_limited"
        closed = 0
        for _ in range(5):  # reconnect and go on
            await p.connect(table["slug"])
            with contextlib.suppress(ConnectionClosed):
                for _ in range(3):
                    await p.send({"type": "sync"})
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(p.ws.wait_closed(), 5)
            closed += p.ws.close_code == 4429
        assert closed == 5
        for s in seats:
            await s.close()


async def test_the_act_budget_holds_per_address(db_url: str, tmp_path: Path) -> None:
    """Guests are cheap: the sockets of every person behind one address share its budget."""
    async with served(
        db_url, tmp_path, act_rate_count=50, act_rate_address_count=6, act_rate_window=60.0
    ) as srv:
        seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek", "Celina"])
        a, b = seats[0], seats[1]
        await a.connect(table["slug"])
        await b.connect(table["slug"])
        for _ in range(4):
            await a.send({"type": "sync"})
        await a.wait_for(lambda q: len(q.states) >= 5)
        for _ in range(2):
            await b.send({"type": "sync"})
        await b.wait_for(lambda q: len(q.states) >= 3)
        assert not a.errors and not b.errors
        await b.send({"type": "sync"})
        assert (await b.wait_error(1))["code"] == "rate_limited"
        for s in seats:
            await s.close()


async def test_refusals_do_not_make_a_prompt_reader_too_slow(server: Server) -> None:
    """With no act budget, a burst of 300 chat lines past the chat limit is answered line by
    line (5 said, 295 refused) on a socket that reads promptly, which stays open."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    sock = await raw_socket(server, table["slug"], "json", seats[0].cookie)
    frames: list[tuple[int, bytes]] = []
    reader = asyncio.create_task(asyncio.to_thread(read_until_close, sock, frames, 295))
    burst = b"".join(
        frame(json.dumps({"type": "chat", "text": f"line {i}"}).encode()) for i in range(300)
    )
    sock.sendall(burst)  # one write: the server reads the whole burst at once
    try:
        assert await asyncio.wait_for(reader, 20) == 0  # 295 refusals, no close
    finally:
        sock.close()
    texts = [json.loads(payload) for opcode, payload in frames if opcode == 1]
    errors = [m for m in texts if m["type"] == "error"]
    assert {e["code"] for e in errors} == {"chat_rate_limited"} and len(errors) == 295
    for s in seats:
        await s.close()
