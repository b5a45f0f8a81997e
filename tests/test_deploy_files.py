"""The deployment files are valid: docker-compose.yml loads and names what the app needs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_compose_file_runs_postgres_and_the_app_with_migrations() -> None:
    """A YAML load (Docker has no engine here); `docker compose config` too when it can."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert services["db"]["image"].startswith("postgres:")
    app = services["app"]
    assert app["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "alembic upgrade head" in (ROOT / "Dockerfile").read_text()
    docker = shutil.which("docker")
    has_compose = (
        docker
        and subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30, check=False
        ).returncode
        == 0
    )
    if docker and has_compose:
        result = subprocess.run(
            [docker, "compose", "config", "-q"],
            cwd=ROOT,
            env={"STOLIK_SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert result.returncode == 0, result.stderr


def test_migrations_upgrade_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    """`alembic upgrade head` builds the schema on the embedded default."""
    import asyncio

    import sqlalchemy as sa

    from app.db.session import upgrade_database

    db = tmp_path / "fresh.db"
    asyncio.run(upgrade_database(f"sqlite+aiosqlite:///{db}"))
    tables = set(sa.inspect(sa.create_engine(f"sqlite:///{db}")).get_table_names())
    assert {"users", "rooms", "seats", "games", "moves", "alembic_version"} <= tables
