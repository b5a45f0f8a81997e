"""The lobby's list of tables."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.ratings.model import PROVISIONAL_GAMES, shown
from app.store.models import (
    RatingRow,
    Room,
    SeatRow,
    User,
)


@dataclass
class LobbyRow:
    """One line of the lobby's table list (`your_turn`/`deadline` filled from the live table)."""

    slug: str
    game_id: str
    host: str
    seated: int
    num_seats: int
    status: str
    private: bool
    bots: int = 0
    mine: bool = False
    clock: str = "none"
    invite_code: str | None = None
    your_turn: bool = False
    deadline: float | None = None
    rated: bool = False
    host_rating: int | None = None
    """The host's shown rating in the table's game (None: not rated in it yet)."""
    host_provisional: bool = False


async def lobby_rows(
    session: AsyncSession, user_id: int | None, limit: int = 100
) -> list[LobbyRow]:
    """Tables the user sits at (waiting or playing), then public tables waiting or playing.

    Finished and closed tables leave the list; they stay reachable by their link.
    """
    seated = (
        select(
            SeatRow.room_id,
            func.count().label("n"),
            func.count(SeatRow.bot_level).label("bots"),
        )
        .group_by(SeatRow.room_id)
        .subquery()
    )
    mine = select(SeatRow.room_id).where(SeatRow.user_id == (user_id or -1))
    query = (
        select(
            Room,
            User.name,
            func.coalesce(seated.c.n, 0),
            func.coalesce(seated.c.bots, 0),
            RatingRow.mu,
            RatingRow.games,
        )
        .join(User, User.id == Room.host_id)
        .outerjoin(
            RatingRow,
            (RatingRow.user_id == Room.host_id)
            & (RatingRow.game == Room.game_id)
            & (RatingRow.games > 0),
        )
        .outerjoin(seated, seated.c.room_id == Room.id)
        .where(Room.status.in_(("open", "playing")))
        .where(Room.private.is_(False) | Room.id.in_(mine))
        .order_by(Room.created_at.desc())
        .limit(limit)
    )
    result = await session.execute(query)
    my_rooms = set((await session.execute(mine)).scalars().all())
    rows = [
        LobbyRow(
            r.slug,
            r.game_id,
            host,
            int(n),
            r.num_seats,
            r.status,
            r.private,
            bots=int(bots),
            mine=r.id in my_rooms,
            clock=r.clock,
            invite_code=r.invite_code if r.id in my_rooms and r.private else None,
            rated=bool(r.rated),
            host_rating=None if mu is None else shown(mu),
            host_provisional=(games or 0) < PROVISIONAL_GAMES,
        )
        for r, host, n, bots, mu, games in result.all()
    ]
    return sorted(rows, key=lambda row: not row.mine)
