"""Fixtures of the browser tests (the servers and databases are in tests/conftest.py): a
watched headless Chromium (`browser`), the same bound to the test's server (`web`), and the
check that no page broke the Content-Security-Policy."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import pytest

from tests.browser import helpers as h
from tests.conftest import Server

if TYPE_CHECKING:
    from playwright.async_api import Browser


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """A browser test fails on any Content-Security-Policy violation its pages report."""
    h.CSP_VIOLATIONS.clear()
    yield
    found = list(h.CSP_VIOLATIONS)
    h.CSP_VIOLATIONS.clear()
    assert not found, f"CSP violations: {found[:3]}"


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless (the test is skipped without it, and fails in CI), closed
    after the test."""
    h.need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        launched = await h.launch(pw)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
def web(sqlite_server: Server, browser: Browser) -> h.Web:
    """The browser, opening its pages on the test's server (SQLite; the browser closes first)."""
    return h.Web(browser, sqlite_server.url)
