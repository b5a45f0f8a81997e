"""The async database engine and session factory, and running migrations."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncpg
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.config import ROOT
from app.db.models import Game, Room, User
from app.db.repo import (
    MoveRecord,
    SeatInfo,
    add_seat_at_once,
    create_room_at_once,
    new_guest_at_once,
    record_last_move_at_once,
    record_move_at_once,
    record_moves_at_once,
    room_now_at_once,
    start_at_once,
)
from engines.core import Event

SessionFactory = async_sessionmaker[AsyncSession]


def make_engine(url: str, pool_size: int = 20, max_overflow: int = 20) -> AsyncEngine:
    """An async engine; SQLite gets WAL and foreign keys, Postgres a modest pool."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # No pre-ping: it cost a round trip (~11 % of a move's CPU) on every checkout. A connection
    # that died (a database restart) fails one request and SQLAlchemy then replaces the pool.
    # A pool big enough for the busy case: connections past `pool_size` are opened and closed
    # per use, and opening one costs more CPU than a move's statement.
    return create_async_engine(
        url, pool_size=pool_size, max_overflow=max_overflow, pool_recycle=1800
    )


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The writer's connections only ever run one autocommit statement: no session state to
    reset when one goes back to the pool. (asyncpg still rolls back an open transaction;
    without this it also sent `RESET ALL`, `UNLISTEN *`… — a round trip per move.)"""


class MoveWriter:
    """PostgreSQL: a small asyncpg pool of its own for one-statement writes, outside
    SQLAlchemy: a move (`repo.record_move_at_once`, several at once under load), a seat
    taken (`repo.add_seat_at_once`), a new guest (`repo.new_guest_at_once`), a new room
    (`repo.create_room_at_once`) and a start (`repo.start_at_once`, three statements). A
    checkout, AUTOCOMMIT and a compiled statement through SQLAlchemy cost about twice the CPU
    of the statement itself, and a BEGIN … COMMIT transaction costs two more round trips; a move
    is the one write every table makes every few seconds. Everything else keeps the
    SQLAlchemy engine. A dead connection fails one write; the pool replaces it."""

    def __init__(self, pool: asyncpg.Pool, in_flight: int = 1) -> None:
        self.pool = pool
        self.in_flight = in_flight
        """Batches of moves being written at once at most (one: while a batch is written,
        the moves that come wait and go together in the next; a commit waits for the disk
        anyway, and with more batches in flight fewer moves share each)."""
        self._waiting: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        self._writing = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches = 0
        """Batches written so far (statements), for tests and benchmarks."""

    @classmethod
    async def open(cls, url: str, size: int) -> MoveWriter | None:
        """A writer for a PostgreSQL `url` (SQLAlchemy form), None for SQLite."""
        parsed = make_url(url)
        if parsed.get_backend_name() != "postgresql":
            return None
        dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        pool = await asyncpg.create_pool(
            dsn, min_size=1, max_size=max(1, size), reset=_nothing_to_reset
        )
        return cls(pool)

    async def record(self, move: MoveRecord) -> bool:
        """Store one plain move (see `repo.record_move_at_once`); False if another writer got
        there first. Returns once it is committed.

        Group commit: when `in_flight` batches are being written already, the move waits
        and goes with the others that came meanwhile, in one statement and one commit
        (`repo.record_moves_at_once`) — under load a move costs a fraction of a statement,
        and when it is quiet each move still goes at once, alone. The writing runs in its
        own task, so a caller that gives up waiting leaves the others' moves unharmed."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, done))
        self._next_batch()
        return await done

    def _next_batch(self) -> None:
        """Start writing what waits, if a batch may go now."""
        if not self._waiting or self._writing >= self.in_flight:
            return
        batch: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        later: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        games: set[int] = set()
        for item in self._waiting:  # a game's next move waits for the one before it
            (later if item[0].game_id in games else batch).append(item)
            games.add(item[0].game_id)
        self._waiting = later
        self._writing += 1
        task = asyncio.create_task(self._write(batch))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, batch: list[tuple[MoveRecord, asyncio.Future[bool]]]) -> None:
        try:
            async with self.pool.acquire() as conn:
                self.batches += 1
                if len(batch) == 1:
                    move, done = batch[0]
                    _settle(done, await record_move_at_once(conn, move))
                    return
                try:
                    stored = await record_moves_at_once(conn, [m for m, _ in batch])
                except (asyncpg.PostgresError, asyncpg.InterfaceError):
                    # One bad move must not fail the others: each goes again on its own.
                    for move, done in batch:
                        try:
                            _settle(done, await record_move_at_once(conn, move))
                        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                            _fail(done, exc)
                    return
                for move, done in batch:
                    _settle(done, move.game_id in stored)
        except BaseException as exc:
            for _, done in batch:
                _fail(done, exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self._writing -= 1
            self._next_batch()

    async def add_seat(
        self, room_id: int, at_status: str, seat: int, user_id: int | None, bot_level: str | None
    ) -> bool:
        """Seat a person or a bot (see `repo.add_seat_at_once`); False if the room moved on
        or the seat or person is taken."""
        async with self.pool.acquire() as conn:
            return await add_seat_at_once(conn, room_id, at_status, seat, user_id, bot_level)

    async def create_room(
        self,
        room: Room,
        seats: list[SeatInfo],
        rematch_of: int | None = None,
        note: tuple[int, Event] | None = None,
    ) -> bool:
        """A new room with its first seats (see `repo.create_room_at_once`); False if it was
        a rematch and another one was linked first."""
        async with self.pool.acquire() as conn:
            return await create_room_at_once(conn, room, seats, rematch_of, note)

    async def start(
        self, game: Game, seated: dict[int, tuple[int | None, str | None]], opening: Event
    ) -> bool:
        """A room's start (see `repo.start_at_once`); False if the room moved on."""
        async with self.pool.acquire() as conn:
            return await start_at_once(conn, game, seated, opening)

    async def record_last(self, move: MoveRecord, result: dict[str, Any]) -> bool:
        """The game's last move and the room finished (see `repo.record_last_move_at_once`),
        at once, outside the batches (a game's moves come one at a time)."""
        async with self.pool.acquire() as conn:
            return await record_last_move_at_once(conn, move, result)

    async def room_now(self, room_id: int) -> tuple[str, dict[int, SeatInfo]] | None:
        """A room's status and seats now (see `repo.room_now_at_once`)."""
        async with self.pool.acquire() as conn:
            return await room_now_at_once(conn, room_id)

    async def new_guest(self, name: str, device_id: str, agent: str, now: float) -> User:
        """A new guest on a new device (see `repo.new_guest_at_once`); its row."""
        async with self.pool.acquire() as conn:
            return await new_guest_at_once(conn, name, device_id, agent, now)

    async def close(self) -> None:
        """Close the pool's connections."""
        await self.pool.close()


def _settle(done: asyncio.Future[bool], stored: bool) -> None:
    if not done.done():
        done.set_result(stored)


def _fail(done: asyncio.Future[bool], exc: BaseException) -> None:
    if done.done():
        return
    if isinstance(exc, asyncio.CancelledError):
        done.cancel()
    else:
        done.set_exception(exc)


def make_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str) -> Config:
    """The Alembic configuration for this project, pointed at `url`."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(Path(ROOT / "migrations")))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


async def upgrade_database(url: str) -> None:
    """`alembic upgrade head`, run in a worker thread (Alembic's env runs its own loop)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")


def head_revision() -> str | None:
    """The newest migration's revision id."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


async def schema_revision(session: AsyncSession) -> str | None:
    """The revision the database's schema is at (None: never migrated)."""
    from sqlalchemy import text

    result = await session.execute(text("SELECT version_num FROM alembic_version"))
    return result.scalar_one_or_none()
