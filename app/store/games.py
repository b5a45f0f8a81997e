"""Games: the record made at the start (and the PostgreSQL start in one transaction), the
turn clocks and the heartbeat that lets deadlines skip a server's downtime."""

from __future__ import annotations

from typing import Any

import asyncpg
import orjson
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.push.notices import Notice
from app.store.models import (
    Game,
    Heartbeat,
    Room,
    utcnow,
)
from app.store.rows import as_json, insert_row
from engines.core import Event


def new_game(**fields: Any) -> Game:
    """A game record at version 0, not stored yet (`create_game`, `start_at_once`): `fields`
    are the `Game` columns the caller knows (room_id, engine, options, num_players, seed,
    seed_commitment, snapshot; clock, opening, seed_secret, seed_salt, rules_version,
    chain_head)."""
    now = utcnow()
    unknown = {
        "clock": None,
        "opening": None,
        "seed_secret": None,
        "seed_salt": None,
        "chain_head": None,
    }
    return Game(
        version=0,
        status="playing",
        result=None,
        created_at=now,
        updated_at=now,
        **{**unknown, "rules_version": "1", **fields},
    )


async def create_game(session: AsyncSession, game: Game) -> Game:
    """Store a game record made by `new_game` (its key and defaults read back into it)."""
    return await insert_row(session, game)


async def game_for_table(session: AsyncSession, room_id: int) -> Game | None:
    """The room's game, if it has started."""
    result = await session.execute(select(Game).where(Game.room_id == room_id))
    return result.scalar_one_or_none()


async def tables_now(
    session: AsyncSession, room_ids: list[int]
) -> dict[int, tuple[str, int | None]]:
    """Each room's status and its game's version (None before the start), in one query."""
    if not room_ids:
        return {}
    rows = await session.execute(
        select(Room.id, Room.status, Game.version)
        .outerjoin(Game, Game.room_id == Room.id)
        .where(Room.id.in_(room_ids))
    )
    return {room_id: (status, version) for room_id, status, version in rows}


async def set_game_clock(
    session: AsyncSession, game_id: int, version: int, clock: dict[str, Any] | None
) -> bool:
    """Store the clock of a game still at `version` (False if it has moved on)."""
    updated = await session.execute(
        update(Game).where(Game.id == game_id, Game.version == version).values(clock=clock)
    )
    return bool(updated.rowcount == 1)  # type: ignore[attr-defined]


async def running_clock_games(session: AsyncSession) -> list[Game]:
    """Every unfinished game that has a clock."""
    result = await session.execute(
        select(Game).where(Game.status == "playing", Game.clock.is_not(None))
    )
    return list(result.scalars().all())


async def last_heartbeat(session: AsyncSession) -> float | None:
    """When a server process last said it was alive."""
    result = await session.execute(select(func.max(Heartbeat.at)))
    value = result.scalar_one_or_none()
    return None if value is None else float(value)


async def beat(session: AsyncSession, now: float) -> None:
    """Record that a server process is alive now (one row kept). An upsert: two processes
    starting at once both find no row, and a plain INSERT made the second one fail."""
    upsert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    await session.execute(
        upsert(Heartbeat)
        .values(id=1, at=now)
        .on_conflict_do_update(index_elements=[Heartbeat.id], set_={"at": now})
    )


_START_CLAIM = """
UPDATE rooms SET status = 'playing', num_seats = $2
WHERE rooms.id = $1 AND rooms.status = 'open'
RETURNING rooms.id
"""


_START_GAME = """
WITH expected AS (
    SELECT * FROM unnest($17::integer[], $18::integer[], $19::text[]) AS e(seat, user_id, bot_level)
),
moved AS (
    SELECT 1 FROM (SELECT seat, user_id, bot_level FROM seats WHERE room_id = $1) AS s
    FULL JOIN expected ON expected.seat = s.seat
    WHERE s.seat IS NULL OR expected.seat IS NULL
       OR s.user_id IS DISTINCT FROM expected.user_id
       OR s.bot_level IS DISTINCT FROM expected.bot_level
),
game AS (
    INSERT INTO games (room_id, engine, options, num_players, seed, seed_commitment,
                       seed_secret, seed_salt, rules_version, version, snapshot, status, result,
                       opening, clock, created_at, updated_at, chain_head)
    SELECT $1, $2, $3::json, $4, $5, $6, $7, $8, $9, 0, $10::json, 'playing', NULL, $11::json,
           $12::json, $13, $13, $16
    WHERE NOT EXISTS (SELECT 1 FROM moved)
    RETURNING games.id
),
noted AS (
    INSERT INTO room_events (room_id, version, text, params, created_at)
    SELECT $1, 0, $14, $15::json, $13 FROM game
),
pushed AS (
    INSERT INTO push_outbox (subscription_id, kind, room_id, version, params, due, attempts,
                             created)
    SELECT p.id, n.kind, $1, 0, n.params::json, n.due, 0, n.due
    FROM unnest($20::text[], $21::integer[], $22::text[], $23::float8[])
         AS n(kind, user_id, params, due)
    JOIN push_subscriptions p
      ON p.user_id = n.user_id AND p.enabled AND p.events LIKE '%,' || n.kind || ',%'
    WHERE EXISTS (SELECT 1 FROM game)
    RETURNING 1
)
SELECT id, (SELECT count(*) FROM pushed) FROM game
"""
"""The game, its opening line and its push notices' outbox rows (`outbox.enqueue_at_once`'s
rows), only if the room's seats are exactly the expected ones ($17–$19: seat, user id, bot
level), with the number of outbox rows written; no row otherwise."""


class _SeatsMoved(Exception):
    """The seats in the database are not the ones the start was decided on (rolls back)."""


async def start_at_once(
    conn: asyncpg.Connection,
    game: Game,
    seated: dict[int, tuple[int | None, str | None]],
    opening: Event,
    pushes: tuple[Notice, ...] = (),
) -> int | None:
    """Start the room of `game` (made, not stored; its id is set) in one transaction of two
    statements: claim the open room as playing with `game.num_players` seats; then, if its
    seats are still `seated` (seat: user id, bot level; numbered 0..n-1), store the game at
    version 0, its `opening` log line and the outbox rows of `pushes` (only those of persons
    subscribed to their kind). The number of outbox rows written; None (nothing written) if
    the room is no longer open or someone sat down or left meanwhile.

    The seats are read after the claim, in a statement of their own: it sees every seat
    committed while the claim waited for the room's row (one statement's snapshot would
    not)."""
    line = opening.to_json()
    order = sorted(seated)
    try:
        async with conn.transaction():
            if await conn.fetchval(_START_CLAIM, game.room_id, game.num_players) is None:
                return None
            row = await conn.fetchrow(
                _START_GAME,
                game.room_id,
                game.engine,
                as_json(game.options),
                game.num_players,
                game.seed,
                game.seed_commitment,
                game.seed_secret,
                game.seed_salt,
                game.rules_version,
                as_json(game.snapshot),
                as_json(game.opening),
                as_json(game.clock),
                game.created_at,
                line["text"],
                as_json(line.get("params")),
                game.chain_head,
                order,
                [seated[s][0] for s in order],
                [seated[s][1] for s in order],
                [n.kind for n in pushes],
                [n.user_id for n in pushes],
                [orjson.dumps(n.params).decode() for n in pushes],
                [n.due for n in pushes],
            )
            if row is None:
                raise _SeatsMoved  # rolls the claim back
            game.id = row[0]
    except _SeatsMoved:
        return None
    return int(row[1])
