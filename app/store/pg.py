"""The store on PostgreSQL: the hot writes as one statement each (or one short transaction)
on a small asyncpg pool of its own, outside SQLAlchemy; everything else as `SqlStore`.

A checkout, AUTOCOMMIT and a compiled statement through SQLAlchemy cost about twice the CPU of
the statement itself, and a BEGIN … COMMIT transaction costs two more round trips: a move
(group-committed, `writer.MoveWriter`), the last move, a seat taken, a new guest, a new table
or rematch and a start go here. A dead connection fails one write; the pool replaces it."""

from __future__ import annotations

import asyncpg
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from app.push import outbox
from app.push.notices import Notice
from app.ratings.model import Rating
from app.ratings.store import Standing, ratings_of_at_once
from app.store import games, moves, people, tables
from app.store.base import Conflict, MoveWrite, NewGuest, NotFound, Seated, Started, Store
from app.store.engine import SessionFactory
from app.store.lite import LiteStore
from app.store.models import Game, Room
from app.store.sql import SqlStore
from app.store.tables import SeatInfo
from app.store.writer import MoveWriter
from engines.core import Event


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The pool's connections only ever run autocommit statements (or a transaction they
    end): no session state to reset when one goes back to the pool. (asyncpg still rolls back
    an open transaction; without this it also sent `RESET ALL`, `UNLISTEN *`… — a round trip
    per move.)"""


async def open_pool(url: str, size: int) -> asyncpg.Pool | None:
    """An asyncpg pool for a PostgreSQL `url` (SQLAlchemy form), None for another database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return None
    dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    return await asyncpg.create_pool(
        dsn, min_size=1, max_size=max(1, size), reset=_nothing_to_reset
    )


async def open_store(url: str, sessions: SessionFactory, size: int) -> Store:
    """The store for the database at `url`: `PgStore` with a pool of `size` connections on
    PostgreSQL, `LiteStore` on a SQLite file, else `SqlStore`."""
    if make_url(url).get_backend_name() == "sqlite":
        return LiteStore(sessions, url)
    pool = await open_pool(url, size)
    if pool is None:
        return SqlStore(sessions)
    return PgStore(sessions, pool)


class PgStore(SqlStore):
    """`Store` on PostgreSQL (see the module)."""

    def __init__(self, sessions: SessionFactory, pool: asyncpg.Pool) -> None:
        super().__init__(sessions)
        self.pool = pool
        self.writer = MoveWriter(pool)

    async def close(self) -> None:
        await self.pool.close()

    async def create_table(self, session: AsyncSession, room: Room, host: SeatInfo) -> Room:
        async with self.pool.acquire() as conn:
            await tables.create_table_at_once(conn, room, [host])
        return room

    async def take_seat(
        self, room_id: int, at_status: str, seat: int, user_id: int | None, bot_level: str | None
    ) -> dict[int, Standing]:
        async with self.pool.acquire() as conn:
            row = await tables.add_seat_at_once(conn, room_id, at_status, seat, user_id, bot_level)
        if row is None:
            raise Conflict
        _, game, mu, sigma, games = row
        if user_id is None or mu is None:
            return {}
        return {user_id: Standing(game, Rating(mu, sigma), games)}

    async def ratings_of(self, game: str, user_ids: list[int]) -> dict[int, Standing]:
        if not user_ids:
            return {}
        async with self.pool.acquire() as conn:
            return await ratings_of_at_once(conn, game, user_ids)

    async def table_now(self, room_id: int) -> tuple[str, dict[int, SeatInfo]]:
        async with self.pool.acquire() as conn:
            now = await tables.table_now_at_once(conn, room_id)
        if now is None:
            raise NotFound
        return now

    async def create_rematch(
        self, room: Room, seats: list[SeatInfo], of_room: int, note: tuple[int, Event] | None
    ) -> None:
        if note is None:
            return await super().create_rematch(room, seats, of_room, note)
        async with self.pool.acquire() as conn:
            if not await tables.create_table_at_once(conn, room, seats, of_room, note):
                raise Conflict

    async def start(
        self,
        game: Game,
        seated: Seated,
        opening: Event,
        compact: list[SeatInfo] | None,
        pushes: tuple[Notice, ...] = (),
    ) -> Started:
        if compact is not None:  # seats to renumber: the transaction of `SqlStore`
            return await super().start(game, seated, opening, compact, pushes)
        async with self.pool.acquire() as conn:
            pushed = await games.start_at_once(conn, game, seated, opening, pushes)
        if pushed is None:
            raise Conflict
        return Started(None, pushed > 0)

    async def record_move(self, write: MoveWrite) -> None:
        if write.notes or write.away or write.rating is not None:
            # with what goes with it (a rated game's ratings too): the transaction of `SqlStore`
            return await super().record_move(write)
        move, result = write.move, write.result
        if write.pushes:  # the move and its push notices' outbox rows: one short transaction
            async with self.pool.acquire() as conn, conn.transaction():
                if result is None:
                    stored = await moves.record_move_at_once(conn, move)
                else:
                    stored = await moves.record_last_move_at_once(conn, move, result)
                if stored:
                    await outbox.enqueue_at_once(conn, write.pushes)
            if not stored:
                raise Conflict
            return
        if result is None:
            stored = await self.writer.record(move)
        else:  # at once, outside the batches (a game's moves come one at a time)
            async with self.pool.acquire() as conn:
                stored = await moves.record_last_move_at_once(conn, move, result)
        if not stored:
            raise Conflict

    async def new_guest(self, session: AsyncSession, name: str, agent: str, now: float) -> NewGuest:
        device_id = people.new_device_id()
        async with self.pool.acquire() as conn:
            user = await people.new_guest_at_once(conn, name, device_id, agent, now)
        return NewGuest(user, device_id, committed=True)

    async def signed_in(self, device_id: str, user_id: int) -> people.SignedIn | None:
        async with self.pool.acquire() as conn:
            return await people.signed_in_at_once(conn, device_id, user_id)

    async def touch_device(self, device_id: str, now: float) -> None:
        async with self.pool.acquire() as conn:
            await people.touch_device_at_once(conn, device_id, now)
