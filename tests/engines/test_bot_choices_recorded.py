"""The bots choose exactly the recorded moves: making an engine faster must not change a single
choice (their budgets count engine steps, not seconds, so a faster engine plays the same game).

The digests were recorded before the engines were made faster for search (issue 36 section 3).
A change that is meant to alter the bots' play (a rules change, a new budget, a different
search) updates them: run `python -m tests.engines.test_bot_choices_recorded` and paste the
lines it prints, and say why in the commit.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from engines import SHIPPED
from engines.bots import LEVELS, choose_action
from engines.core import Engine
from tests.engines.invariants import sampled_positions

SCALE = 0.05
"""Twenty times less thinking than the real levels (the search is the same)."""

RECORDED: dict[tuple[str, str], str] = {
    ("incan_gold", "easy"): "3d0558a969000f40",
    ("incan_gold", "normal"): "01a0765ebb9d6110",
    ("incan_gold", "hard"): "3d0558a969000f40",
    ("racing_hedgehogs", "easy"): "8758492399ecb3bd",
    ("racing_hedgehogs", "normal"): "35c2b7180ba942aa",
    ("racing_hedgehogs", "hard"): "b04a0bf6f87e20b5",
    ("karmaka", "easy"): "38733c4c0b9dfa83",
    ("karmaka", "normal"): "c94d78fb4c9dc029",
    ("karmaka", "hard"): "7d2a4881553f1f97",
    ("ganges", "easy"): "ac33b61b0eaa2154",
    ("ganges", "normal"): "fd7eb53d7efb5836",
    ("ganges", "hard"): "7668a941b5a32dc5",
    ("dreadful_circus", "easy"): "c58340359a3c5ed1",
    ("dreadful_circus", "normal"): "ea5d1b8019953d09",
    ("dreadful_circus", "hard"): "8accd6366b8e3696",
}
"""A digest of every choice at the positions of `choices`, per shipped game and level."""


def choices(engine: Engine[Any, Any, Any], level: str) -> str:
    """The digest of the bot's choices at positions spread over one seeded random game."""
    n = engine.spec.min_players + (1 if engine.spec.max_players > engine.spec.min_players else 0)
    texts = []
    states = [s for s in sampled_positions(engine, n, 4, every=9) if engine.to_act(s)]
    for i, state in enumerate(states):
        seat = min(engine.to_act(state))
        action = choose_action(engine, state, seat, level=level, seed=17 + i, scale=SCALE)
        texts.append(engine.action_text(action))
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("engine", SHIPPED, ids=lambda e: e.spec.id)
def test_bots_choose_the_recorded_moves(engine: Engine[Any, Any, Any], level: str) -> None:
    """Every level of every shipped game picks the recorded actions."""
    assert choices(engine, level) == RECORDED[engine.spec.id, level]


if __name__ == "__main__":
    for shipped in SHIPPED:
        for name in LEVELS:
            print(f'    ("{shipped.spec.id}", "{name}"): "{choices(shipped, name)}",')
