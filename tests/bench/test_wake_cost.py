"""bench/wake_cost.py, small: against a live server (this process) and a bare ASGI app it
starts itself, the printed rows are one per gap, each a CPU time the server really spent."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest

from bench import wake_cost
from tests.conftest import start_server

ROW = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+(\d+\.\d{3})$")


def _rows(lines: list[str]) -> list[tuple[float, float]]:
    """(gap, on-CPU ms per request) of each printed row."""
    return [(float(m[1]), float(m[2])) for m in map(ROW.match, lines) if m]


async def test_rows_per_gap_against_the_server(db_url: str, tmp_path: Path) -> None:
    srv = await start_server(db_url, tmp_path)
    try:
        lines = await wake_cost.measure(srv.url, os.getpid(), [0, 3], 15)
    finally:
        await srv.stop()
    rows = _rows(lines)
    assert [gap for gap, _ in rows] == [0, 3]
    # The server runs in this process: each request cost it some CPU, less than a second.
    assert all(0 < ms < 1000 for _, ms in rows)
    assert lines[-1].startswith("idle server: ")


def test_bare_app_started_and_measured(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    wake_cost.main(["--bare", "--port", str(port), "--gaps", "0,2", "--requests", "10"])
    rows = _rows(capsys.readouterr().out.splitlines())
    assert [gap for gap, _ in rows] == [0, 2]
    assert all(0 < ms < 1000 for _, ms in rows)


def test_a_server_pid_is_needed_without_bare() -> None:
    with pytest.raises(SystemExit):
        wake_cost.main(["--gaps", "0"])
