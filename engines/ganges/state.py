"""Ganges: Cards & Karma — the state models (pydantic, so a state dumps to JSON and loads back).

Rule source: docs/rules/ganges.md.
Cards are referred to by their catalogue id (`S12`, `B11`, `G17`, `P09`); see `cards.py`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import (
    SET_DICT,
    SET_EXTRA,
    SET_FIELDS_SET,
    SET_PRIVATE,
    PlainModel,
    Rng,
    copy_state,
    tr,
)


class Options(BaseModel):
    """Table options."""

    model_config = ConfigDict(extra="forbid")

    night_side_up: bool = Field(
        default=False,
        description=tr("Score-track cards start night side up: bonuses visible, any order"),
    )


class TrackCard(BaseModel):
    """One score-track card: its night-side bonus and whether it has been used (flipped).

    Frozen: flipping or re-dealing replaces the card, so clones may share track cards.
    """

    model_config = ConfigDict(frozen=True)

    bonus: str
    flipped: bool = False


class Player(PlainModel):
    """One player's hand, display, tokens and score track."""

    hand: list[str] = Field(default_factory=list)
    """Cards held as dice, in the order they entered the hand."""
    buildings: list[str] = Field(default_factory=list)
    ships: list[str] = Field(default_factory=list)
    """The ship row, always in ascending ship number."""
    goods: list[str] = Field(default_factory=list)
    fame: int = 0
    karma: int = 0
    coins: int = 0
    admins: int = 0
    track: list[TrackCard] = Field(default_factory=list)


TaskKind = Literal[
    "settle", "hand", "take", "choose", "effect", "reward", "top_card", "discard_carried"
]


class Task(BaseModel):
    """One piece of pending work of the active player, kept on a stack (last = next).

    - `settle`: the settle step (triples, third karma, third administrator, track flips).
    - `hand`: take one card into hand; `source` is `table` (player picks), `deck` (the top)
      or a card id (action A's chosen card). The hand limit is applied first.
    - `take`: take one table card of kind `code` (`goods`, `palace`, `ship`) and use it;
      `optional` lets the player decline (the second card of `goodscards1or2`).
    - `choose`: a track bonus with two options (`code`).
    - `effect`: carry out a palace effect (`code`); `reward`: a ship reward (`code`).
    - `top_card`: palace 6, carry out the deck's top card for free.
    - `discard_carried`: the palace card `source` has been carried out; discard it.

    Frozen: a task is never changed once made, so states (and their copies) share them.
    """

    model_config = ConfigDict(frozen=True)

    kind: TaskKind
    code: str = ""
    source: str = ""
    optional: bool = False


class Triple(BaseModel):
    """One candidate triple in a display: what it uses, discards and pays."""

    kind: Literal["same_buildings", "different_buildings", "same_goods", "different_goods", "ships"]
    label: str
    """The building type or good of a same-kind triple ("" for the others)."""
    symbols: list[str]
    cards: list[str]
    admins: int = 0
    coins: int = 0


class Resolution(BaseModel):
    """A resolution set: triples that share no symbol and that no further triple can join."""

    triples: list[Triple]
    discard: list[str]
    admins: int
    coins: int


class Conversion(BaseModel):
    """Spend 3 fame or 6 coins to flip the track card at `position` (1 = leftmost)."""

    by: Literal["fame", "coins"]
    position: int


PromptKind = Literal["action", "end_turn", "discard", "pick", "choose", "resolve", "convert"]


