"""Repository functions: every query the server makes, in one place.

Each function takes an open `AsyncSession`; callers own the transaction (`session.begin()`),
so a move and its snapshot are committed together or not at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import asyncpg
import orjson
from sqlalchemy import Insert, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase

from app import i18n
from app.db.models import (
    ChatMessage,
    Device,
    DeviceLink,
    Game,
    Heartbeat,
    Move,
    Room,
    RoomEvent,
    SeatRow,
    User,
    utcnow,
)
from app.i18n import N_
from engines.core import Event

_Row = TypeVar("_Row", bound=DeclarativeBase)
_INSERTS: dict[tuple[type, frozenset[str]], tuple[Insert, list[str]]] = {}


async def _insert(session: AsyncSession, row: _Row) -> _Row:
    """Write a new row, given as an unsaved mapped object, as one plain INSERT, and read its
    generated key and the defaults it was not given back into it (RETURNING).

    Not `session.add` + `flush`: the unit of work (tracking, ordering, refreshing) cost more
    CPU than the statement, for rows that are written once here and never changed through
    the object. The object stays detached from the session: changing it later writes
    nothing. The statement is built once per table and set of columns given.
    """
    model = type(row)
    table: Table = model.__table__  # type: ignore[assignment]
    given = {c.key: row.__dict__[c.key] for c in table.columns if c.key in row.__dict__}
    key = (model, frozenset(given))
    built = _INSERTS.get(key)
    if built is None:
        back = [c for c in table.columns if c.key not in given]
        built = _INSERTS[key] = (insert(table).returning(*back), [c.key for c in back])
    statement, names = built
    if names:
        returned = (await session.execute(statement, given)).one()
        for name, value in zip(names, returned, strict=True):
            setattr(row, name, value)
    else:
        await session.execute(statement, given)
    return row


async def create_user(session: AsyncSession, name: str) -> User:
    """A new guest."""
    return await _insert(session, User(name=name))


async def get_user(session: AsyncSession, user_id: int) -> User | None:
    """A user by id."""
    return await session.get(User, user_id)


async def rename_user(session: AsyncSession, user_id: int, name: str) -> None:
    """Change a guest's display name."""
    await session.execute(update(User).where(User.id == user_id).values(name=name))


async def set_language(session: AsyncSession, user_id: int, lang: str) -> None:
    """Keep the language a person chose."""
    await session.execute(update(User).where(User.id == user_id).values(language=lang))


async def create_room(
    session: AsyncSession,
    *,
    host_id: int,
    game_id: str,
    options: dict[str, Any],
    num_seats: int,
    private: bool,
    clock: str = "none",
    bot_level: str = "normal",
    host_seat: int = 0,
) -> Room:
    """A new open room, its host in `host_seat` (seat 0 unless a rematch says otherwise)."""
    room = new_room(
        host_id=host_id,
        game_id=game_id,
        options=options,
        num_seats=num_seats,
        private=private,
        clock=clock,
        bot_level=bot_level,
    )
    await _insert(session, room)
    await add_seat(session, room.id, host_seat, host_id)
    return room


def new_room(
    *,
    host_id: int,
    game_id: str,
    options: dict[str, Any],
    num_seats: int,
    private: bool,
    clock: str,
    bot_level: str,
) -> Room:
    """An open room not stored yet, with a new slug and invite code."""
    return Room(
        slug=secrets.token_urlsafe(6),
        game_id=game_id,
        options=options,
        num_seats=num_seats,
        private=private,
        invite_code=secrets.token_urlsafe(9),
        host_id=host_id,
        status="open",
        clock=clock,
        bot_level=bot_level,
        rematch_slug=None,
        created_at=utcnow(),
    )


async def get_room(session: AsyncSession, slug: str) -> Room | None:
    """A room by its public slug."""
    result = await session.execute(select(Room).where(Room.slug == slug))
    return result.scalar_one_or_none()


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

    @property
    def shown_name(self) -> str:
        """The name people read, in the current language: a bot's is made from its seat and
        level ("Bot 2 (normal)", "Bot 2 (normalny)"), a person's is exactly as they typed it."""
        if self.bot_level is None:
            return self.name
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


