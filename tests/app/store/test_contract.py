"""The store's contract: every operation of `Store`, run against each implementation on a
real database (SQLAlchemy on SQLite and on PostgreSQL, and `PgStore`), with the same
observable results, including the races a write can lose (`Conflict`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.ratings.model import Rating
from app.ratings.store import Standing
from app.store import moves, notes, people, tables
from app.store.base import Conflict, MoveWrite, NotFound, Store
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import Device, Game, Move, RatingRow, Room, User
from app.store.pg import PgStore, open_store
from app.store.sql import SqlStore
from engines.core import Event
from tests.app.store import records
from tests.conftest import scratch_postgres


@pytest.fixture(params=["sqlite", "postgres-sqlalchemy", "postgres-asyncpg"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A store on a freshly migrated database, of the kind the parameter names."""
    async with _database(request.param, tmp_path) as url:
        await upgrade_database(url)
        engine = make_engine(url)
        sessions = make_session_factory(engine)
        made = await open_store(url, sessions, 4)
        if request.param == "postgres-sqlalchemy":
            await made.close()
            made = SqlStore(sessions)
        assert isinstance(made, PgStore) == (request.param == "postgres-asyncpg")
        try:
            yield made
        finally:
            await made.close()
            await engine.dispose()


def _database(kind: str, tmp_path: Path) -> Any:
    if kind == "sqlite":

        class Local:
            async def __aenter__(self) -> str:
                return f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"

            async def __aexit__(self, *_: object) -> None:
                return None

        return Local()
    return scratch_postgres()


async def person(store: Store, name: str) -> int:
    async with store.sessions.begin() as session:
        return (await people.create_user(session, name)).id


async def persons(store: Store, *names: str) -> list[int]:
    """A person of each name, in order."""
    return [await person(store, name) for name in names]


async def table(store: Store, host: int, seats: int = 4) -> Room:
    """An open table of `seats` seats, its host in seat 0 (committed)."""
    room = tables.new_table(
        host_id=host,
        game_id="incan_gold",
        options={},
        num_seats=seats,
        private=False,
        clock="none",
        bot_level="normal",
    )
    async with store.sessions.begin() as session:
        made = await store.create_table(session, room, tables.SeatInfo(0, host, ""))
    return made


def seating(seats: dict[int, tables.SeatInfo]) -> dict[int, tuple[int | None, str | None]]:
    return {s: (info.user_id, info.bot_level) for s, info in seats.items()}


async def status_of(store: Store, room_id: int) -> str:
    return (await store.table_now(room_id))[0]


async def seats_of(store: Store, room_id: int) -> dict[int, tables.SeatInfo]:
    return (await store.table_now(room_id))[1]


def a_game(room_id: int, players: int) -> Game:
    return records.a_game(room_id, players, clock={"deadline": None}, opening=[{"text": "setup"}])


OPENING = Event.public("The game begins.")


async def started(store: Store, players: int = 2) -> tuple[Room, Game]:
    """A table of `players` people, started (its game at version 0)."""
    host = await person(store, "Host")
    room = await table(store, host, players)
    for seat in range(1, players):
        await store.take_seat(room.id, "open", seat, await person(store, f"P{seat}"), None)
    game = a_game(room.id, players)
    await store.start(game, seating(await seats_of(store, room.id)), OPENING, None)
    return room, game


def a_move(game: Game, from_version: int, seat: int = 0) -> moves.MoveRecord:
    return moves.MoveRecord(
        game_id=game.id,
        from_version=from_version,
        seat=seat,
        action={"type": "go", "n": from_version},
        events=[{"text": "moved"}],
        snapshot={"at": from_version + 1},
        clock={"deadline": 5.0},
    )


async def stored_game(store: Store, game_id: int) -> tuple[Game, list[Move]]:
    async with store.sessions() as session:
        game = (await session.execute(select(Game).where(Game.id == game_id))).scalar_one()
        return game, await moves.game_moves(session, game_id)


