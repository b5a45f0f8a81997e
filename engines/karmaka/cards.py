"""Karmaka card and ladder data (shared/rules/karmaka.md, "Components").

Rule source: shared/rules/karmaka.md (from the Polish rulebook, seed 003_94e56846937c6f3d.txt,
with the card list of the project's research note). The rules code never spells out a card's
colour, points or copies: everything it needs about a card is here, so the table can be corrected
in one place. A physical card is an integer id 0–63; `CARDS[id]` is its kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Colour = Literal["red", "green", "blue", "mosaic"]
Targeting = Literal["self", "rival", "any", "copy"]
"""How an ability names its target: `self` never touches another player, `rival` / `any` name one
target when it resolves, `copy` resolves another card's ability (Denial, Embody, Mimic)."""

SCORED_COLOURS: tuple[Colour, ...] = ("red", "green", "blue")


@dataclass(frozen=True)
class CardKind:
    """One of the 23 different cards."""

    id: str
    name: str
    polish: str
    colour: Colour
    points: int
    copies: int
    extra: bool
    """After its offer is settled the player may make one extra play."""
    targeting: Targeting
    destructive: bool
    """Ruins, takes or moves away a target's card: never aimed at a partner."""
    text: str


KINDS: tuple[CardKind, ...] = (
    # ---- blue ----------------------------------------------------------------------------------
    CardKind(
        "transmigrate",
        "Transmigrate",
        "Wędrówka dusz",
        "blue",
        1,
        3,
        False,
        "self",
        False,
        "Move any one card of your Future Life into your Hand.",
    ),
    CardKind(
        "peek",
        "Peek",
        "Podglądnięcie",
        "blue",
        1,
        3,
        True,
        "rival",
        False,
        "Look at a rival's Hand. You may then play another card.",
    ),
    CardKind(
        "destiny",
        "Destiny",
        "",
        "blue",
        2,
        3,
        False,
        "self",
        False,
        "Look at the top 3 cards of the Well; put up to 2 on your Future Life, "
        "the rest back on the Well in any order.",
    ),
    CardKind(
        "stolen_dreams",
        "Stolen Dreams",
        "",
        "blue",
        2,
        3,
        False,
        "rival",
        True,
        "Move the top card of a rival's Future Life onto your Future Life.",
    ),
    CardKind(
        "denial",
        "Denial",
        "Wykluczenie",
        "blue",
        2,
        3,
        False,
        "copy",
        False,
        "Ruin a card from your Hand, then use its ability.",
    ),
    CardKind(
        "thievery",
        "Thievery",
        "Kradzież",
        "blue",
        3,
        2,
        False,
        "rival",
        True,
        "Take a rival's Exposed Deed into your Hand.",
    ),
    CardKind(
        "swindle",
        "Swindle",
        "Podstęp",
        "blue",
        3,
        2,
        False,
        "rival",
        True,
        "Pick 3 random cards from a rival's Hand, keep 1 and give the others back.",
    ),
    # ---- green ---------------------------------------------------------------------------------
    CardKind(
        "another_day",
        "Another Day",
        "",
        "green",
        1,
        3,
        True,
        "self",
        False,
        "Draw 1 card from the Well. You may then play another card.",
    ),
    CardKind(
        "recycle",
        "Recycle",
        "Przywrócenie",
        "green",
        1,
        3,
        False,
        "self",
        False,
        "Put 1 of the top 3 Ruins cards on your Future Life.",
    ),
    CardKind(
        "salvage",
        "Salvage",
        "Ocalenie",
        "green",
        2,
        3,
        False,
        "self",
        False,
        "Put 1 of the top 3 Ruins cards into your Hand.",
    ),
    CardKind(
        "longevity",
        "Longevity",
        "Długowieczność",
        "green",
        2,
        3,
        False,
        "any",
        False,
        "Put the top 2 cards of the Well on top of a player's Deck.",
    ),
    CardKind(
        "sowing",
        "Sowing",
        "",
        "green",
        2,
        3,
        False,
        "self",
        False,
        "Draw 2 cards from the Well, then put 2 cards from your Hand on your Future Life.",
    ),
    CardKind(
        "voyage",
        "Voyage",
        "",
        "green",
        3,
        2,
        True,
        "self",
        False,
        "Draw 3 cards from the Well. You may then play another card.",
    ),
    CardKind(
        "jubilee",
        "Jubilee",
        "",
        "green",
        3,
        2,
        False,
        "self",
        False,
        "Put up to 2 cards from your Hand on your Deeds.",
    ),
    # ---- red -----------------------------------------------------------------------------------
    CardKind(
        "dwindle",
        "Dwindle",
        "Wypalenie",
        "red",
        1,
        3,
        False,
        "any",
        True,
        "A player ruins 1 card of their choice from their Hand.",
    ),
    CardKind(
        "panic",
        "Panic",
        "Panika",
        "red",
        1,
        3,
        True,
        "any",
        True,
        "Ruin the top card of a player's Deck. You may then play another card.",
    ),
    CardKind(
        "crisis",
        "Crisis",
        "Kryzys",
        "red",
        2,
        3,
        False,
        "rival",
        True,
        "A rival ruins one of their Deeds of their choice.",
    ),
    CardKind(
        "hells_heart",
        "Hell's Heart",
        "Serce Piekieł",
        "red",
        2,
        3,
        False,
        "rival",
        True,
        "Ruin the top 2 cards of a rival's Future Life.",
    ),
    CardKind(
        "roulette",
        "Roulette",
        "Uśmiech losu",
        "red",
        2,
        3,
        False,
        "self",
        False,
        "Ruin up to 2 cards from your Hand, then draw up to that many + 1 from the Well.",
    ),
    CardKind(
        "vengeance",
        "Vengeance",
        "Zemsta",
        "red",
        3,
        2,
        False,
        "rival",
        True,
        "Ruin a rival's Exposed Deed.",
    ),
    CardKind(
        "spite",
        "Spite",
        "Złośliwość",
        "red",
        3,
        2,
        False,
        "rival",
        True,
        "Ruin 2 random cards from a rival's Hand.",
    ),
    # ---- mosaic --------------------------------------------------------------------------------
    CardKind(
        "embody",
        "Embody",
        "Symulakrum",
        "mosaic",
        1,
        5,
        False,
        "copy",
        False,
        "Use the ability of one of your Deeds.",
    ),
    CardKind(
        "mimic",
        "Mimic",
        "Mimikra",
        "mosaic",
        1,
        2,
        False,
        "copy",
        False,
        "Use the ability of a rival's Exposed Deed.",
    ),
)
"""The 23 cards. `polish` is empty where the seed never names the card (show the English)."""

