"""The database writes of the room path that skip the ORM's unit of work: plain INSERTs that
read their generated values back, and PostgreSQL's one-statement seat (claim + insert)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from app.push.notices import Notice
from app.store.engine import SessionFactory, make_engine, make_session_factory
from app.store.games import create_game, start_at_once
from app.store.migrate import upgrade_database
from app.store.models import ChatMessage, Game, Room, SeatRow, User
from app.store.moves import MoveRecord, record_last_move_at_once, record_move
from app.store.notes import add_chat, add_table_event, table_events
from app.store.people import create_user, get_user, list_devices
from app.store.pg import PgStore, open_pool
from app.store.tables import (
    SeatInfo,
    add_seat_at_once,
    bot_name,
    create_room,
    create_table_at_once,
    get_table,
    set_table,
    table_now_at_once,
    table_seats,
)
from app.store.tables import (
    new_table as unsaved_room,
)
from app.store.writer import MoveWriter
from engines.core import Event
from tests.app.store.records import a_game
from tests.clients import Player
from tests.conftest import Server
from tests.tables import app_of


@asynccontextmanager
async def migrated(url: str) -> AsyncIterator[SessionFactory]:
    """Sessions on a freshly migrated database."""
    await upgrade_database(url)
    engine = make_engine(url)
    try:
        yield make_session_factory(engine)
    finally:
        await engine.dispose()


async def new_table(
    session: AsyncSession, host_id: int, *, private: bool = False, game: bool = False
) -> tuple[Room, Game | None]:
    """An open Incan Gold room for 4 hosted by `host_id` (and its game at version 0)."""
    room = await create_room(
        session, host_id=host_id, game_id="incan_gold", options={}, num_seats=4, private=private
    )
    if not game:
        return room, None
    return room, await create_game(session, a_game(room.id, 4))


async def a_room_and_guests(url: str, guests: int) -> tuple[SessionFactory, User, list[User], Room]:
    """On a freshly migrated database: a host, `guests` more people (G0, G1, ...) and the
    host's open room, with the sessions they were written in."""
    async with migrated(url) as sessions, sessions.begin() as session:
        host = await create_user(session, "Host")
        people = [await create_user(session, f"G{i}") for i in range(guests)]
        room, _ = await new_table(session, host.id)
    return sessions, host, people, room


async def rooms_with_games(session: AsyncSession, count: int) -> list[tuple[int, int]]:
    """`count` rooms of one host, each with its game at version 0: (room id, game id)."""
    host = await create_user(session, "Host")
    made = []
    for _ in range(count):
        room, game = await new_table(session, host.id, game=True)
        assert game is not None
        made.append((room.id, game.id))
    return made


