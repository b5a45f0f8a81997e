"""Ratings in the database: the game-end write (every seat once, in the transaction that
stores the game's last move) and the reads the pages need.

Exactly once: the write runs in the same transaction as the conditional update of the game's
last move (`UPDATE games … WHERE version = :v`), so only the writer that ended the game rates
it, and the unique (game, seat) pair of `rating_changes` refuses a second write outright (the
whole transaction rolls back). Two games ending at once for the same person: each first makes
sure the person has a row (`INSERT … ON CONFLICT DO NOTHING`), then locks the rows it changes
in user order (`SELECT … FOR UPDATE` on PostgreSQL; SQLite has one writer at a time), so one
waits for the other and reads what it wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
from sqlalchemy import ColumnElement, bindparam, exists, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.ratings import bots
from app.ratings.model import (
    LEADERBOARD_GAMES,
    MODEL,
    PROVISIONAL_GAMES,
    RatedGame,
    Rating,
    rate,
    side_places,
)
from app.store.models import BotAccount, RatingChange, RatingRow, User, utcnow


@dataclass(frozen=True)
class Standing:
    """A person's rating in one game and how many rated games it rests on."""

    game: str
    rating: Rating
    games: int

    @property
    def provisional(self) -> bool:
        """Too few games to trust the number yet."""
        return self.games < PROVISIONAL_GAMES


async def record_result(session: AsyncSession, game: RatedGame) -> None:
    """Rate a finished game in the caller's transaction (the one that stores its last move)."""
    people = sorted(set(game.people))
    if not people:
        return
    now = utcnow()
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await session.execute(
        insert(RatingRow)
        .values(
            [
                {
                    "user_id": u,
                    "game": game.engine,
                    "mu": MODEL.mu,
                    "sigma": MODEL.sigma,
                    "games": 0,
                    "updated_at": now,
                }
                for u in people
            ]
        )
        .on_conflict_do_nothing()
    )
    rows = (
        await session.execute(
            select(RatingRow.user_id, RatingRow.mu, RatingRow.sigma)
            .where(RatingRow.game == game.engine, RatingRow.user_id.in_(people))
            .order_by(RatingRow.user_id)
            .with_for_update()
        )
    ).all()
    before = {user: Rating(mu, sigma) for user, mu, sigma in rows}
    after = rate(game, before, bots.ratings(game.engine))
    places = side_places(game)
    await session.execute(
        update(RatingRow.__table__)  # type: ignore[arg-type]
        .where(
            RatingRow.__table__.c.user_id == bindparam("uid"),
            RatingRow.__table__.c.game == game.engine,
        )
        .values(
            mu=bindparam("new_mu"),
            sigma=bindparam("new_sigma"),
            games=RatingRow.__table__.c.games + 1,
            updated_at=now,
        ),
        [{"uid": u, "new_mu": after[u].mu, "new_sigma": after[u].sigma} for u in people],
    )
    await session.execute(
        insert(RatingChange),
        [
            {
                "game_id": game.game_id,
                "seat": s.seat,
                "user_id": s.user_id,
                "game": game.engine,
                "place": places[s.side],
                "mu_before": before[s.user_id].mu,
                "sigma_before": before[s.user_id].sigma,
                "mu": after[s.user_id].mu,
                "sigma": after[s.user_id].sigma,
                "created_at": now,
            }
            for s in game.seats
            if s.user_id is not None
        ],
    )


async def standings(session: AsyncSession, user_id: int) -> list[Standing]:
    """A person's ratings, the game with most rated games first."""
    rows = (
        await session.execute(
            select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .where(RatingRow.user_id == user_id, RatingRow.games > 0)
            .order_by(RatingRow.games.desc(), RatingRow.game)
        )
    ).all()
    return [Standing(g, Rating(mu, sigma), n) for g, mu, sigma, n in rows]


async def ratings_of(session: AsyncSession, game: str, user_ids: list[int]) -> dict[int, Standing]:
    """The ratings in `game` of the persons `user_ids` that have one (for names at a table)."""
    if not user_ids:
        return {}
    rows = (
        await session.execute(
            select(RatingRow.user_id, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                RatingRow.game == game, RatingRow.user_id.in_(user_ids), RatingRow.games > 0
            )
        )
    ).all()
    return {u: Standing(game, Rating(mu, sigma), n) for u, mu, sigma, n in rows}


