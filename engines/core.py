"""The engine contract shared by every Stolik game (docs/architecture.md, "The engine contract").

An engine is a pure, deterministic rules object: no I/O, no clock, no global randomness.
The server only ever talks to a game through the `Engine` interface defined here, so adding a
game means writing one subclass and listing it in `engines/__init__.py` (docs/adding-a-game.md).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, ClassVar, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

Seat = int
"""A seat number, 0-based, in clockwise order around the table."""

JSON = dict[str, Any]


# --------------------------------------------------------------------------------------------
# Errors: one small family, each with a stable `code` and a message a player understands.


class GameError(Exception):
    """Base of every refusal an engine can give; the state is left unchanged.

    `template` is the English message, with `%(name)s` placeholders filled from `params`
    (numbers, `{pN}` seat references, `Term`s) — the server shows it in the reader's language;
    `message` is the English text.
    """

    code: ClassVar[str] = "game_error"

    def __init__(self, message: str, **params: Any) -> None:
        self.template = message
        self.params = params
        self.message = english(message, None, params)
        super().__init__(self.message)


class MalformedAction(GameError):
    """The action could not be parsed into one of the game's action models."""

    code = "malformed_action"


class IllegalAction(GameError):
    """The action is well-formed but not allowed now; the message names the rule."""

    code = "illegal_action"


class NotYourTurn(GameError):
    """The seat is not among `to_act(state)`."""

    code = "not_your_turn"


class GameOver(GameError):
    """The game has ended; no more actions are accepted."""

    code = "game_over"


# --------------------------------------------------------------------------------------------
# Randomness as data.


_MASK64 = (1 << 64) - 1


class Rng(BaseModel):
    """A tiny deterministic PRNG (SplitMix64) whose whole state is one integer.

    It lives inside a game state, so dumping the state saves the RNG position and
    `setup(seed)` plus the action list replays a game exactly.
    """

    model_config = ConfigDict(frozen=False)

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Start a generator from any integer seed."""
        return cls(state=seed & _MASK64)

    def next_u64(self) -> int:
        """Advance and return the next 64-bit output."""
        fields: dict[str, int] = (
            self.__dict__
        )  # not pydantic's `__setattr__`: a bot's playout draws often
        z = fields["state"] = (fields["state"] + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher–Yates).

        The same draws as calling `randbelow(i + 1)` for i = n-1 … 1, with the generator state
        kept in a local variable (bots shuffle hidden cards very often).
        """
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def shuffled(self, items: list[T]) -> list[T]:
        """Return a shuffled copy of a list."""
        out = list(items)
        self.shuffle(out)
        return out

    def choice(self, items: list[T]) -> T:
        """One element, uniformly."""
        return items[self.randbelow(len(items))]


T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


# --------------------------------------------------------------------------------------------
# Copying a state: every `apply` and every `determinize` starts from one.

_ATOMS = (int, str, bool, float, type(None), tuple, frozenset)