async def test_a_row_written_once_reads_back_what_the_database_holds(db_url: str) -> None:
    """`rows.insert_row` (users, rooms, games, chat…): the object it returns carries its key and
    every default it was not given, equal to the row loaded afresh, on both databases."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as session:
            user = await create_user(session, "Ala")
            room, game = await new_table(session, user.id, private=True, game=True)
            assert game is not None
            await add_table_event(session, room.id, 0, Event.public("The game begins."))
            line = await add_chat(
                session, room_id=room.id, user_id=user.id, name="Ala", seat=0, text="hi"
            )
        assert user.id and room.id and game.id and line.id
        async with sessions() as session:
            for made, model in ((user, User), (room, Room), (game, Game), (line, ChatMessage)):
                stored = await session.get(model, made.id)
                assert stored is not None
                for column in model.__table__.columns:
                    mine, theirs = getattr(made, column.key), getattr(stored, column.key)
                    if hasattr(mine, "tzinfo"):  # SQLite gives times back without a zone
                        mine, theirs = mine.replace(tzinfo=None), theirs.replace(tzinfo=None)
                    assert mine == theirs, (model.__name__, column.key, mine, theirs)
            assert room.status == "open" and room.clock == "none" and user.language is None
            seats = await table_seats(session, room.id)
            assert [(s.seat, s.user_id) for s in seats] == [(0, user.id)]
            events = await table_events(session, room.id)
            assert [e.text for e in events] == ["The game begins."]


async def test_a_seat_taken_in_one_statement_loses_to_a_start_or_a_taken_seat(
    pg_url: str,
) -> None:
    """PostgreSQL's `add_seat_at_once` (claim + insert as one statement): it seats when the
    room is open and the seat and person free, and writes nothing (None) when the seat or
    the person is taken, or when a start holding the room commits while it waits."""
    _, host, guests, room = await a_room_and_guests(pg_url, 3)
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn, other = await asyncpg.connect(dsn), await asyncpg.connect(dsn)

    async def seats() -> list[tuple[int, int | None, str | None]]:
        rows = await conn.fetch(
            "SELECT seat, user_id, bot_level FROM seats WHERE room_id = $1 ORDER BY seat",
            room.id,
        )
        return [(r["seat"], r["user_id"], r["bot_level"]) for r in rows]

    try:
        assert await add_seat_at_once(conn, room.id, "open", 1, guests[0].id, None)
        assert await add_seat_at_once(conn, room.id, "open", 2, None, "easy")
        assert not await add_seat_at_once(conn, room.id, "open", 1, guests[1].id, None)
        assert not await add_seat_at_once(conn, room.id, "open", 3, guests[0].id, None)
        assert not await add_seat_at_once(conn, room.id, "playing", 3, guests[1].id, None)
        assert await seats() == [(0, host.id, None), (1, guests[0].id, None), (2, None, "easy")]

        # A start holds the room's row; the seat waits for it, then sees it started.
        starting = other.transaction()
        await starting.start()
        await other.execute("UPDATE rooms SET status = 'playing' WHERE id = $1", room.id)
        waiting = asyncio.create_task(
            add_seat_at_once(conn, room.id, "open", 3, guests[2].id, None)
        )
        await asyncio.sleep(0.3)
        assert not waiting.done()  # blocked on the room's row, not decided from a snapshot
        await starting.commit()
        assert await asyncio.wait_for(waiting, 10) is None
        assert len(await seats()) == 3
        assert await conn.fetchval("SELECT status FROM rooms WHERE id = $1", room.id) == "playing"
    finally:
        await conn.close()
        await other.close()


async def test_a_rooms_status_and_seats_read_at_once_are_what_the_orm_reads(
    pg_url: str,
) -> None:
    """`table_now_at_once` (the catch-up before a room change, one statement) gives the
    status and seats that `get_table` and `table_seats` give: a person, a bot (its name made
    from seat and level), a bot playing for a person, an empty room, no room."""
    async with migrated(pg_url) as sessions, sessions.begin() as session:
        host = await create_user(session, "Host Ż")
        guest = await create_user(session, "Bea")
        room, _ = await new_table(session, host.id)
        empty, _ = await new_table(session, guest.id)
        await session.execute(delete(SeatRow).where(SeatRow.room_id == empty.id))  # no seats
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        assert await add_seat_at_once(conn, room.id, "open", 2, guest.id, None)
        assert await add_seat_at_once(conn, room.id, "open", 3, None, "hard")
        await conn.execute(
            "UPDATE seats SET control = 'away' WHERE room_id = $1 AND seat = 2", room.id
        )
        for r in (room, empty):
            async with sessions() as session:
                row = await get_table(session, r.slug)
                assert row is not None
                expected = (row.status, {s.seat: s for s in await table_seats(session, r.id)})
            assert await table_now_at_once(conn, r.id) == expected
        status, seats = await table_now_at_once(conn, room.id) or ("", {})
        assert status == "open" and sorted(seats) == [0, 2, 3]
        assert seats[3].name == bot_name(3, "hard") and seats[2].control == "away"
        assert await table_now_at_once(conn, 10**9) is None
    finally:
        await conn.close()


async def test_moves_that_come_together_are_written_together_and_judged_apart(
    pg_url: str,
) -> None:
    """Group commit (`MoveWriter.record`): moves of many games that come while a batch is
    being written go in one statement; each game is still judged alone (a stale version
    is refused, the others stored), and a move the database rejects fails only itself."""
    async with migrated(pg_url) as sessions, sessions.begin() as session:
        games = [game_id for _, game_id in await rooms_with_games(session, 12)]
    pool = await open_pool(pg_url, 4)
    assert pool is not None
    writer = MoveWriter(pool)
    writer.in_flight = 1

    def move(game_id: int, from_version: int, seat: int = 1) -> MoveRecord:
        return MoveRecord(
            game_id=game_id,
            from_version=from_version,
            seat=seat,
            action={"type": "torch"},
            events=[{"text": "x"}],
            snapshot={"at": from_version + 1},
            clock=None,
        )

    try:
        # Round 1: every game at version 0, one of them sent as if from version 5 (stale).
        answers = await asyncio.gather(
            *(writer.record(move(g, 5 if i == 3 else 0)) for i, g in enumerate(games))
        )
        assert answers == [i != 3 for i in range(len(games))]
        assert writer.batches < len(games)  # they went together, not one statement each
        # Round 2: while the stale game's first move is being written, the others come and
        # go together; one of them the database cannot take (a seat past its integer column).
        before = writer.batches
        results = await asyncio.gather(
            writer.record(move(games[3], 0)),
            *(
                writer.record(move(g, 1, seat=2**40 if i == 5 else 2))
                for i, g in enumerate(games)
                if i != 3
            ),
            return_exceptions=True,
        )
        assert isinstance(results[5], asyncpg.PostgresError | asyncpg.InterfaceError)
        assert results[:5] + results[6:] == [True] * (len(games) - 1)
        assert writer.batches == before + 2  # the first move alone, then all the others
        conn = await asyncpg.connect(pg_url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows = await conn.fetch("SELECT id, version, snapshot FROM games ORDER BY id")
            versions = {r["id"]: r["version"] for r in rows}
            moves = await conn.fetch("SELECT game_id, seq, seat FROM moves ORDER BY game_id, seq")
        finally:
            await conn.close()
        expected = {g: (1 if i in (3, 5) else 2) for i, g in enumerate(games)}
        assert versions == expected
        assert [(m["game_id"], m["seq"]) for m in moves] == sorted(
            (g, seq) for g, v in expected.items() for seq in range(1, v + 1)
        )
        assert all(m["seat"] == (1 if m["seq"] == 1 else 2) for m in moves)
    finally:
        await pool.close()


async def test_the_last_move_at_once_writes_what_the_orm_wrote(pg_url: str) -> None:
    """`record_last_move_at_once` (the move that ends a game, one statement): the same game
    row, move row and finished room as the ORM's transaction (`record_move` with the result,
    then `set_table`), and nothing at all when the game has moved on."""
    async with migrated(pg_url) as sessions, sessions.begin() as session:
        rooms = await rooms_with_games(session, 3)
        for room_id, _ in rooms:
            await set_table(session, room_id, status="playing")
    result = {"winners": [1], "scores": {"0": 3, "1": 9}}

    def last(game_id: int, from_version: int = 0) -> MoveRecord:
        return MoveRecord(
            game_id=game_id,
            from_version=from_version,
            seat=1,
            action={"type": "camp"},
            events=[{"text": "The game is over."}],
            snapshot={"over": True},
            clock={"deadline": None},
        )

    (orm_room, orm_game), (fast_room, fast_game), (stale_room, stale_game) = rooms
    async with sessions.begin() as session:
        assert await record_move(session, last(orm_game), result)
        await set_table(session, orm_room, status="finished")
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        assert await record_last_move_at_once(conn, last(fast_game), result)
        assert not await record_last_move_at_once(conn, last(stale_game, 4), result)

        async def stored(room_id: int, game_id: int) -> tuple[Any, ...]:
            game = await conn.fetchrow(
                "SELECT version, status, result::text, snapshot::text, clock::text"
                " FROM games WHERE id = $1",
                game_id,
            )
            moves = await conn.fetch(
                "SELECT seq, seat, action::text, events::text FROM moves WHERE game_id = $1",
                game_id,
            )
            status = await conn.fetchval("SELECT status FROM rooms WHERE id = $1", room_id)
            return tuple(game), [tuple(m) for m in moves], status

        orm, fast = await stored(orm_room, orm_game), await stored(fast_room, fast_game)
        assert [json_of(v) for v in orm[0]] == [json_of(v) for v in fast[0]]
        assert [[json_of(v) for v in m] for m in orm[1]] == [
            [json_of(v) for v in m] for m in fast[1]
        ]
        assert orm[2] == fast[2] == "finished" and fast[0][:2] == (1, "finished")
        stale = await stored(stale_room, stale_game)
        assert stale[0][:2] == (0, "playing") and stale[0][2] in (None, "null")
        assert stale[1:] == ([], "playing")
    finally:
        await conn.close()


def json_of(value: Any) -> Any:
    """A stored JSON text as data (the two paths may space it differently), else the value."""
    if isinstance(value, str) and value[:1] in "{[":
        return json.loads(value)
    return value


async def test_a_new_guest_is_one_statement_and_a_full_sign_in(server: Server) -> None:
    """A new guest (on PostgreSQL one statement for the person and the device; on SQLite the
    session's two rows): the cookie names a device stored with the browser's description,
    the guest can act under its name at once, and renaming is still the same person."""
    host = await Player(server.url, server.ws_url).login("Ada")
    r = await host.http.post("/api/tables", json={"game": "incan_gold", "seats": 3})
    assert r.status_code == 201, r.text
    slug = r.json()["slug"]
    seats = (await host.http.get(f"/api/tables/{slug}")).json()["seats"]
    assert seats[0]["name"] == "Ada"
    r = await host.http.post("/api/guest", json={"name": "Ada L."})
    me = r.json()
    assert r.status_code == 200 and me["name"] == "Ada L."
    seats = (await host.http.get(f"/api/tables/{slug}")).json()["seats"]
    assert seats[0]["name"] == "Ada L."
    async with app_of(server).state.sessions() as session:
        devices = await list_devices(session, me["id"])
        user = await get_user(session, me["id"])
    assert user is not None and user.name == "Ada L."
    assert len(devices) == 1 and devices[0].revoked is None
    assert devices[0].agent == host.http.headers["user-agent"][:160]
    await host.close()

    # On PostgreSQL a new guest's next request reads nothing: the process knows the device
    # it has just made, as the database has it (on SQLite the next request checks it).
    bea = Player(server.url, server.ws_url)
    r = await bea.http.post("/api/guest", json={"name": "Bea"})
    hubs = app_of(server).state.tables
    async with app_of(server).state.sessions() as session:
        (device,) = await list_devices(session, r.json()["id"])
        stored = await get_user(session, r.json()["id"])
    assert stored is not None
    kept = hubs.known.get(device.id, stored.id, hubs.runtime.now())
    if not isinstance(hubs.store, PgStore):
        assert kept is None
    else:
        assert kept is not None
        _same_row(kept, stored, User)
    await bea.close()


def _same_row(made: object, stored: object, model: type) -> None:
    for column in model.__table__.columns:  # type: ignore[attr-defined]
        mine, theirs = getattr(made, column.key), getattr(stored, column.key)
        assert mine == theirs, (model.__name__, column.key, mine, theirs)


async def _read_back(session: AsyncSession, model: type, made: Any) -> None:
    """The row of `made` as the database holds it equals the object, column by column."""
    stored: object = await session.get(model, made.id)
    assert stored is not None
    _same_row(made, stored, model)


async def test_a_room_made_at_once_and_a_rematch_linked_once(pg_url: str) -> None:
    """PostgreSQL's `create_table_at_once`: the room and its seats (a person and a bot) in one
    statement, read back equal to the object; as a rematch it links the finished room and
    writes its log line, and a second rematch of the same room writes nothing (False)."""
    async with migrated(pg_url) as sessions, sessions.begin() as session:
        host = await create_user(session, "Host")
        other_host = await create_user(session, "Other")
        old, _ = await new_table(session, host.id)
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        fields: dict[str, Any] = {"game_id": "incan_gold", "options": {"rounds": 5}}
        fields |= {"num_seats": 4, "private": True, "clock": "blitz", "bot_level": "hard"}
        room = unsaved_room(host_id=host.id, **fields)
        seats = [SeatInfo(2, host.id, "Host"), SeatInfo(3, None, "Bot", "easy")]
        line = Event.public("%(who)s started a rematch.", who="{p0}")
        assert await create_table_at_once(conn, room, seats, old.id, (41, line))
        async with sessions() as session:
            await _read_back(session, Room, room)
            placed = await table_seats(session, room.id)
            assert [(s.seat, s.user_id, s.bot_level) for s in placed] == [
                (2, host.id, None),
                (3, None, "easy"),
            ]
            linked = await get_table(session, old.slug)
            assert linked is not None and linked.rematch_slug == room.slug
            events = await table_events(session, old.id)
            assert [(e.version, e.text, e.params) for e in events] == [
                (41, "%(who)s started a rematch.", {"who": "{p0}"})
            ]

        late = unsaved_room(host_id=other_host.id, **fields)
        before = await conn.fetchval("SELECT count(*) FROM rooms")
        assert not await create_table_at_once(conn, late, seats[:1], old.id, (41, line))
        assert await conn.fetchval("SELECT count(*) FROM rooms") == before
        assert await conn.fetchval("SELECT count(*) FROM room_events") == 1
        assert await conn.fetchval("SELECT rematch_slug FROM rooms WHERE id = $1", old.id) == (
            room.slug
        )
    finally:
        await conn.close()


async def test_a_start_at_once_sees_a_seat_taken_while_it_waited(pg_url: str) -> None:
    """PostgreSQL's `start_at_once`: it claims the open room, checks its seats and stores the
    game and its opening line; when a join holds the room's row, the start waits, then sees
    the new seat (read after the claim) and writes nothing (None); a started room cannot
    start again. It says how many push outbox rows it wrote (none: nobody subscribed)."""
    sessions, host, guests, room = await a_room_and_guests(pg_url, 2)
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn, other = await asyncpg.connect(dsn), await asyncpg.connect(dsn)

    def game(players: int) -> Game:
        secret = {"seed_secret": "s", "seed_salt": "salt", "rules_version": "1"}
        return a_game(room.id, players, clock=None, opening=[{"text": "x"}], **secret)

    opening = Event.public("The game begins. Good luck! The shuffle is committed: %(c)s", c="c")
    try:
        assert await add_seat_at_once(conn, room.id, "open", 1, guests[0].id, None)
        seated: dict[int, tuple[int | None, str | None]] = {0: (host.id, None)}
        seated[1] = (guests[0].id, None)

        # A join holds the room's row; the start waits for it, then sees its seat.
        joining = other.transaction()
        await joining.start()
        await other.execute("UPDATE rooms SET status = status WHERE id = $1", room.id)
        await other.execute(
            "INSERT INTO seats (room_id, seat, user_id) VALUES ($1, 2, $2)", room.id, guests[1].id
        )
        waiting = asyncio.create_task(start_at_once(conn, game(2), seated, opening))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # blocked on the room's row
        await joining.commit()
        assert await asyncio.wait_for(waiting, 10) is None
        assert await conn.fetchval("SELECT status FROM rooms WHERE id = $1", room.id) == "open"
        assert await conn.fetchval("SELECT count(*) FROM games") == 0

        seated[2] = (guests[1].id, None)
        made = game(3)
        # Three notices; only the first guest is subscribed, to "start" alone.
        await conn.execute(
            "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, events, enabled,"
            " created) VALUES ($1, 'https://push.example/1', 'k', 'a', ',start,', true, 1)",
            guests[0].id,
        )
        notices = (
            Notice(guests[0].id, "start", room.id, 0, 1.0),
            Notice(guests[0].id, "turn", room.id, 0, 1.0),
            Notice(guests[1].id, "start", room.id, 0, 1.0),
        )
        assert await start_at_once(conn, made, seated, opening, notices) == 1
        assert await conn.fetchval("SELECT count(*) FROM push_outbox") == 1
        async with sessions() as session:
            await _read_back(session, Game, made)
            events = await table_events(session, room.id)
            assert [(e.version, e.text, e.params) for e in events] == [
                (0, opening.message, {"c": "c"})
            ]
        row = await conn.fetchrow("SELECT status, num_seats FROM rooms WHERE id = $1", room.id)
        assert tuple(row) == ("playing", 3)
        assert await start_at_once(conn, game(3), seated, opening) is None
        assert await conn.fetchval("SELECT count(*) FROM games") == 1
    finally:
        await conn.close()
        await other.close()
