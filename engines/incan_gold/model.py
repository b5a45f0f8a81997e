"""Incan Gold data models: the table options, the two actions (torch, camp) and the game state
(the path, each explorer, how each round ended).

Rule source: docs/rules/incan-gold.md. The card data is in `cards.py`; the engine that reads and
changes these models is in `rules.py` (with `flow.py`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import ActionModel, Event, PlainModel, Rng, tr

Choice = Literal["torch", "camp"]

Events = list[Event] | None
"""Where the events of a step go; None when nobody reads them (a bot's playout, `play`)."""


class Options(BaseModel):
    """Table options: `artifacts` off plays the original Diamant."""

    model_config = ConfigDict(extra="forbid")

    artifacts: bool = Field(default=True, description=tr("Play with the five artifact cards"))


class Torch(ActionModel):
    """Go deeper into the temple."""

    type: Literal["torch"] = "torch"


class Camp(ActionModel):
    """Go back to camp with the round haul."""

    type: Literal["camp"] = "camp"


Action = Annotated[Torch | Camp, Field(discriminator="type")]

TORCH, CAMP = Torch(), Camp()
"""The two actions (immutable, so every `legal_actions` list may hold the same two)."""


class PathCard(PlainModel):
    """A revealed card on the temple path and the gems left lying on it."""

    card: int
    remainder: int = 0


class Player(PlainModel):
    """One explorer."""

    in_temple: bool = True
    haul: int = 0
    tent: int = 0
    artifacts: list[int] = Field(default_factory=list)
    """Values of the artifacts carried out, in order (5 or 10 each)."""
    artifact_names: list[str] = Field(default_factory=list)
    choice: Choice | None = None
    """The pending, still secret choice of this decision."""
    last_choice: Choice | None = None
    """The choice revealed at the last decision (public)."""


class RoundSummary(PlainModel):
    """How a finished round ended, for the log and the screen."""

    round: int
    ended_by: Literal["flight", "all_left", "deck_empty"]
    hazard: str = ""
    scores: list[int] = Field(default_factory=list)
    """Every explorer's score (tent plus artifacts) when the round ended: secret until the end,
    when the score chart shows it."""


class State(PlainModel):
    """The full state of an Incan Gold game."""

    num_players: int
    artifacts_variant: bool
    rng: Rng
    round: int = 1
    start_player: int = 0
    players: list[Player]
    deck: list[int] = Field(default_factory=list)
    """The adventure deck of the current round, top first. Secret order."""
    future_artifacts: list[int] = Field(default_factory=list)
    """Artifacts assigned to the coming rounds, next first. Secret."""
    unrevealed_artifacts: list[int] = Field(default_factory=list)
    """Artifacts of earlier rounds that were never revealed (they go back into the deck)."""
    round_artifact: int | None = None
    path: list[PathCard] = Field(default_factory=list)
    removed_hazards: list[int] = Field(default_factory=list)
    removed_artifacts: list[int] = Field(default_factory=list)
    artifacts_carried: int = 0
    rounds: list[RoundSummary] = Field(default_factory=list)
    over: bool = False
