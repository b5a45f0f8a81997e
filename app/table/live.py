"""A table's game as it lives in memory (`GameLive`), and one committed move (`Committed`):
built once after the engine's `apply`, and then used by the store, the bus, the log, the
clocks and the bots, so no one asks the engine the same question twice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.chain import chain_link
from engines.core import Engine, Event, Outcome, Seat, Step


@dataclass(frozen=True, slots=True)
class Committed:
    """One committed move (made by this process's move path, or followed from another
    process's), ready to become the game's next version."""

    seat: Seat
    action: dict[str, Any]
    """The action as the engine dumps it (stored, published, exported)."""
    step: Step[Any]
    outcome: Outcome | None
    """The engine's outcome after the move (None while the game goes on)."""
    acting: frozenset[Seat]
    """Who must act after the move."""
    prompts: dict[Seat, list[str]]
    """Every seat's prompt after the move (`GameLive.prompts_after`)."""
    changed: set[Seat]
    """Seats whose prompt changed: they are asked a new question at the new version."""
    clock: dict[str, Any] | None
    notes: list[Event]
    away: bool
    """The seat ran out of time too often and is now played by a bot."""
    chain: str | None = None
    """The head of the move chain after the move (None: a game from before the chain)."""


class LogKey:
    """An identity that a weak reference can point at (see `GameLive.words_key`)."""

    __slots__ = ("__weakref__",)


class Audiences:
    """The engine's views of one state by audience (None = a spectator), each made once when
    first asked however many sockets read it, and let go after the push that needed them
    (`release`): kept until the next move, every table's views were most of the live young
    objects a garbage collection had to walk (~100 ms pauses at 500 tables)."""

    __slots__ = ("_header", "engine", "shared", "state", "views")

    def __init__(self, engine: Engine[Any, Any, Any], state: Any) -> None:
        self.engine = engine
        self.state = state
        self.views: dict[Seat | None, Any] = {}
        self.shared: dict[str, Any] = {}
        """What the engine keeps of this state for all its audiences' views (`Engine.view`)."""
        self._header: Any = None

    def view(self, seat: Seat | None) -> Any:
        """The view of `seat`."""
        view = self.views.get(seat)
        if view is None:
            # The header is every audience's: made once, not per view.
            view = self.views[seat] = self.engine.view(self.state, seat, self.header(), self.shared)
        return view

    def header(self) -> Any:
        """The views' public header (who is to act, who has chosen): taken from a view made
        already, else computed alone and kept."""
        for view in self.views.values():
            return view["header"]
        if self._header is None:
            self._header = self.engine.header(self.state)
        return self._header

    def release(self) -> None:
        """Forget the views made so far (they are made again when asked)."""
        self.views = {}
        self.shared = {}


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
    chain_head: str | None = None
    """The head of the move chain at `version` (engines/chain.py); None for a game started
    before the chain (it never gets one)."""
    prompts: dict[Seat, list[str]] | None = None
    """Every seat's prompt at `version` (the next move compares with it, not recomputes it)."""
    readable: dict[Seat | None, tuple[list[int], int]] = field(default_factory=dict)
    """By audience: the indices of the log lines it may read, and how far the log has been
    looked at for it (the log only grows, so each line is judged once per audience)."""
    words_key: LogKey = field(default_factory=lambda: LogKey())
    """Stands for this game's log (it only grows) in the presentation's caches of its
    words, which live as long as this game does."""

    def view(self, seat: Seat | None) -> Any:
        """The engine's view for `seat` (None = spectator) at the current version, cached."""
        return self.audiences.view(seat)

    def release_views(self) -> None:
        """Forget the views made so far (they are made again when asked)."""
        self.audiences.release()

    def header(self) -> Any:
        """The views' public header at the current version (who is to act, who has chosen)."""
        return self.audiences.header()

    def readable_lines(self, seat: Seat | None) -> list[int]:
        """The indices of the log lines `seat` (None = a spectator) may read, in order."""
        indices, upto = self.readable.get(seat) or ([], 0)
        log = self.log
        if upto < len(log):
            indices.extend(i for i in range(upto, len(log)) if log[i][1].visible_to(seat))
            self.readable[seat] = (indices, len(log))
        return indices

    outcome: Outcome | None = field(init=False, default=None)
    """The engine's outcome at `version` (None while the game goes on)."""
    acting: frozenset[Seat] = field(init=False, default=frozenset())
    """The seats that must act at `version`."""

    _audiences: Audiences | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.outcome = self.engine.outcome(self.state)
        self.acting = self.engine.to_act(self.state)

    @property
    def audiences(self) -> Audiences:
        """The engine's views of `state` by audience (made anew when the state changed)."""
        audiences = self._audiences
        if audiences is None or audiences.state is not self.state:
            audiences = self._audiences = Audiences(self.engine, self.state)
        return audiences

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def next_chain(self, seat: Seat, action: dict[str, Any]) -> str | None:
        """The head of the move chain after `seat` plays `action` (dumped) at this version."""
        head = self.chain_head
        return None if head is None else chain_link(head, self.version + 1, seat, action)

    def advance(self, move: Committed) -> None:
        """Make a committed move this game's next version (state, prompts, clock, log)."""
        new_version = self.version + 1
        self.chain_head = move.chain
        self.state = move.step.state
        self.version = new_version
        self.outcome = move.outcome
        self.acting = move.acting
        self.prompts = move.prompts
        self.clock = move.clock
        self.log.extend((new_version, e) for e in move.step.events)
        self.log.extend((new_version, note) for note in move.notes)
        for s in move.changed:
            self.prompt_version[s] = new_version

    def prompts_after(
        self, seat: Seat, step: Step[Any], players: int
    ) -> tuple[dict[Seat, list[str]], set[Seat]]:
        """Every seat's prompt after `seat`'s move, and the seats whose question changed (the
        mover's always did): their earlier acts become stale."""
        seats = range(players)
        before = self.prompts or {s: self._prompt(self.state, s) for s in seats}
        after = {s: self._prompt(step.state, s) for s in seats}
        return after, {s for s in after if after[s] != before[s] or s == seat}

    def _prompt(self, state: Any, seat: Seat) -> list[str]:
        """What a seat is being asked now; an act is stale only if this changed since."""
        engine = self.engine
        return [engine.action_text(a) for a in engine.legal_actions(state, seat)]
