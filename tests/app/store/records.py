"""Records the store tests write, not stored yet."""

from __future__ import annotations

from typing import Any

from app.store.games import new_game
from app.store.models import Game


def a_game(room_id: int, players: int, **fields: Any) -> Game:
    """An Incan Gold game of `players` for `room_id` at version 0 (seed 7, a deck of two
    cards); `fields`: the other columns `new_game` takes (clock, opening, secret, ...)."""
    return new_game(
        room_id=room_id,
        engine="incan_gold",
        options={},
        num_players=players,
        seed=7,
        seed_commitment="c",
        snapshot={"deck": [1, 2]},
        **fields,
    )