async def room_seats(session: AsyncSession, room_id: int) -> list[SeatInfo]:
    """The occupied seats of a room, in seat order."""
    result = await session.execute(
        select(SeatRow.seat, SeatRow.user_id, User.name, SeatRow.bot_level, SeatRow.control)
        .outerjoin(User, User.id == SeatRow.user_id)
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
        )
        for seat, uid, name, level, control in result.all()
    ]


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


async def claim_room(session: AsyncSession, room_id: int, status: str) -> bool:
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
to change them (there are none: room rows are read into hubs, not kept as objects)."""
_SET_ROOM: dict[frozenset[str], Any] = {}


async def set_room(session: AsyncSession, room_id: int, **values: Any) -> None:
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


async def create_game(session: AsyncSession, game: Game) -> Game:
    """Store a game record made by `new_game` (its key and defaults read back into it)."""
    return await _insert(session, game)


def new_game(
    *,
    room_id: int,
    engine: str,
    options: dict[str, Any],
    num_players: int,
    seed: int,
    seed_commitment: str,
    snapshot: dict[str, Any],
    clock: dict[str, Any] | None = None,
    opening: list[dict[str, Any]] | None = None,
    seed_secret: str | None = None,
    seed_salt: str | None = None,
    rules_version: str = "1",
) -> Game:
    """A game record at version 0, not stored yet (`create_game`, `start_at_once`)."""
    now = utcnow()
    return Game(
        room_id=room_id,
        engine=engine,
        options=options,
        num_players=num_players,
        seed=seed,
        seed_commitment=seed_commitment,
        version=0,
        snapshot=snapshot,
        status="playing",
        clock=clock,
        opening=opening,
        seed_secret=seed_secret,
        seed_salt=seed_salt,
        rules_version=rules_version,
        result=None,
        created_at=now,
        updated_at=now,
    )


async def game_for_room(session: AsyncSession, room_id: int) -> Game | None:
    """The room's game, if it has started."""
    result = await session.execute(select(Game).where(Game.room_id == room_id))
    return result.scalar_one_or_none()


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
    await _insert(
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


_RECORD_MOVE_AT_ONCE = """
WITH moved AS (
    UPDATE games
    SET version = $1, snapshot = $6::json, status = 'playing', result = NULL,
        clock = $7::json, updated_at = $5
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


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


async def record_move_at_once(conn: asyncpg.Connection, move: MoveRecord) -> bool:
    """`record_move` for a move that changes nothing else (no result, no table note), as one
    statement on an asyncpg connection outside any transaction (PostgreSQL): no BEGIN and
    COMMIT round trips, and none of SQLAlchemy's per-statement work (a move's hottest path).
    Returns False when another writer got there first."""
    row = await conn.fetchrow(_RECORD_MOVE_AT_ONCE, *_move_values(move))
    return row is not None


def _move_values(move: MoveRecord) -> tuple[Any, ...]:
    """Parameters $1–$9 of the one-statement move writes: the new version, seat, action,
    events, time, snapshot, clock, game and the version it was played from."""
    return (
        move.from_version + 1,
        move.seat,
        _json(move.action),
        _json(move.events),
        utcnow(),
        _json(move.snapshot),
        _json(move.clock),
        move.game_id,
        move.from_version,
    )


_RECORD_LAST_MOVE_AT_ONCE = """
WITH moved AS (
    UPDATE games
    SET version = $1, snapshot = $6::json, status = 'finished', result = $10::json,
        clock = $7::json, updated_at = $5
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
    row = await conn.fetchrow(_RECORD_LAST_MOVE_AT_ONCE, *_move_values(move), _json(result))
    return row is not None


_ADD_SEAT_AT_ONCE = """
WITH claimed AS (
    UPDATE rooms SET status = status WHERE rooms.id = $1 AND rooms.status = $2
    RETURNING rooms.id
)
INSERT INTO seats (room_id, seat, user_id, bot_level)
SELECT claimed.id, $3, $4, $5 FROM claimed
RETURNING seats.seat
"""
"""PostgreSQL: `claim_room` and `add_seat` / `add_bot` as ONE statement. The UPDATE waits
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
) -> bool:
    """Seat a person (or a bot, `bot_level`) in one autocommit statement, only if the room
    is still at `at_status` and the seat and person are free; False otherwise (the caller
    reloads and says why)."""
    try:
        row = await conn.fetchrow(_ADD_SEAT_AT_ONCE, room_id, at_status, seat, user_id, bot_level)
    except asyncpg.UniqueViolationError:
        return False
    return row is not None


_CREATE_ROOM_AT_ONCE = """
WITH linked AS (
    UPDATE rooms SET rematch_slug = $1
    WHERE rooms.id = $11 AND rooms.rematch_slug IS NULL
    RETURNING rooms.id
),
room AS (
    INSERT INTO rooms (slug, game_id, options, num_seats, private, invite_code, host_id, status,
                       clock, bot_level, rematch_slug, created_at)
    SELECT $1, $2, $3::json, $4, $5, $6, $7, 'open', $8, $9, NULL, $10
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


async def create_room_at_once(
    conn: asyncpg.Connection,
    room: Room,
    seats: list[SeatInfo],
    rematch_of: int | None = None,
    note: tuple[int, Event] | None = None,
) -> bool:
    """Store `room` (made by `new_room`; its id is set) with `seats` (people and bots) in one
    autocommit statement. With `rematch_of`, the room is the rematch of that finished room:
    stored only if that room had none yet (False otherwise: nothing is written), and `note`
    (version, line) goes into the finished room's log in the same statement."""
    line = note[1].to_json() if note else {}
    room_id = await conn.fetchval(
        _CREATE_ROOM_AT_ONCE,
        room.slug,
        room.game_id,
        _json(room.options),
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
        _json(line.get("params")),
    )
    if room_id is None:
        return False
    room.id = room_id
    return True


_ROOM_NOW = """
SELECT rooms.status, seats.seat, seats.user_id, users.name, seats.bot_level, seats.control
FROM rooms
LEFT JOIN seats ON seats.room_id = rooms.id
LEFT JOIN users ON users.id = seats.user_id
WHERE rooms.id = $1
ORDER BY seats.seat
"""


async def room_now_at_once(
    conn: asyncpg.Connection, room_id: int
) -> tuple[str, dict[int, SeatInfo]] | None:
    """A room's status and occupied seats as the database has them now, in one statement
    (what `get_room` and `room_seats` read, for a process catching up before it judges a
    room change); None if there is no such room."""
    rows = await conn.fetch(_ROOM_NOW, room_id)
    if not rows:
        return None
    seats = {
        r[1]: SeatInfo(
            r[1], r[2], r[3] if r[2] is not None else bot_name(r[1], r[4] or "normal"), r[4], r[5]
        )
        for r in rows
        if r[1] is not None
    }
    return rows[0][0], seats


_START_CLAIM = """
UPDATE rooms SET status = 'playing', num_seats = $2
WHERE rooms.id = $1 AND rooms.status = 'open'
RETURNING rooms.id
"""
_START_SEATS = "SELECT seat, user_id, bot_level FROM seats WHERE room_id = $1"
_START_GAME = """
WITH game AS (
    INSERT INTO games (room_id, engine, options, num_players, seed, seed_commitment,
                       seed_secret, seed_salt, rules_version, version, snapshot, status, result,
                       opening, clock, created_at, updated_at)
    VALUES ($1, $2, $3::json, $4, $5, $6, $7, $8, $9, 0, $10::json, 'playing', NULL, $11::json,
            $12::json, $13, $13)
    RETURNING games.id
),
noted AS (
    INSERT INTO room_events (room_id, version, text, params, created_at)
    SELECT $1, 0, $14, $15::json, $13 FROM game
)
SELECT id FROM game
"""


class _SeatsMoved(Exception):
    """The seats in the database are not the ones the start was decided on (rolls back)."""


async def start_at_once(
    conn: asyncpg.Connection,
    game: Game,
    seated: dict[int, tuple[int | None, str | None]],
    opening: Event,
) -> bool:
    """Start the room of `game` (made, not stored; its id is set) in one transaction of three
    statements: claim the open room as playing with `game.num_players` seats, check that its
    seats are still `seated` (seat: user id, bot level; numbered 0..n-1), store the game at
    version 0 and its `opening` log line. False (nothing written) if the room is no longer
    open or someone sat down or left meanwhile.

    The seats are read after the claim, in a statement of their own: it sees every seat
    committed while the claim waited for the room's row (one statement's snapshot would
    not)."""
    line = opening.to_json()
    try:
        async with conn.transaction():
            if await conn.fetchval(_START_CLAIM, game.room_id, game.num_players) is None:
                return False
            rows = await conn.fetch(_START_SEATS, game.room_id)
            if {r[0]: (r[1], r[2]) for r in rows} != seated:
                raise _SeatsMoved
            game.id = await conn.fetchval(
                _START_GAME,
                game.room_id,
                game.engine,
                _json(game.options),
                game.num_players,
                game.seed,
                game.seed_commitment,
                game.seed_secret,
                game.seed_salt,
                game.rules_version,
                _json(game.snapshot),
                _json(game.opening),
                _json(game.clock),
                game.created_at,
                line["text"],
                _json(line.get("params")),
            )
    except _SeatsMoved:
        return False
    return True


_RECORD_MOVES_AT_ONCE = """
WITH given AS (
    SELECT * FROM unnest(
        $1::integer[], $2::integer[], $3::integer[], $4::text[], $5::text[], $6::text[],
        $7::text[]
    ) AS t(game_id, from_version, seat, action, events, snapshot, clock)
),
moved AS (
    UPDATE games
    SET version = given.from_version + 1, snapshot = given.snapshot::json, status = 'playing',
        result = NULL, clock = given.clock::json, updated_at = $8
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
        [_json(m.action) for m in moves],
        [_json(m.events) for m in moves],
        [_json(m.snapshot) for m in moves],
        [_json(m.clock) for m in moves],
        utcnow(),
    )
    return {row[0] for row in rows}


_NEW_GUEST_AT_ONCE = """
WITH new_user AS (
    INSERT INTO users (name, language, created_at) VALUES ($1, NULL, $2) RETURNING users.id
)
INSERT INTO devices (id, user_id, agent, created, last_seen, revoked)
SELECT $3, new_user.id, $4, $5, $5, NULL FROM new_user
RETURNING devices.user_id
"""
"""PostgreSQL: `create_user` and `create_device` for a new guest as ONE statement."""


async def new_guest_at_once(
    conn: asyncpg.Connection, name: str, device_id: str, agent: str, now: float
) -> User:
    """A new guest signed in on a new device, in one autocommit statement; the guest's row
    as stored (a detached object)."""
    user = User(name=name, language=None, created_at=utcnow())
    user.id = await conn.fetchval(
        _NEW_GUEST_AT_ONCE, name, user.created_at, device_id, agent[:160], now
    )
    return user


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


async def playing_room_slugs(session: AsyncSession) -> list[str]:
    """Slugs of every room with a game in progress (their bots and clocks resume at start)."""
    result = await session.execute(select(Room.slug).where(Room.status == "playing"))
    return list(result.scalars().all())


async def add_room_event(session: AsyncSession, room_id: int, version: int, event: Event) -> None:
    """Store a log line about the table (its English message and parameters)."""
    data = event.to_json()
    await _insert(
        session,
        RoomEvent(room_id=room_id, version=version, text=data["text"], params=data.get("params")),
    )


async def room_events(session: AsyncSession, room_id: int) -> list[RoomEvent]:
    """The table's log lines, in order."""
    result = await session.execute(
        select(RoomEvent).where(RoomEvent.room_id == room_id).order_by(RoomEvent.id)
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


async def set_rematch(session: AsyncSession, room_id: int, slug: str) -> bool:
    """Link a finished room to its rematch, only if no rematch was linked yet."""
    updated = await session.execute(_SET_REMATCH, {"room_id": room_id, "rematch_slug_": slug})
    return bool(updated.rowcount == 1)  # type: ignore[attr-defined]


_SET_REMATCH = (
    update(_ROOMS)
    .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.rematch_slug.is_(None))
    .values(rematch_slug=bindparam("rematch_slug_"))
)


async def add_chat(
    session: AsyncSession, *, room_id: int, user_id: int, name: str, seat: int | None, text: str
) -> ChatMessage:
    """Store one chat line."""
    row = ChatMessage(room_id=room_id, user_id=user_id, name=name, seat=seat, text=text)
    return await _insert(session, row)


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


@dataclass
class LobbyRow:
    """One line of the lobby's table list (`your_turn`/`deadline` filled from the live hub)."""

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
        select(Room, User.name, func.coalesce(seated.c.n, 0), func.coalesce(seated.c.bots, 0))
        .join(User, User.id == Room.host_id)
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
        )
        for r, host, n, bots in result.all()
    ]
    return sorted(rows, key=lambda row: not row.mine)