async def log_of(store: Store, room_id: int) -> list[tuple[int, str]]:
    async with store.sessions() as session:
        return [(e.version, e.text) for e in await notes.table_events(session, room_id)]


# ---- tables and seats ---------------------------------------------------------------------


async def test_a_new_table_has_its_host_in_seat_0(store: Store) -> None:
    host = await person(store, "Ada")
    room = await table(store, host)
    async with store.sessions() as session:
        again = await tables.get_table(session, room.slug)
    assert again is not None and again.id == room.id and again.status == "open"
    assert (again.invite_code, again.host_id, again.num_seats) == (room.invite_code, host, 4)
    assert await store.table_now(room.id) == ("open", {0: tables.SeatInfo(0, host, "Ada")})


async def test_seats_are_taken_and_given_up(store: Store) -> None:
    host, bea = await persons(store, "Host", "Bea")
    room = await table(store, host)
    await store.take_seat(room.id, "open", 2, bea, None)
    await store.take_seat(room.id, "open", 3, None, "hard")
    assert await seats_of(store, room.id) == {
        0: tables.SeatInfo(0, host, "Host"),
        2: tables.SeatInfo(2, bea, "Bea"),
        3: tables.SeatInfo(3, None, tables.bot_name(3, "hard"), "hard"),
    }
    await store.leave_seat(room.id, "open", bea)
    await store.free_seat(room.id, "open", 3)
    assert list(await seats_of(store, room.id)) == [0]
    await store.close_table(room.id, "open")
    assert await status_of(store, room.id) == "closed"


async def test_a_taken_seat_a_seated_person_or_a_moved_table_is_a_conflict(store: Store) -> None:
    host, bea, cy = await persons(store, "Host", "Bea", "Cy")
    room = await table(store, host)
    await store.take_seat(room.id, "open", 1, bea, None)
    before = await store.table_now(room.id)
    with pytest.raises(Conflict):
        await store.take_seat(room.id, "open", 1, cy, None)  # the seat is taken
    with pytest.raises(Conflict):
        await store.take_seat(room.id, "open", 2, bea, None)  # she sits already
    with pytest.raises(Conflict):
        await store.take_seat(room.id, "open", 1, None, "easy")  # a bot in a taken seat
    with pytest.raises(Conflict):
        await store.take_seat(room.id, "playing", 2, cy, None)  # the table is not at that status
    with pytest.raises(Conflict):
        await store.leave_seat(room.id, "playing", bea)
    with pytest.raises(Conflict):
        await store.free_seat(room.id, "playing", 1)
    with pytest.raises(Conflict):
        await store.close_table(room.id, "finished")
    assert await store.table_now(room.id) == before


async def test_two_writers_racing_for_a_seat_one_wins(store: Store) -> None:
    host, bea, cy = await persons(store, "Host", "Bea", "Cy")
    room = await table(store, host)
    outcomes = await asyncio.gather(
        store.take_seat(room.id, "open", 1, bea, None),
        store.take_seat(room.id, "open", 1, cy, None),
        return_exceptions=True,
    )
    assert sorted(isinstance(o, Conflict) for o in outcomes) == [False, True]
    winner = cy if isinstance(outcomes[0], Conflict) else bea
    assert (await seats_of(store, room.id))[1].user_id == winner


