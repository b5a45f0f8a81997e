"""The review queue on SQLite and PostgreSQL: a finished game is queued once (bounded), a
claimed review is computed and stored once, the queue survives a restart (a new worker picks up
what an old one left, also a review whose lease ran out mid-way), and on PostgreSQL two
processes never compute the same review."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest

from app.review import queue
from app.review.models import Review
from app.review.worker import ReviewWorker
from app.store import games, history, people, tables
from app.store.engine import SessionFactory, make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import utcnow
from engines import REGISTRY
from engines.core import Rng

STEPS = 3_000
"""A whole game's review budget in tests (engine steps)."""


@pytest.fixture
async def sessions(db_url: str) -> AsyncIterator[SessionFactory]:
    await upgrade_database(db_url)
    engine = make_engine(db_url)
    try:
        yield make_session_factory(engine)
    finally:
        await engine.dispose()


async def stored_game(sessions: SessionFactory, seed: int, *, finished: bool = True) -> int:
    """A 3-player Incan Gold game played at random and stored with its moves (finished, or
    left running after a few moves); its game id."""
    engine = REGISTRY["incan_gold"]
    state = engine.setup(3, engine.parse_options(None), seed).state
    rng = Rng.from_seed(seed)
    actions: list[dict[str, Any]] = []
    while engine.outcome(state) is None and (finished or len(actions) < 6):
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        actions.append({"seat": seat, "action": engine.dump_action(action)})
        state = engine.apply(state, seat, action).state
    async with sessions() as session:
        host = await people.create_user(session, f"Host {seed}")
        room = await tables.create_room(
            session, host_id=host.id, game_id="incan_gold", options={}, num_seats=3
        )
        game = await games.create_game(
            session,
            games.new_game(
                room_id=room.id,
                engine="incan_gold",
                options={},
                num_players=3,
                seed=seed,
                seed_commitment=f"{seed:064x}",
                snapshot=engine.dump(state),
            ),
        )
        result = engine.outcome(state)
        await history.store_imported_moves(
            session,
            game.id,
            actions,
            [[] for _ in actions],
            result.to_json() if result else {},
        )
        if not finished:
            await games_running(session, game.id)
        await session.commit()
        return game.id


async def games_running(session: Any, game_id: int) -> None:
    from sqlalchemy import update

    from app.store.models import Game

    await session.execute(
        update(Game).where(Game.id == game_id).values(status="playing", result=None)
    )


def worker(sessions: SessionFactory, pool: ThreadPoolExecutor, **kw: Any) -> ReviewWorker:
    return ReviewWorker(sessions, game_steps=STEPS, executor=pool, **kw)


async def test_a_finished_game_is_reviewed_once_and_a_running_one_never(
    sessions: SessionFactory,
) -> None:
    """`fill` queues finished games only, once each, within the bound; the worker stores the
    review (progress reaches the total) and has nothing more to do afterwards."""
    running = await stored_game(sessions, 5, finished=False)
    first = await stored_game(sessions, 6)
    second = await stored_game(sessions, 7)
    async with sessions() as session:
        assert await queue.fill(session, bound=1) == 1
        assert await queue.fill(session, bound=1) == 0  # full
        queued = [g for g in (first, second) if await queue.review_of(session, g) is not None]
        assert len(queued) == 1
        other = first if queued == [second] else second
        assert await queue.enqueue(session, other, bound=1) is None  # the queue is full
        assert await queue.review_of(session, other) is None
        assert await queue.review_of(session, running) is None
    with ThreadPoolExecutor(1) as pool:
        w = worker(sessions, pool)
        assert await w.step()
        async with sessions() as session:
            assert await queue.fill(session, bound=5) == 1  # the other; never the running one
        assert await w.step()
        assert not await w.step()
    async with sessions() as session:
        for game_id in (first, second):
            row = await queue.review_of(session, game_id)
            assert row is not None and row.status == "done" and row.result is not None
            assert row.done == row.total == len(row.result["decisions"]) > 0
        assert await queue.review_of(session, running) is None


