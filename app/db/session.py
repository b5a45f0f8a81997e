"""The async database engine and session factory, and running migrations."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.config import ROOT

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


def autocommit_engine(engine: AsyncEngine) -> AsyncEngine | None:
    """PostgreSQL: the same pool in AUTOCOMMIT mode, for single-statement writes (a move);
    None for SQLite (its moves keep their transaction)."""
    if engine.dialect.name != "postgresql":
        return None
    return engine.execution_options(isolation_level="AUTOCOMMIT")


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