async def test_a_seat_taken_comes_with_the_person_s_rating_or_none(store: Store) -> None:
    """`take_seat` answers the seated person's rating in the table's game when it read it
    with the seat (PostgreSQL's statement), or None (the caller reads it): either way what
    `ratings_of` answers — a person without rated games in this game, and a bot, have none."""
    host, bea, cy = await persons(store, "Host", "Bea", "Cy")
    async with store.sessions.begin() as session:
        session.add(RatingRow(user_id=bea, game="incan_gold", mu=30.5, sigma=4.25, games=7))
        session.add(RatingRow(user_id=cy, game="high_card", mu=40.0, sigma=3.0, games=9))
    room = await table(store, host)
    answers = [
        await store.take_seat(room.id, "open", 1, bea, None),
        await store.take_seat(room.id, "open", 2, cy, None),
        await store.take_seat(room.id, "open", 3, None, "easy"),
    ]
    if isinstance(store, PgStore):
        assert answers == [{bea: Standing("incan_gold", Rating(30.5, 4.25), 7)}, {}, {}]
    else:
        assert answers == [None, None, None]
    assert await store.ratings_of("incan_gold", [host, bea, cy]) == {
        bea: Standing("incan_gold", Rating(30.5, 4.25), 7)
    }
    assert await store.ratings_of("incan_gold", []) == {}


async def test_a_table_that_is_not_there_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.table_now(10**9)


# ---- the start ----------------------------------------------------------------------------


async def test_a_start_stores_the_game_and_its_opening_line(store: Store) -> None:
    room, game = await started(store, 3)
    assert game.id is not None
    assert await status_of(store, room.id) == "playing"
    stored, played = await stored_game(store, game.id)
    assert (stored.room_id, stored.version, stored.status, stored.num_players) == (
        room.id,
        0,
        "playing",
        3,
    )
    assert stored.snapshot == {"deck": [1, 2]} and stored.opening == [{"text": "setup"}]
    assert stored.clock == {"deadline": None} and played == []
    assert await log_of(store, room.id) == [(0, "The game begins.")]
    async with store.sessions() as session:
        assert (await session.get(Room, room.id)).num_seats == 3  # type: ignore[union-attr]


async def test_a_start_short_handed_renumbers_the_seats(store: Store) -> None:
    host, bea = await persons(store, "Host", "Bea")
    room = await table(store, host)
    await store.take_seat(room.id, "open", 2, bea, None)
    await store.take_seat(room.id, "open", 3, None, "easy")
    seats = await seats_of(store, room.id)
    order = [seats[s] for s in sorted(seats)]
    back, pushed = await store.start(a_game(room.id, 3), seating(seats), OPENING, order)
    assert not pushed  # no push notices given
    expected = {
        0: tables.SeatInfo(0, host, "Host"),
        1: tables.SeatInfo(1, bea, "Bea"),
        2: tables.SeatInfo(2, None, tables.bot_name(2, "easy"), "easy"),
    }
    assert back is not None and {s.seat: s for s in back} == expected
    assert await store.table_now(room.id) == ("playing", expected)


async def test_a_start_that_lost_a_race_writes_nothing(store: Store) -> None:
    host, bea, cy = await persons(store, "Host", "Bea", "Cy")
    room = await table(store, host)
    await store.take_seat(room.id, "open", 1, bea, None)
    decided = seating(await seats_of(store, room.id))
    await store.take_seat(room.id, "open", 2, cy, None)  # through another process, meanwhile
    with pytest.raises(Conflict):
        await store.start(a_game(room.id, 2), decided, OPENING, None)
    assert await status_of(store, room.id) == "open"
    assert await log_of(store, room.id) == []
    # Two starts at once: one game.
    seats = seating(await seats_of(store, room.id))
    outcomes = await asyncio.gather(
        store.start(a_game(room.id, 3), seats, OPENING, None),
        store.start(a_game(room.id, 3), seats, OPENING, None),
        return_exceptions=True,
    )
    assert sum(isinstance(o, Conflict) for o in outcomes) == 1
    assert not any(isinstance(o, BaseException) and not isinstance(o, Conflict) for o in outcomes)
    async with store.sessions() as session:
        assert len((await session.execute(select(Game).where(Game.room_id == room.id))).all()) == 1
    assert await log_of(store, room.id) == [(0, "The game begins.")]
    with pytest.raises(Conflict):  # no longer open
        await store.start(a_game(room.id, 3), seats, OPENING, None)


# ---- moves --------------------------------------------------------------------------------


