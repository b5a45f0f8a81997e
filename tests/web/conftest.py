"""Fixtures of the web tests (the database ones are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import Server, start_server


@pytest.fixture
async def sqlite_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app on the embedded SQLite default (what the browser tests use)."""
    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path)
    try:
        yield srv
    finally:
        await srv.stop()