async def test_the_queue_survives_a_restart(sessions: SessionFactory, db_url: str) -> None:
    """Queued reviews are rows: a new worker (a restarted server) computes them; a review left
    running by a dead process is taken again once its lease has run out, not before."""
    waiting = await stored_game(sessions, 8)
    orphan = await stored_game(sessions, 9)
    async with sessions() as session:
        await queue.enqueue(session, waiting, bound=10)
        await queue.enqueue(session, orphan, bound=10)
    async with sessions() as session:  # a process claims `waiting`, then dies
        dead = await queue.claim(session, "dead", lease=30)
        assert dead is not None and dead.game_id == waiting
    # The restart: a new engine and session factory on the same database.
    engine = make_engine(db_url)
    fresh = make_session_factory(engine)
    try:
        with ThreadPoolExecutor(1) as pool:
            w = worker(fresh, pool)
            assert await w.step()  # the orphan, still waiting
            assert not await w.step()  # `waiting` is leased to the dead process
            async with fresh() as session:
                row = await queue.review_of(session, waiting)
                assert row is not None and row.status == "running"
                row.lease_until = utcnow() - timedelta(seconds=1)
                await session.commit()
            assert await w.step()
        async with fresh() as session:
            for game_id in (waiting, orphan):
                row = await queue.review_of(session, game_id)
                assert row is not None and row.status == "done"
                assert row.worker == w.name
    finally:
        await engine.dispose()


async def test_equal_game_equal_review(sessions: SessionFactory) -> None:
    """Two stores of the same game (same seed, same moves) get the same review."""
    a = await stored_game(sessions, 12)
    b = await stored_game(sessions, 12)
    with ThreadPoolExecutor(1) as pool:
        w = worker(sessions, pool)
        async with sessions() as session:
            await queue.fill(session, bound=10)
        while await w.step():
            pass
    async with sessions() as session:
        ra, rb = await queue.review_of(session, a), await queue.review_of(session, b)
        assert ra is not None and rb is not None and ra.result is not None
        assert ra.result == rb.result


async def test_one_process_per_review_on_postgres(pg_url: str) -> None:
    """Many claimers at once on PostgreSQL (FOR UPDATE SKIP LOCKED): each waiting review goes
    to exactly one of them."""
    await upgrade_database(pg_url)
    engine = make_engine(pg_url)
    sessions = make_session_factory(engine)
    try:
        ids = [await stored_game(sessions, 30 + i) for i in range(4)]
        async with sessions() as session:
            for game_id in ids:
                await queue.enqueue(session, game_id, bound=10)

        async def claimer(name: str) -> list[int]:
            got: list[int] = []
            while True:
                async with sessions() as session:
                    row = await queue.claim(session, name, lease=60)
                if row is None:
                    return got
                got.append(row.game_id)

        results = await asyncio.gather(*(claimer(f"p{i}") for i in range(6)))
        claimed = [g for got in results for g in got]
        assert sorted(claimed) == sorted(ids)
        async with sessions() as session:
            rows = [await queue.review_of(session, g) for g in ids]
            assert all(isinstance(r, Review) and r.status == "running" for r in rows)
            # A worker that lost its lease writes nothing.
            row = rows[0]
            assert row is not None
            assert not await queue.progress(session, row.id, "someone else", 1, 2, 0.0, 60)
    finally:
        await engine.dispose()


def test_the_review_process_runs_at_a_lower_priority_than_the_server() -> None:
    """The search is background work: its process yields the CPU to the server's loop."""
    from app.review.worker import NICE

    reviewer = ReviewWorker(None)  # type: ignore[arg-type]
    try:
        niceness = reviewer.executor().submit(os.nice, 0).result(timeout=60)
    finally:
        reviewer.close()
    assert niceness == min(19, os.nice(0) + NICE)
