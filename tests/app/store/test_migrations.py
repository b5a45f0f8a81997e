"""The Alembic migrations and the SQLAlchemy models describe the same schema (both databases):
a model change without its migration, or the reverse, fails here."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from app.store.engine import make_engine
from app.store.migrate import upgrade_database
from app.store.models import Base


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "compare_server_default": False}
    )
    return list(compare_metadata(context, Base.metadata))


async def test_models_and_migrations_agree(db_url: str) -> None:
    """After `alembic upgrade head`, autogenerate finds nothing to add, drop or alter."""
    await upgrade_database(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            diff = await conn.run_sync(_diff)
    finally:
        await engine.dispose()
    assert diff == [], f"models and migrations differ: {diff}"
