"""`SocketControl.send_text`: a push written straight to the connection (not through the ASGI
send) arrives as the same text frame as `websocket.send` sends, whatever its length (the three
header sizes), in order with them; after the client's close it is `ClientDisconnected`."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.utils import ClientDisconnected
from websockets.asyncio.client import connect

from app.realtime.transport import StolikWebSockets, control_of

SIZES = (0, 1, 125, 126, 127, 65535, 65536, 200_000)


def _text(size: int) -> str:
    return ("ż" + "a" * size)[:size] if size else ""  # "ż": two bytes in UTF-8


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept a socket; send every size both ways, then wait for the client to close and
    record what a direct send does then."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    control = control_of(scope)
    assert control is not None
    for size in SIZES:
        await control.send_text(_text(size).encode())
        await send({"type": "websocket.send", "text": _text(size)})
    while (await receive())["type"] != "websocket.disconnect":
        pass
    try:
        await control.send_text(b"late")
    except ClientDisconnected:
        RESULTS.append("disconnected")
    else:
        RESULTS.append("sent")


RESULTS: list[str] = []


@pytest.mark.asyncio
async def test_a_direct_frame_is_the_frame_websocket_send_makes() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        _app, ws=StolikWebSockets, ws_per_message_deflate=False, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(200):
        if server.started:
            break
        await asyncio.sleep(0.05)
    try:
        async with connect(f"ws://127.0.0.1:{port}/", max_size=None, compression=None) as ws:
            for size in SIZES:
                direct = await asyncio.wait_for(ws.recv(), 10)
                usual = await asyncio.wait_for(ws.recv(), 10)
                assert direct == usual == _text(size)
        for _ in range(100):
            if RESULTS:
                break
            await asyncio.sleep(0.05)
        assert RESULTS == ["disconnected"]
    finally:
        server.should_exit = True
        await serving
