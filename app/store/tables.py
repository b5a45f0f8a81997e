"""Tables and their seats (the tables are `rooms` in the database): creating, reading,
seating, claiming a table's row before a change, its status and its rematch link.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import i18n
from app.accounts.names import shown
from app.i18n import N_
from app.store.models import (
    BotAccount,
    Room,
    SeatRow,
    User,
    utcnow,
)
from app.store.rows import as_json, insert_row
from engines.core import Event

BOT_NAMES = {
    "easy": N_("Bot %(n)s (easy)"),
    "normal": N_("Bot %(n)s (normal)"),
    "hard": N_("Bot %(n)s (hard)"),
}


def bot_name(seat: int, level: str) -> str:
    """The display name of a bot seat (the seats bar and lobby add a bot icon)."""
    return f"Bot {seat + 1} ({level})"


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: a person (`user_id`) or a bot (`bot_level`), and who plays it now."""

    seat: int
    user_id: int | None
    name: str
    bot_level: str | None = None
    control: str | None = None
    gender: str | None = None
    """How the person chose to be spoken of ("she", "he", "neutral"; None: not chosen)."""
    away: tuple[float, float] | None = None
    """The person's last vacation (since, until), if they ever set one."""
    program: bool = False
    """A bot account's seat: a program playing with a token (docs/bot-api.md), shown so."""

    @property
    def grammar(self) -> str:
        """The gettext context of messages about this seat's person: "she", "he", or
        "neutral" (a bot, or a person who did not choose)."""
        return i18n.grammar(None if self.bot_level is not None else self.gender)

    @property
    def shown_name(self) -> str:
        """The name people read, in the current language: a bot's is made from its seat and
        level ("Bot 2 (normal)", "Bot 2 (normalny)"), a person's is exactly as they typed it."""
        if self.bot_level is None:
            return shown(self.name)
        template = BOT_NAMES.get(self.bot_level)
        return i18n.gettext(template) % {"n": self.seat + 1} if template else self.name

    @property
    def is_bot(self) -> bool:
        """A bot's own seat (not a person's seat played by a bot)."""
        return self.bot_level is not None

    @property
    def bot_plays(self) -> bool:
        """Whether a bot makes this seat's decisions now."""
        return self.is_bot or self.control is not None


async def create_room(session: AsyncSession, *, host_seat: int = 0, **fields: Any) -> Room:
    """A new open room (`new_table`'s `fields`), its host in `host_seat` (seat 0 unless a
    rematch says otherwise)."""
    room = new_table(**{"clock": "none", "bot_level": "normal", **fields})
    await insert_row(session, room)
    await add_seat(session, room.id, host_seat, room.host_id)
    return room


def new_table(**fields: Any) -> Room:
    """An open room not stored yet, with a new slug and invite code: `fields` are the `Room`
    columns the caller knows (host_id, game_id, options, num_seats, private, clock,
    bot_level, outside_bots, away_days, friends_only, rated)."""
    return Room(
        slug=secrets.token_urlsafe(6),
        invite_code=secrets.token_urlsafe(9),
        status="open",
        rematch_slug=None,
        created_at=utcnow(),
        **{"outside_bots": False, "away_days": 0, "friends_only": False, "rated": False, **fields},
    )


async def get_table(session: AsyncSession, slug: str) -> Room | None:
    """A room by its public slug."""
    result = await session.execute(select(Room).where(Room.slug == slug))
    return result.scalar_one_or_none()


def away_window(since: float | None, until: float | None) -> tuple[float, float] | None:
    """A person's vacation as stored (since, until), or None if they never set one."""
    if since is None or until is None:
        return None
    return (float(since), float(until))


def away_of(user: User) -> tuple[float, float] | None:
    """A person's last vacation (since, until), if they ever set one."""
    return away_window(user.away_since, user.away_until)


def seat_of(seats: Mapping[int, SeatInfo], user_id: int | None) -> int | None:
    """The seat `user_id` sits in among `seats`, if any (never a bot's seat)."""
    if user_id is None:
        return None
    for seat, info in seats.items():
        if info.user_id == user_id:
            return seat
    return None


async def table_seats(session: AsyncSession, room_id: int) -> list[SeatInfo]:
    """The occupied seats of a room, in seat order."""
    result = await session.execute(
        select(
            SeatRow.seat,
            SeatRow.user_id,
            User.name,
            SeatRow.bot_level,
            SeatRow.control,
            User.gender,
            User.away_since,
            User.away_until,
            BotAccount.user_id.is_not(None),
        )
        .outerjoin(User, User.id == SeatRow.user_id)
        .outerjoin(BotAccount, BotAccount.user_id == SeatRow.user_id)
        .where(SeatRow.room_id == room_id)
        .order_by(SeatRow.seat)
    )
    return [
        SeatInfo(
            seat,
            uid,
            name if uid is not None else bot_name(seat, level or "normal"),
            level,
            control,
            gender,
            away_window(since, until),
            bool(program),
        )
        for seat, uid, name, level, control, gender, since, until, program in result.all()
    ]


