"""Fixtures of the browser tests (the database ones are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.browser.helpers import CSP_VIOLATIONS
from tests.conftest import Server, start_server


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """A browser test fails on any Content-Security-Policy violation its pages report."""
    CSP_VIOLATIONS.clear()
    yield
    found = list(CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    assert not found, f"CSP violations: {found[:3]}"


@pytest.fixture
async def sqlite_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app on the embedded SQLite default (what the browser tests use)."""
    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path)
    try:
        yield srv
    finally:
        await srv.stop()
