"""The review queue in the database (SQLite and PostgreSQL alike, through SQLAlchemy).

A review row is the queue entry and, once done, the stored result: a game is reviewed once.
The queue is bounded (`enqueue` and `fill` add nothing past `bound` waiting rows) and lives in
the database, so it survives a restart. A worker `claim`s the oldest waiting row with a lease:
on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED`, so two processes never take the same row; a
running row whose lease ran out (its process died) is taken again. SQLite is served by one
process (its row lock is the whole database). Every write of a worker names it: a worker
that lost its lease writes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.review.models import Review
from app.store.models import Game, utcnow


async def review_of(session: AsyncSession, game_id: int) -> Review | None:
    """The game's review row (queued, running, done or failed), if any."""
    result = await session.execute(select(Review).where(Review.game_id == game_id))
    return result.scalar_one_or_none()


async def waiting(session: AsyncSession) -> int:
    """Rows waiting for a worker."""
    result = await session.execute(
        select(func.count()).select_from(Review).where(Review.status == "queued")
    )
    return int(result.scalar_one())


async def enqueue(session: AsyncSession, game_id: int, bound: int) -> Review | None:
    """The game's review row, added to the queue if it has none; None if the queue is full.
    The caller makes sure the game has ended; commits."""
    found = await review_of(session, game_id)
    if found is not None:
        return found
    if await waiting(session) >= bound:
        return None
    now = utcnow()
    row = Review(game_id=game_id, status="queued", created_at=now, updated_at=now)
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:  # another process queued it first
        return await review_of(session, game_id)
    await session.commit()
    return row


async def fill(session: AsyncSession, bound: int) -> int:
    """Queue the most recently finished games that have no review, up to `bound` waiting rows;
    how many were added."""
    room = bound - await waiting(session)
    if room <= 0:
        return 0
    reviewed = select(Review.game_id)
    result = await session.execute(
        select(Game.id)
        .where(Game.status == "finished", Game.id.not_in(reviewed))
        .order_by(Game.updated_at.desc())
        .limit(room)
    )
    added = 0
    for game_id in result.scalars().all():
        if await enqueue(session, game_id, bound) is not None:
            added += 1
    return added


async def claim(
    session: AsyncSession, worker: str, lease: float, now: datetime | None = None
) -> Review | None:
    """Take the oldest waiting row (or a running one whose lease ran out) for `worker` until
    `lease` seconds from now; None if there is none. Commits."""
    now = now or utcnow()
    result = await session.execute(
        select(Review)
        .where(
            or_(
                Review.status == "queued",
                (Review.status == "running") & (Review.lease_until < now),
            )
        )
        .order_by(Review.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    row = result.scalar_one_or_none()
    if row is None:
        await session.commit()
        return None
    row.status = "running"
    row.worker = worker
    row.lease_until = now + timedelta(seconds=lease)
    row.updated_at = now
    await session.commit()
    return row


async def _write(session: AsyncSession, review_id: int, worker: str, **values: Any) -> bool:
    """Update the row if `worker` still holds it; whether it did. Commits."""
    result = await session.execute(
        update(Review)
        .where(Review.id == review_id, Review.worker == worker, Review.status == "running")
        .values(updated_at=utcnow(), **values)
    )
    await session.commit()
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def progress(
    session: AsyncSession,
    review_id: int,
    worker: str,
    done: int,
    total: int,
    cpu: float,
    lease: float,
) -> bool:
    """Record progress and extend the lease; False if the worker lost the row."""
    until = utcnow() + timedelta(seconds=lease)
    return await _write(
        session, review_id, worker, done=done, total=total, cpu_seconds=cpu, lease_until=until
    )


async def finish(
    session: AsyncSession, review_id: int, worker: str, result: dict[str, Any], cpu: float
) -> bool:
    """Store the result: the review is done, never computed again."""
    return await _write(
        session,
        review_id,
        worker,
        status="done",
        result=result,
        cpu_seconds=cpu,
        lease_until=None,
        done=len(result.get("decisions", [])),
    )


async def fail(session: AsyncSession, review_id: int, worker: str, why: str, cpu: float) -> bool:
    """Give up on a review (over its CPU budget, or the game cannot be replayed)."""
    return await _write(
        session,
        review_id,
        worker,
        status="failed",
        result={"error": why},
        cpu_seconds=cpu,
        lease_until=None,
    )