async def playing_table_slugs(session: AsyncSession) -> list[str]:
    """Slugs of every room with a game in progress (their bots and clocks resume at start)."""
    result = await session.execute(select(Room.slug).where(Room.status == "playing"))
    return list(result.scalars().all())


_SEATS: Table = SeatRow.__table__  # type: ignore[assignment]


_ADD_SEAT = insert(_SEATS)
"""A plain INSERT (no unit of work to flush): a seat is written once and never loaded as an
object; a taken seat still raises IntegrityError (the unique constraints)."""


async def add_seat(session: AsyncSession, room_id: int, seat: int, user_id: int) -> None:
    """Seat a user."""
    values = {"room_id": room_id, "seat": seat, "user_id": user_id, "bot_level": None}
    await session.execute(_ADD_SEAT, values)


async def add_bot(session: AsyncSession, room_id: int, seat: int, level: str) -> None:
    """Seat a bot."""
    values = {"room_id": room_id, "seat": seat, "user_id": None, "bot_level": level}
    await session.execute(_ADD_SEAT, values)


async def remove_seat(session: AsyncSession, room_id: int, user_id: int) -> None:
    """Unseat a user."""
    await session.execute(
        delete(SeatRow).where(SeatRow.room_id == room_id, SeatRow.user_id == user_id)
    )


async def remove_seat_at(session: AsyncSession, room_id: int, seat: int) -> None:
    """Empty a seat (a bot's, before the start)."""
    await session.execute(delete(SeatRow).where(SeatRow.room_id == room_id, SeatRow.seat == seat))


async def set_control(session: AsyncSession, room_id: int, seat: int, control: str | None) -> None:
    """Who plays a person's seat now (None: the person)."""
    await session.execute(
        update(SeatRow)
        .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
        .values(control=control)
    )


async def compact_seats(session: AsyncSession, room_id: int, order: list[SeatInfo]) -> None:
    """Renumber seats 0..k-1 following `order`, e.g. when starting short-handed."""
    await session.execute(delete(SeatRow).where(SeatRow.room_id == room_id))
    for seat, info in enumerate(order):
        session.add(
            SeatRow(room_id=room_id, seat=seat, user_id=info.user_id, bot_level=info.bot_level)
        )
    await session.flush()


async def claim_table(session: AsyncSession, room_id: int, status: str) -> bool:
    """Take the room's row for this transaction if its status is still `status` (False if
    another process changed it first). Room changes start with this, so two processes never
    both decide from what they remember: the second waits for the first, then sees its
    change and loses."""
    updated = await session.execute(_CLAIM_ROOM, {"room_id": room_id, "at_status": status})
    return bool(updated.rowcount == 1)  # type: ignore[attr-defined]


_ROOMS: Table = Room.__table__  # type: ignore[assignment]


_CLAIM_ROOM = (
    update(_ROOMS)
    .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.status == bindparam("at_status"))
    .values(status=bindparam("at_status"))
)
"""Built once: making the expression is a good part of the cost of running it. On the
table, not the mapped class: an ORM UPDATE also looks for the rows' objects in the session
to change them (there are none: room rows are read into tables, not kept as objects)."""


_SET_ROOM: dict[frozenset[str], Any] = {}


async def set_table(session: AsyncSession, room_id: int, **values: Any) -> None:
    """Update room columns (the statement is built once per set of columns)."""
    key = frozenset(values)
    statement = _SET_ROOM.get(key)
    if statement is None:
        statement = _SET_ROOM[key] = (
            update(_ROOMS)
            .where(_ROOMS.c.id == bindparam("room_id_"))
            .values({name: bindparam(f"{name}_") for name in values})
        )
    await session.execute(
        statement, {"room_id_": room_id, **{f"{name}_": v for name, v in values.items()}}
    )


async def set_rematch(session: AsyncSession, room_id: int, slug: str) -> bool:
    """Link a finished room to its rematch, only if no rematch was linked yet."""
    updated = await session.execute(_SET_REMATCH, {"room_id": room_id, "rematch_slug_": slug})
    return bool(updated.rowcount == 1)  # type: ignore[attr-defined]


_SET_REMATCH = (
    update(_ROOMS)
    .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.rematch_slug.is_(None))
    .values(rematch_slug=bindparam("rematch_slug_"))
)


_ADD_SEAT_AT_ONCE = """
WITH claimed AS (
    UPDATE rooms SET status = status WHERE rooms.id = $1 AND rooms.status = $2
    RETURNING rooms.id, rooms.game_id
),
seated AS (
    INSERT INTO seats (room_id, seat, user_id, bot_level)
    SELECT claimed.id, $3, $4, $5 FROM claimed
    RETURNING seats.seat
)
SELECT seated.seat, claimed.game_id, r.mu, r.sigma, r.games
FROM seated CROSS JOIN claimed
LEFT JOIN ratings r ON r.user_id = $4 AND r.game = claimed.game_id AND r.games > 0
"""
"""PostgreSQL: `claim_table` and `add_seat` / `add_bot` as ONE statement, which also reads the
person's rating in the table's game (`ratings_of`, shown beside their name). The UPDATE waits
for any other change of the room in progress and then sees its outcome (a start made the
status 'playing': nothing is inserted); a seat or person already there breaks a unique
constraint, as in the transaction."""


