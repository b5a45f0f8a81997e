"""Checks shared by the titles that give the bots' optional playout steps (`Engine.play`,
`Engine.random_action`): a game played to its end one random step at a time."""

from __future__ import annotations

from typing import Any

from engines.core import Rng


def play_matches_apply(engine: Any, state: Any, rng: Rng) -> int:
    """Play `state` to its end with `random_action` and `play`, checking at every step that
    `play` reaches the state `apply` does and leaves its input unchanged; the steps taken."""
    steps = 0
    while engine.outcome(state) is None:
        seat = min(engine.to_act(state))
        action = engine.random_action(state, seat, rng)
        before = state.model_dump_json()
        played = engine.play(state, seat, action)
        step = engine.apply(state, seat, action)
        assert state.model_dump_json() == before
        assert played == step.state
        assert played.model_dump_json() == step.state.model_dump_json()
        state = played
        steps += 1
    return steps