# ---- devices ------------------------------------------------------------------------------


def new_device_id() -> str:
    """A new device's id (what its cookie carries, signed)."""
    return secrets.token_urlsafe(18)


async def create_device(session: AsyncSession, user_id: int, agent: str, now: float) -> Device:
    """Register a newly signed-in browser."""
    device = Device(
        id=new_device_id(), user_id=user_id, agent=agent[:160], created=now, last_seen=now
    )
    return await _insert(session, device)


async def get_device(session: AsyncSession, device_id: str) -> Device | None:
    """A device by its id."""
    return await session.get(Device, device_id)


async def touch_device(session: AsyncSession, device_id: str, now: float) -> None:
    """Note that a device was just used."""
    await session.execute(update(Device).where(Device.id == device_id).values(last_seen=now))


async def list_devices(session: AsyncSession, user_id: int) -> list[Device]:
    """A person's signed-in devices, most recently used first."""
    rows = await session.execute(
        select(Device)
        .where(Device.user_id == user_id, Device.revoked.is_(None))
        .order_by(Device.last_seen.desc())
    )
    return list(rows.scalars())


async def revoke_devices(
    session: AsyncSession,
    user_id: int,
    now: float,
    *,
    only: str | None = None,
    keep: str | None = None,
) -> int:
    """Sign out one of a person's devices (`only`) or all but one (`keep`); how many."""
    query = update(Device).where(Device.user_id == user_id, Device.revoked.is_(None))
    if only is not None:
        query = query.where(Device.id == only)
    if keep is not None:
        query = query.where(Device.id != keep)
    result = await session.execute(query.values(revoked=now))
    return int(getattr(result, "rowcount", 0) or 0)


