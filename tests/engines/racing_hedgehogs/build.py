"""Racing Hedgehogs test builders: explicit hands, positions and finished rounds."""

from __future__ import annotations

from engines.core import Rng
from engines.racing_hedgehogs.data import COLOURS, START, Card, Colour, Suit
from engines.racing_hedgehogs.flow import sort_cards
from engines.racing_hedgehogs.model import PlayerRoundScore, RoundResult, State


def cards(text: str) -> list[Card]:
    """Cards from a text like `yellow+1 rainbow+2` (the engine's own card text)."""
    out = []
    for word in text.split():
        suit, pluses = word.split("+")
        out.append(Card(suit=Suit(suit), pluses=int(pluses)))
    return out


def position(
    hands: list[str],
    positions: dict[str, int] | None = None,
    *,
    current: int | None = 0,
    starter: int = 0,
    advanced: bool = False,
    round_no: int = 1,
    results: list[RoundResult] | None = None,
) -> State:
    """A game in progress with the given hands (one text per seat) and hedgehog positions."""
    where = dict.fromkeys(COLOURS, START)
    for colour, field in (positions or {}).items():
        where[Colour(colour)] = field
    return State(
        num_players=len(hands),
        advanced_scoring=advanced,
        rng=Rng.from_seed(99),
        round=round_no,
        starter=starter,
        current=current,
        positions=where,
        hands=[sort_cards(cards(h)) for h in hands],
        removed=[],
        plays=[],
        results=results or [],
    )


def finished_round(round_no: int, points: list[int]) -> RoundResult:
    """A finished round in which each seat scored the given points (and kept nothing)."""
    return RoundResult(
        round=round_no,
        starter=0,
        finisher=0,
        finishing_hedgehog=Colour.VIOLET,
        positions=dict.fromkeys(COLOURS, START),
        removed=[],
        players=[
            PlayerRoundScore(kept=[], lines=[], card_points=p, bonus=0, total=p, points=max(p, 0))
            for p in points
        ],
    )
