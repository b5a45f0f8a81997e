"""One live hub per room: seats, the game state cache, connections, and the move path.

Every change to a room or its game goes through its hub's lock, so moves on one game are
serialised in this process; the database's `UPDATE … WHERE version = v` guards the rest.
The move path (design.md): parse → check seat and version → engine.apply → ONE transaction
(move + snapshot + clock) → commit → only then tell every connection there is a new version.
Each connection's writer then computes its own `view(state, seat)` and redacted log, so a seat
never receives bytes it may not see.

Bots take the same path: a seat played by a bot (a bot's own seat, a person on autopilot, a
seat handed over while its player is away, a resigned seat) gets a task that thinks (in a
worker thread) and then commits through `_commit` under the lock, after the same staleness
check as a person's act. A turn clock's expiry is a bot's move for that seat, nothing else.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import functools
import logging
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import UTC
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import bots, clocks, i18n, identity
from app.errors import Refusal
from app.i18n import N_
from app.memory import Trimmer
from app.metrics import Metrics
from app.realtime.bus import LocalBus, RedisBus
from app.realtime.protocol import Act
from app.store import games, people, rooms
from app.store.base import Conflict, NotFound, Store
from app.store.moves import MoveRecord, game_moves
from app.store.notes import add_chat, add_room_event, recent_chat, room_events
from app.store.sql import SqlStore
from engines import get_engine, verify
from engines.core import Engine, Event, GameError, Seat, Step, Term, who

logger = logging.getLogger("stolik.hub")

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


@dataclass(frozen=True)
class Runtime:
    """What hubs need from the server around them: the clock (injected in tests), how long a
    bot waits before its move is shown, after how long a disconnected seat may be handed to a
    bot, and how hard bots think (a test knob)."""

    now: Callable[[], float] = time.time
    bot_delay: float = 0.8
    takeover_after: float = 60.0
    bot_think_scale: float = 1.0
    metrics: Metrics = field(default_factory=Metrics)
    bus: LocalBus | RedisBus = field(default_factory=LocalBus)
    trimmer: Trimmer = field(default_factory=Trimmer)
    sends: SendWatch = field(default_factory=lambda: SendWatch())
    follower_grace: float = 5.0
    """With several processes: how much longer than the process that made the last change a
    follower waits before it moves for a bot or an expired clock itself (in case that process
    is gone). The version check makes a duplicate harmless; the grace makes it rare."""
    alive_every: float = 5.0
    """With several processes: seconds between two "still here" messages of this process."""
    gone_after: float = 20.0
    """With several processes: a process not heard from for this long is gone (crashed,
    killed, cut off): its connected seats count as offline here, so a bot can take over."""


class Mailbox:
    """A connection's queue of pushes: what `asyncio.Queue` does for one reader, in a tenth
    of its memory (an idle socket keeps one; a Queue's four deques cost ~3 KB each time)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[tuple[str, Any]] = []
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        """Items waiting."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether nothing waits."""
        return not self._items

    def put_nowait(self, item: tuple[str, Any]) -> None:
        """Add an item and wake the reader."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> tuple[str, Any]:
        """The oldest item (IndexError if none)."""
        return self._items.pop(0)

    async def get(self) -> tuple[str, Any]:
        """The oldest item, waiting for one if need be (one reader at a time)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


SEND_TIMEOUT = 15.0
"""Seconds one push may wait for a client that does not read before it is dropped."""


class SendWatch:
    """The pushes being written, by connection, with when each began; the ticker gives up
    on those that have waited `timeout` seconds (a client that stopped reading) by
    cancelling their writer, which then closes the socket as too slow.

    One dict entry per push in flight instead of a loop timer armed and disarmed around
    every frame (`asyncio.timeout` per push was ~5 % of a move's CPU); the price is that a
    stuck push is noticed at the ticker's next round (within a second of `timeout`)."""

    __slots__ = ("_inflight", "timeout")

    def __init__(self, timeout: float = SEND_TIMEOUT) -> None:
        self.timeout = timeout
        self._inflight: dict[Connection, tuple[float, asyncio.Task[Any] | None]] = {}

    def __len__(self) -> int:
        return len(self._inflight)

    def begin(self, conn: Connection) -> None:
        """The current task starts writing a push to `conn`."""
        self._inflight[conn] = (time.monotonic(), asyncio.current_task())

    def end(self, conn: Connection) -> None:
        """The push to `conn` is written (or given up)."""
        self._inflight.pop(conn, None)

    def sweep(self, now: float | None = None) -> int:
        """Give up on every push older than `timeout`: mark its connection too slow and
        cancel the task writing it. Returns how many."""
        now = time.monotonic() if now is None else now
        stuck = [c for c, (since, _) in self._inflight.items() if now - since >= self.timeout]
        for conn in stuck:
            _, task = self._inflight.pop(conn)
            conn.too_slow = True
            if task is not None:
                task.cancel()
        return len(stuck)


@dataclass(eq=False, slots=True)
class Connection:
    """One open websocket: who is behind it and what it has been sent."""

    user_id: int | None
    fmt: str  # "html" or "json"
    queue: Mailbox = field(default_factory=Mailbox)
    sent_key: tuple[int, int] = (-2, -2)  # (game version, room revision) last sent
    log_version: int = -1  # the log lines of versions up to this one were sent (-1: none)
    log_basis: Any = None  # HTML: what those lines were made from (`RoomHub.log_basis`)
    granted: bool = True
    pending: set[str] = field(default_factory=set)  # coalesced kinds waiting in the queue
    max_queue: int = 200
    overflow: bool = False
    too_slow: bool = False  # a push waited past SendWatch.timeout: the writer closes the socket

    def notify(self, kind: str, payload: Any = None) -> None:
        """Wake this connection's writer. A state or presence push waiting in the queue
        already stands for any later one (the writer sends the newest when it gets there), so
        a slow reader's queue stays short; past `max_queue` items the connection is marked
        to be dropped (it re-syncs when it reconnects)."""
        if kind in COALESCED and payload is None:
            if kind in self.pending:
                return
            self.pending.add(kind)
        if self.queue.qsize() >= self.max_queue:
            self.overflow = True
            return
        self.queue.put_nowait((kind, payload))

    def taken(self, kind: str) -> None:
        """The writer took a `kind` item off the queue."""
        self.pending.discard(kind)


COALESCED = frozenset({"state", "presence"})


@dataclass(frozen=True, slots=True)
class NextVersion:
    """A committed move, ready to become the hub's next version (made by this process's move
    path or followed from another process's)."""

    seat: Seat
    step: Step[Any]
    prompts: dict[Seat, list[str]]
    """Every seat's prompt after the move (`RoomHub._prompts_after`)."""
    changed: set[Seat]
    """Seats whose prompt changed: they are asked a new question at the new version."""
    clock: dict[str, Any] | None
    notes: list[Event]
    away: bool
    """The seat ran out of time too often and is now played by a bot."""


_Names = tuple[
    str, tuple[tuple[Seat, rooms.SeatInfo], ...], dict[Seat, str], tuple[tuple[Seat, str], ...]
]
"""RoomHub._names_now: (language, seats, names by seat, the names as a sorted tuple)."""


@dataclass
class GameLive:
    """The cached game of a room."""

    db_id: int
    engine: Engine[Any, Any, Any]
    state: Any
    version: int
    seed: int
    seed_commitment: str
    log: list[tuple[int, Event]]
    prompt_version: dict[Seat, int]
    clock: dict[str, Any] | None = None
    seed_secret: str | None = None
    seed_salt: str | None = None
    prompts: dict[Seat, list[str]] | None = None
    """Every seat's prompt at `version` (the next move compares with it, not recomputes it)."""
    views: dict[Seat | None, Any] = field(default_factory=dict)
    views_version: int = -1
    """Views of `state` by audience, computed once per version however many sockets read them."""
    texts: dict[tuple[Any, ...], tuple[list[str], list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    """The log's line texts and JSON entries by (language, names), in log order, extended as
    the log grows."""
    header_at: tuple[int, Any] | None = None
    """(version, header) when the header was needed before any view of that version."""
    readable: dict[Seat | None, tuple[list[int], int]] = field(default_factory=dict)
    """By audience: the indices of the log lines it may read, and how far the log has been
    looked at for it (the log only grows, so each line is judged once per audience)."""

    def view(self, seat: Seat | None) -> Any:
        """The engine's view for `seat` (None = spectator) at the current version, cached."""
        if self.views_version != self.version:
            self.views = {}
            self.views_version = self.version
        if seat not in self.views:
            # The header is every audience's: made once per version, not per view.
            self.views[seat] = self.engine.view(self.state, seat, self.header())
        return self.views[seat]

    def release_views(self) -> None:
        """Forget the views made so far (they are made again when asked)."""
        self.views = {}

    def header(self) -> Any:
        """The views' public header at the current version (who is to act, who has chosen):
        taken from a view already made, else computed alone and kept with the views."""
        if self.views_version != self.version:
            self.views = {}
            self.views_version = self.version
        for view in self.views.values():
            return view["header"]
        if self.header_at is None or self.header_at[0] != self.version:
            self.header_at = (self.version, self.engine.header(self.state))
        return self.header_at[1]

    def readable_lines(self, seat: Seat | None) -> list[int]:
        """The indices of the log lines `seat` (None = a spectator) may read, in order."""
        indices, upto = self.readable.get(seat) or ([], 0)
        log = self.log
        if upto < len(log):
            indices.extend(i for i in range(upto, len(log)) if log[i][1].visible_to(seat))
            self.readable[seat] = (indices, len(log))
        return indices

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.engine.outcome(self.state) is not None


P = ParamSpec("P")
T = TypeVar("T")


def _judged_again(
    change: Callable[Concatenate[RoomHub, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[RoomHub, P], Coroutine[Any, Any, T]]:
    """A room change (join, start, …) that, with several processes, is judged on what this
    hub holds without reading the room first: its write is conditional in the database
    (`_room_write`), so a change judged on a stale hub cannot land. If it is refused, by the
    hub or by the database, the hub catches up with the database (`_catch_up_room`) and the
    change is judged once more: a refusal is never decided from memory alone, and a change
    that lost only to a stale hub (a seat another process filled a moment ago, when any
    free seat would do) goes through. With one process, the hub is the truth: no retry."""

    @functools.wraps(change)
    async def judged(hub: RoomHub, /, *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await change(hub, *args, **kwargs)
        except Refusal as refusal:
            if not hub.runtime.bus.enabled or refusal.status != 409:
                raise
        async with hub.lock:
            await hub._catch_up_room()
        return await change(hub, *args, **kwargs)

    return judged


class RoomHub:
    """The live room: loaded from the database on first use, then kept in memory."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        room: Any,
        runtime: Runtime | None = None,
    ) -> None:
        self.sessions = sessions
        self.runtime = runtime or Runtime()
        self.store: Store = SqlStore(sessions)
        """Where room changes and moves are written (`Hubs.store`)."""
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
        self.clock_spec: str = room.clock
        self.bot_level: str = room.bot_level
        self.rematch_slug: str | None = room.rematch_slug
        self.rematch_code: str | None = None
        self.seats: dict[Seat, rooms.SeatInfo] = {}
        self.offline_since: dict[Seat, float] = {}
        self._bot_tasks: dict[Seat, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.game: GameLive | None = None
        self.room_rev = 0
        self._moment: tuple[Any, ...] = ()
        self._moment_cache: dict[tuple[Any, ...], Any] = {}
        self._names: _Names | None = None
        self.rendered: dict[tuple[Any, ...], Any] = {}
        """What is drawn once per (version, room revision) whatever the time: the shared board
        (app.render.shared_board), also cut at its markers, and the log fragments."""
        self.connections: set[Connection] = set()
        self.on_lobby_change: Callable[[], None] = lambda: None
        self.on_room_created: Callable[[Any, list[rooms.SeatInfo]], object] = lambda r, s: None
        """Hubs.adopt: a rematch this hub just created is kept in memory as written."""
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self._chat_sent: dict[int, deque[float]] = {}
        self.remote_online: dict[str, set[Seat]] = {}
        self.presence_rev = 0
        """Bumped when a connection comes or goes here or on another process."""
        self._online: list[Seat] = []
        self._online_key: tuple[int, int] = (-1, -1)
        """Seats with a connection on another process, by that process."""
        self.leading = True
        """Whether this process made the room's last change (it moves for bots and clocks
        first; the others wait `follower_grace` longer)."""
        self.idle_since: float | None = time.monotonic()
        """When the last connection closed (None while one is open); for eviction."""
        self.touched = time.monotonic()
        """When the hub was last asked for (Hubs.get); for eviction."""

    # ---- loading ------------------------------------------------------------------------------

    async def load(self, session: AsyncSession) -> None:
        """Read seats and the game (snapshot + move log) from the database."""
        self.seats = {s.seat: s for s in await rooms.room_seats(session, self.room_id)}
        self.chat_log.extend(
            chat_line(m) for m in await recent_chat(session, self.room_id, CHAT_KEPT)
        )
        now = self.runtime.now()
        self.offline_since = {s: now for s, info in self.seats.items() if not info.is_bot}
        if self.rematch_slug is not None:
            rematch = await rooms.get_room(session, self.rematch_slug)
            self.rematch_code = rematch.invite_code if rematch else None
        game = await games.game_for_room(session, self.room_id)
        if game is None:
            return
        moves = await game_moves(session, game.id)
        notes = [
            (n.version, Event.from_json({"text": n.text, "params": n.params}))
            for n in await room_events(session, self.room_id)
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
            log=log,
            prompt_version={s: game.version for s in range(game.num_players)},
            clock=game.clock,
        )

    async def reload_game(self) -> None:
        """Re-read the game from the database (another process moved it on)."""
        async with self.sessions() as session:
            self.seats = {s.seat: s for s in await rooms.room_seats(session, self.room_id)}
            room = await rooms.get_room(session, self.slug)
            if room is not None:
                self.status = room.status
                self.rematch_slug = room.rematch_slug
            offline = dict(self.offline_since)
            self.chat_log.clear()
            await self.load(session)
            self.offline_since = offline
        self.room_rev += 1
        self._broadcast("state")
        self.kick_bots()

    # ---- who is who ---------------------------------------------------------------------------

    def seat_of(self, user_id: int | None) -> Seat | None:
        """The seat a user sits in, if any (never a bot's seat)."""
        if user_id is None:
            return None
        for seat, info in self.seats.items():
            if info.user_id == user_id:
                return seat
        return None

    def names(self) -> dict[Seat, str]:
        """Display names by seat, in the current language (a bot's name is translated); not
        to be changed by the caller."""
        return self._names_now()[2]

    def _names_now(self) -> _Names:
        """(language, seats, names, names as a sorted tuple): made again only when the
        language or a seat changed (every audience's log asks on every move)."""
        lang = i18n.current()
        seats = tuple(self.seats.items())
        kept = self._names
        if kept is None or kept[0] != lang or kept[1] != seats:
            names = {seat: info.shown_name for seat, info in seats}
            kept = self._names = (lang, seats, names, tuple(sorted(names.items())))
        return kept

    def bot_plays(self, seat: Seat) -> bool:
        """Whether a bot makes this seat's decisions now."""
        info = self.seats.get(seat)
        return info is not None and info.bot_plays

    def may_watch(self, user_id: int | None, code: str | None) -> bool:
        """Public rooms are open to all; private ones to their players and the link holders."""
        if not self.private or self.seat_of(user_id) is not None or user_id == self.host_id:
            return True
        return code is not None and secrets.compare_digest(code, self.invite_code)

    def local_seats(self) -> set[Seat]:
        """Seats with a connection to this process."""
        return {s for c in self.connections if (s := self.seat_of(c.user_id)) is not None}

    def moment_cache(self) -> dict[tuple[Any, ...], Any]:
        """A cache for what shows the moment: a state message or table page carries the room
        info, whose clock time (to the half second) and online dots change without a move. It
        holds the JSON messages and pages of this (version, room revision, who is online, half
        second) — and the room info's viewer-independent part — by audience and language, and
        is emptied as soon as any of the four moves on
        (keyed by the half second without being emptied, stale pages piled up, up to 64 on a
        watched table where nobody moved)."""
        game = self.game
        moment = (
            game.version if game else -1,
            self.room_rev,
            tuple(self.online_seats()),
            int(self.runtime.now() * 2),
        )
        if moment != self._moment:
            self._moment = moment
            self._moment_cache = {}
        return self._moment_cache

    def online_seats(self) -> list[Seat]:
        """Seats with at least one open connection, here or on another process (bots are
        always there). Computed once per presence and room change, not per socket."""
        key = (self.presence_rev, self.room_rev)
        if self._online_key != key:
            online: set[Seat | None] = set(self.local_seats())
            for seats in self.remote_online.values():
                online |= seats
            online |= {s for s, info in self.seats.items() if info.is_bot}
            self._online = sorted(s for s in online if s is not None)
            self._online_key = key
        return self._online

    def offline_for(self, seat: Seat) -> float | None:
        """Seconds since a person's seat lost its last connection (None if connected)."""
        since = self.offline_since.get(seat)
        if since is None or seat in self.online_seats():
            return None
        return max(0.0, self.runtime.now() - since)

    def fill_names(self, text: str) -> str:
        """Replace `{pN}` seat references by display names."""
        names = self.names()
        return _SEAT_REF.sub(
            lambda m: (
                names.get(int(m.group(1)))
                or i18n.gettext("Seat %(n)s") % {"n": int(m.group(1)) + 1}
            ),
            text,
        )

    def log_for(
        self, seat: Seat | None, after_version: int = -1, last: int | None = None
    ) -> list[str]:
        """The log lines `seat` may read, for versions after `after_version` (only the `last`
        ones if given). Each line's text is made once per language and names, not per socket
        (`_log_texts`)."""
        game = self.game
        if game is None:
            return []
        texts = self._log_texts()
        picked = self._readable_after(seat, after_version)
        if last is not None:
            picked = picked[max(0, len(picked) - last) :]
        return [texts[i] for i in picked]

    def log_basis(self) -> tuple[Any, ...] | None:
        """What the log's texts are made from: the game, the language and the names. A client
        that was sent lines on the same basis may be sent only the newer ones; on another
        (a seat renamed, a bot sat down, another language) it needs them all again."""
        if self.game is None:
            return None
        lang, _, _, names = self._names_now()
        return (self.game.db_id, lang, names)

    def _readable_after(self, seat: Seat | None, after_version: int) -> list[int]:
        """Indices of the lines `seat` may read, of the versions after `after_version`."""
        assert self.game is not None
        indices = self.game.readable_lines(seat)
        if after_version < 0:
            return indices
        return indices[bisect.bisect_left(indices, self._log_index(after_version)) :]

    def _log_index(self, after_version: int) -> int:
        """Where the log's lines of versions after `after_version` start (the log is in
        version order, so a socket one move behind reads one move's lines)."""
        assert self.game is not None
        return bisect.bisect_right(self.game.log, after_version, key=lambda item: item[0])

    def _log_texts(self) -> list[str]:
        """Every log line's text in the current language with today's names, kept and
        extended as the log grows (a new move adds its own lines only); made again when the
        language, a name or the game changes."""
        return self._log_lines()[0]

    def _log_lines(self) -> tuple[list[str], list[dict[str, Any]]]:
        """`_log_texts`, and the same lines as JSON entries (`entries_for`), the entries made
        only once some JSON client asks; both kept per (language, names) and shared by
        every reader (they are never changed once made)."""
        game = self.game
        assert game is not None
        lang, _, _, names = self._names_now()
        key = (lang, names)
        lines = game.texts.get(key)
        if lines is None:
            if len(game.texts) > 8:
                game.texts.clear()
            lines = game.texts[key] = ([], [])
        texts = lines[0]
        for _, event in game.log[len(texts) :]:
            texts.append(self.fill_names(i18n.event_text(event)))
        return lines

    def entries_for(self, seat: Seat | None, after_version: int = -1) -> list[dict[str, Any]]:
        """The same lines as `log_for`, for JSON clients: the English message id, its plural
        form, the parameters (seats as `{pN}`), the version, and the text as `log_for` has it."""
        game = self.game
        if game is None:
            return []
        texts, entries = self._log_lines()
        for i in range(len(entries), len(texts)):
            v, e = game.log[i]
            data = e.to_json()
            entries.append(
                {
                    "version": v,
                    "key": data["text"],
                    "plural": data.get("plural"),
                    "params": data.get("params", {}),
                    "text": texts[i],
                }
            )
        return [entries[i] for i in self._readable_after(seat, after_version)]

    # ---- room operations ------------------------------------------------------------------------

    @_judged_again
    async def join(self, user_id: int, name: str, seat: Seat | None = None) -> Seat:
        """Take a free seat (the first one if none is named)."""
        async with self.lock:
            if self.status != "open":
                raise Refusal("already_started", N_("This table has already started."))
            if self.seat_of(user_id) is not None:
                raise Refusal("already_seated", N_("You already have a seat at this table."))
            seat = self._free_seat(seat)
            wanted = seat

            def recheck() -> None:
                if self.status != "open":
                    raise Refusal("already_started", N_("This table has already started."))
                if self.seat_of(user_id) is not None:
                    raise Refusal("already_seated", N_("You already have a seat at this table."))
                if wanted in self.seats:
                    raise Refusal("seat_taken", N_("That seat is taken or does not exist."))

            await self._room_write(
                self.store.take_seat(self.room_id, self.status, wanted, user_id, None), recheck
            )
            self.seats[seat] = rooms.SeatInfo(seat, user_id, name)
            self._changed("join")
            return seat

    @_judged_again
    async def leave(self, user_id: int) -> None:
        """Give up a seat before the start (the host stays: a host closes the table instead)."""
        async with self.lock:
            if self.status != "open":
                raise Refusal("already_started", N_("You cannot leave a game in progress."))
            seat = self.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("You do not have a seat at this table."))
            if user_id == self.host_id:
                raise Refusal("host_cannot_leave", N_("The host cannot leave; close the table."))

            await self._room_write(
                self.store.leave_seat(self.room_id, self.status, user_id), self._still_open
            )
            del self.seats[seat]
            self._changed("leave")

    async def close(self, user_id: int) -> None:
        """The host closes a table that has not started."""
        async with self.lock:
            if user_id != self.host_id:
                raise Refusal("not_host", N_("Only the host can close the table."), 403)
            if self.status != "open":
                raise Refusal("already_started", N_("The game has already started."))

            await self._room_write(
                self.store.close_table(self.room_id, self.status), self._still_open
            )
            self.status = "closed"
            self._changed("close")

    @_judged_again
    async def start(self, user_id: int) -> None:
        """The host starts: all seats filled, or at least the game's minimum (seats shrink)."""
        async with self.lock:
            if user_id != self.host_id:
                raise Refusal("not_host", N_("Only the host can start the game."), 403)
            if self.status != "open":
                raise Refusal("already_started", N_("The game has already started."))
            spec = self.engine.spec
            players = len(self.seats)
            if players < spec.min_players:
                raise Refusal(
                    "not_enough_players",
                    N_("%(title)s needs at least %(low)s players; %(seated)s seated."),
                    title=Term(spec.title),
                    low=spec.min_players,
                    seated=players,
                )
            order = [self.seats[s] for s in sorted(self.seats)]
            # Provably fair: 128 secret bits, committed to (with a public salt from the table)
            # before the first move; the seed derives from the secret (engines/verify.py).
            secret = secrets.token_hex(16)
            salt = f"{self.slug}:{self.room_id}"
            seed = verify.seed_from_secret(secret)
            commitment = verify.commitment(secret, salt)
            options = self.engine.parse_options(self.options)
            opening_step = self.engine.setup(players, options, seed)
            state = opening_step.state
            acting = self.engine.to_act(state)
            now = self.runtime.now()
            clock = clocks.advance(
                clocks.new_clock(self.clock_spec, players),
                now=now,
                acting=acting,
                new_decision=acting,
            )
            opening = Event.public(
                N_("The game begins. Good luck! The shuffle is committed: %(commitment)s"),
                commitment=commitment,
            )
            seated = {s: (info.user_id, info.bot_level) for s, info in self.seats.items()}
            record: dict[str, Any] = {
                "room_id": self.room_id,
                "engine": self.game_id,
                "options": options.model_dump(mode="json"),
                "num_players": players,
                "seed": seed,
                "seed_commitment": commitment,
                "snapshot": self.engine.dump(state),
                "clock": clock,
                "opening": [e.to_json() for e in opening_step.events],
                "seed_secret": secret,
                "seed_salt": salt,
                "rules_version": self.engine.spec.rules_version,
            }
            # Seats 0..k-1 already (the usual case): nothing to renumber or read again.
            compact = [info.seat for info in order] != list(range(len(order)))

            game = games.new_game(**record)
            stored = await self._room_write(
                self.store.start(game, seated, opening, order if compact else None),
                self._still_open,
            )
            if stored is not None:
                self.seats = {s.seat: s for s in stored}
            self.status = "playing"
            self.num_seats = players
            self.offline_since = {
                s: self.offline_since.get(s, now)
                for s, info in self.seats.items()
                if not info.is_bot
            }
            self.game = GameLive(
                db_id=game.id,
                engine=self.engine,
                state=state,
                version=0,
                seed=seed,
                seed_commitment=commitment,
                seed_secret=secret,
                seed_salt=salt,
                log=[(0, opening), *((0, e) for e in opening_step.events)],
                prompt_version=dict.fromkeys(range(players), 0),
                clock=clock,
            )
            self._changed("start")
            self.kick_bots()

    # ---- bots in seats, who plays a seat ----------------------------------------------------

    @_judged_again
    async def add_bot(self, user_id: int, seat: Seat | None, level: str) -> Seat:
        """The host seats a bot before the start (the first free seat unless one is named)."""
        if level not in bots.LEVELS:
            raise Refusal(
                "bad_level", N_("Bot levels are %(levels)s."), 400, levels=", ".join(bots.LEVELS)
            )
        async with self.lock:
            self._require_host(user_id, N_("Only the host can add bots."))
            if self.status != "open":
                raise Refusal("already_started", N_("The game has already started."))
            seat = self._free_seat(seat)
            wanted = seat

            def recheck() -> None:
                self._still_open()
                if wanted in self.seats:
                    raise Refusal("seat_taken", N_("That seat is taken or does not exist."))

            await self._room_write(
                self.store.take_seat(self.room_id, self.status, wanted, None, level), recheck
            )
            self.seats[seat] = rooms.SeatInfo(seat, None, rooms.bot_name(seat, level), level)
            self._changed("add_bot")
            return seat

    @_judged_again
    async def remove_bot(self, user_id: int, seat: Seat) -> None:
        """The host takes a bot out of its seat before the start."""
        async with self.lock:
            self._require_host(user_id, N_("Only the host can remove bots."))
            if self.status != "open":
                raise Refusal("already_started", N_("The game has already started."))
            info = self.seats.get(seat)
            if info is None or not info.is_bot:
                raise Refusal("not_a_bot", N_("There is no bot in that seat."))

            await self._room_write(
                self.store.free_seat(self.room_id, self.status, seat), self._still_open
            )
            del self.seats[seat]
            self._changed("remove_bot")

    async def set_autopilot(self, user_id: int, on: bool) -> None:
        """ "Let a bot play for me" (on) or "I'm back" (off) for the user's own seat."""
        async with self.lock:
            seat = self._playing_seat(user_id)
            control = self.seats[seat].control
            if control == "resigned":
                raise Refusal("resigned", N_("You resigned from this game."))
            if on and control is None:
                await self._set_control(seat, "autopilot", N_("%(who)s lets a bot play for them."))
            elif not on and control in ("autopilot", "away"):
                await self._set_control(seat, None, N_("%(who)s is back and plays again."))
            self.kick_bots()

    async def resign(self, user_id: int) -> None:
        """Give up: a bot finishes the seat's game; the standings mark the seat as resigned."""
        async with self.lock:
            seat = self._playing_seat(user_id)
            if self.seats[seat].control == "resigned":
                raise Refusal("resigned", N_("You have already resigned."))
            await self._set_control(
                seat, "resigned", N_("%(who)s resigned; a bot finishes their game.")
            )
            self.kick_bots()

    async def hand_to_bot(self, user_id: int, seat: Seat) -> None:
        """The host hands a seat whose player has been disconnected long enough to a bot."""
        async with self.lock:
            self._require_host(user_id, N_("Only the host can hand a seat to a bot."))
            if self.status != "playing" or self.game is None or self.game.over:
                raise Refusal("not_playing", N_("There is no game in progress."))
            info = self.seats.get(seat)
            if info is None or info.is_bot or info.control is not None:
                raise Refusal("not_a_person", N_("A bot already plays that seat."))
            away = self.offline_for(seat)
            needed = self.runtime.takeover_after
            if away is None or away < needed:
                if away is None:
                    raise Refusal(
                        "still_connected",
                        N_(
                            "A seat can be handed to a bot once its player has been disconnected "
                            "for %(limit)s s."
                        ),
                        limit=round(needed),
                    )
                raise Refusal(
                    "still_connected",
                    N_(
                        "A seat can be handed to a bot once its player has been disconnected "
                        "for %(limit)s s (another %(wait)s s)."
                    ),
                    limit=round(needed),
                    wait=max(1, round(needed - away)),
                )
            await self._set_control(
                seat, "away", N_("%(who)s is away; a bot plays for them until they return.")
            )
            self.kick_bots()

    @_judged_again
    async def rematch(self, user_id: int) -> tuple[str, str]:
        """ "Play again": a new table with the same game, options, clock and seats (bots
        included). The first person to ask creates it and hosts it; later askers get the same
        one. Returns its slug and invite code."""
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("Only the players can start a rematch."), 403)
            if self.status != "finished":
                raise Refusal("not_finished", N_("The game is not over yet."))
            if self.rematch_slug is None:
                line = Event.public(N_("%(who)s started a rematch."), who=who(seat))
                bots = [
                    rooms.SeatInfo(s, None, info.name, info.bot_level)
                    for s, info in self.seats.items()
                    if info.bot_level is not None
                ]
                created = [rooms.SeatInfo(seat, user_id, self.seats[seat].name), *bots]
                fields: dict[str, Any] = {
                    "host_id": user_id,
                    "game_id": self.game_id,
                    "options": self.options,
                    "num_seats": self.num_seats,
                    "private": self.private,
                    "clock": self.clock_spec,
                    "bot_level": self.bot_level,
                }
                try:
                    room = rooms.new_room(**fields)
                    note = (self.game.version, line) if self.game is not None else None
                    await self.store.create_rematch(room, created, self.room_id, note)
                    if self.game is not None and note is not None:
                        self.game.log.append(note)
                    self.rematch_slug = room.slug
                    self.rematch_code = room.invite_code
                    self.on_room_created(room, created)
                except Conflict:
                    # Another process linked a rematch first: everyone joins that one.
                    async with self.sessions() as session:
                        old = await rooms.get_room(session, self.slug)
                    self.rematch_slug = old.rematch_slug if old else None
                    self.rematch_code = (await self._rematch_code())[1]
                self._changed("rematch")
            if self.rematch_slug is not None and self.rematch_code is not None:
                return self.rematch_slug, self.rematch_code
            return await self._rematch_code()

    async def _rematch_code(self) -> tuple[str, str]:
        assert self.rematch_slug is not None
        async with self.sessions() as session:
            room = await rooms.get_room(session, self.rematch_slug)
        assert room is not None
        return room.slug, room.invite_code

    def _free_seat(self, seat: Seat | None) -> Seat:
        """The named seat if it is free, else the first free one; refused when none is."""
        free = [s for s in range(self.num_seats) if s not in self.seats]
        if not free:
            raise Refusal("table_full", N_("This table is full."))
        if seat is None:
            return free[0]
        if seat not in free:
            raise Refusal("seat_taken", N_("That seat is taken or does not exist."))
        return seat

    async def _catch_up_room(self) -> None:
        """With several processes, after a room change was refused (`_judged_again`):
        re-read the room's seats (all of it if its status moved on), since another process
        may have changed them a moment ago."""
        if not self.runtime.bus.enabled:
            return
        try:
            status, seats = await self.store.table_now(self.room_id)
        except NotFound:
            return
        if status != self.status:
            await self.reload_game()
        elif seats != self.seats:
            self.seats = seats
            self.room_rev += 1

    def _still_open(self) -> None:
        if self.status != "open":
            raise Refusal("already_started", N_("The game has already started."))

    async def _room_write(self, change: Awaitable[Any], recheck: Callable[[], None]) -> Any:
        """One room change (a `Store` write at the status this hub knows). If another process
        changed the room first (`Conflict`), reload it and refuse: with `recheck`'s reason
        when the change now makes no sense, else as a conflict (the client gets the current
        state)."""
        try:
            return await change
        except Conflict:
            await self.reload_game()
            recheck()
            raise Refusal(
                "conflict", N_("Another server changed this table first; try again.")
            ) from None

    def _require_host(self, user_id: int, message: str) -> None:
        if user_id != self.host_id:
            raise Refusal("not_host", message, 403)

    def _playing_seat(self, user_id: int) -> Seat:
        seat = self.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated", N_("You do not have a seat at this table."))
        if self.status != "playing" or self.game is None or self.game.over:
            raise Refusal("not_playing", N_("There is no game in progress."))
        return seat

    async def _set_control(self, seat: Seat, control: str | None, message: str) -> None:
        """Store who plays a seat now, with its log line (under the lock); `message` names
        the seat as `%(who)s`."""
        line = Event.public(message, who=who(seat))
        async with self.sessions.begin() as session:
            await rooms.set_control(session, self.room_id, seat, control)
            if self.game is not None:
                await add_room_event(session, self.room_id, self.game.version, line)
            if control is None and self.game is not None and self.game.clock is not None:
                clock = dict(self.game.clock)
                clock["timeouts"] = {**clock["timeouts"], str(seat): 0}
                if await games.set_game_clock(session, self.game.db_id, self.game.version, clock):
                    self.game.clock = clock
        self.seats[seat] = replace(self.seats[seat], control=control)
        if self.game is not None:
            self.game.log.append((self.game.version, line))
        self._changed("control")

    async def _note(self, message: str, **params: Any) -> None:
        """A log line about the table at the current version, stored."""
        if self.game is None:
            return
        line = Event.public(message, **params)
        async with self.sessions.begin() as session:
            await add_room_event(session, self.room_id, self.game.version, line)
        self.game.log.append((self.game.version, line))

    # ---- the move path --------------------------------------------------------------------------

    async def act(self, user_id: int | None, msg: Act) -> int:
        """Apply one action for the user's seat; returns the new version. Raises on refusal."""
        async with self.lock:
            game = self.game
            if game is None:
                raise Refusal("not_started", N_("The game has not started yet."))
            if msg.version > game.version and self.runtime.bus.enabled:
                # The client saw a version this process has not heard of yet: catch up.
                await self.reload_game()
                game = self.game
                assert game is not None
            seat = self.seat_of(user_id)
            if seat is None:
                raise Refusal("spectator", N_("Spectators cannot play; take a seat first."))
            if self.seats[seat].control == "resigned":
                raise Refusal("resigned", N_("You resigned; a bot finishes your game."))
            if not game.prompt_version.get(seat, 0) <= msg.version <= game.version:
                raise Refusal(
                    "stale",
                    N_(
                        "The table has moved on (you saw version %(seen)s, it is at %(now)s); "
                        "here is the current state."
                    ),
                    seen=msg.version,
                    now=game.version,
                )
            engine = game.engine
            try:
                action = engine.parse_action(msg.action)
                step = engine.apply(game.state, seat, action)
            except GameError as exc:
                raise Refusal(exc.code, exc.template, 409, **exc.params) from None
            if self.seats[seat].control is not None:
                # Playing yourself takes the seat back from the bot.
                await self._set_control(seat, None, N_("%(who)s is back and plays again."))
            return await self._commit(seat, action, step)

    async def _commit(
        self, seat: Seat, action: Any, step: Step[Any], *, timed_out: bool = False
    ) -> int:
        """Store one applied action (move, snapshot, clock: one transaction), then announce it.

        Called under the lock. When another process got there first, reload and refuse.
        """
        game = self.game
        assert game is not None
        engine = game.engine
        outcome = engine.outcome(step.state)
        result = outcome.to_json() if outcome else None
        after, changed = self._prompts_after(game, seat, step)
        acting = engine.to_act(step.state)
        clock = clocks.advance(
            game.clock,
            now=self.runtime.now(),
            acting=acting,
            new_decision=changed & acting,
            actor=seat,
            timed_out=timed_out,
        )
        notes: list[Event] = []
        if timed_out:
            notes.append(
                Event.public(N_("%(who)s ran out of time; a bot chose for them."), who=who(seat))
            )
        away = (
            timed_out
            and self.seats[seat].control is None
            and clocks.timeouts_in_a_row(clock, seat) >= clocks.TIMEOUTS_BEFORE_AWAY
        )
        if away:
            notes.append(
                Event.public(
                    N_(
                        "%(who)s ran out of time %(count)s times in a row; "
                        "a bot plays for them until they return."
                    ),
                    who=who(seat),
                    count=clocks.TIMEOUTS_BEFORE_AWAY,
                )
            )
        move = MoveRecord(
            game_id=game.db_id,
            from_version=game.version,
            seat=seat,
            action=engine.dump_action(action),
            events=[e.to_json() for e in step.events],
            snapshot=engine.dump(step.state),
            clock=clock,
        )
        started = time.perf_counter()
        try:
            await self.store.record_move(self.room_id, move, result, notes, away)
            ok = True
        except Conflict:
            ok = False
        self.runtime.metrics.db_time.observe(time.perf_counter() - started)
        if not ok:
            await self.reload_game()
            raise Refusal("conflict", N_("Another server changed this game; retry."))
        self._committed(
            game, action, NextVersion(seat, step, after, changed, clock, notes, away), timed_out
        )
        return game.version

    def _committed(self, game: GameLive, action: Any, nxt: NextVersion, timed_out: bool) -> None:
        """After the commit: count and log the move, tell the other processes, advance."""
        engine = game.engine
        seat = nxt.seat
        new_version = game.version + 1
        self.runtime.metrics.moves.labels(engine.spec.id).inc()
        if logger.isEnabledFor(logging.DEBUG):  # a line per move: for debugging, not operation
            logger.debug(
                "move",
                extra={
                    "room": self.slug,
                    "version": new_version,
                    "seat": seat,
                    "action": engine.action_text(action),
                    "timed_out": timed_out,
                },
            )
        # Committed: only now does the new version become visible to anyone.
        self.leading = True
        self._publish(
            "move",
            g=game.db_id,
            v=new_version,
            seat=seat,
            a=engine.dump_action(action),
            clock=nxt.clock,
            notes=[note.to_json() for note in nxt.notes],
            away=nxt.away,
            lobby=engine.outcome(nxt.step.state) is not None or nxt.clock is not None,
        )
        self._advance(nxt)

    def _advance(self, nxt: NextVersion) -> None:
        """Make a committed move the hub's new version and tell every connection (the move
        path's tail, also for a move another process committed)."""
        game = self.game
        assert game is not None
        new_version = game.version + 1
        game.state = nxt.step.state
        game.version = new_version
        game.prompts = nxt.prompts
        game.clock = nxt.clock
        game.log.extend((new_version, e) for e in nxt.step.events)
        game.log.extend((new_version, note) for note in nxt.notes)
        for s in nxt.changed:
            game.prompt_version[s] = new_version
        if nxt.away:
            self.seats[nxt.seat] = replace(self.seats[nxt.seat], control="away")
            self.room_rev += 1
        if game.over:
            self.status = "finished"
            self.on_lobby_change()
        elif game.clock is not None:
            self.on_lobby_change()
        self._broadcast("state")
        self.kick_bots()

    # ---- several processes --------------------------------------------------------------------

    def _publish(self, kind: str, **data: Any) -> None:
        """Tell the other processes (if any) about a committed change of this room."""
        bus = self.runtime.bus
        if bus.enabled:
            bus.send({"k": kind, "s": self.slug, **data})

    async def follow(self, msg: dict[str, Any]) -> None:
        """A change another process committed: update this hub and push to its sockets.

        A move is applied here too when it is the next version (engines are deterministic);
        anything else, or a gap, reloads the room from the database.
        """
        kind = msg["k"]
        if kind == "chat":
            line = msg["line"]
            if all(known["id"] != line["id"] for known in self.chat_log):
                self.chat_log.append(line)
                for conn in self.connections:
                    conn.notify("chat", line)
            return
        if kind in ("presence", "hello"):
            self._remote_presence(msg["o"], set(msg.get("seats", [])))
            if kind == "hello":
                self._publish("presence", seats=sorted(self.local_seats()))
            return
        async with self.lock:
            self.leading = False
            game = self.game
            if kind == "move" and game is not None and game.db_id == msg["g"]:
                if game.version >= msg["v"]:
                    return  # already here (this process reloaded past it)
                if game.version == msg["v"] - 1 and self._adopt(msg):
                    return
            await self.reload_game()

    def _adopt(self, msg: dict[str, Any]) -> bool:
        """Apply the next version's move as its process committed it; False if it does not
        apply here (then the caller reloads)."""
        game = self.game
        assert game is not None
        engine = game.engine
        seat = int(msg["seat"])
        try:
            step = engine.apply(game.state, seat, engine.parse_action(msg["a"]))
        except GameError:
            logger.warning("a move from another process does not apply here; reloading")
            return False
        after, changed = self._prompts_after(game, seat, step)
        notes = [Event.from_json(n) for n in msg["notes"]]
        self._advance(
            NextVersion(seat, step, after, changed, msg["clock"], notes, bool(msg["away"]))
        )
        return True

    def _remote_presence(self, origin: str, seats: set[Seat]) -> None:
        """Another process's connected seats for this room changed."""
        was = set(self.online_seats())
        if seats:
            self.remote_online[origin] = seats
        else:
            self.remote_online.pop(origin, None)
        self.presence_rev += 1
        now_online = set(self.online_seats())
        for seat in was - now_online:
            self.offline_since[seat] = self.runtime.now()
        for seat in now_online - was:
            self.offline_since.pop(seat, None)
        if was != now_online:
            self._broadcast("presence")

    # ---- bots and clocks ------------------------------------------------------------------------

    def kick_bots(self) -> None:
        """Start a thinking task for every seat a bot plays that must act and has none."""
        game = self.game
        if game is None or game.over or self._stopping:
            return
        for seat in sorted(game.engine.to_act(game.state)):
            if self.bot_plays(seat) and seat not in self._bot_tasks:
                level = self.seats[seat].bot_level or self.bot_level
                task = asyncio.create_task(self._bot_turn(seat, game.version, level))
                self._bot_tasks[seat] = task

    async def _bot_turn(self, seat: Seat, version: int, level: str) -> None:
        """Think for a seat as of `version`, then move through the common path."""
        try:
            delay = self.runtime.bot_delay
            if not self.leading:
                delay += self.runtime.follower_grace
            if delay > 0:
                await asyncio.sleep(delay)
            await self._decide_for(seat, version, level)
        except Refusal:
            pass  # another process moved first; reload_game already re-kicked
        finally:
            if self._bot_tasks.get(seat) is asyncio.current_task():
                del self._bot_tasks[seat]
            if self.bot_plays(seat):
                self.kick_bots()

    async def _decide_for(
        self, seat: Seat, version: int, level: str, *, timed_out: bool = False
    ) -> bool:
        """A bot's decision for `seat`, asked at `version`; False if the question went away."""
        game = self.game
        if game is None or game.over or seat not in game.engine.to_act(game.state):
            return False
        if game.prompt_version.get(seat, 0) > version:
            return False
        state = game.state
        seed = bots.decision_seed(game.seed_commitment, game.version, seat)
        action = await asyncio.to_thread(
            bots.decide, game.engine, state, seat, level, seed, self.runtime.bot_think_scale
        )
        async with self.lock:
            game = self.game
            if game is None or game.over or seat not in game.engine.to_act(game.state):
                return False
            if game.prompt_version.get(seat, 0) > version:
                return False  # the question changed while it thought
            if not timed_out and not self.bot_plays(seat):
                return False  # the player took the seat back
            if timed_out:
                deadline = (game.clock or {}).get("deadlines", {}).get(str(seat))
                if deadline is None or deadline > self.runtime.now():
                    return False  # the player moved in time after all
            try:
                step = game.engine.apply(game.state, seat, action)
            except GameError:
                return False  # the position changed under it; think again
            await self._commit(seat, action, step, timed_out=timed_out)
            return True

    async def tick(self) -> int:
        """Enforce the turn clocks: a bot decides for each seat whose time ran out.

        Returns how many decisions were made. Any process may call this; the version check
        of the move path makes each expiry fire once.
        """
        game = self.game
        if game is None or game.over or game.clock is None:
            return 0
        fired = 0
        now = self.runtime.now()
        if not self.leading:
            now -= self.runtime.follower_grace
        for seat in clocks.expired(game.clock, now):
            try:
                if await self._decide_for(seat, game.version, self.bot_level, timed_out=True):
                    fired += 1
            except Refusal:
                pass  # lost the race to another process, which already moved
        return fired

    async def settle(self) -> None:
        """Wait until no bot is thinking (tests and shutdown)."""
        while self._bot_tasks:
            await asyncio.gather(*list(self._bot_tasks.values()), return_exceptions=True)

    async def stop_bots(self) -> None:
        """Cancel every thinking and background task and wait until they are gone (shutdown)."""
        self._stopping = True
        tasks = [*self._bot_tasks.values(), *self._background]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._bot_tasks.clear()

    async def chat(self, user_id: int | None, text: str, limits: ChatLimits) -> dict[str, Any]:
        """Store a chat line from a named person (player or spectator) and send it to all.

        Refused, changing nothing: no name, a closed table, an empty or too long line, or
        more than `limits.count` lines in `limits.window` seconds from the same person.
        """
        if user_id is None:
            raise Refusal("no_name", N_("Choose a name before you chat."))
        if self.status == "closed":
            raise Refusal("table_closed", N_("This table is closed."))
        text = clean_chat(text)
        if not text:
            raise Refusal("chat_empty", N_("Type something to send."))
        if len(text) > limits.max_chars:
            raise Refusal(
                "chat_too_long",
                N_("Chat lines are limited to %(limit)s characters."),
                limit=limits.max_chars,
            )
        now = time.monotonic()
        sent = self._chat_sent.setdefault(user_id, deque())
        while sent and now - sent[0] >= limits.window:
            sent.popleft()
        if len(sent) >= limits.count:
            wait = max(1, round(limits.window - (now - sent[0])))
            raise Refusal(
                "chat_rate_limited",
                N_("You are sending messages too fast; wait %(wait)s s."),
                wait=wait,
            )
        sent.append(now)
        async with self.sessions() as session, session.begin():
            user = await people.get_user(session, user_id)
            if user is None:
                raise Refusal("no_name", N_("Choose a name before you chat."))
            row = await add_chat(
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
        self._publish("chat", line=line)
        return line

    def _prompts_after(
        self, game: GameLive, seat: Seat, step: Step[Any]
    ) -> tuple[dict[Seat, list[str]], set[Seat]]:
        """Every seat's prompt after `seat`'s move, and the seats whose question changed (the
        mover's always did): their earlier acts become stale."""
        before = game.prompts or {s: self._prompt(game.state, s) for s in range(len(self.seats))}
        after = {s: self._prompt(step.state, s) for s in range(len(self.seats))}
        return after, {s for s in after if after[s] != before[s] or s == seat}

    def _prompt(self, state: Any, seat: Seat) -> list[str]:
        """What a seat is being asked now; an act is stale only if this changed since."""
        assert self.game is not None
        engine = self.game.engine
        return [engine.action_text(a) for a in engine.legal_actions(state, seat)]

    # ---- connections ----------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A new connection: it gets the full state and the chat; if it brings a seat online,
        everyone gets the new presence (a spectator changes nobody's seats bar).

        A player whose seat was handed to a bot while away takes it back by coming back.
        """
        seat = self.seat_of(conn.user_id)
        before = self.online_seats()
        self.connections.add(conn)
        self.presence_rev += 1
        if seat is not None:
            self.offline_since.pop(seat, None)
            if self.seats[seat].control == "away":
                task = asyncio.create_task(self._returned(seat))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        self.idle_since = None
        conn.notify("state")
        conn.notify("chat", None)
        self._presence_changed(seat, before)

    def detach(self, conn: Connection) -> None:
        """A connection closed; a seat with no connection left starts its "disconnected" time."""
        before = self.online_seats()
        self.connections.discard(conn)
        self.runtime.trimmer.closed_one()
        self.presence_rev += 1
        seat = self.seat_of(conn.user_id)
        if seat is not None and seat not in self.online_seats():
            self.offline_since[seat] = self.runtime.now()
        if not self.connections:
            self.idle_since = time.monotonic()
        self._presence_changed(seat, before)

    def _presence_changed(self, seat: Seat | None, before: list[Seat]) -> None:
        """After a connection of `seat` came or went: push the seats bar if who is online
        changed, and tell the other processes which seats this one has."""
        if seat is None:
            return  # a spectator: no seat came or went
        if self.online_seats() != before:
            self._broadcast("presence")
        self._publish("presence", seats=sorted(self.local_seats()))

    async def _returned(self, seat: Seat) -> None:
        async with self.lock:
            if self.seats.get(seat) and self.seats[seat].control == "away":
                await self._set_control(seat, None, N_("%(who)s is back and plays again."))

    def _changed(self, what: str) -> None:
        """A room change (`what`: join, leave, start, …): logged, pushed, and the lobby told."""
        logger.info(
            "room %s",
            what,
            extra={"room": self.slug, "status": self.status, "seats": len(self.seats)},
        )
        self.room_rev += 1
        self.leading = True
        self._broadcast("state")
        self.on_lobby_change()
        self._publish("room", what=what)

    def _broadcast(self, kind: str) -> None:
        for conn in self.connections:
            conn.notify(kind)
        if kind == "state" and self.game is not None:
            # The writers just woken build their messages first thing in the loop's next
            # round; then the views go (a late writer makes its own again). Kept until the
            # next move, every table's views were most of the live young objects a garbage
            # collection had to walk (~100 ms pauses at 500 tables).
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to wait for
                asyncio.get_running_loop().call_soon(self.game.release_views)


Loader = Callable[[str], Awaitable[RoomHub | None]]


class Hubs:
    """Every live room hub of this process, loaded lazily by slug."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], runtime: Runtime | None = None
    ) -> None:
        self.sessions = sessions
        self.runtime = runtime or Runtime()
        self._hubs: dict[str, RoomHub] = {}
        self._loading = asyncio.Lock()
        self.evict_after = 600.0
        self.store: Store = SqlStore(sessions)
        """Where room changes and moves are written (`app.store.pg.open_store` on PostgreSQL),
        handed to every hub."""
        self.lobby: set[Connection] = set()
        self.known = identity.Known()
        """Devices checked lately (app.identity): a burst of requests reads them once."""
        self.heard: dict[str, float] = {}
        """Other processes (bus origins) and when (monotonic) each was last heard from."""
        self._gone: set[str] = set()
        self.runtime.metrics.watch(lambda: self)

    async def get(self, slug: str) -> RoomHub | None:
        """The hub of a room, or None if no such room exists."""
        hub = self._hubs.get(slug)
        if hub is not None:
            hub.touched = time.monotonic()
            return hub
        async with self._loading:
            hub = self._hubs.get(slug)
            if hub is not None:
                hub.touched = time.monotonic()
                return hub
            async with self.sessions() as session:
                room = await rooms.get_room(session, slug)
                if room is None:
                    return None
                hub = RoomHub(self.sessions, room, self.runtime)
                hub.store = self.store
                await hub.load(session)
            self._keep(hub)
            hub.kick_bots()
            hub._publish("hello")  # the other processes answer with their connected seats
            return hub

    def _keep(self, hub: RoomHub) -> None:
        hub.on_lobby_change = self._lobby_here
        hub.on_room_created = self.adopt
        self._hubs[hub.slug] = hub

    def adopt(self, room: Any, seats: list[rooms.SeatInfo]) -> RoomHub:
        """Keep a room this process has just created (and committed) in memory as it was
        written — open, these `seats`, no game, no chat — so its first join or page does not
        read back what was just stored (4 queries). Nobody else can have changed it yet; if
        another process does later, the room's changes are judged by the database as ever
        (claim_room) and this hub catches up."""
        hub = self._hubs.get(room.slug)
        if hub is not None:
            return hub
        hub = RoomHub(self.sessions, room, self.runtime)
        hub.store = self.store
        hub.seats = {info.seat: info for info in seats}
        now = self.runtime.now()
        hub.offline_since = {s: now for s, info in hub.seats.items() if not info.is_bot}
        self._keep(hub)
        return hub

    def evict_idle(self, idle_for: float = 600.0) -> int:
        """Forget hubs nobody has used for `idle_for` seconds (no connection, not asked for,
        no bot thinking, no turn clock running): their memory is given back, and the next
        `get` loads them again from the database. Returns how many were evicted."""
        now = time.monotonic()
        evicted = 0
        for slug, hub in list(self._hubs.items()):
            game = hub.game
            clocked = game is not None and not game.over and game.clock is not None
            if (
                hub.connections
                or hub.idle_since is None
                or now - hub.idle_since < idle_for
                or now - hub.touched < idle_for
                or hub._bot_tasks
                or hub._background
                or clocked
            ):
                continue
            del self._hubs[slug]
            evicted += 1
        if evicted:
            logger.info("evicted idle hubs", extra={"count": evicted, "live": len(self._hubs)})
        return evicted

    async def follow(self, msg: dict[str, Any]) -> None:
        """A change committed by another process (from the bus): update the live hub of its
        room, if this process has one, and this process's lobby."""
        origin = msg.get("o")
        if isinstance(origin, str):
            if origin in self._gone:
                # Back after we counted it gone: ask again who is connected through it.
                self._gone.discard(origin)
                for live in self.live():
                    live._publish("hello", seats=sorted(live.local_seats()))
            self.heard[origin] = time.monotonic()
        kind = msg.get("k")
        if kind == "alive":
            return
        if kind == "rename":
            self._renamed_here(int(msg["u"]), str(msg["n"]))
            return
        if kind == "person":
            self.known.forget(int(msg["u"]))
            return
        if kind == "resubscribed":  # our bus lost Redis for a while: a person may have changed
            self.known.clear()
            return
        if kind == "lobby" or kind == "room" or msg.get("lobby"):
            self._lobby_here()
        hub = self._hubs.get(str(msg.get("s")))
        if hub is None:
            return
        if kind not in ("presence", "hello") and self._forget_unwatched(hub):
            return
        await hub.follow(msg)

    def _forget_unwatched(self, hub: RoomHub) -> bool:
        """Another process changed a room that nobody here watches and that has no game in
        play (open, or finished): forget its hub instead of keeping it current (each join,
        start or rematch there made every process reload the room from the database; with
        tables routed to one process, most rooms are another's). The next request or socket
        for it loads it again. A room in play is kept and followed: its clocks and bots need
        a second process ready to carry them on if the first one dies. A request that got
        the hub just before keeps its copy: what it writes is decided by the database, and a
        socket takes the room's hub again once accepted (`table_socket`)."""
        game = hub.game
        if (
            hub.connections
            or (game is not None and not game.over and hub.status == "playing")
            or hub._bot_tasks
            or hub._background
            or hub.lock.locked()
        ):
            return False
        if self._hubs.get(hub.slug) is hub:
            del self._hubs[hub.slug]
        return True

    def live(self) -> list[RoomHub]:
        """The hubs loaded in this process."""
        return list(self._hubs.values())

    async def resume(self, downtime_grace: float = 15.0) -> None:
        """At start: move running deadlines past the server's downtime, then load every game
        in progress so its bots and clocks carry on.

        Downtime is measured from the last heartbeat of any process: while another process
        kept serving, nothing is shifted.
        """
        now = self.runtime.now()
        async with self.sessions.begin() as session:
            last = await games.last_heartbeat(session)
            if last is not None and now - last > downtime_grace:
                for game in await games.running_clock_games(session):
                    shifted = clocks.shifted(game.clock, now - last)
                    await games.set_game_clock(session, game.id, game.version, shifted)
            await games.beat(session, now)
            slugs = await rooms.playing_room_slugs(session)
        for slug in slugs:
            await self.get(slug)

    async def tick(self) -> int:
        """One round of clock enforcement over every live hub (the ticker calls this), the
        eviction of idle ones, and forgetting the seats of processes gone silent."""
        self.drop_silent()
        fired = 0
        for hub in self.live():
            fired += await hub.tick()
        self.evict_idle(self.evict_after)
        return fired

    def drop_silent(self, now: float | None = None) -> list[str]:
        """Processes not heard from for `Runtime.gone_after` seconds are gone: the seats
        connected through them are offline here from now (their takeover clock starts).
        Every process says "alive" every `Runtime.alive_every` seconds, so only a dead or
        cut-off one goes silent. Returns the origins dropped."""
        now = time.monotonic() if now is None else now
        limit = self.runtime.gone_after
        gone = [o for o, heard in self.heard.items() if now - heard > limit]
        for origin in gone:
            del self.heard[origin]
            self._gone.add(origin)
            for hub in self.live():
                if origin in hub.remote_online:
                    hub._remote_presence(origin, set())
            logger.warning("a process went silent; its seats are offline", extra={"origin": origin})
        return gone

    async def beat(self) -> None:
        """Record that this process is alive (for downtime measurement)."""
        async with self.sessions.begin() as session:
            await games.beat(session, self.runtime.now())

    async def run_ticker(self, interval: float, beat_every: float = 5.0) -> None:
        """Forever: enforce clocks every `interval` s and beat every `beat_every` s."""
        last_beat = last_alive = 0.0
        while True:
            await asyncio.sleep(interval)
            try:
                self.runtime.sends.sweep()  # first: a slow clock round must not delay it
                await self.tick()
                self.runtime.trimmer.maybe_trim()
                now = time.monotonic()
                bus = self.runtime.bus
                if bus.enabled and now - last_alive >= self.runtime.alive_every:
                    last_alive = now
                    bus.send({"k": "alive"})
                if now - last_beat >= beat_every:
                    last_beat = now
                    await self.beat()
            except Exception:
                logger.exception("clock tick failed")

    async def settle(self) -> None:
        """Wait until no bot in this process is thinking."""
        for hub in self.live():
            await hub.settle()

    async def shutdown(self) -> None:
        """Stop every bot and background task of every live hub."""
        for hub in self.live():
            await hub.stop_bots()

    def renamed(self, user_id: int, name: str) -> None:
        """A person changed their name: every live table they sit at shows the new one, in
        every process."""
        self._renamed_here(user_id, name)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "rename", "u": user_id, "n": name})

    def person_changed(self, user_id: int) -> None:
        """A person's devices or language changed (committed): every process checks their
        devices in the database again at their next request."""
        self.known.forget(user_id)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "person", "u": user_id})

    def _renamed_here(self, user_id: int, name: str) -> None:
        self.known.forget(user_id)
        for hub in self.live():
            seat = hub.seat_of(user_id)
            if seat is not None:
                hub.seats[seat] = replace(hub.seats[seat], name=name)
                hub.room_rev += 1
                hub._broadcast("state")
        self._lobby_here()

    def lobby_changed(self) -> None:
        """The table list changed (a table was created): tell every lobby connection, in
        every process."""
        self._lobby_here()
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "lobby"})

    def _lobby_here(self) -> None:
        """Tell this process's lobby connections that the table list changed."""
        for conn in self.lobby:
            conn.notify("lobby")
