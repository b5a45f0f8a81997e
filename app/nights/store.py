"""A games night in the database: creating it, its tables in order, what the standings are
made of (each table's seats and, once finished, its ranks), "Play again" tables joining the
night, and ending it. Functions on a session, the same on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.nights.models import Night, NightTable
from app.store import tables
from app.store.models import Game, Room, SeatRow, User, utcnow
from app.store.rows import insert_row
from app.store.tables import SeatInfo

NAME_MAX = 64
"""The longest name of a night (the column's width)."""


@dataclass
class NightTableRow:
    """One table of a night as its page shows it."""

    position: int
    slug: str
    game_id: str
    status: str
    """open, playing, finished, closed (the room's)."""
    private: bool
    invite_code: str
    seats: list[SeatInfo]
    ranks: dict[int, int] | None = None
    """Seat → the engine's rank once the game is over (1 = best, ties share)."""


async def create_night(session: AsyncSession, host_id: int, name: str) -> Night:
    """A new open night hosted by `host_id` (the caller commits)."""
    night = Night(
        slug=secrets.token_urlsafe(6),
        name=name,
        host_id=host_id,
        status="open",
        created_at=utcnow(),
        finished_at=None,
    )
    return await insert_row(session, night)


async def get_night(session: AsyncSession, slug: str) -> Night | None:
    """A night by its slug."""
    result = await session.execute(select(Night).where(Night.slug == slug))
    return result.scalar_one_or_none()


async def host_name(session: AsyncSession, night: Night) -> str:
    """The display name of the night's host."""
    result = await session.execute(select(User.name).where(User.id == night.host_id))
    return result.scalar_one()


async def link_table(session: AsyncSession, night_id: int, room_id: int) -> int:
    """Add a table at the end of the night; returns its position (1 for the first). A table
    already in a night breaks the unique constraint (IntegrityError)."""
    last = await session.execute(
        select(func.max(NightTable.position)).where(NightTable.night_id == night_id)
    )
    position = (last.scalar_one_or_none() or 0) + 1
    await insert_row(session, NightTable(night_id=night_id, room_id=room_id, position=position))
    return position


async def night_of_room(session: AsyncSession, room_id: int) -> Night | None:
    """The night a table belongs to, if any."""
    result = await session.execute(
        select(Night)
        .join(NightTable, NightTable.night_id == Night.id)
        .where(NightTable.room_id == room_id)
    )
    return result.scalar_one_or_none()


async def claim_night(session: AsyncSession, night_id: int) -> bool:
    """Start a write of the night by taking its row, if it is still open (False: it ended).
    The first statement of the transaction is this write, so two writers wait for each other
    instead of both reading first (on SQLite two readers that both then write would fail)."""
    await session.commit()  # end the caller's reads: no transaction holds the database
    claimed = await session.execute(
        update(Night)
        .where(Night.id == night_id, Night.status == "open")
        .values(status=Night.status)
    )
    return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]


def _unlinked_rematches(night_id: int) -> Select[int]:
    """The "Play again" tables of the night's tables that are in no night yet."""
    parents = (
        select(Room.rematch_slug)
        .join(NightTable, NightTable.room_id == Room.id)
        .where(NightTable.night_id == night_id, Room.rematch_slug.is_not(None))
    )
    return (
        select(Room.id)
        .where(Room.slug.in_(parents), Room.id.not_in(select(NightTable.room_id)))
        .order_by(Room.created_at, Room.id)
    )


async def adopt_rematches(session: AsyncSession, night: Night) -> int:
    """While the night is open, "Play again" tables of its tables join it (a rematch of a
    rematch too, generation by generation); committed here. Returns how many joined. Only
    reads when there is nothing new; a write takes the night's row first, so two readers
    adopting at once link each table once."""
    if night.status != "open":
        return 0
    joined = 0
    while (await session.execute(_unlinked_rematches(night.id).limit(1))).first() is not None:
        if not await claim_night(session, night.id):
            await session.rollback()
            break
        new = list((await session.execute(_unlinked_rematches(night.id))).scalars().all())
        for room_id in new:
            await link_table(session, night.id, room_id)
        await session.commit()
        joined += len(new)
    return joined


async def night_tables(
    session: AsyncSession, night_id: int, until: datetime | None = None
) -> list[NightTableRow]:
    """The night's tables in order, with their seats and, for games finished (by `until`,
    when the night ended: a game that ends later no longer counts), the ranks."""
    result = await session.execute(
        select(NightTable.position, Room)
        .join(Room, Room.id == NightTable.room_id)
        .where(NightTable.night_id == night_id)
        .order_by(NightTable.position)
    )
    rows = result.all()
    ids = [room.id for _, room in rows]
    finished = select(Game.room_id, Game.result).where(
        Game.room_id.in_(ids), Game.status == "finished"
    )
    if until is not None:
        finished = finished.where(Game.updated_at <= until)
    games = await session.execute(finished)
    outcomes = {room_id: res for room_id, res in games.all() if res}
    seats = await _seats_of(session, ids)
    out = []
    for position, room in rows:
        outcome = outcomes.get(room.id)
        ranks = {int(s): int(r) for s, r in outcome["ranks"].items()} if outcome else None
        out.append(
            NightTableRow(
                position,
                room.slug,
                room.game_id,
                room.status,
                room.private,
                room.invite_code,
                seats.get(room.id, []),
                ranks,
            )
        )
    return out


async def _seats_of(session: AsyncSession, room_ids: list[int]) -> dict[int, list[SeatInfo]]:
    """The occupied seats of several rooms in one query (as `tables.table_seats` for one)."""
    result = await session.execute(
        select(
            SeatRow.room_id,
            SeatRow.seat,
            SeatRow.user_id,
            User.name,
            SeatRow.bot_level,
            SeatRow.control,
            User.gender,
        )
        .outerjoin(User, User.id == SeatRow.user_id)
        .where(SeatRow.room_id.in_(room_ids))
        .order_by(SeatRow.room_id, SeatRow.seat)
    )
    out: dict[int, list[SeatInfo]] = {}
    for room_id, seat, uid, name, level, control, gender in result.all():
        shown = name if uid is not None else tables.bot_name(seat, level or "normal")
        out.setdefault(room_id, []).append(SeatInfo(seat, uid, shown, level, control, gender))
    return out


async def finish_night(session: AsyncSession, night_id: int) -> bool:
    """End an open night (the podium is final); False if it had ended already."""
    done = await session.execute(
        update(Night)
        .where(Night.id == night_id, Night.status == "open")
        .values(status="finished", finished_at=utcnow())
    )
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]