_RATINGS_OF_AT_ONCE = """
SELECT user_id, mu, sigma, games FROM ratings
WHERE game = $1 AND user_id = ANY($2::integer[]) AND games > 0
"""


async def ratings_of_at_once(
    conn: asyncpg.Connection, game: str, user_ids: list[int]
) -> dict[int, Standing]:
    """`ratings_of` on an asyncpg connection (PostgreSQL): one autocommit statement."""
    if not user_ids:
        return {}
    rows = await conn.fetch(_RATINGS_OF_AT_ONCE, game, user_ids)
    return {u: Standing(game, Rating(mu, sigma), n) for u, mu, sigma, n in rows}


async def history(
    session: AsyncSession, user_id: int, game: str, limit: int = 500
) -> list[tuple[datetime, Rating]]:
    """A person's rating in `game` over their last `limit` rated games, oldest first: the
    rating before the first of them, then after each."""
    newest = (
        await session.execute(
            select(
                RatingChange.created_at,
                RatingChange.mu_before,
                RatingChange.sigma_before,
                RatingChange.mu,
                RatingChange.sigma,
            )
            .where(RatingChange.user_id == user_id, RatingChange.game == game)
            .order_by(RatingChange.id.desc())
            .limit(limit)
        )
    ).all()
    if not newest:
        return []
    rows = list(reversed(newest))
    first = rows[0]
    return [(first[0], Rating(first[1], first[2]))] + [
        (at, Rating(mu, sigma)) for at, _, _, mu, sigma in rows
    ]


PEOPLE: ColumnElement[bool] = User.name_key.is_not(None) & ~exists().where(
    BotAccount.user_id == RatingRow.user_id
)
"""Who the leaderboard lists: accounts (a claimed name, `app/accounts`), not guests and not bot
accounts (programs with a token are rated at the tables they may sit at, but not listed). The
built-in bots keep fixed ratings in `app.ratings.bots` and never have a row."""


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard."""

    place: int
    user_id: int
    name: str
    rating: Rating
    games: int


@dataclass(frozen=True)
class BoardPage:
    """A page of a leaderboard and the key of the next one (None: the last page)."""

    rows: list[BoardRow]
    next_key: str | None


def parse_key(key: str | None) -> tuple[float, int, int] | None:
    """A page key "μ_user_count" (the last row of the page before, and how many rows came
    before it), or None for the first page or a key that is not one."""
    if not key:
        return None
    try:
        mu, user, count = key.split("_")
        return float(mu), int(user), int(count)
    except ValueError:
        return None


def leaderboard_query(
    game: str, key: str | None, size: int, who: ColumnElement[bool] = PEOPLE
) -> Any:
    """The statement of one leaderboard page (see `leaderboard`)."""
    after = parse_key(key)
    query: Any = (
        select(RatingRow.user_id, User.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
        .join(User, User.id == RatingRow.user_id)
        .where(RatingRow.game == game, RatingRow.games >= LEADERBOARD_GAMES, who)
        .order_by(RatingRow.mu.desc(), RatingRow.user_id.desc())
        .limit(size + 1)
    )
    if after is not None:
        mu, user, _ = after
        query = query.where(tuple_(RatingRow.mu, RatingRow.user_id) < tuple_(mu, user))
    return query


async def leaderboard(
    session: AsyncSession,
    game: str,
    key: str | None = None,
    size: int = 50,
    who: ColumnElement[bool] = PEOPLE,
) -> BoardPage:
    """One page of `game`'s leaderboard: persons with at least `LEADERBOARD_GAMES` rated games,
    by rating (μ) then id, both descending; `key` is the page key of the previous page's last
    row (keyset pagination: the index `ix_ratings_board` is read from that point on, never
    counted or skipped)."""
    after = parse_key(key)
    query = leaderboard_query(game, key, size, who)
    before = after[2] if after is not None else 0
    rows = (await session.execute(query)).all()
    page = [
        BoardRow(before + i + 1, u, name, Rating(mu, sigma), n)
        for i, (u, name, mu, sigma, n) in enumerate(rows[:size])
    ]
    next_key = None
    if len(rows) > size:
        last = page[-1]
        next_key = f"{last.rating.mu!r}_{last.user_id}_{last.place}"
    return BoardPage(page, next_key)
