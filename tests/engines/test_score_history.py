"""The score history behind the end-screen chart (issue 14, item 8)."""

from __future__ import annotations

import itertools

import pytest

from engines import REGISTRY
from tests.engines.invariants import play_random, replay


@pytest.mark.parametrize("game_id", ["incan_gold", "racing_hedgehogs"])
def test_history_ends_at_the_final_scores(game_id: str) -> None:
    """One row per round, every seat in each row, totals never fall, the last row equals the
    outcome's scores; Incan Gold's (secret tents) appears only once the game is over."""
    engine = REGISTRY[game_id]
    for seed in range(3):
        state, history = play_random(engine, 4, seed, check_every_step=False)
        outcome = engine.outcome(state)
        assert outcome is not None
        rows = engine.view(state, None)["score_history"]
        assert (
            len(rows) == engine.view(state, None)["rounds"] if game_id == "racing_hedgehogs" else 5
        )
        assert all(len(row) == 4 for row in rows)
        assert rows[-1] == [outcome.scores[s] for s in range(4)]
        if game_id == "racing_hedgehogs":
            # Running totals of the per-round points shown in the score table.
            per_round = engine.view(state, None)["scores"]["rounds"]
            assert rows[0] == per_round[0]
            assert all(
                rows[i][s] == rows[i - 1][s] + per_round[i][s]
                for i in range(1, len(rows))
                for s in range(4)
            )
        else:
            assert all(
                a <= b for r1, r2 in itertools.pairwise(rows) for a, b in zip(r1, r2, strict=True)
            )
            middle = replay(engine, 4, seed, None, history[: len(history) // 2])
            assert engine.outcome(middle) is None
            assert all(engine.view(middle, s)["score_history"] is None for s in [0, 1, None])
            assert engine.view(middle, 0)["score_history"] is None


def test_karmaka_history_follows_the_ladder() -> None:
    """Karmaka charts the rungs: a row per round, never a rung above the top, the last row the
    final rungs, and the winner's last rung is Transcendence when the game ended by it."""
    engine = REGISTRY["karmaka"]
    state, _ = play_random(engine, 3, 5, check_every_step=False)
    view = engine.view(state, None)
    rows = view["score_history"]
    assert rows[0] == [0, 0, 0]
    assert rows[-1] == [p["rung"] for p in view["players"]]
    top = len(view["ladder"]) - 1
    assert all(0 <= r <= top for row in rows for r in row)
    assert len(rows) >= view["round"]
