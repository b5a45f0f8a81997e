"""Karmaka data models: options, actions and the game state (docs/rules/karmaka.md).

Every pile is a list of card ids listed bottom → top, so the *top* of a pile is its last element
(the Well's next card, the Ruins' newest card, the Exposed Deed, the top of a Future Life).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import (
    SET_DICT,
    SET_EXTRA,
    SET_FIELDS_SET,
    SET_PRIVATE,
    ActionModel,
    PlainModel,
    Rng,
    Seat,
    copy_state,
    tr,
    trc,
)

Mode = Literal["free_for_all", "teams_2v2", "big_bad_wolf_2v1"]
Way = Literal["deed", "ability", "future", "partner"]
"""The ways to play a card: A for points, B for its ability, C to your Future Life, D to your
partner's Future Life (teams_2v2 only)."""

Pile = Literal["hand", "deck", "future", "deeds"]
"""A player's piles (the fields of `Player` holding cards)."""

Phase = Literal["play", "extra", "ability", "offer", "reincarnate", "over"]

PromptKind = Literal[
    "target",
    "mimic_source",
    "denial",
    "embody",
    "transmigrate",
    "destiny_keep",
    "destiny_return",
    "recycle",
    "salvage",
    "sowing",
    "jubilee",
    "dwindle",
    "crisis",
    "roulette_ruin",
    "roulette_draw",
    "swindle_pick",
    "swindle_keep",
    "spite_pick",
]

MODE_NAMES: dict[str, str] = {
    "free_for_all": trc("karmaka", "free for all"),
    "teams_2v2": trc("karmaka", "teams of two (2 on 2)"),
    "big_bad_wolf_2v1": trc("karmaka", "big bad wolf (2 on 1)"),
}
"""Each mode's name (a Karmaka game word)."""


class Options(BaseModel):
    """Table options: the game mode (2v2 needs 4 players, 2-on-1 needs 3)."""

    model_config = ConfigDict(extra="forbid")

    mode: Mode = Field(
        default="free_for_all",
        description=tr("Free for all, 2 on 2, or 2 on 1"),
        # What the lobby's form calls each choice (game words, translated by the server).
        json_schema_extra={"choice_context": "karmaka", "choice_names": dict(MODE_NAMES)},
    )


# ---- actions ------------------------------------------------------------------------------------


class Pass(ActionModel):
    """Main play: play no card (only while your Deck holds a card)."""

    type: Literal["pass"] = "pass"


class Play(ActionModel):
    """Play a card from your Hand in one of the ways (main or extra play)."""

    type: Literal["play"] = "play"
    card: int
    way: Way


class EndTurn(ActionModel):
    """Decline the extra play; the turn ends."""

    type: Literal["end_turn"] = "end_turn"


class Target(ActionModel):
    """Name a player: an ability's target, or whose Exposed Deed Mimic copies."""

    type: Literal["target"] = "target"
    seat: int


class Choose(ActionModel):
    """Choose one card shown to you (in your Hand, Future Life, Deeds, or laid out for you)."""

    type: Literal["choose"] = "choose"
    card: int


class Pick(ActionModel):
    """Pick a face-down card of a row by its position (1 = leftmost): Swindle, Spite."""

    type: Literal["pick"] = "pick"
    position: int


class Done(ActionModel):
    """Stop an optional step (Destiny's keep, Jubilee, Roulette's ruin or draws)."""

    type: Literal["done"] = "done"


class Draw(ActionModel):
    """Roulette: draw the next card from the Well."""

    type: Literal["draw"] = "draw"


class Accept(ActionModel):
    """Take the offered card onto your Future Life."""

    type: Literal["accept"] = "accept"


class Refuse(ActionModel):
    """Refuse the offered card."""

    type: Literal["refuse"] = "refuse"


class SpendRings(ActionModel):
    """Reincarnation: spend this many of your Karmic Rings (1 point each)."""

    type: Literal["spend_rings"] = "spend_rings"
    rings: int


AnyAction = (
    Pass | Play | EndTurn | Target | Choose | Pick | Done | Draw | Accept | Refuse | SpendRings
)
Action = Annotated[AnyAction, Field(discriminator="type")]


# ---- state --------------------------------------------------------------------------------------


