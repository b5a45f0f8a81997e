"""One live table: loaded from the database on first use, then kept in memory.

Every change to a table or its game goes through its lock, so moves on one game are
serialised in this process; the database's `UPDATE … WHERE version = v` guards the rest.
The move path (docs/architecture.md): parse → check seat and version → engine.apply → ONE
transaction (move + snapshot + clock) → commit → only then tell every connection there is a
new version. Each connection's writer then builds its own `view(state, seat)` and redacted
log, so a seat never receives bytes it may not see.

This class keeps the table's facts (its row, seats, game, revision) and coordination (the
lock, the version, who is told what); each concern is a collaborator of its own:
`seating` (seats and table writes), `moves` (the move path), `control` (who plays a seat),
`rematcher`, `bots` (bots and clocks), `chat`, `presence` (connections, who is online),
`follower` (other processes' changes). What people see is drawn by app/presentation/ from
the table's `snapshot()`, never from the table itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import clocks
from app.errors import Refusal
from app.ratings.store import Standing, ratings_of
from app.realtime.protocol import Act
from app.store import games, tables
from app.store.base import Store
from app.store.moves import game_moves
from app.store.notes import table_events
from app.store.outage import refused_while_down
from app.store.sql import SqlStore
from app.store.tables import seat_of
from app.table import idle
from app.table.bots import Bots
from app.table.chat import Chat, ChatLimits
from app.table.control import Control
from app.table.follow import Follower
from app.table.live import GameLive
from app.table.moves import Moves
from app.table.presence import Presence
from app.table.rematch import Rematcher
from app.table.runtime import Runtime
from app.table.seating import Seating
from app.table.snapshot import GameFrame, Snapshot
from engines import get_engine
from engines.core import Event, Seat

logger = logging.getLogger("stolik.table")


class Table:
    """The live table: its row, seats and game, and the collaborators that change them."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        room: Any,
        runtime: Runtime | None = None,
    ) -> None:
        self.sessions = sessions
        self.runtime = runtime or Runtime()
        self.store: Store = SqlStore(sessions)
        """Where table changes and moves are written (`Tables.store`)."""
        self.lock = asyncio.Lock()
        self.id: int = room.id
        self.slug: str = room.slug
        self.game_id: str = room.game_id
        self.engine = get_engine(room.game_id)
        self.options: dict[str, Any] = dict(room.options)
        self.num_seats: int = room.num_seats
        self.private: bool = room.private
        self.friends_only: bool = bool(room.friends_only)
        """Only the host and the host's friends may sit (app/friends)."""
        self.invite_code: str = room.invite_code
        self.host_id: int = room.host_id
        self.status: str = room.status
        self.clock_spec: str = room.clock
        self.bot_level: str = room.bot_level
        self.away_days: int = room.away_days or 0
        """The longest pause per decision (days) for a player who is away (slow clocks)."""
        self.outside_bots: bool = bool(room.outside_bots)
        """Whether bot accounts (docs/bot-api.md) may take a seat."""
        self.rated: bool = bool(getattr(room, "rated", False))
        """Whether the game's end changes its persons' ratings (app/ratings)."""
        self.ratings: dict[int, Standing] = {}
        """The seated persons' ratings in this game (user id → standing), shown beside their
        names; read on load, when a person sits down and after a rated game's end."""
        self.rematch_slug: str | None = room.rematch_slug
        self.rematch_code: str | None = None
        self.seats: dict[Seat, tables.SeatInfo] = {}
        self.game: GameLive | None = None
        self.revision = 0
        """Bumped by every change of the table that is not a move (seats, status, names)."""
        self._snapshot: Snapshot | None = None
        self._snapshot_at: tuple[Any, ...] = ()
        self._snapshot_game: GameLive | None = None
        self.on_lobby_change: Callable[[], None] = lambda: None
        self.on_table_created: Callable[[Any, list[tables.SeatInfo]], object] = lambda r, s: None
        """Tables.adopt: a rematch this table just created is kept in memory as written."""
        self.leading = True
        """Whether this process made the table's last change (it moves for bots and clocks
        first; the others wait `follower_grace` longer)."""
        self.touched = time.monotonic()
        """When the table was last asked for (Tables.get); for eviction."""
        self.used_at: float = idle.created_at(room)
        """When (server clock) the table last changed or someone last came to or left its
        page: a waiting table of its host and bots unused for long closes (app/table/idle)."""
        self.closed_idle = False
        """Whether this process closed the table because nobody used it."""
        self.presence = Presence(self)
        self.chat = Chat(self)
        self.bots = Bots(self)
        self.follower = Follower(self)
        self.seating = Seating(self)
        self.control = Control(self)
        self.rematcher = Rematcher(self)
        self.moves = Moves(self)

    # ---- loading ------------------------------------------------------------------------------

    async def load(self, session: AsyncSession) -> None:
        """Read seats, chat and the game (snapshot + move log) from the database."""
        self.seats = {s.seat: s for s in await tables.table_seats(session, self.id)}
        self.ratings = await ratings_of(session, self.game_id, self.people())
        await self.chat.load(session)
        self.presence.all_offline()
        if self.rematch_slug is not None:
            rematch = await tables.get_table(session, self.rematch_slug)
            self.rematch_code = rematch.invite_code if rematch else None
        game = await games.game_for_table(session, self.id)
        if game is None:
            return
        moves = await game_moves(session, game.id)
        notes = [
            (n.version, Event.from_json({"text": n.text, "params": n.params}))
            for n in await table_events(session, self.id)
        ]
        # "The game begins" (a table line at version 0), the opening's events, then each
        # version's move events followed by the table's own lines of that version.
        begins = notes[:1] if notes and notes[0][0] == 0 else []
        log = [(0, Event.from_json(e)) for e in game.opening or []]
        log += [(m.seq, Event.from_json(e)) for m in moves for e in m.events]
        log = begins + sorted([*log, *notes[len(begins) :]], key=lambda item: item[0])
        self.game = GameLive(
            db_id=game.id,
            engine=self.engine,
            state=self.engine.load(game.snapshot),
            version=game.version,
            seed=game.seed,
            seed_commitment=game.seed_commitment,
            seed_secret=game.seed_secret,
            seed_salt=game.seed_salt,
            chain_head=game.chain_head,
            log=log,
            prompt_version={s: game.version for s in range(game.num_players)},
            clock=game.clock,
        )

    async def reload_game(self) -> None:
        """Re-read the table and its game from the database (another process moved it on)."""
        async with self.sessions() as session:
            self.seats = {s.seat: s for s in await tables.table_seats(session, self.id)}
            room = await tables.get_table(session, self.slug)
            if room is not None:
                self.status = room.status
                self.rematch_slug = room.rematch_slug
            offline = dict(self.presence.offline_since)
            await self.load(session)
            self.presence.offline_since = offline
        self.revision += 1
        self.broadcast("state")
        self.bots.kick()

    # ---- who is who ---------------------------------------------------------------------------

    def seat_of(self, user_id: int | None) -> Seat | None:
        """The seat a person sits in, if any (never a bot's seat)."""
        return seat_of(self.seats, user_id)

    def bot_plays(self, seat: Seat) -> bool:
        """Whether a bot makes this seat's decisions now."""
        info = self.seats.get(seat)
        return info is not None and info.bot_plays

    def may_watch(self, user_id: int | None, code: str | None) -> bool:
        """Public tables are open to all; private ones to their players and the link holders."""
        if not self.private or self.seat_of(user_id) is not None or user_id == self.host_id:
            return True
        return code is not None and secrets.compare_digest(code, self.invite_code)

    def require_host(self, user_id: int, message: str) -> None:
        """Refuse (403, with `message`) anyone but the host."""
        if user_id != self.host_id:
            raise Refusal("not_host", message, 403)

    def snapshot(self) -> Snapshot:
        """The table as the presentation may read it now: made once per version, table
        revision and set of online seats (a new one after every change), its game part once
        per version and table revision."""
        game = self.game
        online = tuple(self.presence.online_seats())
        at = (game.version if game else -1, self.revision, online)
        snapshot = self._snapshot
        if snapshot is not None and self._snapshot_at == at and self._snapshot_game is game:
            return snapshot
        frame = snapshot.game if snapshot is not None else None
        if game is None:
            frame = None
        elif (
            frame is None
            or self._snapshot_game is not game
            or frame.version != game.version
            or snapshot is None
            or snapshot.revision != self.revision
        ):
            frame = GameFrame.of(game, self.clock_now())
        snapshot = self._snapshot = Snapshot.of(self, frame, online)
        self._snapshot_at = at
        self._snapshot_game = game
        return snapshot

    def clock_now(self) -> dict[str, Any] | None:
        """The game's clock as it counts: deadlines of seats whose person is away moved later
        (a correspondence table whose host allowed it; app/clocks.py `with_away`)."""
        game = self.game
        if game is None or game.clock is None:
            return None
        limit = self.away_days * clocks.DAY if clocks.is_slow(self.clock_spec) else 0
        away = {s: i.away for s, i in self.seats.items() if i.away is not None and not i.is_bot}
        return clocks.with_away(game.clock, away, limit)

    # ---- what people do (each handled by its collaborator) ------------------------------------

    async def join(
        self,
        user_id: int,
        name: str,
        seat: Seat | None = None,
        gender: str | None = None,
        *,
        bot: bool = False,
    ) -> Seat:
        """Take a free seat (the first one if none is named); `gender`: how the person
        chose to be spoken of; `bot`: a bot account (only where outside bots may sit)."""
        return await self.seating.join(user_id, name, seat, gender, bot=bot)

    async def leave(self, user_id: int) -> None:
        """Give up a seat before the start."""
        await self.seating.leave(user_id)

    async def close(self, user_id: int) -> None:
        """The host closes a table that has not started."""
        await self.seating.close(user_id)

    async def start(self, user_id: int) -> None:
        """The host starts the game."""
        await self.seating.start(user_id)

    async def add_bot(self, user_id: int, seat: Seat | None, level: str) -> Seat:
        """The host seats a bot before the start."""
        return await self.seating.add_bot(user_id, seat, level)

    async def remove_bot(self, user_id: int, seat: Seat) -> None:
        """The host takes a bot out of its seat before the start."""
        await self.seating.remove_bot(user_id, seat)

    async def set_autopilot(self, user_id: int, on: bool) -> None:
        """ "Let a bot play for me" (on) or "I'm back" (off)."""
        await self.control.set_autopilot(user_id, on)

    async def resign(self, user_id: int) -> None:
        """Give up; a bot finishes the seat's game."""
        await self.control.resign(user_id)

    async def hand_to_bot(self, user_id: int, seat: Seat) -> None:
        """The host hands a long-disconnected seat to a bot."""
        await self.control.hand_to_bot(user_id, seat)

    async def rematch(self, user_id: int) -> tuple[str, str]:
        """ "Play again": the rematch table's slug and invite code."""
        return await self.rematcher.rematch(user_id)

    async def act(self, user_id: int | None, msg: Act) -> int:
        """Apply one action for the user's seat; returns the new version."""
        with refused_while_down():
            return await self.moves.act(user_id, msg)

    async def send_chat(self, user_id: int | None, text: str, limits: ChatLimits) -> dict[str, Any]:
        """Store a chat line and send it to everyone at the table."""
        with refused_while_down():
            return await self.chat.send(user_id, text, limits)

    async def follow(self, msg: dict[str, Any]) -> None:
        """A change another process committed."""
        await self.follower.follow(msg)

    def people(self) -> list[int]:
        """The seated persons' ids."""
        return [s.user_id for s in self.seats.values() if s.user_id is not None]

    async def refresh_ratings(self) -> None:
        """Read the seated persons' ratings again; if any changed, tell every connection."""
        found = await self.store.ratings_of(self.game_id, self.people())
        if found != self.ratings:
            self.ratings = found
            self.revision += 1
            self.broadcast("state")

    # ---- telling people -----------------------------------------------------------------------

    def changed(self, what: str) -> None:
        """A table change (`what`: join, leave, start, …): logged, pushed, and the lobby told."""
        logger.info(
            "room %s",
            what,
            extra={"room": self.slug, "status": self.status, "seats": len(self.seats)},
        )
        self.revision += 1
        self.leading = True
        self.used_at = self.runtime.now()
        self.broadcast("state")
        self.on_lobby_change()
        self.follower.publish("room", what=what)

    def broadcast(self, kind: str) -> None:
        """Wake every connection's writer with a `kind` push."""
        for conn in self.presence.connections:
            conn.notify(kind)
        if kind == "state" and self.game is not None:
            # The writers just woken build their messages first thing in the loop's next
            # round; then the views go (a late writer makes its own again). Kept until the
            # next move, every table's views were most of the live young objects a garbage
            # collection had to walk (~100 ms pauses at 500 tables).
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to wait for
                asyncio.get_running_loop().call_soon(self.game.release_views)