async def test_a_move_is_appended_with_the_new_snapshot(store: Store) -> None:
    room, game = await started(store)
    await store.record_move(MoveWrite(room.id, a_move(game, 0)))
    await store.record_move(MoveWrite(room.id, a_move(game, 1, seat=1)))
    stored, played = await stored_game(store, game.id)
    assert (stored.version, stored.status, stored.result) == (2, "playing", None)
    assert stored.snapshot == {"at": 2} and stored.clock == {"deadline": 5.0}
    assert [(m.seq, m.seat, m.action, m.events) for m in played] == [
        (1, 0, {"type": "go", "n": 0}, [{"text": "moved"}]),
        (2, 1, {"type": "go", "n": 1}, [{"text": "moved"}]),
    ]
    assert await status_of(store, room.id) == "playing"


async def test_a_move_from_a_stale_version_is_a_conflict(store: Store) -> None:
    room, game = await started(store)
    await store.record_move(MoveWrite(room.id, a_move(game, 0)))
    for result in (None, {"winners": [0]}):
        with pytest.raises(Conflict):
            await store.record_move(MoveWrite(room.id, a_move(game, 0, seat=1), result))
    with pytest.raises(Conflict):
        note = Event.public("%(who)s ran out of time.", who=1)
        await store.record_move(MoveWrite(room.id, a_move(game, 0, seat=1), None, [note], True))
    stored, played = await stored_game(store, game.id)
    assert stored.version == 1 and [m.seat for m in played] == [0]
    assert await log_of(store, room.id) == [(0, "The game begins.")]
    assert (await seats_of(store, room.id))[1].control is None
    assert await status_of(store, room.id) == "playing"


async def test_two_moves_from_one_version_one_is_stored(store: Store) -> None:
    room, game = await started(store)
    outcomes = await asyncio.gather(
        store.record_move(MoveWrite(room.id, a_move(game, 0, seat=0))),
        store.record_move(MoveWrite(room.id, a_move(game, 0, seat=1))),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "NoneType"]
    stored, played = await stored_game(store, game.id)
    assert stored.version == 1 and len(played) == 1
    assert played[0].seat == (0 if outcomes[0] is None else 1)


async def test_the_last_move_finishes_the_game_and_the_table(store: Store) -> None:
    room, game = await started(store)
    result = {"winners": [1], "ranks": {"0": 2, "1": 1}}
    await store.record_move(MoveWrite(room.id, a_move(game, 0), result))
    stored, played = await stored_game(store, game.id)
    assert (stored.version, stored.status, stored.result) == (1, "finished", result)
    assert len(played) == 1 and await status_of(store, room.id) == "finished"


async def test_a_move_with_notes_and_a_seat_sent_away(store: Store) -> None:
    room, game = await started(store)
    note = Event.public("%(who)s ran out of time.", who=1)
    await store.record_move(MoveWrite(room.id, a_move(game, 0, seat=1), None, [note], True))
    assert await log_of(store, room.id) == [(0, "The game begins."), (1, note.to_json()["text"])]
    seats = await seats_of(store, room.id)
    assert seats[1].control == "away" and seats[0].control is None
    result = {"winners": [0]}
    await store.record_move(MoveWrite(room.id, a_move(game, 1, seat=0), result, [note]))
    stored, _ = await stored_game(store, game.id)
    assert (stored.version, stored.status) == (2, "finished")
    assert await status_of(store, room.id) == "finished"
    assert (await log_of(store, room.id))[-1][0] == 2


# ---- rematch ------------------------------------------------------------------------------


