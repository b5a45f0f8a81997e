"""Karmaka card and ladder data (docs/rules/karmaka.md, "Components").

Rule source: docs/rules/karmaka.md (from the Polish rulebook, the seed, with the card list
read from the official English card faces). The rules code never spells out a card's colour,
points or copies: everything it needs about a card is here, so the table can be corrected
in one place. A physical card is an integer id 0–63; `CARDS[id]` is its kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.core import trc

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
        trc("karmaka", "Transmigrate"),
        "Wędrówka dusz",
        "blue",
        1,
        3,
        False,
        "self",
        False,
        trc("karmaka", "Move any one card of your Future Life into your Hand."),
    ),
    CardKind(
        "peek",
        trc("karmaka", "Peek"),
        "Podglądnięcie",
        "blue",
        1,
        3,
        True,
        "rival",
        False,
        trc("karmaka", "Look at a rival's Hand. You may then play another card."),
    ),
    CardKind(
        "destiny",
        trc("karmaka", "Destiny"),
        "",
        "blue",
        2,
        3,
        False,
        "self",
        False,
        trc(
            "karmaka",
            "Look at the top 3 cards of the Well; put up to 2 on your Future Life, "
            "the rest back on the Well in any order.",
        ),
    ),
    CardKind(
        "stolen_dreams",
        trc("karmaka", "Stolen Dreams"),
        "",
        "blue",
        2,
        3,
        False,
        "rival",
        True,
        trc("karmaka", "Move the top card of a rival's Future Life onto your Future Life."),
    ),
    CardKind(
        "denial",
        trc("karmaka", "Denial"),
        "Wykluczenie",
        "blue",
        2,
        3,
        False,
        "copy",
        False,
        trc("karmaka", "Ruin a card from your Hand, then use its ability."),
    ),
    CardKind(
        "thievery",
        trc("karmaka", "Thievery"),
        "Kradzież",
        "blue",
        3,
        2,
        False,
        "rival",
        True,
        trc("karmaka", "Take a rival's Exposed Deed into your Hand."),
    ),
    CardKind(
        "swindle",
        trc("karmaka", "Swindle"),
        "Podstęp",
        "blue",
        3,
        2,
        False,
        "rival",
        True,
        trc("karmaka", "Pick 3 random cards from a rival's Hand, keep 1 and give the others back."),
    ),
    # ---- green ---------------------------------------------------------------------------------
    CardKind(
        "another_day",
        trc("karmaka", "Another Day"),
        "",
        "green",
        1,
        3,
        True,
        "self",
        False,
        trc("karmaka", "Draw 1 card from the Well. You may then play another card."),
    ),
    CardKind(
        "recycle",
        trc("karmaka", "Recycle"),
        "Przywrócenie",
        "green",
        1,
        3,
        False,
        "self",
        False,
        trc("karmaka", "Put 1 of the top 3 Ruins cards on your Future Life."),
    ),
    CardKind(
        "salvage",
        trc("karmaka", "Salvage"),
        "Ocalenie",
        "green",
        2,
        3,
        False,
        "self",
        False,
        trc("karmaka", "Put 1 of the top 3 Ruins cards into your Hand."),
    ),
    CardKind(
        "longevity",
        trc("karmaka", "Longevity"),
        "Długowieczność",
        "green",
        2,
        3,
        False,
        "any",
        False,
        trc("karmaka", "Put the top 2 cards of the Well on top of a player's Deck."),
    ),
    CardKind(
        "sowing",
        trc("karmaka", "Sowing"),
        "",
        "green",
        2,
        3,
        False,
        "self",
        False,
        trc(
            "karmaka",
            "Draw 2 cards from the Well, then put 2 cards from your Hand on your Future Life.",
        ),
    ),
    CardKind(
        "voyage",
        trc("karmaka", "Voyage"),
        "",
        "green",
        3,
        2,
        True,
        "self",
        False,
        trc("karmaka", "Draw 3 cards from the Well. You may then play another card."),
    ),
    CardKind(
        "jubilee",
        trc("karmaka", "Jubilee"),
        "",
        "green",
        3,
        2,
        False,
        "self",
        False,
        trc("karmaka", "Put up to 2 cards from your Hand on your Deeds."),
    ),
    # ---- red -----------------------------------------------------------------------------------
    CardKind(
        "dwindle",
        trc("karmaka", "Dwindle"),
        "Wypalenie",
        "red",
        1,
        3,
        False,
        "any",
        True,
        trc("karmaka", "A player ruins 1 card of their choice from their Hand."),
    ),
    CardKind(
        "panic",
        trc("karmaka", "Panic"),
        "Panika",
        "red",
        1,
        3,
        True,
        "any",
        True,
        trc("karmaka", "Ruin the top card of a player's Deck. You may then play another card."),
    ),
    CardKind(
        "crisis",
        trc("karmaka", "Crisis"),
        "Kryzys",
        "red",
        2,
        3,
        False,
        "rival",
        True,
        trc("karmaka", "A rival ruins one of their Deeds of their choice."),
    ),
    CardKind(
        "hells_heart",
        trc("karmaka", "Hell's Heart"),
        "Serce Piekieł",
        "red",
        2,
        3,
        False,
        "rival",
        True,
        trc("karmaka", "Ruin the top 2 cards of a rival's Future Life."),
    ),
    CardKind(
        "roulette",
        trc("karmaka", "Roulette"),
        "Uśmiech losu",
        "red",
        2,
        3,
        False,
        "self",
        False,
        trc(
            "karmaka",
            "Ruin up to 2 cards from your Hand, then draw up to that many + 1 from the Well.",
        ),
    ),
    CardKind(
        "vengeance",
        trc("karmaka", "Vengeance"),
        "Zemsta",
        "red",
        3,
        2,
        False,
        "rival",
        True,
        trc("karmaka", "Ruin a rival's Exposed Deed."),
    ),
    CardKind(
        "spite",
        trc("karmaka", "Spite"),
        "Złośliwość",
        "red",
        3,
        2,
        False,
        "rival",
        True,
        trc("karmaka", "Ruin 2 random cards from a rival's Hand."),
    ),
    # ---- mosaic --------------------------------------------------------------------------------
    CardKind(
        "embody",
        trc("karmaka", "Embody"),
        "Symulakrum",
        "mosaic",
        1,
        5,
        False,
        "copy",
        False,
        trc("karmaka", "Use the ability of one of your Deeds."),
    ),
    CardKind(
        "mimic",
        trc("karmaka", "Mimic"),
        "Mimikra",
        "mosaic",
        1,
        2,
        False,
        "copy",
        False,
        trc("karmaka", "Use the ability of a rival's Exposed Deed."),
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
    Rung("dung_beetle", trc("karmaka", "Dung Beetle"), "Żuk gnojowy", 4),
    Rung("snake", trc("karmaka", "Snake"), "Wąż", 5),
    Rung("wolf", trc("karmaka", "Wolf"), "Wilk", 6),
    Rung("ape", trc("karmaka", "Ape"), "Małpa", 7),
    Rung("transcendence", trc("karmaka", "Transcendence"), "Transcendencja", None),
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
