"""Racing Hedgehogs data models: the table options, the one action (play a card) and the game
state, with what a finished round keeps (the plays, the score lines, each player's result).

Rule source: docs/rules/racing-hedgehogs.md. The track and deck data are in `data.py`; the engine
that reads and changes these models is in `rules.py` (with `flow.py`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import ActionModel, Rng, Seat, tr
from engines.racing_hedgehogs.data import Card, Colour, Pluses, Suit

# ---- options and actions -----------------------------------------------------------------------


class Options(BaseModel):
    """Table options: `advanced_scoring` plays the seed's advanced variant (pairs score ×5)."""

    model_config = ConfigDict(extra="forbid")

    advanced_scoring: bool = Field(
        default=False,
        description=tr(
            "Advanced scoring: pairs of one-plus cards ×5, two-plus cards ×2, finish +6"
        ),
    )


class PlayCard(ActionModel):
    """Play a card from hand and move a hedgehog; `hedgehog` is named only for a rainbow joker."""

    type: Literal["play"] = "play"
    suit: Suit
    pluses: Pluses
    hedgehog: Colour | None = None

    @property
    def card(self) -> Card:
        """The card this action plays."""
        return Card(suit=self.suit, pluses=self.pluses)


# The game has a single kind of action; the discriminated form keeps `type` checked at the edge
# and lets a second kind be added without changing the parser.
Action = Annotated[PlayCard, Field(discriminator="type")]

# ---- state -------------------------------------------------------------------------------------


class Play(BaseModel):
    """One card on the common discard pile, and the move it made."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    card: Card
    hedgehog: Colour
    moved_from: int
    moved_to: int


ScoreKind = Literal["cards", "pair", "single", "two_plus", "joker"]


class ScoreLine(BaseModel):
    """One line of a player's round scoring, as the rulebook writes it: value × multiplier."""

    model_config = ConfigDict(frozen=True)

    kind: ScoreKind
    colour: Colour | None
    cards: list[Card]
    value: int
    multiplier: int
    points: int


class PlayerRoundScore(BaseModel):
    """What one player kept at the end of a round and what it scored."""

    model_config = ConfigDict(frozen=True)

    kept: list[Card]
    lines: list[ScoreLine]
    card_points: int
    bonus: int
    total: int
    """Card points plus bonus, possibly negative."""
    points: int
    """The round's points: `total`, but never below zero."""


class RoundResult(BaseModel):
    """A finished round, public from the moment it ends (the set-aside cards included)."""

    model_config = ConfigDict(frozen=True)

    round: int
    starter: Seat
    finisher: Seat
    finishing_hedgehog: Colour
    positions: dict[Colour, int]
    removed: list[Card]
    players: list[PlayerRoundScore]


class State(BaseModel):
    """The full state of a Racing Hedgehogs game."""

    num_players: int
    advanced_scoring: bool
    rng: Rng
    round: int = 1
    starter: Seat = 0
    current: Seat | None = None
    """Whose turn it is; None once the game is over."""
    positions: dict[Colour, int] = Field(default_factory=dict)
    hands: list[list[Card]] = Field(default_factory=list)
    """Secret: each seat's hand, kept in canonical order."""
    removed: list[Card] = Field(default_factory=list)
    """Secret to everybody: the cards set aside unseen for this round."""
    plays: list[Play] = Field(default_factory=list)
    """The discard pile of this round (public), oldest first."""
    results: list[RoundResult] = Field(default_factory=list)
