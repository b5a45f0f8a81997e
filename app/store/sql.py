"""The store through SQLAlchemy: SQLite, and PostgreSQL for what has no faster form there.

Each table change is one transaction that first claims the table's row at the status the
caller knows (`tables.claim_table`): the second of two processes waits for the first, then sees
its change and loses (`Conflict`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.push import outbox
from app.push.notices import Notice
from app.ratings import store as ratings
from app.store import games, moves, people, tables
from app.store.base import Conflict, MoveWrite, NewGuest, NotFound, Seated, Started
from app.store.engine import SessionFactory
from app.store.models import Game, Room
from app.store.notes import add_table_event
from app.store.rows import insert_row
from app.store.tables import SeatInfo
from engines.core import Event


class SqlStore:
    """`Store` on a SQLAlchemy session factory."""

    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions

    async def close(self) -> None:
        """Nothing beside the engine to let go of."""

    @asynccontextmanager
    async def _claimed(self, room_id: int, at_status: str) -> AsyncIterator[AsyncSession]:
        """A transaction that holds the table's row at `at_status` (`Conflict` if the table
        moved on; a seat or person taken meanwhile breaks a unique constraint: `Conflict`)."""
        try:
            async with self.sessions.begin() as session:
                if not await tables.claim_table(session, room_id, at_status):
                    raise Conflict
                yield session
        except IntegrityError:
            raise Conflict from None

    # ---- tables and seats

    async def create_table(self, session: AsyncSession, room: Room, host: SeatInfo) -> Room:
        await insert_row(session, room)
        assert host.user_id is not None
        await tables.add_seat(session, room.id, host.seat, host.user_id)
        return room

    async def take_seat(
        self, room_id: int, at_status: str, seat: int, user_id: int | None, bot_level: str | None
    ) -> dict[int, ratings.Standing] | None:
        async with self._claimed(room_id, at_status) as session:
            if bot_level is None:
                assert user_id is not None
                await tables.add_seat(session, room_id, seat, user_id)
            else:
                await tables.add_bot(session, room_id, seat, bot_level)
        return None

    async def leave_seat(self, room_id: int, at_status: str, user_id: int) -> None:
        async with self._claimed(room_id, at_status) as session:
            await tables.remove_seat(session, room_id, user_id)

    async def free_seat(self, room_id: int, at_status: str, seat: int) -> None:
        async with self._claimed(room_id, at_status) as session:
            await tables.remove_seat_at(session, room_id, seat)

    async def close_table(self, room_id: int, at_status: str) -> None:
        async with self._claimed(room_id, at_status) as session:
            await tables.set_table(session, room_id, status="closed")

    async def table_now(self, room_id: int) -> tuple[str, dict[int, SeatInfo]]:
        async with self.sessions() as session:
            status = (
                await session.execute(select(Room.status).where(Room.id == room_id))
            ).scalar_one_or_none()
            if status is None:
                raise NotFound
            return status, {s.seat: s for s in await tables.table_seats(session, room_id)}

    async def create_rematch(
        self, room: Room, seats: list[SeatInfo], of_room: int, note: tuple[int, Event] | None
    ) -> None:
        async with self.sessions.begin() as session:
            await insert_row(session, room)
            for info in seats:
                if info.bot_level is None:
                    assert info.user_id is not None
                    await tables.add_seat(session, room.id, info.seat, info.user_id)
                else:
                    await tables.add_bot(session, room.id, info.seat, info.bot_level)
            if not await tables.set_rematch(session, of_room, room.slug):
                raise Conflict  # rolls the new room back
        if note is not None:
            async with self.sessions.begin() as session:
                await add_table_event(session, of_room, *note)

    async def ratings_of(self, game: str, user_ids: list[int]) -> dict[int, ratings.Standing]:
        if not user_ids:
            return {}
        async with self.sessions() as session:
            return await ratings.ratings_of(session, game, user_ids)

    # ---- games and moves

    async def start(
        self,
        game: Game,
        seated: Seated,
        opening: Event,
        compact: list[SeatInfo] | None,
        pushes: tuple[Notice, ...] = (),
    ) -> Started:
        room_id = game.room_id
        async with self._claimed(room_id, "open") as session:
            stored = await tables.table_seats(session, room_id)
            if {s.seat: (s.user_id, s.bot_level) for s in stored} != seated:
                raise Conflict  # someone sat down or left through another process
            if compact is not None:
                await tables.compact_seats(session, room_id, compact)
            await tables.set_table(session, room_id, status="playing", num_seats=game.num_players)
            await games.create_game(session, game)
            await add_table_event(session, room_id, 0, opening)
            if pushes:
                await outbox.enqueue(session, pushes)
            if compact is not None:
                stored = await tables.table_seats(session, room_id)
        # Whether the pushes found a subscriber is not read back here: a wake too many costs
        # the sender one look at the outbox.
        return Started(stored, bool(pushes))

    async def record_move(self, write: MoveWrite) -> None:
        move, room_id = write.move, write.room_id
        try:
            async with self.sessions.begin() as session:
                if not await moves.record_move(session, move, write.result):
                    raise Conflict
                for note in write.notes:
                    await add_table_event(session, room_id, move.from_version + 1, note)
                if write.away:
                    await tables.set_control(session, room_id, move.seat, "away")
                if write.result is not None:
                    await tables.set_table(session, room_id, status="finished")
                    if write.rating is not None:
                        await ratings.record_result(session, write.rating)
                if write.pushes:
                    await outbox.enqueue(session, write.pushes)
        except IntegrityError:  # the game was rated already: nothing of this is written
            raise Conflict from None

    # ---- people

    async def new_guest(self, session: AsyncSession, name: str, agent: str, now: float) -> NewGuest:
        user = await people.create_user(session, name)
        device = await people.create_device(session, user.id, agent, now)
        return NewGuest(user, device.id, committed=False)

    async def signed_in(self, device_id: str, user_id: int) -> people.SignedIn | None:
        async with self.sessions() as session:
            return await people.signed_in(session, device_id, user_id)

    async def touch_device(self, device_id: str, now: float) -> None:
        async with self.sessions.begin() as session:
            await people.touch_device(session, device_id, now)
