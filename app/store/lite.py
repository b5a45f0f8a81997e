"""The store on SQLite: moves written on the event loop's own thread, several at once.

Through aiosqlite each statement of a move is a hop to the connection's thread and back, and
the transaction holds SQLite's one write lock (the process's `WriteGate`) from its first write
to its commit, across as many turns of the event loop, which under load take milliseconds each:
at a few hundred moves a second the writers queued behind one another. A SQLite write that
does not wait for the disk (WAL, `synchronous=NORMAL`) costs tens of microseconds, less than a
hop. `MoveBatcher` writes the moves that wait, together, in one transaction on a synchronous
connection of its own, on the loop's thread, under the gate: the lock is held for the
statements alone. It never waits for SQLite there: its busy timeout is 0, and a batch that
finds the file locked by another process goes again through `SqlStore`'s sessions, which
wait. It never checkpoints (`wal_autocheckpoint=0`; the engine's `Checkpointer` does, in its own
thread).
"""

from __future__ import annotations

import asyncio

from sqlalchemy import Connection, Table, bindparam, create_engine, event, insert, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool

from app.store.base import Conflict, MoveWrite
from app.store.engine import SessionFactory
from app.store.models import Move, Room, utcnow
from app.store.moves import _RECORD_MOVE
from app.store.sql import SqlStore
from app.store.sqlite import WriteGate, gate_of
from app.store.writer import _fail, _settle

_MOVES: Table = Move.__table__  # type: ignore[assignment]
_ROOMS: Table = Room.__table__  # type: ignore[assignment]
_INSERT_MOVE = insert(_MOVES)
_FINISH_ROOM = update(_ROOMS).where(_ROOMS.c.id == bindparam("room_id_")).values(status="finished")

Batch = list[tuple[MoveWrite, "asyncio.Future[bool]"]]


def sync_engine_for(url: str) -> Engine:
    """A synchronous engine on the same SQLite file: one connection, never waiting for a
    lock (busy timeout 0), never checkpointing."""
    parsed = make_url(url).set(drivername="sqlite")
    engine = create_engine(
        parsed, poolclass=StaticPool, connect_args={"timeout": 0, "check_same_thread": False}
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    return engine


def write_moves(conn: Connection, batch: Batch) -> list[bool]:
    """Store each move of `batch` (distinct games) if its game is still at the move's
    version, in the caller's transaction; which were stored."""
    now = utcnow()
    stored = []
    for write, _ in batch:
        move = write.move
        updated = conn.execute(_RECORD_MOVE, move.params(write.result, now))
        if updated.rowcount != 1:
            stored.append(False)
            continue
        conn.execute(
            _INSERT_MOVE,
            {
                "game_id": move.game_id,
                "seq": move.from_version + 1,
                "seat": move.seat,
                "action": move.action,
                "events": move.events,
                "created_at": now,
            },
        )
        if write.result is not None:
            conn.execute(_FINISH_ROOM, {"room_id_": write.room_id})
        stored.append(True)
    return stored


class MoveBatcher:
    """Group commit of moves on SQLite, on the loop's thread (see the module)."""

    def __init__(self, engine: Engine, gate: WriteGate, fallback: SqlStore) -> None:
        self.engine = engine
        self.gate = gate
        self.fallback = fallback
        self._waiting: Batch = []
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        """Transactions written so far (for tests and benchmarks)."""

    async def record(self, write: MoveWrite) -> bool:
        """Store a move (see `Store.record_move`); False if another writer got there first."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._task is None and not self._waiting and self.gate.try_acquire():
            # Nothing waits and the gate is free: written now, without a turn of the loop.
            try:
                with self.engine.begin() as conn:
                    stored = write_moves(conn, [(write, done)])[0]
                self.batches += 1
                return stored
            except OperationalError:
                pass  # another process holds the file: in line below, which waits
            finally:
                self.gate.release()
        self._waiting.append((write, done))
        if self._task is None:
            self._task = asyncio.create_task(self._drain())
        return await done

    async def _drain(self) -> None:
        try:
            while self._waiting:
                batch: Batch = []
                later: Batch = []
                games: set[int] = set()
                for item in self._waiting:  # a game's next move waits for the one before it
                    (later if item[0].move.game_id in games else batch).append(item)
                    games.add(item[0].move.game_id)
                self._waiting = later
                await self._write(batch)
        finally:
            self._task = None

    async def _write(self, batch: Batch) -> None:
        try:
            await self.gate.acquire()
            try:
                with self.engine.begin() as conn:
                    stored = write_moves(conn, batch)
                self.batches += 1
            finally:
                self.gate.release()
        except OperationalError:  # another process holds the file: the sessions' way, which waits
            for write, done in batch:
                try:
                    await SqlStore.record_move(self.fallback, write)
                    _settle(done, True)
                except Conflict:
                    _settle(done, False)
                except Exception as exc:
                    _fail(done, exc)
            return
        except BaseException as exc:
            for _, done in batch:
                _fail(done, exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, done), ok in zip(batch, stored, strict=True):
            _settle(done, ok)


class LiteStore(SqlStore):
    """`Store` on SQLite: moves through `MoveBatcher`, checkpoints by `Checkpointer`,
    everything else as `SqlStore`."""

    def __init__(self, sessions: SessionFactory, url: str) -> None:
        super().__init__(sessions)
        bind = sessions.kw["bind"]
        self.engine = sync_engine_for(url)
        self.batcher = MoveBatcher(self.engine, gate_of(bind.sync_engine), self)

    async def close(self) -> None:
        self.engine.dispose()

    async def record_move(self, write: MoveWrite) -> None:
        if write.notes or write.away or write.rating is not None or write.pushes:
            # with what goes with it (log lines, a seat sent away, a rated game's ratings, push
            # notices' outbox rows): the sessions' transaction
            return await super().record_move(write)
        if not await self.batcher.record(write):
            raise Conflict
