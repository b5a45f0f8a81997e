"""Moves: appending one with the game's new snapshot (optimistic: only from the version it
was played at), its PostgreSQL one-statement forms, and a game's moves in order.

The group commit that batches moves on PostgreSQL is `app/store/writer.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import (
    Game,
    Move,
    utcnow,
)
from app.store.rows import as_json, insert_row

_GAMES: Table = Game.__table__  # type: ignore[assignment]


_RECORD_MOVE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("from_version"))
    .values(
        version=bindparam("version"),
        snapshot=bindparam("snapshot", type_=_GAMES.c.snapshot.type),
        status=bindparam("status"),
        result=bindparam("result", type_=_GAMES.c.result.type),
        clock=bindparam("clock", type_=_GAMES.c.clock.type),
        updated_at=bindparam("updated_at", type_=_GAMES.c.updated_at.type),
        chain_head=bindparam("chain_head"),
    )
)


@dataclass(frozen=True)
class MoveRecord:
    """One applied action as stored: the move row and the game's new snapshot."""

    game_id: int
    from_version: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    snapshot: dict[str, Any]
    clock: dict[str, Any] | None = None
    chain: str | None = None
    """The head of the move chain after this move (None: a game from before the chain)."""

    def params(self, result: dict[str, Any] | None, now: datetime) -> dict[str, Any]:
        """The bound parameters of `_RECORD_MOVE`."""
        return {
            "game_id": self.game_id,
            "from_version": self.from_version,
            "version": self.from_version + 1,
            "seat": self.seat,
            "action": self.action,
            "events": self.events,
            "snapshot": self.snapshot,
            "status": "finished" if result is not None else "playing",
            "result": result,
            "clock": self.clock,
            "updated_at": now,
            "chain_head": self.chain,
        }


async def record_move(
    session: AsyncSession, move: MoveRecord, result: dict[str, Any] | None
) -> bool:
    """Append the move and store the new snapshot, only if the game is still at
    `move.from_version`.

    Returns False when another writer got there first (optimistic concurrency).
    """
    now: datetime = utcnow()
    # One cached statement with bound parameters: building a statement around the snapshot
    # as a literal made SQLAlchemy walk it on every move (~10 % of a move's CPU).
    updated = await session.execute(_RECORD_MOVE, move.params(result, now))
    if updated.rowcount != 1:  # type: ignore[attr-defined]
        return False
    await insert_row(
        session,
        Move(
            game_id=move.game_id,
            seq=move.from_version + 1,
            seat=move.seat,
            action=move.action,
            events=move.events,
            created_at=now,
        ),
    )
    return True


async def game_moves(session: AsyncSession, game_id: int) -> list[Move]:
    """Every move of a game, in order."""
    result = await session.execute(select(Move).where(Move.game_id == game_id).order_by(Move.seq))
    return list(result.scalars().all())


_RECORD_MOVE_AT_ONCE = """
WITH moved AS (
    UPDATE games
    SET version = $1, snapshot = $6::json, status = 'playing', result = NULL,
        clock = $7::json, updated_at = $5, chain_head = $10
    WHERE games.id = $8 AND games.version = $9
    RETURNING games.id
)
INSERT INTO moves (game_id, seq, seat, action, events, created_at)
SELECT moved.id, $1, $2, $3::json, $4::json, $5 FROM moved
RETURNING moves.id
"""
"""PostgreSQL: the conditional snapshot UPDATE and the move's INSERT as ONE statement (a
data-modifying CTE: no row is inserted unless the version matched), atomic on its own. The
same columns as `record_move` writes; asyncpg prepares it once per connection."""


def _move_values(move: MoveRecord) -> tuple[Any, ...]:
    """Parameters $1–$10 of the one-statement move writes: the new version, seat, action,
    events, time, snapshot, clock, game, the version it was played from and the chain's new
    head."""
    return (
        move.from_version + 1,
        move.seat,
        as_json(move.action),
        as_json(move.events),
        utcnow(),
        as_json(move.snapshot),
        as_json(move.clock),
        move.game_id,
        move.from_version,
        move.chain,
    )


async def record_move_at_once(conn: asyncpg.Connection, move: MoveRecord) -> bool:
    """`record_move` for a move that changes nothing else (no result, no table note), as one
    statement on an asyncpg connection outside any transaction (PostgreSQL): no BEGIN and
    COMMIT round trips, and none of SQLAlchemy's per-statement work (a move's hottest path).
    Returns False when another writer got there first."""
    row = await conn.fetchrow(_RECORD_MOVE_AT_ONCE, *_move_values(move))
    return row is not None


_RECORD_LAST_MOVE_AT_ONCE = """
WITH moved AS (
    UPDATE games
    SET version = $1, snapshot = $6::json, status = 'finished', result = $11::json,
        clock = $7::json, updated_at = $5, chain_head = $10
    WHERE games.id = $8 AND games.version = $9
    RETURNING games.id, games.room_id
), finished AS (
    UPDATE rooms SET status = 'finished' FROM moved WHERE rooms.id = moved.room_id
    RETURNING rooms.id
)
INSERT INTO moves (game_id, seq, seat, action, events, created_at)
SELECT moved.id, $1, $2, $3::json, $4::json, $5 FROM moved, finished
RETURNING moves.id
"""


async def record_last_move_at_once(
    conn: asyncpg.Connection, move: MoveRecord, result: dict[str, Any]
) -> bool:
    """`record_move` for the move that ends the game (its `result`; no table note) and the
    room marked finished, as one statement (PostgreSQL): what the ORM did in a transaction
    of two statements. False, and nothing written, when another writer got there first."""
    row = await conn.fetchrow(_RECORD_LAST_MOVE_AT_ONCE, *_move_values(move), as_json(result))
    return row is not None


_RECORD_MOVES_AT_ONCE = """
WITH given AS (
    SELECT * FROM unnest(
        $1::integer[], $2::integer[], $3::integer[], $4::text[], $5::text[], $6::text[],
        $7::text[], $9::text[]
    ) AS t(game_id, from_version, seat, action, events, snapshot, clock, chain_head)
),
moved AS (
    UPDATE games
    SET version = given.from_version + 1, snapshot = given.snapshot::json, status = 'playing',
        result = NULL, clock = given.clock::json, updated_at = $8,
        chain_head = given.chain_head
    FROM given
    WHERE games.id = given.game_id AND games.version = given.from_version
    RETURNING games.id
)
INSERT INTO moves (game_id, seq, seat, action, events, created_at)
SELECT given.game_id, given.from_version + 1, given.seat, given.action::json,
       given.events::json, $8
FROM given JOIN moved ON moved.id = given.game_id
RETURNING moves.game_id
"""
"""`_RECORD_MOVE_AT_ONCE` for several games' moves in one statement (one transaction, one
commit): each game's row is updated and its move inserted only if that game is still at
the move's `from_version`; the others are not held back by one that lost its race."""


async def record_moves_at_once(conn: asyncpg.Connection, moves: list[MoveRecord]) -> set[int]:
    """Store plain moves of distinct games at once (see `record_move_at_once`); returns the
    ids of the games whose move was stored (the others had moved on)."""
    rows = await conn.fetch(
        _RECORD_MOVES_AT_ONCE,
        [m.game_id for m in moves],
        [m.from_version for m in moves],
        [m.seat for m in moves],
        [as_json(m.action) for m in moves],
        [as_json(m.events) for m in moves],
        [as_json(m.snapshot) for m in moves],
        [as_json(m.clock) for m in moves],
        utcnow(),
        [m.chain for m in moves],
    )
    return {row[0] for row in rows}