async def create_device_link(
    session: AsyncSession, user_id: int, token_hash: str, expires: float
) -> None:
    """Keep a one-time link's hash."""
    session.add(DeviceLink(token_hash=token_hash, user_id=user_id, expires=expires))
    await session.flush()


async def claim_device_link(session: AsyncSession, token_hash: str, now: float) -> int | None:
    """Use a one-time link: its person, or None when it is unknown, used or expired. One
    conditional update, so two processes (or two clicks) can never both use it."""
    result = await session.execute(
        update(DeviceLink)
        .where(
            DeviceLink.token_hash == token_hash,
            DeviceLink.used.is_(None),
            DeviceLink.expires > now,
        )
        .values(used=now)
        .returning(DeviceLink.user_id)
    )
    return result.scalar_one_or_none()


# ---- finished games ---------------------------------------------------------------------------


@dataclass
class PlayedGame:
    """One finished game of a person, for "Your games" and profiles."""

    slug: str
    game_id: str
    finished: datetime
    private: bool
    invite_code: str | None
    players: list[str]
    seat: int
    place: int | None
    won: bool
    of: int


async def played_games(
    session: AsyncSession,
    user_id: int,
    *,
    game_id: str | None = None,
    public_only: bool = False,
    limit: int = 20,
    offset: int = 0,
) -> tuple[list[PlayedGame], int]:
    """The person's finished games, newest first (one page), and how many there are. Served
    by the seats(user_id) and games(status, updated_at) indexes."""
    query = (
        select(Room, Game, SeatRow.seat)
        .join(SeatRow, SeatRow.room_id == Room.id)
        .join(Game, Game.room_id == Room.id)
        .where(SeatRow.user_id == user_id, Game.status == "finished")
    )
    if game_id:
        query = query.where(Room.game_id == game_id)
    if public_only:
        query = query.where(Room.private.is_(False))
    total = int(
        (await session.execute(select(func.count()).select_from(query.subquery()))).scalar_one()
    )
    rows = (
        await session.execute(
            query.order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit).offset(offset)
        )
    ).all()
    names: dict[int, dict[int, str]] = {}
    room_ids = [room.id for room, _, _ in rows]
    if room_ids:
        seats = await session.execute(
            select(SeatRow.room_id, SeatRow.seat, SeatRow.bot_level, User.name)
            .outerjoin(User, User.id == SeatRow.user_id)
            .where(SeatRow.room_id.in_(room_ids))
        )
        for room_id, seat, bot_level, name in seats.all():
            shown = SeatInfo(seat, None, name or "", bot_level).shown_name
            names.setdefault(room_id, {})[seat] = shown
    games = []
    for room, game, seat in rows:
        result = game.result or {}
        ranks = {int(k): int(v) for k, v in (result.get("ranks") or {}).items()}
        winners = set(result.get("winners") or [])
        players = names.get(room.id, {})
        games.append(
            PlayedGame(
                room.slug,
                room.game_id,
                game.updated_at,
                room.private,
                room.invite_code if room.private else None,
                [players[s] for s in sorted(players)],
                seat,
                ranks.get(seat),
                seat in winners,
                game.num_players,
            )
        )
    return games, total


