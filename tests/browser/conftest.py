"""Fixtures of the browser tests (the servers and databases are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.helpers import CSP_VIOLATIONS


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """A browser test fails on any Content-Security-Policy violation its pages report."""
    CSP_VIOLATIONS.clear()
    yield
    found = list(CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    assert not found, f"CSP violations: {found[:3]}"
