"""One live hub per room: seats, the game state cache, connections, and the move path.

Every change to a room or its game goes through its hub's lock, so moves on one game are
serialised in this process; the database's `UPDATE … WHERE version = v` guards the rest.
The move path (design.md): parse → check seat and version → engine.apply → ONE transaction
(move + snapshot) → commit → only then tell every connection there is a new version. Each
connection's writer then computes its own `view(state, seat)` and redacted log, so a seat
never receives bytes it may not see.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repo
from app.realtime.protocol import Act, ProtocolError
from engines import get_engine
from engines.core import Engine, Event, GameError, Seat

_SEAT_REF = re.compile(r"\{p(\d+)\}")


CHAT_KEPT = 100
"""Chat lines a hub keeps in memory and sends to each new connection."""


@dataclass(frozen=True)
class ChatLimits:
    """How long a chat line may be and how many a person may send per window."""

    max_chars: int = 300
    count: int = 5
    window: float = 10.0


def clean_chat(text: str) -> str:
    """Trim a chat line and drop control and format characters (no newlines, no bidi tricks)."""
    kept = "".join(
        " " if ch in "\t\n\r" else ch
        for ch in text
        if ch in "\t\n\r" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    return " ".join(kept.split())


def chat_line(row: Any) -> dict[str, Any]:
    """A stored chat message as clients receive it (times in UTC; SQLite drops the zone)."""
    at = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    return {
        "id": row.id,
        "name": row.name,
        "seat": row.seat,
        "text": row.text,
        "at": at.isoformat(timespec="seconds"),
    }


class RoomError(Exception):
    """A refused room operation (join, leave, start, access) with a stable code."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(eq=False)
class Connection:
    """One open websocket: who is behind it and what it has been sent."""

    user_id: int | None
    fmt: str  # "html" or "json"
    queue: asyncio.Queue[tuple[str, Any]] = field(default_factory=asyncio.Queue)
    sent_key: tuple[int, int] = (-2, -2)  # (game version, room revision) last sent
    log_version: int = -1  # JSON clients get log lines of versions after this one
    granted: bool = True

    def notify(self, kind: str, payload: Any = None) -> None:
        """Wake this connection's writer."""
        self.queue.put_nowait((kind, payload))


@dataclass
class GameLive:
    """The cached game of a room."""

    db_id: int
    engine: Engine[Any, Any]
    state: Any
    version: int
    seed: int
    seed_commitment: str
    log: list[tuple[int, Event]]
    prompt_version: dict[Seat, int]

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.engine.outcome(self.state) is not None


