"""The keepalive ping of `StolikWebSockets`: a client that sends frames is not pinged (it has
shown it is there); a silent one is pinged every interval and dropped when it stops
answering."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import uvicorn
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from app.realtime.transport import StolikWebSockets

INTERVAL = 0.2


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept a socket and read it until the client goes."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


class RawClient:
    """A websocket client that counts the server's pings (and answers them, as browsers do)."""

    def __init__(self, port: int) -> None:
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"))
        self.pings = 0
        self.port = port
        self.opened = asyncio.Event()

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.proto.send_request(self.proto.connect())
        self.flush()
        self.task = asyncio.create_task(self.read())
        await asyncio.wait_for(self.opened.wait(), 10)  # the handshake's answer

    def flush(self) -> None:
        for data in self.proto.data_to_send():
            if data:
                self.writer.write(data)

    async def read(self) -> None:
        while data := await self.reader.read(65536):
            self.proto.receive_data(data)
            if self.proto.state is State.OPEN:
                self.opened.set()
            for event in self.proto.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.PING:
                    self.pings += 1
            self.flush()  # the pongs

    def send_text(self, text: str) -> None:
        self.proto.send_text(text.encode())
        self.flush()

    async def close(self) -> None:
        self.task.cancel()
        self.writer.close()


@pytest.mark.asyncio
async def test_a_client_that_speaks_is_not_pinged_a_silent_one_is() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        _app,
        ws=StolikWebSockets,
        ws_ping_interval=INTERVAL,
        ws_ping_timeout=5,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(200):
        if server.started:
            break
        await asyncio.sleep(0.05)
    talker, silent = RawClient(port), RawClient(port)
    try:
        await talker.open()
        await silent.open()
        for _ in range(int(8 * INTERVAL / 0.05)):  # eight intervals
            talker.send_text("hi")
            await asyncio.sleep(0.05)
        assert talker.pings == 0
        assert silent.pings >= 5  # one per interval (plus the round trip), answered each time
        # Once the talker falls silent, it is pinged again.
        await asyncio.sleep(4 * INTERVAL)
        assert talker.pings >= 2
    finally:
        await talker.close()
        await silent.close()
        server.should_exit = True
        await serving
