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


def make_engine(url: str) -> AsyncEngine:
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
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


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
