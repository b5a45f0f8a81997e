"""The search bot over every registered engine: legal, reproducible, blind to what its seat
cannot see, and the arena runs (small scale here; the figures come from bench/arena.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.arena import percentile, report, run
from engines import REGISTRY
from engines.bots import BUDGETS, LEVELS, choose_action
from engines.core import Engine, Rng
from tests.engines.invariants import sampled_positions

SCALE = 0.05
"""Tests think 20x less than the real levels (the search is the same)."""


def _positions(engine: Engine[Any, Any, Any], every: int = 9) -> list[Any]:
    n = engine.spec.min_players + (1 if engine.spec.max_players > engine.spec.min_players else 0)
    return [s for s in sampled_positions(engine, n, 4, every=every) if engine.to_act(s)]


def test_levels_are_ordered_by_budget() -> None:
    """easy < normal < hard in steps and sampled worlds."""
    assert LEVELS == ("easy", "normal", "hard")
    steps = [BUDGETS[level].steps for level in LEVELS]
    worlds = [BUDGETS[level].determinizations for level in LEVELS]
    assert steps == sorted(steps) and len(set(steps)) == 3
    assert worlds == sorted(worlds)


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_bot_plays_legal_reproducible_moves(game_id: str, level: str) -> None:
    """At positions spread over a game: a legal action, the same one for the same seed (easy:
    flat search; hard: the tree over the seat's own decisions)."""
    engine = REGISTRY[game_id]
    for state in _positions(engine):
        seat = min(engine.to_act(state))
        legal = [engine.action_text(a) for a in engine.legal_actions(state, seat)]
        first = choose_action(engine, state, seat, level=level, seed=17, scale=SCALE)
        again = choose_action(engine, state, seat, level=level, seed=17, scale=SCALE)
        assert engine.action_text(first) in legal
        assert engine.action_text(again) == engine.action_text(first)


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_bot_choice_ignores_what_its_seat_cannot_see(game_id: str, level: str) -> None:
    """Two states that differ only in the seat's hidden information (one re-dealt by
    `determinize`) give the same choice with the same seed."""
    engine = REGISTRY[game_id]
    rng = Rng.from_seed(5)
    for state in _positions(engine, every=13):
        for seat in sorted(engine.to_act(state)):
            other = engine.determinize(state, seat, rng)
            a = choose_action(engine, state, seat, level=level, seed=99, scale=SCALE)
            b = choose_action(engine, other, seat, level=level, seed=99, scale=SCALE)
            assert engine.action_text(a) == engine.action_text(b)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_arena_runs_and_counts_every_game(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two quick games; every seat of every finished game is counted once."""
    monkeypatch.setattr(
        "bench.arena.choose_action", lambda *a, **k: choose_action(*a, **{**k, "scale": SCALE})
    )
    engine = REGISTRY[game_id]
    seats = ["easy"] + ["random"] * (max(engine.spec.min_players, 2) - 1)
    result = run(game_id, seats, 2, 3, {}, workers=1)
    counted = sum(t["seats"] for t in result["tally"].values())
    assert counted == (2 - result["unfinished"]) * len(seats)
    wins = sum(t["wins"] for t in result["tally"].values())
    assert wins == pytest.approx(2 - result["unfinished"])
    assert result["times"]["easy"], "the bot made decisions"
    text = report(game_id, seats, result)
    assert "win share" in text and "decision time easy" in text
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