async def test_a_rematch_is_linked_once(store: Store) -> None:
    old, _ = await started(store)
    host = (await seats_of(store, old.id))[1].user_id
    assert host is not None
    fields: dict[str, Any] = {
        "game_id": "incan_gold",
        "options": {},
        "num_seats": 2,
        "private": True,
        "clock": "none",
        "bot_level": "normal",
    }
    line = Event.public("%(who)s started a rematch.", who=1)
    room = tables.new_table(host_id=host, **fields)
    seats = [tables.SeatInfo(1, host, "P1"), tables.SeatInfo(0, None, "Bot", "easy")]
    await store.create_rematch(room, seats, old.id, (3, line))
    assert await store.table_now(room.id) == (
        "open",
        {
            0: tables.SeatInfo(0, None, tables.bot_name(0, "easy"), "easy"),
            1: tables.SeatInfo(1, host, "P1"),
        },
    )
    async with store.sessions() as session:
        linked = await tables.get_table(session, old.slug)
        made = await tables.get_table(session, room.slug)
    assert linked is not None and linked.rematch_slug == room.slug
    assert made is not None and made.id == room.id and made.invite_code == room.invite_code
    assert (await log_of(store, old.id))[-1] == (3, line.to_json()["text"])

    late = tables.new_table(host_id=host, **fields)
    with pytest.raises(Conflict):
        await store.create_rematch(late, seats[:1], old.id, (3, line))
    async with store.sessions() as session:
        assert await tables.get_table(session, late.slug) is None
        linked = await tables.get_table(session, old.slug)
    assert linked is not None and linked.rematch_slug == room.slug
    assert len(await log_of(store, old.id)) == 2


async def test_a_rematch_without_a_log_line(store: Store) -> None:
    old, _ = await started(store)
    host = (await seats_of(store, old.id))[0].user_id
    assert host is not None
    room = tables.new_table(
        host_id=host,
        game_id="incan_gold",
        options={},
        num_seats=2,
        private=False,
        clock="none",
        bot_level="normal",
    )
    await store.create_rematch(room, [tables.SeatInfo(0, host, "")], old.id, None)
    assert list(await seats_of(store, room.id)) == [0]
    assert await log_of(store, old.id) == [(0, "The game begins.")]


# ---- people -------------------------------------------------------------------------------


async def test_a_new_guest_is_a_person_on_a_new_device(store: Store) -> None:
    async with store.sessions() as session:
        guest = await store.new_guest(session, "Zoë", "Firefox " * 40, 1_800_000_000.0)
        await session.commit()
    assert guest.committed == isinstance(store, PgStore)
    async with store.sessions() as session:
        user = await session.get(User, guest.user.id)
        device = await session.get(Device, guest.device_id)
    assert user is not None and user.name == "Zoë" and user.language is None
    assert user.created_at == guest.user.created_at
    assert device is not None and device.user_id == user.id and device.revoked is None
    assert device.agent == ("Firefox " * 40)[:160]
    assert device.created == device.last_seen == 1_800_000_000.0


async def test_a_device_in_use_is_read_with_its_person(store: Store) -> None:
    """`signed_in`: the device's last use and its person's row, for its own person only and
    only until it is signed out; `touch_device` notes a new last use."""
    async with store.sessions() as session:
        guest = await store.new_guest(session, "Ada", "Firefox", 1_800_000_000.0)
        await session.commit()
    other = await person(store, "Bea")
    async with store.sessions.begin() as session:
        await people.set_language(session, guest.user.id, "pl")
        await people.set_gender(session, guest.user.id, "she")
    found = await store.signed_in(guest.device_id, guest.user.id)
    assert found is not None and found.last_seen == 1_800_000_000.0
    user = found.user
    assert user is not None
    assert (user.id, user.name, user.language, user.gender) == (guest.user.id, "Ada", "pl", "she")
    assert user.created_at == guest.user.created_at
    assert await store.signed_in(guest.device_id, other) is None
    assert await store.signed_in("no-such-device", guest.user.id) is None

    await store.touch_device(guest.device_id, 1_800_000_400.0)
    found = await store.signed_in(guest.device_id, guest.user.id)
    assert found is not None and found.last_seen == 1_800_000_400.0

    async with store.sessions.begin() as session:
        await people.revoke_devices(session, guest.user.id, 1_800_000_500.0)
    assert await store.signed_in(guest.device_id, guest.user.id) is None
