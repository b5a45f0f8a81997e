"""The lobby's list of tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import shown
from app.ratings.model import PROVISIONAL_GAMES
from app.ratings.model import shown as shown_rating
from app.store.models import (
    RatingRow,
    Room,
    SeatRow,
    User,
)


@dataclass
class LobbyRow:
    """One line of the lobby's table list (`your_turn`, `deadline`, `players` and `turn_of`
    filled from the live table, for the person's own tables)."""

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
    """When the time of the decision due first runs out (yours, if it is your turn)."""
    players: list[dict[str, Any]] = field(default_factory=list)
    """The seats in order: name, whether it is theirs to act, whether it is you, and until
    when the person is away (a vacation at a correspondence table; else None)."""
    turn_of: list[str] = field(default_factory=list)
    """The names of the others who must act now."""
    friends_only: bool = False
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
            shown(host),
            int(n),
            r.num_seats,
            r.status,
            r.private,
            bots=int(bots),
            mine=r.id in my_rooms,
            clock=r.clock,
            invite_code=r.invite_code if r.id in my_rooms and r.private else None,
            friends_only=r.friends_only,
            rated=bool(r.rated),
            host_rating=None if mu is None else shown_rating(mu),
            host_provisional=(games or 0) < PROVISIONAL_GAMES,
        )
        for r, host, n, bots, mu, games in result.all()
    ]
    return sorted(rows, key=lambda row: not row.mine)
