"""The background reviewer: one asyncio task per server process that queues finished games and
computes their reviews in a separate process, one game at a time.

Never on the move path: the search runs in a one-process pool (its own interpreter and GIL),
the server's loop only reads the game and writes progress. Budgets: the search's engine steps
per game (`REVIEW_STEPS`, deterministic, so equal seed gives equal review) and, as a backstop,
the CPU seconds per game (`REVIEW_CPU_SECONDS`): past it the review is given up (failed). The
queue is bounded (`REVIEW_QUEUE` waiting games) and kept in the database (app/review/queue.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import socket
import uuid
from concurrent.futures import Executor
from typing import Any

from app.review import compute, queue
from app.review.models import Review
from app.store.engine import SessionFactory
from app.store.models import Game
from app.store.moves import game_moves
from engines.bots.review import GAME_STEPS

log = logging.getLogger("stolik.review")

CHUNK = 8
"""Decisions valued per call to the pool (progress is written between calls)."""

NICE = 10
"""How much lower the review process's CPU priority is than the server's: the search is
background work, and on a small machine it took as much CPU as the server's event loop (half
of what the server's process and its children got, 10 saturated tables on SQLite), whose
every move then waited."""


def lower_priority() -> None:
    """The review process's initializer: a lower CPU priority (`NICE`)."""
    with contextlib.suppress(OSError):
        os.nice(NICE)


class ReviewWorker:
    """Takes reviews off the queue and computes them; `run` until cancelled."""

    def __init__(
        self,
        sessions: SessionFactory,
        *,
        bound: int = 100,
        game_steps: int = GAME_STEPS,
        cpu_seconds: float = 240.0,
        lease: float = 60.0,
        poll: float = 5.0,
        executor: Executor | None = None,
    ) -> None:
        self.sessions = sessions
        self.bound = bound
        self.game_steps = game_steps
        self.cpu_seconds = cpu_seconds
        self.lease = lease
        self.poll = poll
        self.name = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._executor = executor
        self._own_executor = executor is None

    def executor(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=context, initializer=lower_priority
            )
        return self._executor

    def close(self) -> None:
        if self._executor is not None and self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def run(self) -> None:
        """Fill the queue with finished games, then review them, one at a time, forever."""
        while True:
            try:
                async with self.sessions() as session:
                    await queue.fill(session, self.bound)
                while await self.step():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("review worker")
            await asyncio.sleep(self.poll)

    async def step(self) -> bool:
        """Claim and compute one review; whether there was one."""
        async with self.sessions() as session:
            row = await queue.claim(session, self.name, self.lease)
        if row is None:
            return False
        await self.compute(row)
        return True

    async def _job(self, row: Review) -> compute.Job | None:
        async with self.sessions() as session:
            game = await session.get(Game, row.game_id)
            if game is None or game.status != "finished" or game.result is None:
                return None
            moves = await game_moves(session, game.id)
        return compute.Job(
            engine=game.engine,
            options=dict(game.options or {}),
            num_players=game.num_players,
            seed=game.seed,
            commitment=game.seed_commitment,
            moves=tuple((m.seat, m.action) for m in moves),
            game_steps=self.game_steps,
        )

    async def compute(self, row: Review) -> None:
        """Compute a claimed review chunk by chunk, writing progress; store it, or give up."""
        loop = asyncio.get_running_loop()
        pool = self.executor()
        cpu = 0.0
        async with self.sessions() as session:
            job = await self._job(row)
            if job is None:
                await queue.fail(session, row.id, self.name, "no finished game", cpu)
                return
        try:
            points, steps = await loop.run_in_executor(pool, compute.plan, job)
            decisions: list[dict[str, Any]] = []
            for start in range(0, len(points), CHUNK):
                async with self.sessions() as session:
                    if not await queue.progress(
                        session, row.id, self.name, start, len(points), cpu, self.lease
                    ):
                        return  # lost the lease: another process has it
                part, spent = await loop.run_in_executor(
                    pool, compute.chunk, job, points[start : start + CHUNK], steps
                )
                decisions.extend(part)
                cpu += spent
                if cpu > self.cpu_seconds:
                    async with self.sessions() as session:
                        await queue.fail(session, row.id, self.name, "over the CPU budget", cpu)
                    return
        except Exception as exc:
            log.exception("review of game %s failed", row.game_id)
            async with self.sessions() as session:
                await queue.fail(session, row.id, self.name, type(exc).__name__, cpu)
            return
        async with self.sessions() as session:
            await queue.finish(
                session,
                row.id,
                self.name,
                {"steps": steps, "decisions": decisions, "num_players": job.num_players},
                cpu,
            )
