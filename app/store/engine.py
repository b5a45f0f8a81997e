"""The async database engine and the session factory (SQLAlchemy, SQLite or PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.store.sqlite import BUSY_TIMEOUT, Checkpointer, WriteGate, connector, install

SessionFactory = async_sessionmaker[AsyncSession]


def make_engine(url: str, pool_size: int = 20, max_overflow: int = 20) -> AsyncEngine:
    """An async engine; SQLite gets WAL, foreign keys and one writer at a time queued in the
    process (app/store/sqlite.py), Postgres a modest pool."""
    if url.startswith("sqlite"):
        path = make_url(url).database
        if path and path != ":memory:":
            engine = create_async_engine(url, async_creator=connector(path))
            Checkpointer(Path(path), owner=engine.sync_engine).start()
        else:
            engine = create_async_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
        install(engine.sync_engine, WriteGate())

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's thread does it
            cur.close()

        return engine
    # No pre-ping: it cost a round trip (~11 % of a move's CPU) on every checkout. A connection
    # that died (a database restart) fails one request and SQLAlchemy then replaces the pool.
    # A pool big enough for the busy case: connections past `pool_size` are opened and closed
    # per use, and opening one costs more CPU than a move's statement.
    return create_async_engine(
        url, pool_size=pool_size, max_overflow=max_overflow, pool_recycle=1800
    )


def make_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit (on a SQLite file: committed and
    closed in the caller's task, see `LiteSessions`)."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return LiteSessions(engine, class_=LiteSession, expire_on_commit=False)
    return async_sessionmaker(engine, expire_on_commit=False)


class LiteSession(AsyncSession):
    """A session on a SQLite file (app/store/sqlite.py's connections) that closes in the
    caller's task. SQLAlchemy's `AsyncSession` closes on leaving `async with` in a task of
    its own (`asyncio.create_task` + `shield`, so that a cancelled caller cannot abandon the
    close half done): two turns of the event loop for every session, tens of milliseconds each
    on a saturated server. Here a close does not wait (the rollback of the pool's reset runs
    on the loop's thread), but for a connection past the pool's size, closed as it comes back:
    it is closed at once and only the end of its thread is waited for, which a cancelled caller
    may leave to happen on its own."""

    async def __aexit__(
        self,
        type_: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


class LiteSessions(async_sessionmaker[AsyncSession]):
    """`async_sessionmaker` whose `begin()` commits (or rolls back) and closes in the
    caller's task. SQLAlchemy's does both in a task of its own: the commit then waited a turn
    of the event loop, with the process's SQLite write gate held all that while (a turn is
    tens of milliseconds on a saturated server, and every move waiting to be written waited
    with it: bench/serve_probed.py saw set-up writes hold the gate up to 390 ms). The commit runs
    on the loop's thread and gives the gate back (app/store/sqlite.py)."""

    def begin(self) -> _Begun:  # type: ignore[override]
        return _Begun(self())


class _Begun:
    """`async with sessions.begin() as session`: a transaction that commits at the end of the
    block (rolls back on an exception), then the session closes, all in the caller's task."""

    __slots__ = ("session", "trans")

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def __aenter__(self) -> AsyncSession:
        self.trans = self.session.begin()
        await self.trans.__aenter__()
        return self.session

    async def __aexit__(
        self,
        type_: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self.trans.__aexit__(type_, value, tb)
        finally:
            await self.session.close()
