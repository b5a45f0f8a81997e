"""The async database engine and the session factory (SQLAlchemy, SQLite or PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

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
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
