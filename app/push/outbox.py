"""The push outbox: rows written in the transaction of the change that causes them (one per
subscription that chose the event), claimed by a sender with a lease, and settled after the
push service answered.

PostgreSQL: a claim takes rows `FOR UPDATE SKIP LOCKED`, so with several processes each row
goes to exactly one sender; a row whose lease expired (its sender died mid-send) is claimed
again. SQLite: one process, the same statements without the row locks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import asyncpg
import orjson
from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.push.notices import Notice

_INSERT_AT_ONCE = """
INSERT INTO push_outbox (subscription_id, kind, room_id, version, params, due, attempts, created)
SELECT id, $1, $2, $3, $4::json, $5, 0, $5 FROM push_subscriptions
WHERE user_id = $6 AND enabled AND events LIKE $7
"""


async def enqueue_at_once(conn: asyncpg.Connection, notices: Iterable[Notice]) -> None:
    """`enqueue` on an asyncpg connection (PostgreSQL), in the transaction the caller holds
    for the move (no SQLAlchemy in the move's path)."""
    await conn.executemany(
        _INSERT_AT_ONCE,
        [
            (
                n.kind,
                n.room_id,
                n.version,
                orjson.dumps(n.params).decode(),
                n.due,
                n.user_id,
                f"%,{n.kind},%",
            )
            for n in notices
        ],
    )


_ENQUEUE = text(
    """
INSERT INTO push_outbox (subscription_id, kind, room_id, version, params, due, attempts, created)
SELECT id, :kind, :room_id, :version, :params, :due, 0, :now FROM push_subscriptions
WHERE user_id = :user_id AND enabled = :on AND events LIKE :wanted
"""
)


async def enqueue(
    session: AsyncSession, notices: Iterable[Notice], now: float | None = None
) -> None:
    """Write the outbox rows of `notices` in the caller's transaction: one per subscription
    of the person that is on and chose the notice's kind (none for a person without one)."""
    rows = [
        {
            "kind": n.kind,
            "room_id": n.room_id,
            "version": n.version,
            "params": orjson.dumps(n.params).decode(),
            "due": n.due,
            "now": n.due if now is None else now,
            "user_id": n.user_id,
            "on": True,
            "wanted": f"%,{n.kind},%",
        }
        for n in notices
    ]
    if rows:
        await session.execute(_ENQUEUE, rows)


@dataclass(frozen=True)
class Claimed:
    """An outbox row a sender holds, with what sending it needs."""

    id: int
    kind: str
    version: int
    params: dict[str, Any]
    attempts: int
    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str
    user_id: int
    language: str | None
    gender: str | None
    room_id: int
    slug: str
    game: str
    private: bool
    invite_code: str
    game_version: int | None
    game_status: str | None
    clock: str
    """The table's turn clock (a correspondence clock: every turn is pushed, open tab or not)."""


_CLAIM = """
UPDATE push_outbox SET lease = :until, attempts = attempts + 1
WHERE id IN (
    SELECT id FROM push_outbox
    WHERE due <= :now AND (lease IS NULL OR lease < :now)
    ORDER BY id LIMIT :limit{lock}
)
RETURNING id
"""

_DONE = text("DELETE FROM push_outbox WHERE id IN :ids").bindparams(
    bindparam("ids", expanding=True)
)

_ANY_DUE = text(
    "SELECT 1 FROM push_outbox WHERE due <= :now AND (lease IS NULL OR lease < :now) LIMIT 1"
)

_DETAILS = text(
    """
SELECT o.id, o.kind, o.version, o.params, o.attempts, s.id, s.endpoint, s.p256dh, s.auth,
       u.id, u.language, u.gender, r.id, r.slug, r.game_id, r.private, r.invite_code,
       g.version, g.status, r.clock
FROM push_outbox o
JOIN push_subscriptions s ON s.id = o.subscription_id
JOIN users u ON u.id = s.user_id
JOIN rooms r ON r.id = o.room_id
LEFT JOIN games g ON g.room_id = r.id
WHERE o.id IN :ids
ORDER BY o.id
"""
).bindparams(bindparam("ids", expanding=True))


async def claim(session: AsyncSession, now: float, lease: float, limit: int) -> list[Claimed]:
    """Claim up to `limit` due rows for `lease` seconds (committed at once, so another sender
    skips them until the lease runs out) and read what sending them needs."""
    due = await session.execute(_ANY_DUE, {"now": now})
    await session.commit()
    if due.first() is None:  # the usual answer: a read, no write transaction
        return []
    postgres = session.get_bind().dialect.name == "postgresql"
    claim_sql = text(_CLAIM.format(lock=" FOR UPDATE SKIP LOCKED" if postgres else ""))
    async with session.begin():
        ids = [
            r[0]
            for r in await session.execute(
                claim_sql, {"until": now + lease, "now": now, "limit": limit}
            )
        ]
    if not ids:
        return []
    async with session.begin():
        rows = (await session.execute(_DETAILS, {"ids": ids})).all()
    out: list[Claimed] = []
    for r in rows:
        params = r[3]
        if isinstance(params, str):
            params = orjson.loads(params)
        out.append(Claimed(r[0], r[1], r[2], params or {}, *r[4:]))
    return out


async def done(session: AsyncSession, *row_ids: int) -> None:
    """The pushes were delivered (or are no longer worth sending): their rows go."""
    async with session.begin():
        await session.execute(_DONE, {"ids": list(row_ids)})


async def later(session: AsyncSession, row_id: int, due: float) -> None:
    """Try the row again at `due` (its lease let go)."""
    async with session.begin():
        await session.execute(
            text("UPDATE push_outbox SET due = :due, lease = NULL WHERE id = :id"),
            {"id": row_id, "due": due},
        )


async def drop_subscription(session: AsyncSession, subscription_id: int) -> None:
    """The push service says the subscription is gone (404/410): it goes, and its rows."""
    async with session.begin():
        await session.execute(
            text("DELETE FROM push_outbox WHERE subscription_id = :id"), {"id": subscription_id}
        )
        await session.execute(
            text("DELETE FROM push_subscriptions WHERE id = :id"), {"id": subscription_id}
        )
