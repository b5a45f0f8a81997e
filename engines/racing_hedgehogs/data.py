"""Racing Hedgehogs (Reiner Knizia): the track, the deck and the scoring constants.

Rule source: the Polish rulebook "Pędzące Jeże" (the seed) and
docs/rules/racing-hedgehogs.md. The seed does not print the board or the deck; the values
below come from public descriptions of the game (English edition "Racing Hedgehogs", first
published as "Honeybears"). Everything that may need correcting lives in this one module.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engines.core import trc


class Colour(StrEnum):
    """A hedgehog's colour; each colour also names a suit of cards."""

    YELLOW = "yellow"
    RED = "red"
    GREEN = "green"
    VIOLET = "violet"


class Suit(StrEnum):
    """A card's suit: one of the four hedgehog colours, or the rainbow joker."""

    YELLOW = "yellow"
    RED = "red"
    GREEN = "green"
    VIOLET = "violet"
    RAINBOW = "rainbow"


COLOURS: tuple[Colour, ...] = tuple(Colour)
COLOUR_WORDS: tuple[str, ...] = (
    trc("hedgehog", "yellow"),
    trc("hedgehog", "red"),
    trc("hedgehog", "green"),
    trc("hedgehog", "violet"),
    trc("hedgehog", "rainbow"),
)
"""The colours as words for the catalogues (a screen shows them in the reader's language)."""
"""Hedgehogs in their canonical order (views, legal actions, determinism)."""

SUITS: tuple[Suit, ...] = tuple(Suit)
"""Suits in their canonical order; the rainbow joker comes last."""

Pluses = Literal[1, 2]
"""How many fields a card moves its hedgehog."""


class Card(BaseModel):
    """One card: a suit and one or two pluses. Cards of equal suit and pluses are identical."""

    model_config = ConfigDict(frozen=True)

    suit: Suit
    pluses: Pluses

    @property
    def colour(self) -> Colour | None:
        """The hedgehog this card moves and scores for; None for a rainbow joker."""
        return _COLOUR_OF_SUIT[self.suit]

    @property
    def text(self) -> str:
        """Short readable form, e.g. `yellow+2`."""
        return f"{self.suit.value}+{self.pluses}"

    def sort_key(self) -> tuple[int, int]:
        """Canonical order of cards in a hand: by suit, then by pluses."""
        return (SUITS.index(self.suit), self.pluses)


_COLOUR_OF_SUIT: dict[Suit, Colour | None] = {
    suit: None if suit is Suit.RAINBOW else Colour(suit.value) for suit in SUITS
}
"""A suit's hedgehog (None for the rainbow joker): `Card.colour` as one look-up."""

# ---- the track ---------------------------------------------------------------------------------

TRACK_VALUES: tuple[int, ...] = (-1, -1, -1, -1, -1, -1, -1, 0, 0, 1, 1, 2, 2, 3)
"""Value of each track position; index 0 is the start, the last index the finish."""

START = 0
FINISH = len(TRACK_VALUES) - 1

# ---- the deck ----------------------------------------------------------------------------------

ONE_PLUS_PER_SUIT = 6
TWO_PLUS_PER_SUIT = 5


def _make_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for suit in SUITS:
        deck.extend(Card(suit=suit, pluses=1) for _ in range(ONE_PLUS_PER_SUIT))
        deck.extend(Card(suit=suit, pluses=2) for _ in range(TWO_PLUS_PER_SUIT))
    return tuple(deck)


_DECK = _make_deck()


def full_deck() -> list[Card]:
    """All 55 cards in canonical order: per suit, six one-plus and five two-plus cards (a new
    list each time; the cards are frozen, so every deal shares them)."""
    return list(_DECK)


REMOVED_CARDS: dict[int, int] = {3: 10, 4: 3, 5: 0}
"""Cards set aside face down, unseen, before each deal, by number of players."""

MIN_PLAYERS = 3
MAX_PLAYERS = 5

# ---- scoring -----------------------------------------------------------------------------------

FINISH_BONUS_BASIC = 3
FINISH_BONUS_ADVANCED = 6
PAIR_MULTIPLIER = 5
"""Advanced scoring: a pair of one-plus cards of one colour scores five times the value."""
SINGLE_MULTIPLIER = 1
"""Advanced scoring: a one-plus card left without a partner scores the value once."""
TWO_PLUS_MULTIPLIER = 2
"""Advanced scoring: every two-plus card scores twice the value."""
