"""The server end of a websocket's TCP connection: uvicorn's sans-I/O websockets protocol,
with a close that really closes. Run uvicorn with
`--ws app.realtime.transport:StolikWebSockets` and the rest of `SERVE_FLAGS` (scripts/run.sh,
the Dockerfile and the compose file do; tests/deploy/test_deploy_files.py checks they agree).

uvicorn's own protocol waits until the transport is writable before it sends anything, a
close included, and closes a transport gracefully, after its buffer has drained: a client
that stopped reading kept its connection, the kernel's megabytes queued for it and the table's
connection for ever. This one:

- sends a close at once, even while the transport is paused behind unread data, and aborts the
  connection when the peer has not completed the close within `close_timeout` seconds;
- aborts any connection that is closing for another reason (a keepalive ping not answered, a
  frame over the size limit, the app done with the socket, the server shutting down) but is
  still open `close_timeout` seconds later;
- bounds the kernel's send buffer (SO_SNDBUF, as the app asks: `ws_send_buffer`), so that a
  client that does not read pauses the transport after a bounded amount of data and the app's
  send watch sees its pushes wait (the kernel grows an unbounded buffer to megabytes, which
  hid a JSON reader that never read);
- answers a push sent after the close with `ClientDisconnected` (the app sees a client gone)
  instead of a RuntimeError;
- sends its keepalive ping only to a client that has sent nothing since the last one was due
  (a frame from the client shows it is there as well as a pong does): a player who acts, or a
  client that pings on its own, costs no ping round every `ws_ping_interval`, so the
  keepalive's cost is per silent socket, not per socket;
- hands the app a `SocketControl` in `scope["extensions"]["stolik.socket"]` to set those
  limits, to read how many bytes wait for the client, to abort, and to hand the rest of the
  socket's life over to the connection (`SocketControl.hand_over`);
- holds less for an idle socket (the issue's target: 20 KB each, 20,000 on a process): the
  HTTP protocol it upgrades from is freed at once (it was a reference cycle, which the app's
  frozen collector keeps for up to `app.memory.FULL_EVERY` seconds), the handshake's request
  headers and response are dropped once read, and its queue of received messages and its
  "writable" flag are a list and a flag (`Inbox`, `Gate`) instead of an `asyncio.Queue` and
  an `asyncio.Event` (four deques, ~3 KB).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import fcntl
import socket
import struct
import termios
import weakref
from collections.abc import Coroutine, MutableMapping
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame
from websockets.http11 import Request
from websockets.protocol import State

EXTENSION = "stolik.socket"
"""The scope extension that carries a socket's `SocketControl`."""
CLOSE_TIMEOUT = 5.0
"""Seconds a closing connection may stay open before it is aborted (the default)."""


KEEP_ALIVE_SECONDS = 75
"""How long uvicorn keeps an idle HTTP connection (its default is 5 s): longer than the
proxy keeps its idle connections to a replica (`keepalive_timeout 60s` in deploy/nginx.conf's
upstream), so the proxy never sends a request, a POST it would not retry included, on a
connection the replica is closing at that moment (a 502); and a browser that talks to the
server directly reuses its connection between clicks instead of opening a new one."""

SERVE_FLAGS = (
    *("--ws", "app.realtime.transport:StolikWebSockets", "--ws-max-size", "65536"),
    *("--ws-per-message-deflate", "false", "--timeout-keep-alive", str(KEEP_ALIVE_SECONDS)),
    "--proxy-headers",
)
"""uvicorn's flags for this app, as deployed: this protocol, frames of at most 64 KiB,
no compression (pushes are small and many), idle connections kept `KEEP_ALIVE_SECONDS`, the
proxy's client address."""


class Inbox:
    """The messages received for the app, waiting for its `receive()`: what uvicorn's
    `asyncio.Queue` does for its one reader, without the Queue's three deques."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        """Add a message and wake the reader."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        """Whether no message waits."""
        return not self._items

    def qsize(self) -> int:
        """Messages waiting."""
        return len(self._items)

    async def get(self) -> Any:
        """The oldest message, waiting for one if need be (one reader at a time)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Gate:
    """Whether the transport takes more data (uvicorn's `writable`): an `asyncio.Event`'s
    `set`, `clear`, `is_set` and `wait`, whose waiters' list exists only while some wait."""

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> bool:
        if self._open:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
        return True


class StolikWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websockets protocol with a close that really closes (see above)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        self.close_timeout = CLOSE_TIMEOUT
        self.abort_timer: asyncio.TimerHandle | None = None
        # The socket's life, handed over (`SocketControl.hand_over`), and its context.
        self.rest: tuple[Coroutine[Any, Any, None], contextvars.Context] | None = None
        self.frames_in = 0
        """Reads from the client so far (`data_received` calls)."""
        self.frames_in_at_ping = 0
        """`frames_in` when the last keepalive ping was due (or its pong came)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Called by the HTTP protocol upgrading the connection, still the transport's: its
        # parser and it refer to each other, a cycle that would outlive the upgrade.
        upgraded = transport.get_protocol()
        if upgraded is not self and hasattr(upgraded, "parser"):
            upgraded.parser = None
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.abort_timer is not None:
            self.abort_timer.cancel()
            self.abort_timer = None
        super().connection_lost(exc)

    def bound_send_buffer(self, size: int) -> None:
        """Ask the kernel to keep at most about `size` bytes for the client (0: its default)."""
        sock = self.transport.get_extra_info("socket")
        if sock is not None and size > 0:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)

    def held(self) -> int:
        """Bytes written to the socket that its client has not taken yet: the transport's
        buffer and the kernel's send queue (unacknowledged bytes, Linux's SIOCOUTQ)."""
        if self.disconnected:
            return 0
        held = self.transport.get_write_buffer_size()
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError, ValueError):
                out = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
                held += struct.unpack("i", out)[0]
        return held

    def abort(self) -> None:
        """Drop the connection now, whatever is still buffered for it."""
        for timer in (self.abort_timer, self.close_timer):
            if timer is not None:
                timer.cancel()
        self.abort_timer = self.close_timer = None
        if self.disconnected:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            # Linger 0: the kernel drops what it still holds and resets the connection, instead
            # of keeping an orphaned socket that waits for the client to read (for minutes).
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _deadline(self) -> None:
        """A connection that is closing is aborted if still open after `close_timeout`."""
        if self.abort_timer is None and not self.disconnected and self.transport.is_closing():
            self.abort_timer = self.loop.call_later(self.close_timeout, self.abort)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake went on to the app
            scope["extensions"][EXTENSION] = SocketControl(self)
            # The scope has the request's headers now; websockets' parser keeps the request
            # for as long as the connection lasts (a local of its generator): drop its copy.
            event.headers.clear()

    def data_received(self, data: bytes) -> None:
        self.frames_in += 1
        super().data_received(data)
        self._deadline()

    def start_keepalive(self) -> None:
        self.frames_in_at_ping = self.frames_in  # the handshake is not a sign of life since
        super().start_keepalive()

    def send_keepalive_ping(self) -> None:
        if self.frames_in != self.frames_in_at_ping:
            # The client spoke since the last ping was due: it is there; ask again later.
            self.frames_in_at_ping = self.frames_in
            self.ping_timer = None
            if not (self.close_sent or self.transport.is_closing()):
                self.schedule_ping()
            return
        super().send_keepalive_ping()

    def handle_pong(self, event: Frame) -> None:
        super().handle_pong(event)
        self.frames_in_at_ping = self.frames_in  # the pong itself says nothing new

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self._deadline()

    def shutdown(self) -> None:
        super().shutdown()
        self._deadline()

    async def run_asgi(self) -> None:
        """uvicorn's, except that the app may hand the rest of the socket's life over
        (`SocketControl.hand_over`) and return: the life is then awaited here, in the
        context variables it was handed over with, without the app's stack of middleware
        waiting in between (nor a task of its own)."""
        try:
            result = await self.app(self.scope, self.receive, self.send)
            rest, self.rest = self.rest, None
            if rest is not None:
                life, context = rest
                for var, value in context.items():  # as the middleware had set them
                    var.set(value)
                await life
        except ClientDisconnected:
            pass
        except BaseException:
            self.logger.exception("Exception in ASGI application\n")
            self.send_500_response()
            if self.rest is not None:  # the app failed after handing its socket over
                self.rest[0].close()
                self.rest = None
        else:
            if not self.handshake_complete:
                self.logger.error("ASGI callable returned without completing handshake.")
                self.send_500_response()
            elif result is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.", result)
        if self.close_timer is None:
            self.transport.close()
        self._deadline()

    async def send(self, message: ASGISendEvent) -> None:
        kind = message["type"]
        if self.handshake_complete and self.initial_response is None and not self.disconnected:
            if kind == "websocket.close" and not self.close_sent:
                # At once, not after the unread data has drained (it may never drain).
                code = int(message.get("code", 1000))  # type: ignore[call-overload]
                self._close(code, str(message.get("reason", "") or ""))
                return
            if kind == "websocket.send" and self.close_sent:
                raise ClientDisconnected  # the socket is closing: the push is moot
        await super().send(message)
        if kind == "websocket.accept" and self.handshake_complete:
            # The handshake is answered: its request and response (their headers) are not
            # read again (the app's scope keeps the request's headers).
            self.request = self.response = None  # type: ignore[assignment]
        self._deadline()

    async def send_text_frame(self, data: bytes) -> None:
        """Send `data` (UTF-8 text) as one text frame: what `send` does with a
        `websocket.send` message, without the message and the app's middleware's send
        wrappers it passes through, the frame's two to ten bytes of header made here (a
        server's frames are not masked). The same bytes on the wire, the same waits (a
        paused transport) and the same `ClientDisconnected` for a connection gone or closing.
        With an extension negotiated (compression) it goes the usual way."""
        if not self.writable.is_set():
            await self.writable.wait()
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
        ):
            raise ClientDisconnected
        conn = self.conn
        if conn.extensions or conn.state is not State.OPEN or conn.expect_continuation_frame:
            try:
                conn.send_text(data)
            except InvalidState:
                raise ClientDisconnected from None
            self.transport.write(b"".join(conn.data_to_send()))
            self._deadline()
            return
        size = len(data)
        if size < 126:
            head = bytes((0x81, size))
        elif size < 65536:
            head = _HEAD16.pack(0x81, 126, size)
        else:
            head = _HEAD64.pack(0x81, 127, size)
        pending = conn.data_to_send()  # nothing, unless the protocol queued a control frame
        self.transport.write(b"".join((*pending, head, data)) if pending else head + data)
        self._deadline()

    def _close(self, code: int, reason: str) -> None:
        """Queue a close frame behind what is buffered and give the peer `close_timeout`
        seconds to answer it before the connection is aborted."""
        if self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        try:
            self.conn.send_close(code, reason)
        except InvalidState:
            raise ClientDisconnected from None
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.abort_timer = self.loop.call_later(self.close_timeout, self.abort)


_HEAD16 = struct.Struct("!BBH")
_HEAD64 = struct.Struct("!BBQ")


class SocketControl:
    """What the app may do to its socket's connection (`ws.scope["extensions"]`); it holds
    the protocol weakly, so a socket's scope does not keep a closed connection alive."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: StolikWebSockets) -> None:
        self._protocol = weakref.ref(protocol)

    def configure(self, close_timeout: float, send_buffer: int) -> None:
        """Set how long a closing connection may stay open, and the kernel's send buffer."""
        protocol = self._protocol()
        if protocol is not None:
            protocol.close_timeout = close_timeout
            protocol.bound_send_buffer(send_buffer)

    def held(self) -> int:
        """Bytes waiting for the client (the transport's and the kernel's)."""
        protocol = self._protocol()
        return protocol.held() if protocol is not None else 0

    async def send_text(self, data: bytes) -> None:
        """Send UTF-8 text as one frame straight to the connection
        (`StolikWebSockets.send_text_frame`); `ClientDisconnected` when it is gone."""
        protocol = self._protocol()
        if protocol is None:
            raise ClientDisconnected
        await protocol.send_text_frame(data)

    def abort(self) -> None:
        """Drop the connection now."""
        protocol = self._protocol()
        if protocol is not None:
            protocol.abort()

    def hand_over(self, life: Coroutine[Any, Any, None]) -> bool:
        """The rest of the socket's life is `life`: the app may return at once (its
        middleware's coroutines, ~12 KB an open socket, are freed), and the connection
        awaits `life` in the context variables set now (language, request id) and lasts
        until it ends. False (the app must await `life` itself) when the connection is gone
        or has a life handed over already."""
        protocol = self._protocol()
        if protocol is None or protocol.rest is not None:
            return False
        protocol.rest = (life, contextvars.copy_context())
        return True


def control_of(scope: MutableMapping[str, Any]) -> SocketControl | None:
    """The socket's control, when the server runs `StolikWebSockets`."""
    control = (scope.get("extensions") or {}).get(EXTENSION)
    return control if isinstance(control, SocketControl) else None
