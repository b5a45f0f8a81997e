"""bench/lockstep.py (issue 37's method) against a live server, small: 2 tables in lockstep,
its printed figures, and its count of moves against the moves the server stored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bench import lockstep
from tests.conftest import start_server


async def test_lockstep_counts_what_the_server_stored(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    srv = await start_server(db_url, tmp_path)
    try:
        argv = [
            "--url",
            srv.url,
            "--tables",
            "2",
            "--idle-seconds",
            "0.5",
            "--moves",
            "45",
            "--timeout",
            "20",
        ]
        figures = await lockstep.main([*argv, "--server-pid", str(os.getpid())])
    finally:
        await srv.stop()  # every write is in the database after this
    printed = capsys.readouterr().out

    assert figures.ready == 2 and not figures.failures
    assert figures.moves == 2 * 45  # each table stops at exactly its moves
    assert "moves: 90 in " in printed and "failed tables: 0" in printed
    assert figures.setup_seconds > 0 and figures.play_seconds > 0
    assert figures.server_cpu is not None and figures.server_cpu > 0
    assert "ms/move" in printed and "set-up: " in printed and "p99 " in printed
    # An act sent at the version every client holds is never refused; one latency per act.
    assert not figures.refused
    assert len(figures.latencies) == figures.moves
    assert all(0 <= lat < 20 for lat in figures.latencies)
    assert figures.rematches == figures.games_finished

    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as conn:
            stored = (await conn.execute(text("SELECT count(*) FROM moves"))).scalar_one()
            games = (await conn.execute(text("SELECT count(*) FROM games"))).scalar_one()
    finally:
        await engine.dispose()
    assert stored == figures.moves
    assert games == 2 + figures.rematches
