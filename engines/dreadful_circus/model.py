"""Dreadful Circus: the state, options and action models.

Rule source: docs/rules/dreadful-circus.md (restating the publisher's Polish rulebook, "the seed").
Goods (coins and contract tokens) are always a list of
eight counts in the order of `cards.ITEMS`: copper, silver, gold, then the five cities.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import ActionModel, Event, PlainModel, Rng, tr

Phase = Literal[
    "draft", "first_attraction", "offer", "bid", "inspect", "perform", "final", "scoring", "over"
]
PromptKind = Literal[
    "targets", "take", "extra", "steal", "swap", "encore", "resurrect", "alchemy", "keep", "wheel"
]
Metal = Literal["copper", "silver", "gold"]
City = Literal["berlin", "paris", "vegas", "prague", "london"]
Events = list[Event] | None
"""Where the events of a step go; None when nobody reads them (a bot's playout, `play`)."""
Item = Literal["copper", "silver", "gold", "berlin", "paris", "vegas", "prague", "london"]


class Options(BaseModel):
    """Table options: `draft` deals the starting hands by the seed's draft variant."""

    model_config = ConfigDict(extra="forbid")

    draft: bool = Field(default=False, description=tr("Draft the starting hands"))


class Prompt(PlainModel):
    """A decision the resolver of a Performance owes now."""

    kind: PromptKind
    seat: int
    card: str
    targets: list[int] = Field(default_factory=list)
    """Seats whose wagons this Performance loaded (or must choose, for `targets`)."""
    index: int = 0
    """For `take`: which loaded wagon is being taken from."""
    count: int = 0
    """For `targets`: how many players must be chosen."""
    drawn: list[int] = Field(default_factory=list)
    """For `keep` (Tightrope Walker): the contracts drawn, by city, seen by the resolver only."""


class Pending(PlainModel):
    """A won (or Encore-played) Performance waiting to be resolved."""

    seat: int
    card: str


class State(PlainModel):
    """The full state of a Dreadful Circus game."""

    num_players: int
    draft: bool
    rng: Rng
    phase: Phase
    round: int = 0
    screens: list[list[int]]
    """Coins and contract tokens behind each screen (secret until the final reveal)."""
    bag: list[int]
    """Contract tokens in the bag, by city."""
    hands: list[list[str]]
    areas: list[list[str]]
    deck: list[str]
    """The set-aside deck (secret), used only for setup redeals."""
    discard: list[str] = Field(default_factory=list)
    packets: list[list[str]] = Field(default_factory=list)
    picks: list[list[str]] = Field(default_factory=list)
    choices: list[str | None]
    """Each seat's pending secret pick (draft, first/final Attraction, offer); None = pass."""
    chosen: list[bool]
    first_seller: int
    second_seller: int | None
    offers: list[str] = Field(default_factory=list)
    """Revealed offers: index 0 is the first seller's, 1 the second seller's."""
    winners: list[int | None] = Field(default_factory=list)
    wagons: list[list[int]]
    wagon_at: list[int | None]
    """Which offer each wagon stands at (None = at home, empty)."""
    wagon_seen: list[list[int]]
    """Seats besides the owner who see a wagon's contents right now."""
    resolving: int = 0
    inspected: list[int] = Field(default_factory=list)
    inspecting: int | None = None
    queue: list[Pending] = Field(default_factory=list)
    prompt: Prompt | None = None
    revealed: bool = False
    scoring_choices: list[dict[str, str]]
    chooser: int | None = None
    choosers_done: int = 0


class DraftPick(ActionModel):
    """Keep one card of the draft packet in hand (variant `draft`)."""

    type: Literal["draft_pick"] = "draft_pick"
    card: str


class FirstAttraction(ActionModel):
    """Secretly pick the starting Attraction for your area."""

    type: Literal["first_attraction"] = "first_attraction"
    card: str


class Offer(ActionModel):
    """A seller secretly picks the card to sell."""

    type: Literal["offer"] = "offer"
    card: str


class Bid(ActionModel):
    """Place a wagon holding these goods next to offer 0 (first seller's) or 1 (second's)."""

    type: Literal["bid"] = "bid"
    offer: int = Field(default=0, ge=0, le=1)
    copper: int = Field(default=0, ge=0)
    silver: int = Field(default=0, ge=0)
    gold: int = Field(default=0, ge=0)
    berlin: int = Field(default=0, ge=0)
    paris: int = Field(default=0, ge=0)
    vegas: int = Field(default=0, ge=0)
    prague: int = Field(default=0, ge=0)
    london: int = Field(default=0, ge=0)

    def goods(self) -> list[int]:
        """The wagon's contents as eight counts."""
        return [
            self.copper,
            self.silver,
            self.gold,
            self.berlin,
            self.paris,
            self.vegas,
            self.prague,
            self.london,
        ]


class MoveWagon(ActionModel):
    """Move your placed wagon to the other offer (only before the last wagon is placed)."""

    type: Literal["move_wagon"] = "move_wagon"


class Inspect(ActionModel):
    """A seller picks up a wagon at their offer and looks inside."""

    type: Literal["inspect"] = "inspect"
    bidder: int


class Accept(ActionModel):
    """Take the inspected wagon's contents: its owner wins the offer."""

    type: Literal["accept"] = "accept"


class Refuse(ActionModel):
    """Give the inspected wagon back, for good."""

    type: Literal["refuse"] = "refuse"


class ChooseTargets(ActionModel):
    """Name the players a Performance targets."""

    type: Literal["choose_targets"] = "choose_targets"
    seats: list[int]


class Take(ActionModel):
    """Take these items from the loaded wagon being looked at (empty when nothing may be taken)."""

    type: Literal["take"] = "take"
    items: list[Item] = Field(default_factory=list)


class TakeExtra(ActionModel):
    """Sticky-Fingered Monkey: take one more item from one loaded wagon."""

    type: Literal["take_extra"] = "take_extra"
    seat: int
    item: Item


class Decline(ActionModel):
    """Decline an optional ("may") effect."""

    type: Literal["decline"] = "decline"


class Steal(ActionModel):
    """Candy Thieves: move a Collection card from another area into yours."""

    type: Literal["steal"] = "steal"
    seat: int
    card: str


class Swap(ActionModel):
    """Vanishing Cabinet: swap an Attraction of yours with one of another player's."""

    type: Literal["swap"] = "swap"
    card: str
    seat: int
    their_card: str


class Play(ActionModel):
    """Encore!: play a card from your hand."""

    type: Literal["play"] = "play"
    card: str


class Resurrect(ActionModel):
    """Resurrection Show: put an Attraction from the discard pile into your area."""

    type: Literal["resurrect"] = "resurrect"
    card: str


class Alchemy(ActionModel):
    """Alchemist: turn this many copper (0–3) into silver."""

    type: Literal["alchemy"] = "alchemy"
    copper: int = Field(ge=0, le=3)


class Keep(ActionModel):
    """Tightrope Walker: the two drawn contracts to keep."""

    type: Literal["keep"] = "keep"
    cities: list[City]


class ReturnContracts(ActionModel):
    """Wheel of Fortune: return these contracts to the bag, then draw as many plus one."""

    type: Literal["return_contracts"] = "return_contracts"
    berlin: int = Field(default=0, ge=0)
    paris: int = Field(default=0, ge=0)
    vegas: int = Field(default=0, ge=0)
    prague: int = Field(default=0, ge=0)
    london: int = Field(default=0, ge=0)

    def counts(self) -> list[int]:
        """The returned contracts by city."""
        return [self.berlin, self.paris, self.vegas, self.prague, self.london]


class FinalAttraction(ActionModel):
    """Secretly pick the last Attraction to place (or none)."""

    type: Literal["final_attraction"] = "final_attraction"
    card: str | None = None


class ChooseDesign(ActionModel):
    """Scoring choice: the Collection design Crystal Balls counts as."""

    type: Literal["choose_design"] = "choose_design"
    design: str


class ChooseCity(ActionModel):
    """Scoring choice: the contract type Rainbow Bridge (or a copy of it) counts as."""

    type: Literal["choose_city"] = "choose_city"
    city: City


class ChooseCopy(ActionModel):
    """Scoring choice: the Attraction Distorting Mirrors or Twisted Corridors copies."""

    type: Literal["choose_copy"] = "choose_copy"
    seat: int
    card: str


Action = Annotated[
    DraftPick
    | FirstAttraction
    | Offer
    | Bid
    | MoveWagon
    | Inspect
    | Accept
    | Refuse
    | ChooseTargets
    | Take
    | TakeExtra
    | Decline
    | Steal
    | Swap
    | Play
    | Resurrect
    | Alchemy
    | Keep
    | ReturnContracts
    | FinalAttraction
    | ChooseDesign
    | ChooseCity
    | ChooseCopy,
    Field(discriminator="type"),
]
