"""The websocket edge: one open socket (`Connection`), its queue of pushes (`Mailbox`), and
the watch over pushes a client does not read (`SendWatch`). The table only wakes a connection
(`Connection.notify`); the socket's writer (app/api/routes/ws.py) builds what it sends."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any


class Mailbox:
    """A connection's queue of pushes: what `asyncio.Queue` does for one reader, in a tenth
    of its memory (an idle socket keeps one; a Queue's four deques cost ~3 KB each time)."""

    __slots__ = ("_items", "_room", "_waiter")

    def __init__(self) -> None:
        self._items: list[tuple[str, Any]] = []
        self._waiter: asyncio.Future[None] | None = None
        self._room: tuple[int, asyncio.Future[None]] | None = None

    def qsize(self) -> int:
        """Items waiting."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether nothing waits."""
        return not self._items

    def put_nowait(self, item: tuple[str, Any]) -> None:
        """Add an item and wake the reader."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> tuple[str, Any]:
        """The oldest item (IndexError if none)."""
        item = self._items.pop(0)
        if self._room is not None:
            self._freed()
        return item

    def room(self, below: int) -> asyncio.Future[None]:
        """A future done once fewer than `below` items wait (one waiter at a time: the
        socket's reader, which stops taking the client's messages while their answers pile
        up unsent)."""
        room = asyncio.get_running_loop().create_future()
        if len(self._items) < below:
            room.set_result(None)
        else:
            self._room = (below, room)
        return room

    def _freed(self) -> None:
        assert self._room is not None
        below, room = self._room
        if room.done():
            self._room = None
        elif len(self._items) < below:
            self._room = None
            room.set_result(None)

    async def get(self) -> tuple[str, Any]:
        """The oldest item, waiting for one if need be (one reader at a time)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.get_nowait()


SEND_TIMEOUT = 15.0
"""Seconds one push may wait for a client that does not read before it is dropped (the
default of the setting `ws_send_timeout`)."""


class SendWatch:
    """The pushes being written, by connection, with when each began; the ticker gives up
    on those that have waited `timeout` seconds (a client that stopped reading) by
    cancelling their writer, which then closes the socket as too slow.

    One dict entry per push in flight instead of a loop timer armed and disarmed around
    every frame (`asyncio.timeout` per push was ~5 % of a move's CPU); the price is that a
    stuck push is noticed at the ticker's next round (within a second of `timeout`)."""

    __slots__ = ("_inflight", "timeout")

    def __init__(self, timeout: float = SEND_TIMEOUT) -> None:
        self.timeout = timeout
        self._inflight: dict[Connection, tuple[float, asyncio.Task[Any] | None]] = {}

    def __len__(self) -> int:
        return len(self._inflight)

    def begin(self, conn: Connection) -> None:
        """The current task starts writing a push to `conn`."""
        self._inflight[conn] = (time.monotonic(), asyncio.current_task())

    def end(self, conn: Connection) -> None:
        """The push to `conn` is written (or given up)."""
        self._inflight.pop(conn, None)

    def sweep(self, now: float | None = None) -> int:
        """Give up on every push older than `timeout`: mark its connection too slow and
        cancel the task writing it. Returns how many."""
        now = time.monotonic() if now is None else now
        stuck = [c for c, (since, _) in self._inflight.items() if now - since >= self.timeout]
        for conn in stuck:
            _, task = self._inflight.pop(conn)
            conn.too_slow = True
            if task is not None:
                task.cancel()
        return len(stuck)


@dataclass(eq=False, slots=True)
class Connection:
    """One open websocket: who is behind it and what it has been sent."""

    user_id: int | None
    fmt: str  # "html" or "json"
    device: str | None = None  # the cookie's device id (signing it out closes this socket)
    queue: Mailbox = field(default_factory=Mailbox)
    sent_key: tuple[int, int] = (-2, -2)  # (game version, room revision) last sent
    log_version: int = -1  # the log lines of versions up to this one were sent (-1: none)
    log_basis: Any = None  # HTML: what those lines were made from (`TableLog.basis`)
    pending: set[str] = field(default_factory=set)  # coalesced kinds waiting in the queue
    max_queue: int = 200
    overflow: bool = False
    too_slow: bool = False  # a push waited past SendWatch.timeout: the writer closes the socket
    signed_out: bool = False  # its device was signed out: nothing more is read or acted on
    legal: bool = False  # JSON: each state carries the seat's legal actions (`?legal=1`)

    def sign_out(self) -> None:
        """Its device was signed out: from now on the reader handles no frame, and the writer
        (woken past any queue limit) closes the socket with `CLOSE_SIGNED_OUT`."""
        if self.signed_out:
            return
        self.signed_out = True
        self.queue.put_nowait(("signed_out", None))

    def notify(self, kind: str, payload: Any = None) -> None:
        """Wake this connection's writer. A state or presence push waiting in the queue
        already stands for any later one (the writer sends the newest when it gets there), so
        a slow reader's queue stays short; past `max_queue` items the connection is marked
        to be dropped (it re-syncs when it reconnects)."""
        if kind in COALESCED and payload is None:
            if kind in self.pending:
                return
            self.pending.add(kind)
        if self.queue.qsize() >= self.max_queue:
            self.overflow = True
            return
        self.queue.put_nowait((kind, payload))

    def taken(self, kind: str) -> None:
        """The writer took a `kind` item off the queue."""
        self.pending.discard(kind)


COALESCED = frozenset({"state", "presence"})
CLOSE_SIGNED_OUT = 4401
"""Close code (and handshake refusal) of a socket whose device was signed out."""
