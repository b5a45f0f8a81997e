"""Repository functions: every query the server makes, in one place.

Each function takes an open `AsyncSession`; callers own the transaction (`session.begin()`),
so a move and its snapshot are committed together or not at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChatMessage, Game, Move, Room, SeatRow, User, utcnow


async def create_user(session: AsyncSession, name: str) -> User:
    """A new guest."""
    user = User(name=name)
    session.add(user)
    await session.flush()
    return user


async def get_user(session: AsyncSession, user_id: int) -> User | None:
    """A user by id."""
    return await session.get(User, user_id)


async def rename_user(session: AsyncSession, user_id: int, name: str) -> None:
    """Change a guest's display name."""
    await session.execute(update(User).where(User.id == user_id).values(name=name))


async def create_room(
    session: AsyncSession,
    *,
    host_id: int,
    game_id: str,
    options: dict[str, Any],
    num_seats: int,
    private: bool,
) -> Room:
    """A new open room, its host in seat 0."""
    room = Room(
        slug=secrets.token_urlsafe(6),
        game_id=game_id,
        options=options,
        num_seats=num_seats,
        private=private,
        invite_code=secrets.token_urlsafe(9),
        host_id=host_id,
        status="open",
    )
    session.add(room)
    await session.flush()
    session.add(SeatRow(room_id=room.id, seat=0, user_id=host_id))
    await session.flush()
    return room


async def get_room(session: AsyncSession, slug: str) -> Room | None:
    """A room by its public slug."""
    result = await session.execute(select(Room).where(Room.slug == slug))
    return result.scalar_one_or_none()


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat."""

    seat: int
    user_id: int
    name: str


async def room_seats(session: AsyncSession, room_id: int) -> list[SeatInfo]:
    """The occupied seats of a room, in seat order."""
    result = await session.execute(
        select(SeatRow.seat, SeatRow.user_id, User.name)
        .join(User, User.id == SeatRow.user_id)
        .where(SeatRow.room_id == room_id)
        .order_by(SeatRow.seat)
    )
    return [SeatInfo(seat, uid, name) for seat, uid, name in result.all()]


async def add_seat(session: AsyncSession, room_id: int, seat: int, user_id: int) -> None:
    """Seat a user."""
    session.add(SeatRow(room_id=room_id, seat=seat, user_id=user_id))
    await session.flush()


async def remove_seat(session: AsyncSession, room_id: int, user_id: int) -> None:
    """Unseat a user."""
    await session.execute(
        delete(SeatRow).where(SeatRow.room_id == room_id, SeatRow.user_id == user_id)
    )


async def compact_seats(session: AsyncSession, room_id: int, order: list[int]) -> None:
    """Renumber seats 0..k-1 following `order` (user ids), e.g. when starting short-handed."""
    await session.execute(delete(SeatRow).where(SeatRow.room_id == room_id))
    for seat, user_id in enumerate(order):
        session.add(SeatRow(room_id=room_id, seat=seat, user_id=user_id))
    await session.flush()


async def set_room(session: AsyncSession, room_id: int, **values: Any) -> None:
    """Update room columns."""
    await session.execute(update(Room).where(Room.id == room_id).values(**values))


async def create_game(
    session: AsyncSession,
    *,
    room_id: int,
    engine: str,
    options: dict[str, Any],
    num_players: int,
    seed: int,
    seed_commitment: str,
    snapshot: dict[str, Any],
) -> Game:
    """The game record at version 0."""
    game = Game(
        room_id=room_id,
        engine=engine,
        options=options,
        num_players=num_players,
        seed=seed,
        seed_commitment=seed_commitment,
        version=0,
        snapshot=snapshot,
        status="playing",
    )
    session.add(game)
    await session.flush()
    return game


async def game_for_room(session: AsyncSession, room_id: int) -> Game | None:
    """The room's game, if it has started."""
    result = await session.execute(select(Game).where(Game.room_id == room_id))
    return result.scalar_one_or_none()


async def record_move(
    session: AsyncSession,
    *,
    game_id: int,
    from_version: int,
    seat: int,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    snapshot: dict[str, Any],
    result: dict[str, Any] | None,
) -> bool:
    """Append the move and store the new snapshot, only if the game is still at `from_version`.

    Returns False when another writer got there first (optimistic concurrency).
    """
    now: datetime = utcnow()
    updated = await session.execute(
        update(Game)
        .where(Game.id == game_id, Game.version == from_version)
        .values(
            version=from_version + 1,
            snapshot=snapshot,
            status="finished" if result is not None else "playing",
            result=result,
            updated_at=now,
        )
    )
    if updated.rowcount != 1:  # type: ignore[attr-defined]
        return False
    session.add(
        Move(
            game_id=game_id,
            seq=from_version + 1,
            seat=seat,
            action=action,
            events=events,
            created_at=now,
        )
    )
    await session.flush()
    return True


async def add_chat(
    session: AsyncSession, *, room_id: int, user_id: int, name: str, seat: int | None, text: str
) -> ChatMessage:
    """Store one chat line."""
    row = ChatMessage(room_id=room_id, user_id=user_id, name=name, seat=seat, text=text)
    session.add(row)
    await session.flush()
    return row


async def recent_chat(session: AsyncSession, room_id: int, limit: int) -> list[ChatMessage]:
    """The room's last `limit` chat lines, oldest first."""
    result = await session.execute(
        select(ChatMessage)
        .where(ChatMessage.room_id == room_id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(result.scalars().all()))


async def game_moves(session: AsyncSession, game_id: int) -> list[Move]:
    """Every move of a game, in order."""
    result = await session.execute(select(Move).where(Move.game_id == game_id).order_by(Move.seq))
    return list(result.scalars().all())


@dataclass(frozen=True)
class LobbyRow:
    """One line of the lobby's table list."""

    slug: str
    game_id: str
    host: str
    seated: int
    num_seats: int
    status: str
    private: bool


async def lobby_rows(
    session: AsyncSession, user_id: int | None, limit: int = 100
) -> list[LobbyRow]:
    """Public tables that are open or playing, plus every table the user sits at."""
    seated = select(SeatRow.room_id, func.count().label("n")).group_by(SeatRow.room_id).subquery()
    mine = select(SeatRow.room_id).where(SeatRow.user_id == (user_id or -1))
    query = (
        select(Room, User.name, func.coalesce(seated.c.n, 0))
        .join(User, User.id == Room.host_id)
        .outerjoin(seated, seated.c.room_id == Room.id)
        .where(((Room.private.is_(False)) & (Room.status != "finished")) | Room.id.in_(mine))
        .order_by(Room.created_at.desc())
        .limit(limit)
    )
    result = await session.execute(query)
    return [
        LobbyRow(r.slug, r.game_id, host, int(n), r.num_seats, r.status, r.private)
        for r, host, n in result.all()
    ]
