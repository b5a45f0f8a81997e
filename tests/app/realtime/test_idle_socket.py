"""What an open, idle table socket holds (issue 37: at most 20 KB a socket, 20,000 on a
process), on a live loopback server: once accepted, the socket's life is handed over to its
connection (`SocketControl.hand_over`), so no coroutine of the middleware or the route waits
while it is open; the socket still answers, in the language and under the request id the
middleware gave it; the connection's queue and flag behave like asyncio's."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import types

from websockets.asyncio.client import connect

from app import i18n
from app.logs import request_id
from app.realtime.transport import Gate, Inbox
from tests.clients import make_table
from tests.conftest import Server


def waiting_coroutines() -> tuple[set[str], set[str]]:
    """The qualified names of the coroutines alive now (frozen ones included), and of those
    among them that serve a websocket's ASGI scope (middleware, routing, the route)."""
    gc.unfreeze()  # the app freezes what is alive; `get_objects` lists only the unfrozen
    try:
        alive = [o for o in gc.get_objects() if type(o) is types.CoroutineType]
        names = {c.cr_code.co_qualname for c in alive}
        asgi = {
            c.cr_code.co_qualname
            for c in alive
            if c.cr_frame is not None
            and isinstance(scope := c.cr_frame.f_locals.get("scope"), dict)
            and scope.get("type") == "websocket"
        }
        return names, asgi
    finally:
        gc.freeze()


async def test_an_open_socket_waits_in_no_middleware(server: Server) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    url = f"{server.ws_url}/ws/t/{table['slug']}?format=json"
    async with connect(url) as one, connect(url) as two:
        for ws in (one, two):
            assert json.loads(await ws.recv())["type"] == "state"
        waiting, asgi = waiting_coroutines()
        assert "_read" in waiting  # the sockets' lives
        assert not asgi, asgi  # e.g. Guard.__call__, SessionMiddleware.__call__
        # Handed over, the socket still answers.
        await one.send(json.dumps({"type": "sync", "version": 0}))
        state = json.loads(await asyncio.wait_for(one.recv(), 10))
        while state["type"] != "state":  # the chat's history was on its way
            state = json.loads(await asyncio.wait_for(one.recv(), 10))
        assert state["version"] >= 0 and state["view"]
    for p in players:
        await p.close()


async def test_the_socket_keeps_its_language_and_request_id(server: Server) -> None:
    """The refusal of a bad frame, long after the handshake, is in the socket's language and
    logged under the id its handshake was given."""
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    seen: list[tuple[str, str]] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append((record.getMessage(), request_id.get()))

    logger = logging.getLogger("stolik.ws")
    catch, level = Catch(), logger.level
    logger.addHandler(catch)
    logger.setLevel(logging.DEBUG)
    try:
        url = f"{server.ws_url}/ws/t/{table['slug']}?format=json&lang=pl"
        async with connect(url, additional_headers={"X-Request-Id": "idle-socket-7"}) as ws:
            assert json.loads(await ws.recv())["type"] == "state"
            await ws.send("{not json")
            error = json.loads(await asyncio.wait_for(ws.recv(), 10))
            while error["type"] != "error":  # the chat's history first
                error = json.loads(await asyncio.wait_for(ws.recv(), 10))
    finally:
        logger.removeHandler(catch)
        logger.setLevel(level)
    assert error["type"] == "error" and error["code"] == "malformed"
    assert error["key"] == "Message is not valid JSON."
    assert error["message"] == i18n.translations("pl").gettext(error["key"]) != error["key"]
    assert ("refused", "idle-socket-7") in seen, seen
    for p in players:
        await p.close()


async def test_the_connections_queue_and_flag() -> None:
    inbox = Inbox()
    assert inbox.empty() and inbox.qsize() == 0
    getter = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not getter.done()
    inbox.put_nowait({"n": 1})
    inbox.put_nowait({"n": 2})
    assert await getter == {"n": 1}
    assert inbox.qsize() == 1 and await inbox.get() == {"n": 2} and inbox.empty()

    gate = Gate()
    assert gate.is_set() and await gate.wait()
    gate.clear()
    waiters = [asyncio.ensure_future(gate.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters) and not gate.is_set()
    waiters[0].cancel()  # a writer given up on (its push waited too long)
    await asyncio.sleep(0)
    gate.set()
    assert await waiters[1] is True and gate.is_set()