KIND_BY_ID: dict[str, CardKind] = {k.id: k for k in KINDS}

CARDS: tuple[CardKind, ...] = tuple(k for k in KINDS for _ in range(k.copies))
"""The 64 physical cards; a card id is an index into this tuple."""

NUM_CARDS = len(CARDS)


@dataclass(frozen=True)
class Rung:
    """A step of the Karmic Ladder."""

    id: str
    name: str
    polish: str
    threshold: int | None
    """Points needed at reincarnation to move up; None on Transcendence."""


LADDER: tuple[Rung, ...] = (
    Rung("dung_beetle", "Dung Beetle", "Żuk gnojowy", 4),
    Rung("snake", "Snake", "Wąż", 5),
    Rung("wolf", "Wolf", "Wilk", 6),
    Rung("ape", "Ape", "Małpa", 7),
    Rung("transcendence", "Transcendence", "Transcendencja", None),
)
TRANSCENDENCE = len(LADDER) - 1
WOLF = 2

RING_TOKENS = 12
"""Physical ring tokens; the engine treats the supply as unlimited (spec decision)."""

START_HAND = 4
START_DECK = 2
NEW_LIFE_CARDS = 6
"""At reincarnation the Deck is topped up so that Hand + Deck hold this many cards."""
RUINS_KEPT_ON_REFILL = 3
SWINDLE_PICKS = 3
SPITE_PICKS = 2
DESTINY_LOOK = 3
DESTINY_KEEP = 2
SAFETY_ROUNDS = 500
"""Full rounds after which a game without a winner ends (spec decision)."""


def kind(card_id: int) -> CardKind:
    """The kind of a physical card."""
    return CARDS[card_id]


def catalog_json() -> list[dict[str, object]]:
    """Static data of the 23 cards, for screens that draw cards and their ability texts."""
    return [
        {
            "card": k.id,
            "name": k.name,
            "polish": k.polish,
            "colour": k.colour,
            "points": k.points,
            "copies": k.copies,
            "extra_play": k.extra,
            "targeting": k.targeting,
            "destructive": k.destructive,
            "text": k.text,
        }
        for k in KINDS
    ]