class RoomHub:
    """The live room: loaded from the database on first use, then kept in memory."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], room: Any) -> None:
        self.sessions = sessions
        self.lock = asyncio.Lock()
        self.room_id: int = room.id
        self.slug: str = room.slug
        self.game_id: str = room.game_id
        self.engine = get_engine(room.game_id)
        self.options: dict[str, Any] = dict(room.options)
        self.num_seats: int = room.num_seats
        self.private: bool = room.private
        self.invite_code: str = room.invite_code
        self.host_id: int = room.host_id
        self.status: str = room.status
        self.seats: dict[Seat, repo.SeatInfo] = {}
        self.game: GameLive | None = None
        self.room_rev = 0
        self.connections: set[Connection] = set()
        self.on_lobby_change: Callable[[], None] = lambda: None
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self._chat_sent: dict[int, deque[float]] = {}

    # ---- loading ------------------------------------------------------------------------------

    async def load(self, session: AsyncSession) -> None:
        """Read seats and the game (snapshot + move log) from the database."""
        self.seats = {s.seat: s for s in await repo.room_seats(session, self.room_id)}
        self.chat_log.extend(
            chat_line(m) for m in await repo.recent_chat(session, self.room_id, CHAT_KEPT)
        )
        game = await repo.game_for_room(session, self.room_id)
        if game is None:
            return
        moves = await repo.game_moves(session, game.id)
        log = [(m.seq, Event.from_json(e)) for m in moves for e in m.events]
        self.game = GameLive(
            db_id=game.id,
            engine=self.engine,
            state=self.engine.load(game.snapshot),
            version=game.version,
            seed=game.seed,
            seed_commitment=game.seed_commitment,
            log=log,
            prompt_version={s: game.version for s in range(game.num_players)},
        )

    # ---- who is who ---------------------------------------------------------------------------

    def seat_of(self, user_id: int | None) -> Seat | None:
        """The seat a user sits in, if any."""
        for seat, info in self.seats.items():
            if info.user_id == user_id:
                return seat
        return None

    def names(self) -> dict[Seat, str]:
        """Display names by seat."""
        return {seat: info.name for seat, info in self.seats.items()}

    def may_watch(self, user_id: int | None, code: str | None) -> bool:
        """Public rooms are open to all; private ones to their players and the link holders."""
        if not self.private or self.seat_of(user_id) is not None or user_id == self.host_id:
            return True
        return code is not None and secrets.compare_digest(code, self.invite_code)

    def online_seats(self) -> list[Seat]:
        """Seats with at least one open connection."""
        online = {self.seat_of(c.user_id) for c in self.connections}
        return sorted(s for s in online if s is not None)

    def fill_names(self, text: str) -> str:
        """Replace `{pN}` seat references by display names."""
        names = self.names()
        return _SEAT_REF.sub(lambda m: names.get(int(m.group(1)), f"Seat {m.group(1)}"), text)

    def log_for(self, seat: Seat | None, after_version: int = -1) -> list[str]:
        """The log lines `seat` may read, for versions after `after_version`."""
        if self.game is None:
            return []
        return [
            self.fill_names(e.text)
            for v, e in self.game.log
            if v > after_version and e.visible_to(seat)
        ]

    # ---- room operations ------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, seat: Seat | None = None) -> Seat:
        """Take a free seat (the first one if none is named)."""
        async with self.lock:
            if self.status != "open":
                raise RoomError("already_started", "This table has already started.")
            if self.seat_of(user_id) is not None:
                raise RoomError("already_seated", "You already have a seat at this table.")
            free = [s for s in range(self.num_seats) if s not in self.seats]
            if not free:
                raise RoomError("table_full", "This table is full.")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise RoomError("seat_taken", "That seat is taken or does not exist.")
            async with self.sessions.begin() as session:
                await repo.add_seat(session, self.room_id, seat, user_id)
            self.seats[seat] = repo.SeatInfo(seat, user_id, name)
            self._changed()
            return seat

    async def leave(self, user_id: int) -> None:
        """Give up a seat before the start (the host stays: a host closes the table instead)."""
        async with self.lock:
            if self.status != "open":
                raise RoomError("already_started", "You cannot leave a game in progress.")
            seat = self.seat_of(user_id)
            if seat is None:
                raise RoomError("not_seated", "You do not have a seat at this table.")
            if user_id == self.host_id:
                raise RoomError("host_cannot_leave", "The host cannot leave; close the table.")
            async with self.sessions.begin() as session:
                await repo.remove_seat(session, self.room_id, user_id)
            del self.seats[seat]
            self._changed()

    async def close(self, user_id: int) -> None:
        """The host closes a table that has not started."""
        async with self.lock:
            if user_id != self.host_id:
                raise RoomError("not_host", "Only the host can close the table.", 403)
            if self.status != "open":
                raise RoomError("already_started", "The game has already started.")
            async with self.sessions.begin() as session:
                await repo.set_room(session, self.room_id, status="closed")
            self.status = "closed"
            self._changed()

    async def start(self, user_id: int) -> None:
        """The host starts: all seats filled, or at least the game's minimum (seats shrink)."""
        async with self.lock:
            if user_id != self.host_id:
                raise RoomError("not_host", "Only the host can start the game.", 403)
            if self.status != "open":
                raise RoomError("already_started", "The game has already started.")
            spec = self.engine.spec
            players = len(self.seats)
            if players < spec.min_players:
                raise RoomError(
                    "not_enough_players",
                    f"{spec.title} needs at least {spec.min_players} players; {players} seated.",
                )
            order = [self.seats[s].user_id for s in sorted(self.seats)]
            seed = secrets.randbits(62)
            commitment = hashlib.sha256(f"stolik:{seed}".encode()).hexdigest()
            options = self.engine.parse_options(self.options)
            state = self.engine.setup(players, options, seed)
            async with self.sessions.begin() as session:
                await repo.compact_seats(session, self.room_id, order)
                await repo.set_room(session, self.room_id, status="playing", num_seats=players)
                game = await repo.create_game(
                    session,
                    room_id=self.room_id,
                    engine=self.game_id,
                    options=options.model_dump(mode="json"),
                    num_players=players,
                    seed=seed,
                    seed_commitment=commitment,
                    snapshot=self.engine.dump(state),
                )
                self.seats = {s.seat: s for s in await repo.room_seats(session, self.room_id)}
            self.status = "playing"
            self.num_seats = players
            self.game = GameLive(
                db_id=game.id,
                engine=self.engine,
                state=state,
                version=0,
                seed=seed,
                seed_commitment=commitment,
                log=[(0, Event.public("The game begins. Good luck!"))],
                prompt_version=dict.fromkeys(range(players), 0),
            )
            self._changed()

    # ---- the move path --------------------------------------------------------------------------

    async def act(self, user_id: int | None, msg: Act) -> int:
        """Apply one action for the user's seat; returns the new version. Raises on refusal."""
        async with self.lock:
            game = self.game
            if game is None:
                raise ProtocolError("not_started", "The game has not started yet.")
            seat = self.seat_of(user_id)
            if seat is None:
                raise ProtocolError("spectator", "Spectators cannot play; take a seat first.")
            if not game.prompt_version.get(seat, 0) <= msg.version <= game.version:
                raise ProtocolError(
                    "stale",
                    f"The table has moved on (you saw version {msg.version}, "
                    f"it is at {game.version}); here is the current state.",
                )
            engine = game.engine
            try:
                action = engine.parse_action(msg.action)
                step = engine.apply(game.state, seat, action)
            except GameError as exc:
                raise ProtocolError(exc.code, exc.message) from None
            outcome = engine.outcome(step.state)
            result = outcome.to_json() if outcome else None
            async with self.sessions.begin() as session:
                ok = await repo.record_move(
                    session,
                    game_id=game.db_id,
                    from_version=game.version,
                    seat=seat,
                    action=engine.dump_action(action),
                    events=[e.to_json() for e in step.events],
                    snapshot=engine.dump(step.state),
                    result=result,
                )
                if not ok:
                    raise ProtocolError("conflict", "Another server changed this game; retry.")
                if result is not None:
                    await repo.set_room(session, self.room_id, status="finished")
            # Committed: only now does the new version become visible to anyone.
            new_version = game.version + 1
            before = {s: self._prompt(game.state, s) for s in range(len(self.seats))}
            game.state = step.state
            game.version = new_version
            game.log.extend((new_version, e) for e in step.events)
            for s, prompt in before.items():
                if self._prompt(step.state, s) != prompt or s == seat:
                    game.prompt_version[s] = new_version
            if result is not None:
                self.status = "finished"
                self.on_lobby_change()
            self._broadcast("state")
            return new_version

    async def chat(self, user_id: int | None, text: str, limits: ChatLimits) -> dict[str, Any]:
        """Store a chat line from a named person (player or spectator) and send it to all.

        Refused, changing nothing: no name, a closed table, an empty or too long line, or
        more than `limits.count` lines in `limits.window` seconds from the same person.
        """
        if user_id is None:
            raise ProtocolError("no_name", "Choose a name before you chat.")
        if self.status == "closed":
            raise ProtocolError("table_closed", "This table is closed.")
        text = clean_chat(text)
        if not text:
            raise ProtocolError("chat_empty", "Type something to send.")
        if len(text) > limits.max_chars:
            raise ProtocolError(
                "chat_too_long", f"Chat lines are limited to {limits.max_chars} characters."
            )
        now = time.monotonic()
        sent = self._chat_sent.setdefault(user_id, deque())
        while sent and now - sent[0] >= limits.window:
            sent.popleft()
        if len(sent) >= limits.count:
            wait = max(1, round(limits.window - (now - sent[0])))
            raise ProtocolError(
                "chat_rate_limited", f"You are sending messages too fast; wait {wait} s."
            )
        sent.append(now)
        async with self.sessions() as session, session.begin():
            user = await repo.get_user(session, user_id)
            if user is None:
                raise ProtocolError("no_name", "Choose a name before you chat.")
            row = await repo.add_chat(
                session,
                room_id=self.room_id,
                user_id=user_id,
                name=user.name,
                seat=self.seat_of(user_id),
                text=text,
            )
            line = chat_line(row)
        self.chat_log.append(line)
        for conn in self.connections:
            conn.notify("chat", line)
        return line

    def _prompt(self, state: Any, seat: Seat) -> list[str]:
        """What a seat is being asked now; an act is stale only if this changed since."""
        assert self.game is not None
        engine = self.game.engine
        return [engine.action_text(a) for a in engine.legal_actions(state, seat)]

    # ---- connections ----------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A new connection: it gets the full state and the chat, everyone the new presence."""
        self.connections.add(conn)
        conn.notify("state")
        conn.notify("chat", None)
        self._broadcast("presence")

    def detach(self, conn: Connection) -> None:
        """A connection closed."""
        self.connections.discard(conn)
        self._broadcast("presence")

    def _changed(self) -> None:
        self.room_rev += 1
        self._broadcast("state")
        self.on_lobby_change()

    def _broadcast(self, kind: str) -> None:
        for conn in self.connections:
            conn.notify(kind)


Loader = Callable[[str], Awaitable[RoomHub | None]]


class Hubs:
    """Every live room hub of this process, loaded lazily by slug."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        self._hubs: dict[str, RoomHub] = {}
        self._loading = asyncio.Lock()
        self.lobby: set[Connection] = set()

    async def get(self, slug: str) -> RoomHub | None:
        """The hub of a room, or None if no such room exists."""
        hub = self._hubs.get(slug)
        if hub is not None:
            return hub
        async with self._loading:
            hub = self._hubs.get(slug)
            if hub is not None:
                return hub
            async with self.sessions() as session:
                room = await repo.get_room(session, slug)
                if room is None:
                    return None
                hub = RoomHub(self.sessions, room)
                await hub.load(session)
            hub.on_lobby_change = self.lobby_changed
            self._hubs[slug] = hub
            return hub

    def lobby_changed(self) -> None:
        """Tell every lobby connection that the table list changed."""
        for conn in self.lobby:
            conn.notify("lobby")
