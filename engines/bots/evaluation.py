"""How a bot values a position: exactly at the end, estimated when a playout is cut short.

The end value comes from `outcome` alone (any engine). A cut-short playout — games whose
random playouts run to hundreds of moves — is valued by comparing the seats on the engine's
own progress key (`Engine.progress`; Karmaka: the rung and rings; Ganges: flipped score-track
cards, then points). The key reads the bot's own sampled (determinized) world, never the real
one.
"""

from __future__ import annotations

from typing import Any

from engines.core import Engine, Seat


def final_value(engine: Engine[Any, Any, Any], state: Any, seat: Seat) -> float | None:
    """1 for a sole win, 1/k for a win shared by k seats, 0 for a loss, plus up to 0.2 for a
    better place; None while the game goes on."""
    outcome = engine.outcome(state)
    if outcome is None:
        return None
    n = max(1, len(outcome.ranks))
    place = 0.0 if n == 1 else 0.2 * (n - outcome.ranks.get(seat, n)) / (n - 1)
    win = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    return win + place


def estimate(engine: Engine[Any, Any, Any], state: Any, seat: Seat, players: int) -> float:
    """The value of a playout cut short: the share of rivals this seat is ahead of on the
    game's progress key (ties count half), scaled like `final_value`; 1/players if the game
    has no key."""
    if players < 2:
        return 1.0 / max(1, players)
    mine = engine.progress(state, seat)
    if mine is None:
        return 1.0 / players
    ahead = 0.0
    for other in range(players):
        if other != seat:
            theirs = engine.progress(state, other)
            assert theirs is not None
            ahead += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    share = ahead / (players - 1)
    return share * share + 0.2 * share
