"""Running the Alembic migrations (migrations/) and reading where a database's schema is."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.config import ROOT


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