async def add_seat_at_once(
    conn: asyncpg.Connection,
    room_id: int,
    at_status: str,
    seat: int,
    user_id: int | None,
    bot_level: str | None,
) -> asyncpg.Record | None:
    """Seat a person (or a bot, `bot_level`) in one autocommit statement, only if the room
    is still at `at_status` and the seat and person are free; None otherwise (the caller
    reloads and says why). The row: seat, the room's game, and the person's rating in it
    (mu, sigma, games; NULL without one, and for a bot)."""
    try:
        row: asyncpg.Record | None = await conn.fetchrow(
            _ADD_SEAT_AT_ONCE, room_id, at_status, seat, user_id, bot_level
        )
    except asyncpg.UniqueViolationError:
        return None
    return row


_CREATE_ROOM_AT_ONCE = """
WITH linked AS (
    UPDATE rooms SET rematch_slug = $1
    WHERE rooms.id = $11 AND rooms.rematch_slug IS NULL
    RETURNING rooms.id
),
room AS (
    INSERT INTO rooms (slug, game_id, options, num_seats, private, invite_code, host_id, status,
                       clock, bot_level, rematch_slug, created_at, away_days, outside_bots,
                       friends_only, rated)
    SELECT $1, $2, $3::json, $4, $5, $6, $7, 'open', $8, $9, NULL, $10, $18, $19, $20, $21
    WHERE $11::integer IS NULL OR EXISTS (SELECT 1 FROM linked)
    RETURNING rooms.id
),
seated AS (
    INSERT INTO seats (room_id, seat, user_id, bot_level)
    SELECT room.id, t.seat, t.user_id, t.bot_level
    FROM room, unnest($12::integer[], $13::integer[], $14::text[]) AS t(seat, user_id, bot_level)
),
noted AS (
    INSERT INTO room_events (room_id, version, text, params, created_at)
    SELECT linked.id, $15, $16::varchar, $17::json, $10 FROM linked WHERE $16::varchar IS NOT NULL
)
SELECT id FROM room
"""
"""PostgreSQL: a new room and its first seats as ONE statement; for a rematch, only if the
finished room (`$11`) has no rematch linked yet, which it links, with its log line. The
UPDATE of the finished room waits for another process's link in progress and then sees it
(nothing is inserted)."""


async def create_table_at_once(
    conn: asyncpg.Connection,
    room: Room,
    seats: list[SeatInfo],
    rematch_of: int | None = None,
    note: tuple[int, Event] | None = None,
) -> bool:
    """Store `room` (made by `new_table`; its id is set) with `seats` (people and bots) in one
    autocommit statement. With `rematch_of`, the room is the rematch of that finished room:
    stored only if that room had none yet (False otherwise: nothing is written), and `note`
    (version, line) goes into the finished room's log in the same statement."""
    line = note[1].to_json() if note else {}
    room_id = await conn.fetchval(
        _CREATE_ROOM_AT_ONCE,
        room.slug,
        room.game_id,
        as_json(room.options),
        room.num_seats,
        room.private,
        room.invite_code,
        room.host_id,
        room.clock,
        room.bot_level,
        room.created_at,
        rematch_of,
        [s.seat for s in seats],
        [s.user_id for s in seats],
        [s.bot_level for s in seats],
        note[0] if note else None,
        line.get("text"),
        as_json(line.get("params")),
        room.away_days or 0,
        bool(room.outside_bots),
        bool(room.friends_only),
        bool(room.rated),
    )
    if room_id is None:
        return False
    room.id = room_id
    return True


_ROOM_NOW = """
SELECT rooms.status, seats.seat, seats.user_id, users.name, seats.bot_level, seats.control,
    users.gender, users.away_since, users.away_until, bot_accounts.user_id IS NOT NULL
FROM rooms
LEFT JOIN seats ON seats.room_id = rooms.id
LEFT JOIN users ON users.id = seats.user_id
LEFT JOIN bot_accounts ON bot_accounts.user_id = seats.user_id
WHERE rooms.id = $1
ORDER BY seats.seat
"""


async def table_now_at_once(
    conn: asyncpg.Connection, room_id: int
) -> tuple[str, dict[int, SeatInfo]] | None:
    """A room's status and occupied seats as the database has them now, in one statement
    (what `get_table` and `table_seats` read, for a process catching up before it judges a
    room change); None if there is no such room."""
    rows = await conn.fetch(_ROOM_NOW, room_id)
    if not rows:
        return None
    seats = {
        r[1]: SeatInfo(
            r[1],
            r[2],
            r[3] if r[2] is not None else bot_name(r[1], r[4] or "normal"),
            r[4],
            r[5],
            r[6],
            away_window(r[7], r[8]),
            bool(r[9]),
        )
        for r in rows
        if r[1] is not None
    }
    return rows[0][0], seats
