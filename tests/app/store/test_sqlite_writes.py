"""SQLite's writers (app/store/sqlite.py, app/store/lite.py): one at a time, queued in the
process in order, moves written together, and another process's lock waited for off the
event loop."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.store.base import Conflict, MoveWrite
from app.store.engine import make_engine, make_session_factory
from app.store.lite import LiteStore
from app.store.migrate import upgrade_database
from app.store.pg import open_store
from app.store.sqlite import Checkpointer, WriteGate, WritingConnection, is_write
from tests.app.store.test_contract import a_move, started, stored_game


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[LiteStore]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'lite.db'}"
    await upgrade_database(url)
    engine = make_engine(url)
    store = await open_store(url, make_session_factory(engine), 4)
    assert isinstance(store, LiteStore)
    try:
        yield store
    finally:
        await store.close()
        await engine.dispose()


def test_reads_and_writes_are_told_apart() -> None:
    assert not is_write("SELECT 1")
    assert not is_write("  select * from games")
    assert not is_write("PRAGMA foreign_keys")
    assert not is_write("WITH x AS (SELECT 1) SELECT * FROM x")
    assert is_write("INSERT INTO moves VALUES (1)")
    assert is_write("update games set version = 2")
    assert is_write("DELETE FROM seats")
    assert is_write("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x")
    assert is_write("SAVEPOINT sa_1")


async def test_the_gate_goes_to_writers_in_the_order_they_came() -> None:
    gate = WriteGate()
    assert gate.try_acquire()
    assert not gate.try_acquire()
    order: list[int] = []

    async def writer(n: int) -> None:
        await gate.acquire()
        order.append(n)
        await asyncio.sleep(0)
        gate.release()

    tasks = [asyncio.create_task(writer(n)) for n in range(5)]
    await asyncio.sleep(0.01)
    assert order == [] and gate.waits == 5
    gate.release()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4]
    assert not gate.locked


async def test_a_released_gate_is_free_until_the_woken_writer_runs() -> None:
    """The first in line is woken, not handed the gate: a writer that comes before the loop
    runs it takes the gate at once, and the woken one goes next, still first in line."""
    gate = WriteGate()
    assert gate.try_acquire()
    order: list[str] = []

    async def waiting(name: str) -> None:
        await gate.acquire()
        order.append(name)
        gate.release()

    first = asyncio.create_task(waiting("first"))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(waiting("second"))
    await asyncio.sleep(0.01)
    gate.release()
    assert not gate.locked
    assert gate.try_acquire()  # a writer that came meanwhile: at once
    order.append("came meanwhile")
    await asyncio.sleep(0.01)
    assert order == ["came meanwhile"]  # the woken one found it taken: first in line again
    gate.release()
    await asyncio.gather(first, second)
    assert order == ["came meanwhile", "first", "second"]
    assert not gate.locked


async def test_a_writer_that_waits_too_long_fails_and_the_gate_goes_on() -> None:
    gate = WriteGate(timeout=0.05)
    await gate.acquire()
    with pytest.raises(OperationalError, match="database is locked"):
        await gate.acquire()
    gate.release()
    assert not gate.locked
    await asyncio.wait_for(gate.acquire(), 1)  # nobody is left in line
    gate.release()


async def test_moves_that_wait_for_the_gate_go_together_in_one_transaction(
    lite: LiteStore,
) -> None:
    games = [(await started(lite))[1] for _ in range(8)]
    gate = lite.batcher.gate
    for version in range(3):
        before = lite.batcher.batches
        assert gate.try_acquire()  # another writer holds the gate meanwhile
        writes = [
            asyncio.create_task(lite.record_move(MoveWrite(game.room_id, a_move(game, version))))
            for game in games
        ]
        await asyncio.sleep(0.01)
        assert lite.batcher.batches == before  # nothing written while the gate is held
        gate.release()
        await asyncio.gather(*writes)
        assert lite.batcher.batches == before + 1  # every table's move in one transaction
        with pytest.raises(Conflict):  # a competing move that comes too late: nothing written
            await lite.record_move(MoveWrite(games[0].room_id, a_move(games[0], version, 1)))
    for game in games:
        stored, moves = await stored_game(lite, game.id)
        assert stored.version == 3
        assert [m.seq for m in moves] == [1, 2, 3]
        assert [m.seat for m in moves] == [0, 0, 0]


async def test_one_game_s_moves_go_one_after_the_other(lite: LiteStore) -> None:
    _, game = await started(lite)
    gate = lite.batcher.gate
    assert gate.try_acquire()
    writes = [
        asyncio.create_task(lite.record_move(MoveWrite(game.room_id, a_move(game, v))))
        for v in range(3)
    ]
    await asyncio.sleep(0.01)
    gate.release()
    await asyncio.gather(*writes)
    stored, moves = await stored_game(lite, game.id)
    assert stored.version == 3 and [m.seq for m in moves] == [1, 2, 3]


async def test_the_last_move_finishes_the_table(lite: LiteStore) -> None:
    room, game = await started(lite)
    await lite.record_move(MoveWrite(room.id, a_move(game, 0), result={"winners": [0]}))
    stored, _ = await stored_game(lite, game.id)
    assert stored.status == "finished" and stored.result == {"winners": [0]}
    assert (await lite.table_now(room.id))[0] == "finished"


async def test_another_process_holding_the_file_is_waited_for_off_the_loop(
    lite: LiteStore, tmp_path: Path
) -> None:
    room, game = await started(lite)
    other = sqlite3.connect(tmp_path / "lite.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process takes SQLite's write lock
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    counting = asyncio.create_task(ticker())
    asyncio.get_running_loop().call_later(0.4, other.execute, "COMMIT")
    started_at = time.perf_counter()
    waited = WritingConnection.waited_in_thread
    await lite.record_move(MoveWrite(room.id, a_move(game, 0)))
    took = time.perf_counter() - started_at
    counting.cancel()
    other.close()
    assert took >= 0.35  # it did wait for the other process …
    assert ticks >= 15  # … and the event loop went on meanwhile
    assert WritingConnection.waited_in_thread > waited
    stored, moves = await stored_game(lite, game.id)
    assert stored.version == 1 and len(moves) == 1


async def test_the_log_is_copied_into_the_database_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x)")
    for i in range(50):
        conn.execute("INSERT INTO t VALUES (?)", (i,))
    checkpointer = Checkpointer(path, every=0.02)
    checkpointer.start()
    for _ in range(200):
        if checkpointer.checkpoints:
            break
        await asyncio.sleep(0.01)
    checkpointer.stop()
    busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert checkpointer.checkpoints >= 1
    assert busy == 0 and frames == copied
    conn.close()


async def test_the_gate_is_given_back_at_commit_or_rollback_not_when_the_session_ends(
    lite: LiteStore,
) -> None:
    gate = lite.batcher.gate
    for end in ("commit", "rollback"):
        async with lite.sessions() as session:
            await session.execute(text("UPDATE rooms SET status = status WHERE id = -1"))
            assert gate.locked  # a write transaction holds it
            await getattr(session, end)()
            assert not gate.locked  # the next writer may go while this session reads on
            await session.execute(text("SELECT 1"))
            assert not gate.locked


LONG_COUNT = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) "


async def test_short_reads_run_on_the_loop_s_thread_long_ones_go_to_the_connection_s(
    lite: LiteStore,
) -> None:
    engine = lite.sessions.kw["bind"]
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        raw.driver_connection._connection.create_function("tid", 0, threading.get_ident)
        sent = WritingConnection.reads_in_thread
        assert (await conn.execute(text("SELECT tid()"))).scalar() == threading.get_ident()
        assert WritingConnection.reads_in_thread == sent
        # Over its budget of CPU in the statement (one row, a long count), or in its rows:
        # interrupted, and answered again in the connection's thread, whole.
        query = LONG_COUNT.format(n=3_000_000) + "SELECT count(*), max(x), tid() FROM c"
        count, top, thread = (await conn.execute(text(query))).one()
        assert (count, top) == (3_000_000, 3_000_000) and thread != threading.get_ident()
        assert WritingConnection.reads_in_thread == sent + 1
        rows = (await conn.execute(text(LONG_COUNT.format(n=500_000) + "SELECT x FROM c"))).all()
        assert [r[0] for r in rows] == list(range(1, 500_001))
        assert WritingConnection.reads_in_thread == sent + 2


async def test_a_session_commits_and_closes_in_its_caller_s_task(lite: LiteStore) -> None:
    """`sessions.begin()` commits (gives the gate back) and closes without a turn of the event
    loop: SQLAlchemy's own did both in a task of its own, a turn later, the gate held meanwhile
    (every move waiting to be written waited that turn too)."""
    gate = lite.batcher.gate
    pool = lite.sessions.kw["bind"].sync_engine.pool
    seen: list[bool] = []
    stop = asyncio.Event()

    async def other_tasks() -> None:  # runs at every turn of the loop
        while not stop.is_set():
            seen.append(gate.locked)
            await asyncio.sleep(0)

    watcher = asyncio.create_task(other_tasks())
    await asyncio.sleep(0)
    for failing in (False, True):
        with contextlib.suppress(LookupError):
            async with lite.sessions.begin() as session:
                await session.execute(text("UPDATE rooms SET status = status WHERE id = -1"))
                assert gate.locked
                turns = len(seen)
                if failing:
                    raise LookupError
        assert not gate.locked and pool.checkedout() == 0
        assert len(seen) == turns  # no other task ran meanwhile
    async with lite.sessions() as session:
        await session.execute(text("SELECT 1"))
    assert pool.checkedout() == 0
    stop.set()
    await watcher
    assert seen and not any(seen)  # never held while another task ran