async def game_stats(
    session: AsyncSession, user_id: int, public_only: bool
) -> list[dict[str, Any]]:
    """Per game: finished games played, won, and the average place."""
    query = (
        select(Room.game_id, Game.result, SeatRow.seat)
        .join(SeatRow, SeatRow.room_id == Room.id)
        .join(Game, Game.room_id == Room.id)
        .where(SeatRow.user_id == user_id, Game.status == "finished")
    )
    if public_only:
        query = query.where(Room.private.is_(False))
    rows = await session.execute(query)
    stats: dict[str, dict[str, Any]] = {}
    for game_id, result, seat in rows.all():
        entry = stats.setdefault(game_id, {"game": game_id, "played": 0, "won": 0, "places": []})
        entry["played"] += 1
        result = result or {}
        if seat in (result.get("winners") or []):
            entry["won"] += 1
        place = (result.get("ranks") or {}).get(str(seat))
        if place is not None:
            entry["places"].append(int(place))
    out = []
    for entry in sorted(stats.values(), key=lambda e: -e["played"]):
        places = entry.pop("places")
        entry["average_place"] = round(sum(places) / len(places), 2) if places else None
        out.append(entry)
    return out


async def store_imported_moves(
    session: AsyncSession,
    game_id: int,
    actions: list[dict[str, Any]],
    events: list[list[dict[str, Any]]],
    result: dict[str, Any],
) -> None:
    """An imported game's moves at once, and the game marked finished at its last version."""
    session.add_all(
        Move(game_id=game_id, seq=i + 1, seat=int(a["seat"]), action=a["action"], events=e)
        for i, (a, e) in enumerate(zip(actions, events, strict=True))
    )
    await session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(version=len(actions), status="finished", result=result, updated_at=utcnow())
    )
    await session.flush()