class Player(PlainModel):
    """One player's piles and place on the ladder."""

    hand: list[int] = Field(default_factory=list)
    deck: list[int] = Field(default_factory=list)
    future: list[int] = Field(default_factory=list)
    deeds: list[int] = Field(default_factory=list)
    rung: int = 0
    rings: int = 0


class Chain(PlainModel):
    """The card in play (way B) and what its resolution has settled so far."""

    card: int
    actor: Seat
    used_sources: list[int] = Field(default_factory=list)
    """Deeds already copied while resolving this card (the loop rule)."""
    target: Seat | None = None
    """The target of the ability finally resolved: it decides who is offered the card."""
    extra: bool = False
    offer_to: list[Seat] = Field(default_factory=list)
    """Players still to be asked, in order; the first is being asked now."""


class Prompt(PlainModel):
    """A decision the resolution of an ability waits for; `seat` must answer it."""

    kind: PromptKind
    seat: Seat
    ability: str
    """The card kind whose ability is resolving."""
    target: Seat | None = None
    seats: list[Seat] = Field(default_factory=list)
    """The players that may be named (target, mimic_source)."""
    cards: list[int] = Field(default_factory=list)
    """Cards laid out for `seat` alone or for everybody (Destiny, Swindle's picks, Ruins tops)."""
    row: list[int] = Field(default_factory=list)
    """Swindle/Spite: the target's shuffled Hand as a face-down row (order secret to all)."""
    picked: list[int] = Field(default_factory=list)
    """Swindle/Spite: positions already picked (1-based)."""
    count: int = 0
    limit: int = 0


class Reveal(BaseModel):
    """Cards one seat has been shown this turn (Peek, Swindle); only that seat's view has them."""

    seat: Seat
    about: Seat
    label: str
    cards: list[int]


class State(PlainModel):
    """The full state of a Karmaka game."""

    num_players: int
    mode: Mode
    rng: Rng
    players: list[Player]
    well: list[int] = Field(default_factory=list)
    ruins: list[int] = Field(default_factory=list)
    turn: Seat = 0
    phase: Phase = "play"
    chain: Chain | None = None
    prompt: Prompt | None = None
    reveals: list[Reveal] = Field(default_factory=list)
    turns_started: int = 0
    rung_history: list[tuple[int, ...]] = Field(default_factory=list)
    """Every player's rung on the Karmic Ladder at the start of each round (for the end chart)."""
    winners: list[Seat] = Field(default_factory=list)
    end_reason: str = ""
    """Why the game ended, in English (seats as {pN})."""
    end_phrase: dict[str, Any] | None = None
    """The same as a message and its parameters (`engines.core.Phrase`), for every language."""


_STATE_FIELDS = [
    "num_players",
    "mode",
    "rng",
    "players",
    "well",
    "ruins",
    "turn",
    "phase",
    "chain",
    "prompt",
    "reveals",
    "turns_started",
    "rung_history",
    "winners",
    "end_reason",
    "end_phrase",
]
_PLAYER_FIELDS = ["hand", "deck", "future", "deeds", "rung", "rings"]
assert list(State.__pydantic_fields__) == _STATE_FIELDS, "copy_game must learn the new field"
assert list(Player.__pydantic_fields__) == _PLAYER_FIELDS, "copy_game must learn the new field"

_new = object.__new__
read_player = list.__getitem__
"""`read_player(state.players, seat)`: a player for reading only. While `apply` plays an action
out, `state.players[seat]` copies the player the first time (`PlayersOnWrite`); this does not,
so nothing may be changed through what it gives (read it at once: a later `players[seat]` may
replace it by its copy)."""


