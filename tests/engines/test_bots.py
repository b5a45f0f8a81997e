"""The search bot over every registered engine: legal, reproducible, blind to what its seat
cannot see, and the arena runs (small scale here; the figures come from bench/arena.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.arena import load, percentile, place_interval, play_one, report, run, summary
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
    assert "win share" in text and "decision CPU easy" in text
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_arena_records_games_resumes_and_sums_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--out`: each game is one JSON line; a second run with more games plays only the new
    seeds and counts the recorded ones; `--summary` tallies several files as one run."""
    monkeypatch.setattr(
        "bench.arena.choose_action", lambda *a, **k: choose_action(*a, **{**k, "scale": SCALE})
    )
    seats = ["easy", "random", "random"]
    out = tmp_path / "a.jsonl"
    first = run("incan_gold", seats, 2, 3, {}, workers=1, out=out)
    assert len(out.read_text().splitlines()) == 2
    played: list[int] = []

    def counted(job: tuple[str, list[str], int, dict[str, Any]]) -> dict[str, Any]:
        played.append(job[2])
        return play_one(*job)

    monkeypatch.setattr("bench.arena._job", counted)
    again = run("incan_gold", seats, 3, 3, {}, workers=1, out=out)
    assert played == [5], "seeds 3 and 4 were recorded already"
    assert sorted(r["seed"] for r in load([out])) == [3, 4, 5]
    seated = sum(t["seats"] for t in again["tally"].values())
    assert (
        seated == (3 - again["unfinished"]) * 3 >= sum(t["seats"] for t in first["tally"].values())
    )
    assert all(isinstance(seat, int) for r in load([out]) for seat in r.get("ranks", {}))
    other = tmp_path / "b.jsonl"
    run("incan_gold", seats, 1, 40, {}, workers=1, out=other)
    text = summary([out, other, out])
    assert text.startswith("incan_gold: 4 games, seats easy,random,random")
    assert "decision CPU easy" in text and "CPU per game: mean" in text
    row = summary([out, other], markdown=True)
    assert row.startswith("| incan_gold | easy,random,random | 4 | ") and "| 33.3% |" in row
    assert "| 2.0 |" in row, "the fair mean place of three seats"


def test_mean_place_interval() -> None:
    """The mean place's 95 % interval: mean ± 1.96 standard errors of the places."""
    places = [1, 2, 3, 4] * 25
    tally = {
        "seats": 100.0,
        "place": float(sum(places)),
        "place2": float(sum(p * p for p in places)),
    }
    low, high = place_interval(tally)
    half = 1.96 * (sum((p - 2.5) ** 2 for p in places) / 99) ** 0.5 / 10
    assert (low, high) == pytest.approx((2.5 - half, 2.5 + half))
    assert low < 2.5 < high and high - low == pytest.approx(0.4405, abs=1e-3)
    same = {"seats": 50.0, "place": 50.0, "place2": 50.0}
    assert place_interval(same) == pytest.approx((1.0, 1.0)), "always first: no spread"


def test_arena_plays_a_level_with_its_budget_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hard+playout_cap=40`: the level's budget with the named fields changed, played and
    reported under its own name; anything else is refused."""
    from bench.arena import variant
    from engines.bots import search

    assert variant("hard") == BUDGETS["hard"]
    changed = variant("hard+playout_cap=40+exploration=0.5+tree=false")
    assert (changed.playout_cap, changed.exploration, changed.tree) == (40, 0.5, False)
    assert changed.steps == BUDGETS["hard"].steps
    for bad in ("huge", "hard+speed=2", "hard+steps", "hard+steps=many"):
        with pytest.raises(ValueError):
            variant(bad)
    monkeypatch.setattr(search, "BUDGETS", dict(search.BUDGETS))
    monkeypatch.setattr("bench.arena.BUDGETS", search.BUDGETS)
    seats = ["easy+steps=40", "random", "random"]
    result = run("incan_gold", seats, 1, 3, {}, workers=1)
    assert search.BUDGETS["easy+steps=40"].steps == 40, "the variant played with its budget"
    assert result["times"]["easy+steps=40"], "its decisions are timed under its own name"
    assert "decision CPU easy+steps=40" in report("incan_gold", seats, result)
