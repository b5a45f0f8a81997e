"""Incan Gold card data (docs/rules/incan-gold.md, "Components").

Cards are referred to by their index in `CARDS`; the rules never spell out card values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.core import tr

CardKind = Literal["treasure", "hazard", "artifact"]

TREASURE_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
HAZARD_KINDS: tuple[str, ...] = (
    tr("snakes"),
    tr("spiders"),
    tr("mummies"),
    tr("fire"),
    tr("rockfall"),
)
HAZARD_COPIES = 3
ARTIFACT_NAMES: tuple[str, ...] = (tr("idol"), tr("mask"), tr("necklace"), tr("vase"), tr("cup"))

ROUNDS = 5
ARTIFACT_VALUES: tuple[int, ...] = (5, 5, 5, 10, 10)
"""Value of the 1st, 2nd, … artifact carried out of the temple, over the whole game."""


@dataclass(frozen=True)
class Card:
    """One adventure card."""

    id: int
    kind: CardKind
    value: int = 0
    hazard: str = ""
    name: str = ""


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for v in TREASURE_VALUES:
        cards.append(Card(len(cards), "treasure", value=v))
    for kind in HAZARD_KINDS:
        for _ in range(HAZARD_COPIES):
            cards.append(Card(len(cards), "hazard", hazard=kind))
    for name in ARTIFACT_NAMES:
        cards.append(Card(len(cards), "artifact", name=name))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
TREASURES: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == "treasure")
HAZARDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == "hazard")
ARTIFACTS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == "artifact")
