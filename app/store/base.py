"""The store: the one interface the server writes tables, seats, games and moves through,
whichever database is behind it, and the outcomes a refused write ends in.

Two implementations: `SqlStore` (app/store/sql.py: SQLAlchemy, SQLite or PostgreSQL) and
`PgStore` (app/store/pg.py: PostgreSQL, the hot writes as single statements on an asyncpg
pool, everything else as `SqlStore`). `open_store` picks one for a database URL. Reads and the
writes that are the same everywhere are functions of the aggregate modules (`rooms`, `games`,
`moves`, `people`, `notes`, `lobby`, `history`) on a session from `Store.sessions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.push.notices import Notice
from app.ratings.model import RatedGame
from app.ratings.store import Standing
from app.store.engine import SessionFactory
from app.store.models import Game, Room, User
from app.store.moves import MoveRecord
from app.store.people import SignedIn
from app.store.tables import SeatInfo
from engines.core import Event


class Conflict(Exception):
    """The write lost a race: another writer (another process) changed the table or the game
    first, and nothing was written. The caller catches up with the database and may retry."""


class NotFound(Exception):
    """There is no such row (e.g. the table is gone)."""


Seated = dict[int, tuple[int | None, str | None]]
"""Who sits where at an open table: seat → (person's id, bot level); a person has no bot
level, a bot no id."""


@dataclass(frozen=True)
class MoveWrite:
    """A move to store at the table `room_id`, with what goes with it: the table's log
    `notes`, whether the seat is sent `away` (a bot plays it), and for the game's last move its
    `result`, and for the last move of a rated table the game to `rating` (app/ratings: written
    in the same transaction, so once)."""

    room_id: int
    move: MoveRecord
    result: dict[str, Any] | None = None
    notes: list[Event] = field(default_factory=list)
    away: bool = False
    pushes: tuple[Notice, ...] = ()
    """Web Push notices the move causes: their outbox rows are written in its transaction."""
    rating: RatedGame | None = None


class Started(NamedTuple):
    """What `Store.start` wrote beside the game."""

    seats: list[SeatInfo] | None
    """The seats as read from the database, or None when they are the ones the caller has."""
    pushed: bool
    """Whether push outbox rows were written (only then has the sender anything to look at:
    a notice goes only to persons subscribed to its kind)."""


@dataclass(frozen=True)
class NewGuest:
    """A guest just made, signed in on a new device."""

    user: User
    device_id: str
    committed: bool
    """Already committed (True), or written in the caller's session, which commits it."""


class Store(Protocol):
    """Every write whose form depends on the database, each in its own transaction (unless it
    takes the caller's `session`). Refusals: `Conflict` when another writer got there first."""

    sessions: SessionFactory
    """Sessions for the reads and the writes that are the same on every database."""

    async def close(self) -> None:
        """Let go of what the store holds beside the engine (the asyncpg pool)."""

    # ---- tables and seats

    async def create_table(self, session: AsyncSession, room: Room, host: SeatInfo) -> Room:
        """Store a new open `room` (made by `tables.new_table`; its id is set) with its host in
        `host.seat`; in `session` (the caller commits) or committed at once."""

    async def take_seat(
        self, room_id: int, at_status: str, seat: int, user_id: int | None, bot_level: str | None
    ) -> dict[int, Standing] | None:
        """Seat a person (or a bot, `bot_level`) if the table is still at `at_status` and the
        seat and the person are free; else `Conflict`. The person's rating in the table's game
        if this store read it with the seat (`ratings_of`'s answer: empty without one, and for
        a bot), None if it did not (the caller reads it)."""

    async def leave_seat(self, room_id: int, at_status: str, user_id: int) -> None:
        """Unseat a person if the table is still at `at_status`; else `Conflict`."""

    async def free_seat(self, room_id: int, at_status: str, seat: int) -> None:
        """Empty a seat (a bot's) if the table is still at `at_status`; else `Conflict`."""

    async def close_table(self, room_id: int, at_status: str) -> None:
        """Mark the table closed if it is still at `at_status`; else `Conflict`."""

    async def table_now(self, room_id: int) -> tuple[str, dict[int, SeatInfo]]:
        """The table's status and occupied seats as the database has them now; `NotFound`."""

    async def create_rematch(
        self, room: Room, seats: list[SeatInfo], of_room: int, note: tuple[int, Event] | None
    ) -> None:
        """Store `room` (made by `tables.new_table`) with `seats` (its host first, then bots) as
        the rematch of the finished table `of_room`, linked to it, and `note` (version, line)
        in that table's log; `Conflict` (nothing written) if a rematch was linked first."""

    async def ratings_of(self, game: str, user_ids: list[int]) -> dict[int, Standing]:
        """The ratings in `game` of the persons `user_ids` that have one (`ratings_of`)."""

    # ---- games and moves

    async def start(
        self,
        game: Game,
        seated: Seated,
        opening: Event,
        compact: list[SeatInfo] | None,
        pushes: tuple[Notice, ...] = (),
    ) -> Started:
        """Start the open table of `game` (made by `games.new_game`; its id is set): claim it
        as playing with `game.num_players` seats, check its seats are still `seated` (seat:
        user id, bot level), renumber them 0..k-1 in the order of `compact` if given, store
        the game and its `opening` log line, and the outbox rows of the push `pushes` (in
        the same transaction). Returns the seats as read from the database (None when they
        are the ones the caller has) and whether outbox rows were written. `Conflict`
        (nothing written) if the table is no longer open or someone sat down or left
        meanwhile."""

    async def record_move(self, write: MoveWrite) -> None:
        """Append `write.move` and the game's new snapshot if the game is still at
        `move.from_version`, with what goes with it: the table's log `notes`, the seat sent
        `away` (a bot plays it), and for the last move the game's `result` and the table
        finished. `Conflict` (nothing written) if another writer got there first."""

    # ---- people

    async def new_guest(self, session: AsyncSession, name: str, agent: str, now: float) -> NewGuest:
        """A new guest named `name`, signed in on a new device (the browser's `agent`)."""

    async def signed_in(self, device_id: str, user_id: int) -> SignedIn | None:
        """Device `device_id` if it is `user_id`'s and not signed out, with when it was last
        seen and the person's row (`people.signed_in`); None otherwise."""

    async def touch_device(self, device_id: str, now: float) -> None:
        """Note that device `device_id` was used at `now` (committed)."""