class Prompt(BaseModel):
    """The decision the game waits for: who decides, what kind, and the choices.

    - `action`: a main action A–E is owed (`owed` of them); administrators may be used.
    - `end_turn`: end the turn, or use an administrator (extra action / two deck cards).
    - `discard`: the hand is full; discard one of `cards` before the next card comes in.
    - `pick`: take one of the table `cards` for `reason`; `optional` allows `stop`.
    - `choose`: one of `options` for the track bonus `reason`.
    - `resolve`: one of `resolutions` (triples that want the same symbol).
    - `convert`: one of `conversions` (fame or coins, which track card).

    Frozen: a prompt is never changed once made (the next step makes a new one), so a state's
    copy shares it instead of copying its lists at every step of a bot's playout.
    """

    model_config = ConfigDict(frozen=True)

    kind: PromptKind
    seat: int
    reason: str = ""
    owed: int = 0
    cards: list[str] = Field(default_factory=list)
    optional: bool = False
    options: list[str] = Field(default_factory=list)
    resolutions: list[Resolution] = Field(default_factory=list)
    conversions: list[Conversion] = Field(default_factory=list)


class State(PlainModel):
    """The full state of a game of Ganges: Cards & Karma."""

    num_players: int
    night_side_up: bool = False
    rng: Rng
    values: dict[str, int]
    """The secret die value of every card (dealt per colour at setup)."""
    deck: list[str] = Field(default_factory=list)
    """Draw pile, top first; action side up, so only `deck[0]` is visible."""
    table: list[str | None] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    """Discard pile, bottom first, die side up (public)."""
    carried: list[str] = Field(default_factory=list)
    """Palace cards being carried out (on their way to the discard pile)."""
    players: list[Player]
    admin_supply: int
    start_player: int
    elephant_green: bool = True
    round: int = 1
    phase: int = 1
    turn: int = 0
    """How many players have already had their turn in this phase."""
    owed: int = 0
    """Main actions the active player still has to take this turn."""
    tasks: list[Task] = Field(default_factory=list)
    prompt: Prompt | None = None
    last_ship: str | None = None
    """The ship card that most recently entered any ship row (palace 5)."""
    over: bool = False
    track_history: list[tuple[int, ...]] = Field(default_factory=list)
    """Every player's flipped score-track cards at the end of each round (the end chart)."""


# ---- the copy `apply` plays an action out on -------------------------------------------------


_NEW = object.__new__
_STATE_FIELDS = len(State.model_fields)
_PLAYER_FIELDS = len(Player.model_fields)


def copy_player(player: Player) -> Player:
    """A copy of a player with its own lists (the track cards are frozen, so shared)."""
    d = player.__dict__
    if type(player) is not Player or len(d) != _PLAYER_FIELDS:
        return copy_state(player)
    data = d.copy()
    data["hand"] = d["hand"][:]
    data["buildings"] = d["buildings"][:]
    data["ships"] = d["ships"][:]
    data["goods"] = d["goods"][:]
    data["track"] = d["track"][:]
    new = _NEW(Player)
    SET_DICT(new, data)
    SET_FIELDS_SET(new, player.__pydantic_fields_set__.copy())
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def copy_for_apply(state: State, seat: int) -> State:
    """The copy `apply` plays an action of `seat` out on, cheaper than `copy_state`.

    Only the player of `seat` is copied: the flow changes the active player alone, and
    changes the next one before its answer only when its turn begins with the elephant
    (`flow.begin_turn` copies it then, with `own_player`). The other players, the die
    values (never changed in place once dealt), the RNG (`basics.reshuffle` copies it before
    drawing from it), the deck (`basics.draw` replaces it) and the track history (replaced,
    never appended to) are shared with `state`, which is never changed after `apply`
    returns.
    """
    d = state.__dict__
    if type(state) is not State or len(d) != _STATE_FIELDS:
        return copy_state(state)
    data = d.copy()
    data["table"] = d["table"][:]
    data["discard"] = d["discard"][:]
    data["carried"] = d["carried"][:]
    data["tasks"] = d["tasks"][:]
    players = data["players"] = d["players"][:]
    players[seat] = copy_player(players[seat])
    new = _NEW(State)
    SET_DICT(new, data)
    SET_FIELDS_SET(new, state.__pydantic_fields_set__.copy())
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def own_player(state: State, seat: int) -> None:
    """Give the state its own copy of the player of `seat` (whose turn begins with a gain)."""
    state.players[seat] = copy_player(state.players[seat])