def _copy_value(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        # A state's lists are homogeneous (a list of ints, of lists, of models): look at the
        # first element to choose between a flat copy and an element-wise one.
        if not value:
            return []
        if type(value[0]) in _ATOMS:
            return list(value)
        return [_copy_value(v) for v in value]
    if kind is dict:
        # Dicts may mix scalars and containers (a phrase and its parameters): look at each.
        return {k: v if type(v) in _ATOMS else _copy_value(v) for k, v in value.items()}
    if isinstance(value, BaseModel):
        return copy_state(value)
    return value


class PlainModel(BaseModel):
    """A mutable state model whose fields are set as plain attributes: no assignment validation
    is configured, so pydantic's `__setattr__` would only store the value, through two calls,
    and an engine's flow sets a few fields at every step of a bot's playout (Ganges, Karmaka)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in type(self).__pydantic_fields__:
            self.__dict__[name] = value
            self.__pydantic_fields_set__.add(name)
        else:
            super().__setattr__(name, value)


def copy_state(model: M) -> M:
    """A deep copy of a game state (or any part of one), much faster than a pydantic deep copy.

    States hold lists, dicts, pydantic models and immutable values (ints, strings, tuples,
    frozen dataclasses such as cards), so new containers all the way down are enough; frozen
    models are shared. Each model class gets a copier compiled once from its field annotations
    (`_compile_copier`: a `list[int]` field is one slice, a nested model its own copier),
    falling back to the generic `_copy_value` where an annotation says too little (`Any`). The
    shared invariants check, for every engine, that the copy shares no mutable container with
    the original (`check_copy_is_independent`).
    """
    try:
        return _COPIERS[type(model)](model)  # type: ignore[no-any-return]
    except KeyError:
        return _copier(type(model))(model)  # type: ignore[no-any-return]


def _copy_generic(model: Any) -> Any:
    """The copy of a model whose fields the compiled copier cannot vouch for."""
    data = {name: _copy_value(value) for name, value in model.__dict__.items()}
    kind: type[BaseModel] = type(model)
    new = kind.__new__(kind)
    object.__setattr__(new, "__dict__", data)
    object.__setattr__(new, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


_COPIERS: dict[type, Callable[[Any], Any]] = {}
"""The compiled copier of every model class met so far."""


def _copier(kind: type[BaseModel]) -> Callable[[Any], Any]:
    """The compiled copier of a model class (compiled on first use)."""
    found = _COPIERS.get(kind)
    if found is None:
        _COPIERS[kind] = copy_state  # a model that contains itself copies through the lookup
        found = _COPIERS[kind] = _compile_copier(kind)
    return found


def _copy_expr(annotation: Any, value: str, env: dict[str, Any]) -> str | None:
    """Python source that copies `value` of this annotation, or None when it is immutable
    (shared). Helpers it calls are added to `env`."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if annotation in (int, str, bool, float, type(None)) or origin in (Literal, tuple, frozenset):
        return None
    if origin in (Union, UnionType):
        parts = [a for a in args if a is not type(None)]
        var = _fresh(env)
        inner = [_copy_expr(a, var, env) for a in parts]
        if all(e is None for e in inner):
            return None
        if len(parts) == 1:
            return f"(None if ({var} := {value}) is None else {inner[0]})"
    elif origin is list and len(args) == 1:
        var = _fresh(env)
        item = _copy_expr(args[0], var, env)
        return f"{value}[:]" if item is None else f"[{item} for {var} in {value}]"
    elif origin is dict and len(args) == 2 and _copy_expr(args[1], "x", env) is None:
        return f"{value}.copy()"
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation.model_config.get("frozen"):
            return None
        name = f"c{len(env)}"
        env[name] = _copier(annotation)
        return f"{name}({value})"
    else:
        params = getattr(annotation, "__dataclass_params__", None)
        if isinstance(annotation, type) and params is not None and params.frozen:
            return None
    env["generic_value"] = _copy_value
    return f"generic_value({value})"


def _fresh(env: dict[str, Any]) -> str:
    """A new variable name for the copier's source."""
    env["#"] = env.get("#", 0) + 1
    return f"v{env['#']}"


def _compile_copier(kind: type[BaseModel]) -> Callable[[Any], Any]:
    """A function that copies a model of class `kind` field by field (see `copy_state`)."""
    if kind.model_config.get("frozen"):
        return lambda model: model
    names = list(kind.model_fields)
    env: dict[str, Any] = {"kind": kind, "set": object.__setattr__, "generic": _copy_generic}
    parts = []
    for name in names:
        expr = _copy_expr(kind.model_fields[name].annotation, f"d[{name!r}]", env)
        parts.append(f"{name!r}: {expr or f'd[{name!r}]'}")
    source = (
        "def copy(model):\n"
        "    d = model.__dict__\n"
        f"    if len(d) != {len(names)} or type(model) is not kind:\n"
        "        return generic(model)\n"
        "    new = kind.__new__(kind)\n"
        f"    set(new, '__dict__', {{{', '.join(parts)}}})\n"
        "    set(new, '__pydantic_fields_set__', model.__pydantic_fields_set__.copy())\n"
        "    set(new, '__pydantic_extra__', None)\n"
        "    set(new, '__pydantic_private__', None)\n"
        "    return new\n"
    )
    exec(source, env)  # compiled from the model's own field names and annotations only
    copier: Callable[[Any], Any] = env["copy"]
    return copier


# --------------------------------------------------------------------------------------------
# Words: engines speak English message templates and never translate them. A template is also
# the message's id in the server's catalogues (app/locales); its parameters are numbers,
# seat references (`who(seat)`, "{p2}") and `Term`s (game words the reader's language names).


@dataclass(frozen=True)
class Term:
    """A game word shown in the reader's language — a card, a hazard, a colour. `text` is its
    English name, which is also its message id in the catalogues; `context` tells apart the
    same English word in two games ("red" hedgehog and "red" die differ in Polish)."""

    text: str
    context: str | None = None


@dataclass(frozen=True)
class Phrase:
    """A message inside a message (a reason inside "Game over: %(reason)s."): its own template
    and parameters, rendered in the reader's language like the outer one."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None

    @classmethod
    def of(cls, message: str | Forms, **params: Any) -> Phrase:
        """A phrase from a message or its `forms` (then `params["count"]` chooses)."""
        if isinstance(message, Forms):
            return cls(message[0], params, message[1])
        return cls(message, params)

    @property
    def text(self) -> str:
        """The phrase in English."""
        return english(self.message, self.plural, self.params)

    def to_json(self) -> JSON:
        """Plain-JSON form."""
        data: JSON = {"phrase": self.message, "params": params_to_json(self.params)}
        if self.plural is not None:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Phrase:
        """Inverse of `to_json`."""
        plural = data.get("plural")
        return cls(
            str(data["phrase"]),
            params_from_json(data.get("params") or {}),
            None if plural is None else str(plural),
        )


class Forms(tuple[str, str]):
    """The singular and plural English forms of a message; `params["count"]` chooses."""

    __slots__ = ()

    def __new__(cls, singular: str, plural: str) -> Forms:
        return super().__new__(cls, (singular, plural))


def tr(message: str) -> str:
    """Mark a game word or message for the catalogues (engines never translate)."""
    return message


def trc(context: str, message: str) -> str:
    """Mark a game word with its context (see `Term.context`)."""
    del context
    return message


def forms(singular: str, plural: str) -> Forms:
    """A message with a plural: `Event.public(forms("%(count)s gem", "%(count)s gems"),
    count=n)`."""
    return Forms(singular, plural)


def english(message: str | Forms, plural: str | None, params: Mapping[str, Any]) -> str:
    """A message in English: the form for `params["count"]`, `Term`s by their English name."""
    if isinstance(message, Forms):
        message, plural = message
    if plural is not None and params.get("count") != 1:
        message = plural
    if not params:
        return message
    return message % {k: render_param(v, lambda t: t.text) for k, v in params.items()}


def render_param(
    value: Any, word: Callable[[Term], str], phrase: Callable[[Phrase], str] | None = None
) -> Any:
    """A parameter as text: a `Term` through `word`, a list of them joined with commas, a
    `Phrase` through `phrase` (English by default)."""
    if isinstance(value, Term):
        return word(value)
    if isinstance(value, Phrase):
        if phrase is not None:
            return phrase(value)
        return value.text
    if _is_words(value):
        return ", ".join(str(render_param(v, word, phrase)) for v in value)
    return value


def _is_words(value: Any) -> bool:
    """A list of game words or phrases (shown joined with commas)."""
    return (
        isinstance(value, list | tuple)
        and bool(value)
        and all(isinstance(v, Term | Phrase) for v in value)
    )


def params_to_json(params: Mapping[str, Any]) -> JSON:
    """Parameters in plain JSON (a `Term` becomes {"term": its English name[, "context"]})."""
    return {k: _param_json(v) for k, v in params.items()}


def _param_json(value: Any) -> Any:
    if isinstance(value, Term):
        return _term_json(value)
    if isinstance(value, Phrase):
        return value.to_json()
    if _is_words(value):
        return [_param_json(v) for v in value]
    return value


def _term_json(term: Term) -> JSON:
    return (
        {"term": term.text}
        if term.context is None
        else {"term": term.text, "context": term.context}
    )


def params_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Inverse of `params_to_json`."""
    return {k: _param_from_json(v) for k, v in data.items()}


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "phrase" in value:
        return Phrase.from_json(value)
    if isinstance(value, dict) and "term" in value:
        return Term(str(value["term"]), value.get("context"))
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [_param_from_json(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# Events: what happened, with its audience. `events_for` is the one place the log is redacted.


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    `message` is an English template (its id in the catalogues): `%(name)s` placeholders are
    filled from `params`, `plural` is its plural form when `params["count"]` chooses one.
    Texts may name seats as `{p0}`, `{p1}`, …; the server fills in display names. An event
    without params is plain text (events stored before messages had params read as such).
    `seats=None` means every seat; otherwise only the listed seats see it.
    `spectators` says whether spectators see it (only meaningful with `seats=None`
    or when the text is the public half of a private/public pair).
    """

    message: str
    seats: frozenset[Seat] | None = None
    spectators: bool = True
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None

    @property
    def text(self) -> str:
        """The line in English, seats still as `{pN}`."""
        return english(self.message, self.plural, self.params)

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether `seat` (None = spectator) may read this event."""
        if seat is None:
            return self.spectators
        return self.seats is None or seat in self.seats

    def to_json(self) -> JSON:
        """Plain-JSON form, used to store events with the move."""
        data: JSON = {
            "text": self.message,
            "seats": None if self.seats is None else sorted(self.seats),
            "spectators": self.spectators,
        }
        if self.params:
            data["params"] = params_to_json(self.params)
        if self.plural is not None:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Event:
        """Inverse of `to_json`."""
        seats = data.get("seats")
        plural = data.get("plural")
        return cls(
            str(data["text"]),
            seats=None if seats is None else frozenset(int(s) for s in seats),
            spectators=bool(data.get("spectators", True)),
            params=params_from_json(data.get("params") or {}),
            plural=None if plural is None else str(plural),
        )

    @classmethod
    def make(
        cls,
        message: str | Forms,
        seats: frozenset[Seat] | None,
        spectators: bool,
        params: Mapping[str, Any],
    ) -> Event:
        """An event from its parts (fields filled directly: a frozen dataclass's `__init__`
        sets them one `object.__setattr__` at a time, and every step of a bot's playout
        makes events)."""
        event = object.__new__(cls)
        if isinstance(message, Forms):
            message, plural = message
        else:
            plural = None
        event.__dict__.update(
            message=message, seats=seats, spectators=spectators, params=dict(params), plural=plural
        )
        return event

    @classmethod
    def public(cls, message: str | Forms, **params: Any) -> Event:
        """Seen by everyone, spectators included."""
        return cls.make(message, None, True, params)

    @classmethod
    def private(cls, seat: Seat, message: str | Forms, **params: Any) -> Event:
        """Seen by one seat only."""
        return cls.make(message, frozenset({seat}), False, params)

    @classmethod
    def others(cls, seat: Seat, num_players: int, message: str | Forms, **params: Any) -> Event:
        """Seen by every seat but `seat`, and by spectators (the public half of a secret)."""
        seats = _OTHERS.get((num_players, seat))
        if seats is None:
            seats = _OTHERS[num_players, seat] = frozenset(range(num_players)) - {seat}
        return cls.make(message, seats, True, params)

    @classmethod
    def players_only(cls, message: str | Forms, **params: Any) -> Event:
        """Seen by every seat, hidden from spectators."""
        return cls.make(message, None, False, params)


_OTHERS: dict[tuple[int, Seat], frozenset[Seat]] = {}
"""`Event.others`' seats by (table size, seat), made once (frozen, so events share them)."""


def who(seat: Seat) -> str:
    """The placeholder that names a seat in an event text (the server fills in the name)."""
    return f"{{p{seat}}}"


def events_for(events: list[Event], seat: Seat | None) -> list[str]:
    """The texts of the events `seat` (None = spectator) may read, in order."""
    return [e.text for e in events if e.visible_to(seat)]


# --------------------------------------------------------------------------------------------
# Metadata, results.


@dataclass(frozen=True)
class GameSpec:
    """Static metadata of a game."""

    id: str
    title: str
    min_players: int
    max_players: int
    options: type[BaseModel]
    hidden_information: bool
    simultaneous: bool
    summary: str = ""
    rules_version: str = "1"
    """Raised when a rules change would replay stored games differently; a game records the
    version it was played under (engines/verify.py warns on a mismatch)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: scores per seat, ranks (1 = best, ties share), winners, reason."""

    scores: dict[Seat, int]
    ranks: dict[Seat, int]
    winners: frozenset[Seat]
    reason: str
    details: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        """Plain-JSON form for storage and views."""
        return {
            "scores": {str(k): v for k, v in self.scores.items()},
            "ranks": {str(k): v for k, v in self.ranks.items()},
            "winners": sorted(self.winners),
            "reason": self.reason,
            "details": self.details,
        }


def rank_by(keys: Mapping[Seat, tuple[int, ...]]) -> dict[Seat, int]:
    """Competition ranks (1, 2, 2, 4) from sort keys where bigger is better."""
    ordered = sorted(keys.values(), reverse=True)
    return {seat: 1 + ordered.index(key) for seat, key in keys.items()}


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)  # noqa: E741 - the options type, as in Engine[S, A, O]


@dataclass(frozen=True)
class Step(Generic[S]):
    """What `setup` and `apply` return: the state and the events that produced it."""

    state: S
    events: list[Event]


# --------------------------------------------------------------------------------------------
# Actions: each game declares one pydantic model per action, tagged by a `type` literal, and a
# discriminated union of them (`Field(discriminator="type")`) that `action_adapter` parses.


class ActionModel(BaseModel):
    """The base of every game's action models: unknown fields are refused, values immutable.

    Equality is pydantic's (same class, equal fields), checked directly: `apply` looks an
    action up among the legal ones at every step of every bot playout.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BaseModel):
            return type(other) is type(self) and self.__dict__ == other.__dict__
        return NotImplemented


_SLOTS = BaseModel.__dict__
SET_DICT = _SLOTS["__dict__"].__set__
SET_FIELDS_SET = _SLOTS["__pydantic_fields_set__"].__set__
SET_EXTRA = _SLOTS["__pydantic_extra__"].__set__
SET_PRIVATE = _SLOTS["__pydantic_private__"].__set__
"""The setters of a pydantic model's four slots: what `object.__setattr__(model, name, value)`
finds and calls for these names, called without the look-up (engines that build their state's
copies without validation at every step of a bot's playout: Ganges, Karmaka)."""


def trusted(cls: type[A], **fields: Any) -> A:
    """An action built from values the engine made itself, without pydantic's validation (the
    legal actions of a busy position are listed at every step of a bot's playout). Give every
    field, defaults and the `type` tag too; the shared invariants parse each legal action's
    JSON back and compare, so a wrong value shows."""
    new = cls.__new__(cls)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", set(fields))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


_INTERNED: dict[tuple[Any, ...], Any] = {}


def interned(cls: type[A], **fields: Any) -> A:
    """The one shared instance of an action with these (hashable) fields: legal actions built
    at every step of a bot's playout cost a dictionary look-up instead of a validation.
    Actions are frozen, so sharing them is safe."""
    key = (cls, *fields.items())
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = cls(**fields)
    return found


# --------------------------------------------------------------------------------------------
# The engine interface.


VIEW_HEADER = ("to_act", "chosen", "over", "outcome")
"""The keys of `view(...)["header"]`: seats that must act (sorted list), seats that have
already chosen in a simultaneous step (sorted list), whether the game is over, and the
outcome's JSON (None while it goes on)."""


class Engine(abc.ABC, Generic[S, A, O]):
    """One game's rules. Subclasses are stateless; all game data is in the state `S`.

    `S` is a pydantic model (so it dumps to JSON and loads back exactly), `A` is the game's
    action type (usually a discriminated union of pydantic models; `action_adapter` parses it)
    and `O` its options model (`spec.options`; `parse_options` validates into it once, so
    `setup` receives typed options).

    Every view carries the same typed header (`VIEW_HEADER`), built here from `to_act`,
    `chosen` and `outcome`: the shared screen reads that and nothing else of a view.
    """

    spec: ClassVar[GameSpec]
    state_type: ClassVar[type[BaseModel]]
    action_adapter: ClassVar[TypeAdapter[Any]]

    # ---- the game --------------------------------------------------------------------------

    @abc.abstractmethod
    def setup(self, num_players: int, options: O, seed: int) -> Step[S]:
        """A new game for `num_players` seats, and the events of its opening (version 0)."""

    @abc.abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that must act now (several for simultaneous choices; empty when over)."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every legal action of `seat` now, in a deterministic order."""

    def random_action(self, state: S, seat: Seat, rng: Rng) -> A:
        """`legal_actions(state, seat)[rng.randbelow(n)]`, n being how many there are: a
        bot's random playouts take one at every step. An engine may override it to build only
        the action drawn, provided it draws from `rng` exactly so and returns an equal action
        (the bots must choose the same moves either way)."""
        options = self.legal_actions(state, seat)
        return options[rng.randbelow(len(options))]

    @abc.abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> Step[S]:
        """Validate and apply; never mutates `state`; raises a `GameError` when refused."""

    def view(
        self,
        state: S,
        seat: Seat | None,
        header: JSON | None = None,
        shared: dict[str, Any] | None = None,
    ) -> JSON:
        """What `seat` may see (None = spectator), JSON-serialisable. The only way out.

        The game's own part (`game_view`) plus the shared `header` (`header(state)`, the
        same for every seat: a caller that has it already for this state may pass it).
        `shared`: a dictionary the caller keeps for this one state and passes with each of
        its audiences' views, where the engine may keep what every audience sees alike
        (`game_view_shared`), so it is made once, not once per audience. The views are the
        same with or without it (the parts they share are never changed once made).
        """
        game = (
            self.game_view(state, seat)
            if shared is None
            else self.game_view_shared(state, seat, shared)
        )
        return {**game, "header": self.header(state) if header is None else header}

    def play(self, state: S, seat: Seat, action: A) -> S:
        """`apply(state, seat, action).state`: a bot's playouts read no events, so an engine
        may override it to skip making them (the state must be the same)."""
        return self.apply(state, seat, action).state

    def information_key(self, state: S, seat: Seat) -> Hashable:
        """A key that two states share exactly when `seat`'s views of them are equal: a search
        tree's information sets. The default is the view's text; an engine may give a cheaper
        key with the same equalities (neither finer nor coarser than the view, or the bots
        would search a different tree)."""
        return repr(self.view(state, seat))

    @abc.abstractmethod
    def game_view(self, state: S, seat: Seat | None) -> JSON:
        """The game's own part of the view of `seat` (None = spectator)."""

    def game_view_shared(self, state: S, seat: Seat | None, shared: dict[str, Any]) -> JSON:
        """`game_view`, free to keep in `shared` (one dictionary per state, see `view`) and
        take from it what every audience sees alike; by default, `game_view`."""
        return self.game_view(state, seat)

    def chosen(self, state: S) -> frozenset[Seat]:
        """Seats that have already chosen in a simultaneous step still waiting for others."""
        return frozenset()

    def header(self, state: S) -> JSON:
        """The typed header of every view: who must act, who has chosen, over, outcome."""
        outcome = self.outcome(state)
        return {
            "to_act": sorted(self.to_act(state)),
            "chosen": sorted(self.chosen(state)),
            "over": outcome is not None,
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The final result, or None while the game goes on."""

    @abc.abstractmethod
    def determinize(self, state: S, seat: Seat | None, rng: Rng) -> S:
        """A full state consistent with what `seat` sees, hidden parts re-dealt at random."""

    @abc.abstractmethod
    def action_text(self, action: A) -> str:
        """Short canonical text form of an action (logs, tests, bug reports)."""

    # ---- shared helpers (concrete) -----------------------------------------------------------

    def catalogue(self) -> Mapping[str, Any]:
        """The game's public reference data for screens (card designs by id); no state."""
        return {}

    def progress(self, state: S, seat: Seat) -> tuple[int, ...] | None:
        """How far `seat` has come, as a key where bigger is better (optional; None: the game
        has none). A bot values a random playout it cut short by comparing the seats on it
        (`engines.bots.evaluation.estimate`); it reads the bot's sampled (determinized) world.
        Worth giving for games whose random playouts run to hundreds of moves."""
        return None

    def teams(self, state: S, num_players: int) -> list[list[Seat]]:
        """The sides of the game: seats that win or lose together (optional; the default is
        every seat on its own). Ratings treat a side as one team."""
        return [[seat] for seat in range(num_players)]

    def parse_options(self, raw: JSON | None) -> O:
        """Validate options; raise `MalformedAction` with a readable message if invalid."""
        try:
            options: O = self.spec.options.model_validate(raw or {})  # type: ignore[assignment]
            return options
        except ValidationError as exc:
            raise MalformedAction(f"Invalid options: {_first_error(exc)}") from exc

    def parse_action(self, raw: Any) -> A:
        """Parse a JSON action into the game's action model, or raise `MalformedAction`."""
        try:
            action: A = self.action_adapter.validate_python(raw)
        except ValidationError as exc:
            raise MalformedAction(f"Unknown or malformed action: {_first_error(exc)}") from exc
        return action

    def dump_action(self, action: A) -> JSON:
        """The JSON form of an action (inverse of `parse_action`)."""
        data: JSON = action.model_dump(mode="json")
        return data

    def dump(self, state: S) -> JSON:
        """The JSON form of a state."""
        data: JSON = state.model_dump(mode="json")
        return data

    def load(self, data: JSON) -> S:
        """Inverse of `dump`: `load(dump(s)) == s`."""
        state: S = self.state_type.model_validate(data)  # type: ignore[assignment]
        return state

    def check_turn(self, state: S, seat: Seat) -> None:
        """Raise `GameOver` or `NotYourTurn` unless `seat` may act now."""
        if self.outcome(state) is not None:
            raise GameOver("The game is over.")
        if seat not in self.to_act(state):
            raise NotYourTurn("It is not your turn.")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err['msg']}" if where else str(err["msg"])
