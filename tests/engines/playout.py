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


class KeyCheck:
    """Checks that `information_key` parts states exactly as the seat's view does: `look` at
    a state for a seat (the state, worlds determinized for that seat, and each of them played
    on a few random steps, where what they then show apart must give other keys), then
    `assert_parts_as_view`."""

    def __init__(self, engine: Any, rng: Rng) -> None:
        self.engine, self.rng = engine, rng
        self.by_view: dict[str, set[object]] = {}
        self.by_key: dict[object, set[str]] = {}

    def look(self, state: Any, looker: int, worlds: int, steps: int = 4) -> None:
        engine, rng = self.engine, self.rng
        seen = [state] + [engine.determinize(state, looker, rng) for _ in range(worlds)]
        for world in list(seen):
            for _ in range(steps):
                if engine.outcome(world) is not None:
                    break
                mover = min(engine.to_act(world))
                world = engine.play(world, mover, engine.random_action(world, mover, rng))
            seen.append(world)
        for world in seen:
            view = repr(engine.view(world, looker))
            key = (looker, engine.information_key(world, looker))
            self.by_view.setdefault(view, set()).add(key)
            self.by_key.setdefault(key, set()).add(view)

    def assert_parts_as_view(self, views_at_least: int) -> None:
        assert len(self.by_view) > views_at_least
        assert all(len(keys) == 1 for keys in self.by_view.values())
        assert all(len(views) == 1 for views in self.by_key.values())
