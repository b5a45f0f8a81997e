"""Racing Hedgehogs — what each seat sees: a card, a play on the discard pile, a finished
round's scoring, the final standings; and what a view is made of as plain values
(`information_key`, the bots' search tree key).

`RacingHedgehogs.game_view` (`rules.py`) puts these pieces together; a seat sees its own hand
only, the other hands and the set-aside cards as counts. The totals and the tie-break are worked
out in `flow.py`.
"""

from __future__ import annotations

from engines.core import JSON, Outcome, Seat
from engines.racing_hedgehogs.data import COLOURS, SUITS, Card, Suit
from engines.racing_hedgehogs.flow import last_round_points
from engines.racing_hedgehogs.model import Play, RoundResult, State

# ---- views -------------------------------------------------------------------------------------


def card_view(card: Card) -> JSON:
    """A card for the screen: its suit (`rainbow` for a joker) and its pluses."""
    return {"suit": card.suit.value, "pluses": card.pluses}


def play_view(play: Play) -> JSON:
    """A card on the discard pile and the move it made."""
    return {
        "seat": play.seat,
        "card": card_view(play.card),
        "hedgehog": play.hedgehog.value,
        "moved_from": play.moved_from,
        "moved_to": play.moved_to,
    }


def result_view(result: RoundResult) -> JSON:
    """A finished round: final positions, revealed set-aside cards and each player's scoring."""
    return {
        "round": result.round,
        "starter": result.starter,
        "finisher": result.finisher,
        "finishing_hedgehog": result.finishing_hedgehog.value,
        "positions": {c.value: result.positions[c] for c in COLOURS},
        "removed": [card_view(c) for c in result.removed],
        "players": [
            {
                "seat": s,
                "kept": [card_view(c) for c in p.kept],
                "lines": [
                    {
                        "kind": line.kind,
                        "colour": line.colour.value if line.colour else None,
                        "cards": [c.text for c in line.cards],
                        "value": line.value,
                        "multiplier": line.multiplier,
                        "points": line.points,
                    }
                    for line in p.lines
                ],
                "card_points": p.card_points,
                "bonus": p.bonus,
                "total": p.total,
                "points": p.points,
            }
            for s, p in enumerate(result.players)
        ],
    }


def standings_view(state: State, outcome: Outcome) -> JSON:
    """Final standings, best first: rank, total and the tie-break points."""
    last = last_round_points(state)
    order = sorted(outcome.ranks, key=lambda s: (outcome.ranks[s], s))
    return {
        "winners": sorted(outcome.winners),
        "reason": outcome.reason,
        "table": [
            {
                "seat": s,
                "rank": outcome.ranks[s],
                "total": outcome.scores[s],
                "last_round": last[s],
            }
            for s in order
        ],
    }


# ---- what a view is made of, for the bots' search ----------------------------------------------


CARD_CODE: dict[tuple[Suit, int], int] = {
    (suit, pluses): 2 * i + pluses for i, suit in enumerate(SUITS) for pluses in (1, 2)
}
"""A card as a small int, for `information_key`."""


def cards_key(cards: list[Card]) -> tuple[int, ...]:
    """Cards as a tuple of small ints, in their order."""
    return tuple([CARD_CODE[c.suit, c.pluses] for c in cards])


def result_key(result: RoundResult) -> tuple[object, ...]:
    """What the view shows of a finished round, from the parts its lines are made of (the
    lines, card points, bonus and totals follow from the kept cards, the final positions,
    the finisher and the scoring variant)."""
    return (
        result.round,
        result.starter,
        result.finisher,
        result.finishing_hedgehog,
        tuple([result.positions[c] for c in COLOURS]),
        cards_key(result.removed),
        tuple([cards_key(p.kept) for p in result.players]),
    )


def information_key(state: State, seat: Seat | None) -> tuple[object, ...]:
    """Equal for two states exactly when `seat`'s views of them are (a search tree's
    information sets; see `Engine.information_key`): the parts the view is made of, as plain
    values; the track, the totals, the outcome and the header follow from them."""
    hand = None
    if seat is not None and 0 <= seat < state.num_players:
        hand = cards_key(state.hands[seat])
    return (
        state.num_players,
        state.advanced_scoring,
        state.round,
        state.starter,
        state.current,
        tuple([state.positions[c] for c in COLOURS]),
        hand,
        tuple([len(h) for h in state.hands]),
        len(state.removed),
        tuple(
            [
                (
                    p.seat,
                    CARD_CODE[p.card.suit, p.card.pluses],
                    p.hedgehog,
                    p.moved_from,
                    p.moved_to,
                )
                for p in state.plays
            ]
        ),
        tuple([result_key(r) for r in state.results]),
    )