def _copy_player(player: Player) -> Player:
    d = player.__dict__
    new = _new(Player)
    SET_DICT(
        new,
        {
            "hand": d["hand"][:],
            "deck": d["deck"][:],
            "future": d["future"][:],
            "deeds": d["deeds"][:],
            "rung": d["rung"],
            "rings": d["rings"],
        },
    )
    SET_FIELDS_SET(new, player.__pydantic_fields_set__.copy())
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def new_chain(card: int, actor: Seat) -> Chain:
    """`Chain(card=card, actor=actor)`, built without validation (both are ints the engine
    made)."""
    new = _new(Chain)
    SET_DICT(
        new,
        {
            "card": card,
            "actor": actor,
            "used_sources": [],
            "target": None,
            "extra": False,
            "offer_to": [],
        },
    )
    SET_FIELDS_SET(new, {"card", "actor"})
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def new_prompt(kind: PromptKind, seat: Seat, ability: str, **fields: Any) -> Prompt:
    """`Prompt(kind=kind, seat=seat, ability=ability, **fields)`, built without validation: the
    engine gives values of the fields' types, and lists of its own that nothing else holds
    (validation would copy them)."""
    data: dict[str, Any] = {
        "kind": kind,
        "seat": seat,
        "ability": ability,
        "target": None,
        "seats": [],
        "cards": [],
        "row": [],
        "picked": [],
        "count": 0,
        "limit": 0,
    }
    data.update(fields)
    new = _new(Prompt)
    SET_DICT(new, data)
    SET_FIELDS_SET(new, {"kind", "seat", "ability", *fields})
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new


def copy_game(state: State) -> State:
    """`copy_state(state)`, in one function for the state and its players; anything rarer
    goes through `copy_state`."""
    d = state.__dict__
    if d["end_phrase"] is not None or type(state) is not State or len(d) != len(_STATE_FIELDS):
        return copy_state(state)
    data = d.copy()
    data["rng"] = copy_state(d["rng"])
    data["players"] = [_copy_player(p) for p in d["players"]]
    data["well"] = d["well"][:]
    data["ruins"] = d["ruins"][:]
    if d["chain"] is not None:
        data["chain"] = copy_state(d["chain"])
    if d["prompt"] is not None:
        data["prompt"] = copy_state(d["prompt"])
    data["reveals"] = [copy_state(r) for r in d["reveals"]]
    data["rung_history"] = d["rung_history"][:]
    data["winners"] = d["winners"][:]
    return _state(data, state)


def copy_for_apply(state: State) -> State:
    """The copy `apply` plays an action out on, cheaper than `copy_game`.

    Each player is copied only when the handlers first read it through `players[seat]`
    (`PlayersOnWrite`: a turn changes one or two players of four). Shared with `state`, which
    is never changed after `apply` returns, are what the handlers only ever replace, never
    change in place: the RNG (`table.own_rng` copies it before a shuffle), the Well and the
    Ruins (`table.take_from_well`, `table.ruin` … put new lists), the cards shown this turn
    (`table.reveal` puts a new list), `rung_history` and `winners`, and during a Karmic offer
    the card in play (`flow.answer_offer` copies it before asking the next player). Hand the
    result on only after `settle_players`."""
    d = state.__dict__
    if d["end_phrase"] is not None or type(state) is not State or len(d) != len(_STATE_FIELDS):
        return copy_state(state)
    data = d.copy()
    players = data["players"] = PlayersOnWrite(d["players"])
    players.source = d["players"]
    if d["phase"] != "offer":
        if d["chain"] is not None:
            data["chain"] = copy_state(d["chain"])
        if d["prompt"] is not None:
            data["prompt"] = copy_state(d["prompt"])
    return _state(data, state)


def settle_players(state: State) -> None:
    """End `copy_for_apply`'s copying: the players become a plain list again. The players never
    read stay shared between the two states, which are never changed after `apply`."""
    players = state.__dict__["players"]
    if type(players) is PlayersOnWrite:
        state.__dict__["players"] = list(players)


class PlayersOnWrite(list[Player]):
    """A state's players while `apply` plays an action out: reading `players[seat]` the first
    time replaces that player (still the one of `source`, the players of the state copied) by
    its copy, so whatever the handlers then change is theirs. Iterating gives the players as
    they are (only for reading: the handlers change a player through `players[seat]` only)."""

    __slots__ = ("source",)
    source: list[Player]

    def __getitem__(self, seat: Any) -> Any:
        if type(seat) is not int:
            raise TypeError("a state's players are read by seat")
        player = list.__getitem__(self, seat)
        if player is self.source[seat]:
            player = _copy_player(player)
            list.__setitem__(self, seat, player)
        return player


def _state(data: dict[str, Any], state: State) -> State:
    """A `State` holding `data`, with the fields set of `state`."""
    new = _new(State)
    SET_DICT(new, data)
    SET_FIELDS_SET(new, state.__pydantic_fields_set__.copy())
    SET_EXTRA(new, None)
    SET_PRIVATE(new, None)
    return new
