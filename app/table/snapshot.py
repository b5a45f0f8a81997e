"""What a table hands to the presentation: one immutable `Snapshot` per moment of its life
(a committed move, a change of its seats or status, a seat coming online or going offline).

The presentation reads a snapshot and nothing else of the table, and keys its own caches by
it (app/presentation/cache.py): the table never holds a drawing, and nothing drawn can
change the table. A snapshot's game part (`GameFrame`) is the same object for every snapshot
of one version and table revision, so what depends on those only (the board, the log's
fragments) is drawn once however often people come and go."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from app.ratings.store import Standing
from app.store.tables import SeatInfo, seat_of
from app.table.live import Audiences, GameLive, LogKey
from engines.core import Engine, Event, Outcome, Seat

if TYPE_CHECKING:
    from app.table.table import Table


@dataclass(frozen=True, eq=False)
class GameFrame:
    """A table's game at one version."""

    db_id: int
    engine: Engine[Any, Any, Any]
    version: int
    state: Any
    outcome: Outcome | None
    acting: frozenset[Seat]
    clock: Mapping[str, Any] | None
    prompt_version: Mapping[Seat, int]
    seed: int
    seed_commitment: str
    seed_secret: str | None
    seed_salt: str | None
    chain_head: str | None
    """The head of the move chain at `version` (None: a game from before the chain)."""
    audiences: Audiences
    """The engine's views of `state` by audience, each made once."""
    log: list[tuple[int, Event]]
    """The game's log (it only grows; this frame reads its first `log_len` lines)."""
    log_len: int
    log_key: LogKey
    """Stands for the game's log in the presentation's caches of its words."""
    readable: Callable[[Seat | None], list[int]]
    """The indices of the log lines an audience may read (judged once per line)."""

    @classmethod
    def of(cls, game: GameLive, clock: Mapping[str, Any] | None = None) -> GameFrame:
        """The frame of `game` as it is now; `clock`: the clock as it counts (with pauses for
        people away), if not the game's own."""
        return cls(
            db_id=game.db_id,
            engine=game.engine,
            version=game.version,
            state=game.state,
            outcome=game.outcome,
            acting=game.acting,
            # A game's clock is replaced by a change, never changed in place: no copy.
            clock=None if clock is None else MappingProxyType(dict(clock)),
            prompt_version=MappingProxyType(dict(game.prompt_version)),
            seed=game.seed,
            seed_commitment=game.seed_commitment,
            seed_secret=game.seed_secret,
            seed_salt=game.seed_salt,
            chain_head=game.chain_head,
            audiences=game.audiences,
            log=game.log,
            log_len=len(game.log),
            log_key=game.words_key,
            readable=game.readable_lines,
        )

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def view(self, seat: Seat | None) -> Any:
        """The engine's view for `seat` (None = a spectator)."""
        return self.audiences.view(seat)

    def header(self) -> Any:
        """The views' public header (who is to act, who has chosen)."""
        return self.audiences.header()

    def readable_lines(self, seat: Seat | None) -> list[int]:
        """The indices of this frame's log lines `seat` may read, in order."""
        indices = self.readable(seat)
        if indices and indices[-1] >= self.log_len:
            return [i for i in indices if i < self.log_len]
        return indices


@dataclass(frozen=True, eq=False)
class Snapshot:
    """A table at one moment: its facts, seats, game, and who is online."""

    slug: str
    game_id: str
    engine: Engine[Any, Any, Any]
    status: str
    private: bool
    friends_only: bool
    num_seats: int
    invite_code: str
    host_id: int
    options: Mapping[str, Any]
    clock_spec: str
    away_days: int
    """The longest pause per decision (days) for a player who is away (correspondence)."""
    bot_level: str
    outside_bots: bool
    rematch_slug: str | None
    rematch_code: str | None
    takeover_after: float
    seats: Mapping[Seat, SeatInfo]
    revision: int
    game: GameFrame | None
    online: tuple[Seat, ...]
    """Seats with an open connection, here or on another process (bots always)."""
    offline_since: Mapping[Seat, float]
    now: Callable[[], float]
    """The server's clock (the presentation shows times relative to it)."""
    closed_idle: bool = False
    """Closed by itself: nobody but its host and bots used it (app/table/idle)."""
    rated: bool = False
    """Whether the game's end changes its persons' ratings."""
    ratings: Mapping[int, Standing] = field(default_factory=lambda: MappingProxyType({}))
    """The seated persons' ratings in this game (user id → standing)."""

    @property
    def version(self) -> int:
        """The game's version (0 before the start)."""
        return self.game.version if self.game is not None else 0

    def seat_of(self, user_id: int | None) -> Seat | None:
        """The seat a person sits in, if any (never a bot's seat)."""
        return seat_of(self.seats, user_id)

    def offline_for(self, seat: Seat) -> float | None:
        """Seconds since a person's seat lost its last connection (None if connected)."""
        since = self.offline_since.get(seat)
        if since is None or seat in self.online:
            return None
        return max(0.0, self.now() - since)

    @classmethod
    def of(cls, table: Table, frame: GameFrame | None, online: tuple[Seat, ...]) -> Snapshot:
        """The snapshot of `table` now, with its game's `frame`."""
        return cls(
            slug=table.slug,
            game_id=table.game_id,
            engine=table.engine,
            status=table.status,
            private=table.private,
            friends_only=table.friends_only,
            num_seats=table.num_seats,
            invite_code=table.invite_code,
            host_id=table.host_id,
            options=MappingProxyType(table.options),  # a table's options never change
            clock_spec=table.clock_spec,
            away_days=table.away_days,
            bot_level=table.bot_level,
            outside_bots=table.outside_bots,
            rematch_slug=table.rematch_slug,
            rematch_code=table.rematch_code,
            takeover_after=table.runtime.takeover_after,
            seats=MappingProxyType(dict(table.seats)),
            revision=table.revision,
            game=frame,
            online=online,
            offline_since=MappingProxyType(dict(table.presence.offline_since)),
            now=table.runtime.now,
            closed_idle=table.closed_idle,
            rated=table.rated,
            ratings=MappingProxyType(dict(table.ratings)),
        )
