"""SQLite under an asyncio server: one writer at a time, queued in the process, not polled.

SQLite lets one connection write at a time. With a pool of connections (each in its own
aiosqlite thread), a second writer that finds the file locked is put to sleep by SQLite's busy
handler, and sleeps again, longer each time (1, 2, 5, … up to 100 ms a try), while the holder
waits for the event loop between its statements: a move waiting for the lock could wait a
second while the lock was free most of that time (bench/load.py at 10 saturated tables: p99
0.7–1.2 s for a p50 of 5–10 ms). `WriteGate` queues the process's writers instead: a
connection takes the gate before its transaction's first write (`before_cursor_execute`) and
gives it back at its commit or rollback (or, failing that, when it returns to the pool); the
next writer in line goes the moment the gate is free. SQLite's own busy timeout remains for
another process on the same file (a backup, a migration by hand).

A writer holds the gate until its commit or rollback, and through aiosqlite every statement is
a hop to the connection's thread and back, each waiting for a turn of the event loop
(milliseconds under load; on a loaded machine each hop also waits for the kernel to run the
other thread). `WritingConnection` runs a transaction's writes, the statements after its first
write, and its commit, on the loop's thread instead: SQLite answers them in microseconds
without waiting for anything (the gate is held, so no other writer of this process has the
lock; WAL with `synchronous=NORMAL` does not wait for the disk at commit). The first write
goes with SQLite's busy timeout at 0: should another process hold the file, it goes again in
the thread, which waits. The gate is given back at the commit or rollback itself (a session
that reads on after its commit no longer keeps the next writer waiting). The commit must come
in the writer's own task: SQLAlchemy's `sessions.begin()` commits in a task of its own, a turn
of the loop later, with the gate held meanwhile; app/store/engine.py's `LiteSessions` does not.

Reads run on the loop's thread too (a WAL reader never waits for a writer), within a budget:
SQLite's progress handler interrupts a read that has taken `READ_BUDGET` of the thread's CPU,
and it goes again in the connection's thread (the statement is run again if its rows were
being fetched), so a long report does not stop the loop. A rematch's set-up, a socket's
sign-in and a seat's claim read a few rows each: four hops per read before (cursor, execute,
rows, close), none now.

Checkpoints are taken off every commit (`wal_autocheckpoint` 0): a commit that crossed the
checkpoint threshold used to copy the log into the database and fsync it before returning
(now it would do so on the loop's thread). `Checkpointer` does it in the background instead
(PASSIVE: it never blocks a reader or a writer), once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sqlite3
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.util import await_

log = logging.getLogger("stolik.store")

BUSY_TIMEOUT = 30.0
"""Seconds a writer waits for the gate (and SQLite for another process's lock) before its
statement fails as "database is locked", as SQLite's own timeout did."""

READS = ("SELECT", "PRAGMA", "EXPLAIN")

READ_BUDGET = 0.002
"""CPU seconds a read may take on the event loop's thread before it goes to the connection's
thread instead (see `WritingConnection`)."""

PROGRESS_STEPS = 2000
"""SQLite virtual machine steps between two looks at a read's budget."""


def is_write(statement: str) -> bool:
    """Whether a statement may write (anything but a plain read: a SELECT, a WITH … SELECT)."""
    head = statement.lstrip()[:7].upper()
    if head.startswith(READS):
        return False
    if head.startswith("WITH"):
        upper = statement.upper()
        return any(word in upper for word in ("INSERT", "UPDATE", "DELETE", "REPLACE"))
    return True


class WriteGate:
    """A lock for the writers of one process, on its event loop, that wakes waiting writers
    in the order they came. On release the first in line is woken and takes the gate when the
    loop runs it, if it is still free; a writer that comes meanwhile and finds it free takes
    it at once. A writer holds the gate for one callback of the loop (its statements and its
    commit run on the loop's thread), so leaving it reserved for a woken writer would only keep
    it idle until the loop gets round to that writer, a turn of the loop for every writer in
    line (tens of milliseconds each on a loaded machine). A woken writer that finds it taken
    goes back to the front of the line."""

    def __init__(self, timeout: float = BUSY_TIMEOUT) -> None:
        self.timeout = timeout
        self.locked = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._line: deque[asyncio.Future[None]] = deque()
        self.waits = 0
        """Writers that found the gate taken and queued (for tests and benchmarks)."""

    def try_acquire(self) -> bool:
        """Take the gate if it is free, at once (no turn of the event loop)."""
        if self.locked:
            return False
        self.locked = True
        self._loop = asyncio.get_running_loop()
        return True

    async def acquire(self) -> None:
        if self.try_acquire():
            return
        self.waits += 1
        loop = asyncio.get_running_loop()
        front = False
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    turn: asyncio.Future[None] = loop.create_future()
                    (self._line.appendleft if front else self._line.append)(turn)
                    try:
                        await turn
                    except BaseException:
                        if turn.done() and not turn.cancelled():
                            self._wake()  # woken as it gave up: the next one goes
                        else:
                            with contextlib.suppress(ValueError):
                                self._line.remove(turn)
                        raise
                    if self.try_acquire():
                        return
                    front = True  # taken by a writer that came meanwhile: first in line again
        except TimeoutError:
            raise OperationalError(
                "(write gate)", None, sqlite3.OperationalError("database is locked")
            ) from None

    def release(self) -> None:
        self.locked = False
        self._wake()

    def _wake(self) -> None:
        """Wake the writer first in line (it takes the gate when it runs, if it is free)."""
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.set_result(None)
                return


_GATES: weakref.WeakKeyDictionary[Engine, WriteGate] = weakref.WeakKeyDictionary()


def gate_of(engine: Engine) -> WriteGate:
    """The gate of `engine` (a new one if it has none: an engine not made by `make_engine`)."""
    gate = _GATES.get(engine)
    if gate is None:
        gate = WriteGate()
        install(engine, gate)
    return gate


def install(engine: Engine, gate: WriteGate) -> None:
    """Make every writer on `engine` (the sync side of an async SQLite engine) queue at
    `gate`."""
    _GATES[engine] = gate

    @event.listens_for(engine, "before_cursor_execute")
    def _take(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        holder = _holder(conn.connection.dbapi_connection)
        if holder is None or getattr(holder, "held_gate", None) is not None:
            return
        if not is_write(statement) or not _in_loop_thread(gate):
            return
        await_(gate.acquire())
        holder.held_gate = gate

    @event.listens_for(engine, "checkin")
    def _give_back(dbapi_conn: Any, _record: Any) -> None:
        give_back(_holder(dbapi_conn))

    @event.listens_for(engine, "invalidate")
    def _invalidated(dbapi_conn: Any, _record: Any, _exc: Any) -> None:
        give_back(_holder(dbapi_conn))


def _holder(dbapi_conn: Any) -> Any:
    """The aiosqlite connection under SQLAlchemy's adapter: it carries the gate it holds
    (`held_gate`), from its transaction's first write to its commit or rollback."""
    return getattr(dbapi_conn, "_connection", None)


def give_back(holder: Any) -> None:
    """Release the gate `holder` holds, if it holds it."""
    gate = getattr(holder, "held_gate", None)
    if gate is not None:
        holder.held_gate = None
        _release_threadsafe(gate)


def _in_loop_thread(gate: WriteGate) -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False  # a synchronous use (none in the server): SQLite's own lock only
    return True


def _release_threadsafe(gate: WriteGate) -> None:
    loop = gate._loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if loop is None or running is loop or loop.is_closed():
        gate.release()
    else:  # a connection given back by the collector in another thread
        loop.call_soon_threadsafe(gate.release)


class WritingConnection(aiosqlite.Connection):
    """An aiosqlite connection that runs on the caller's thread what SQLite answers at once
    (see the module): a write transaction's statements and its commit, and reads that take
    under `read_budget` seconds of CPU."""

    waited_in_thread = 0
    """First writes that found the file locked by another process (for tests)."""
    inline_first_write = True
    """Whether a first write runs on the loop's thread (see the module)."""
    read_budget = READ_BUDGET
    reads_in_thread = 0
    """Reads that went over their budget and went again in the thread (for tests)."""
    held_gate: WriteGate | None = None
    _deadline = math.inf
    _last_read: tuple[Any, str, Any] | None = None

    def _over_budget(self) -> bool:
        """SQLite's progress handler: True interrupts the statement (an inline read's)."""
        return time.thread_time() > self._deadline

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        conn = self._connection
        if conn is None or not self._running:
            return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        if fn == conn.commit or fn == conn.rollback:
            try:
                return fn(*args, **kwargs)
            finally:
                give_back(self)  # the lock is SQLite's no more: the next writer may go
        if conn.in_transaction or fn == conn.cursor:
            return fn(*args, **kwargs)
        name = getattr(fn, "__name__", "")
        if name == "close":
            return fn(*args, **kwargs)  # a cursor's: nothing to wait for
        if name in ("execute", "executemany") and args and isinstance(args[0], str):
            if name == "execute" and not is_write(args[0]):
                if not args[0].lstrip()[:6].upper().startswith(("SELECT", "WITH")):
                    # a PRAGMA (at connect) may wait for the file's lock: in the thread
                    return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
                self._last_read = (getattr(fn, "__self__", None), args[0], args[1:])
                return await self._read(fn, *args, **kwargs)
            if self.inline_first_write:  # a transaction's first write: it takes SQLite's lock
                conn.execute("PRAGMA busy_timeout=0")
                try:
                    return fn(*args, **kwargs)
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) and "busy" not in str(exc):
                        raise
                    # Another process holds the file: wait for it in the thread, not here.
                    WritingConnection.waited_in_thread += 1
                finally:
                    conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        elif name == "fetchall":
            return await self._read(fn, *args, **kwargs)
        return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]

    async def _read(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A read (a SELECT's execution, or its rows) on the caller's thread; if it takes
        more than its budget of CPU, it is interrupted and goes again in the thread."""
        self._deadline = time.thread_time() + self.read_budget
        try:
            return fn(*args, **kwargs)
        except sqlite3.OperationalError as exc:
            if "interrupted" not in str(exc):
                raise
        finally:
            self._deadline = math.inf
        WritingConnection.reads_in_thread += 1
        last = self._last_read
        if (
            getattr(fn, "__name__", "") == "execute"
            or last is None
            or last[0] is not getattr(fn, "__self__", None)
        ):
            return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        # The rows of an interrupted fetch are lost: the statement goes again, in the thread.
        cursor, statement, params = last
        return await super()._execute(_again, cursor, statement, params)  # type: ignore[no-untyped-call]


def _again(cursor: sqlite3.Cursor, statement: str, params: tuple[Any, ...]) -> list[Any]:
    cursor.execute(statement, *params)
    return cursor.fetchall()


def connector(path: str, timeout: float = BUSY_TIMEOUT) -> Callable[[], Any]:
    """What `create_async_engine(async_creator=…)` calls for a new SQLite connection."""

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(path, timeout=timeout, check_same_thread=False)

    async def create() -> aiosqlite.Connection:
        connection = WritingConnection(connect, 64)
        connection._thread.daemon = True
        await connection
        assert connection._connection is not None
        connection._connection.set_progress_handler(connection._over_budget, PROGRESS_STEPS)
        return connection

    return create


class Checkpointer:
    """Copies the write-ahead log into the database file every `every` seconds, in a thread of
    its own on a connection of its own, PASSIVE (readers and writers carry on)."""

    def __init__(self, path: Path, every: float = 1.0, owner: object | None = None) -> None:
        self.path = path
        self.every = every
        self._owner = weakref.ref(owner) if owner is not None else None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.checkpoints = 0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=BUSY_TIMEOUT)
            self._thread = None
        self.checkpoint()  # what is left, at shutdown

    def checkpoint(self) -> None:
        try:
            with contextlib.closing(sqlite3.connect(self.path, timeout=1.0)) as conn:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:  # busy, or the file is gone: the next one catches up
            log.debug("checkpoint skipped", extra={"error": str(exc)})

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=1.0, check_same_thread=False)
        except sqlite3.Error:
            return
        with contextlib.closing(conn):
            while not self._stop.wait(self.every):
                if self._owner is not None and self._owner() is None:
                    return  # the engine is gone; SQLite checkpoints as its last connection closes
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    self.checkpoints += 1
                except sqlite3.Error as exc:
                    log.debug("checkpoint skipped", extra={"error": str(exc)})
