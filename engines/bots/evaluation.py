"""How a bot values a position: exactly at the end, estimated when a playout is cut short.

The end value comes from `outcome` alone (any engine). A cut-short playout — games whose
random playouts run to hundreds of moves — is valued by comparing the seats on a per-game
progress key (Karmaka: the rung and rings; Ganges: flipped score-track cards, then points).
These keys read the bot's own sampled (determinized) world, never the real one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Engine, Seat

Key = Callable[[Any, Seat], tuple[int, ...]]


def _karmaka(state: Any, seat: Seat) -> tuple[int, ...]:
    player = state.players[seat]
    return (player.rung, player.rings)


def _ganges(state: Any, seat: Seat) -> tuple[int, ...]:
    player = state.players[seat]
    flipped = sum(1 for card in player.track if card.flipped)
    return (flipped, 2 * player.fame + player.coins, player.karma)


PROGRESS: dict[str, Key] = {"karmaka": _karmaka, "ganges": _ganges}
"""Per-game progress keys (bigger is better) for playouts cut short."""


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
    key = PROGRESS.get(engine.spec.id)
    if key is None or players < 2:
        return 1.0 / max(1, players)
    mine = key(state, seat)
    ahead = sum(
        1.0 if mine > key(state, other) else 0.5 if mine == key(state, other) else 0.0
        for other in range(players)
        if other != seat
    )
    share = ahead / (players - 1)
    return share * share + 0.2 * share
