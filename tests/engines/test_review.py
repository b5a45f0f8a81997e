"""The post-game review's estimates (engines/bots/review.py) over every registered engine:
reproducible (equal seed, equal review), blind (re-dealing what the seat cannot see changes
nothing in its estimates — the bots' blindness test, applied to every action's estimate), and
every decision of a simultaneous round reviewed at the state its seat chose in."""

from __future__ import annotations

from typing import Any

import pytest

from app.review import compute
from engines import REGISTRY
from engines.bots import review as rv
from engines.core import Engine, Rng
from tests.engines.invariants import sampled_positions

STEPS = 120
"""Tests think little (the search is the same)."""


def _positions(engine: Engine[Any, Any, Any], every: int = 11) -> list[Any]:
    n = engine.spec.min_players + (1 if engine.spec.max_players > engine.spec.min_players else 0)
    return [s for s in sampled_positions(engine, n, 4, every=every) if engine.to_act(s)]


def _choices(engine: Engine[Any, Any, Any], state: Any) -> list[int]:
    return [s for s in sorted(engine.to_act(state)) if len(engine.legal_actions(state, s)) > 1]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_review_estimates_are_reproducible(game_id: str) -> None:
    """Equal seed, equal estimates; every legal action is estimated, within 0..1."""
    engine = REGISTRY[game_id]
    for state in _positions(engine)[:6]:
        for seat in _choices(engine, state):
            first = rv.assess(engine, state, seat, steps=STEPS, seed=3)
            again = rv.assess(engine, state, seat, steps=STEPS, seed=3)
            assert first == again
            legal = [engine.action_text(a) for a in engine.legal_actions(state, seat)]
            assert [e.text for e in first] == legal
            assert all(0.0 <= e.win <= 1.0 and e.visits > 0 for e in first)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_review_ignores_what_its_seat_cannot_see(game_id: str) -> None:
    """Two states that differ only in the seat's hidden information (one re-dealt by
    `determinize`) give the same estimate of every action with the same seed."""
    engine = REGISTRY[game_id]
    rng = Rng.from_seed(8)
    for state in _positions(engine, every=13)[:6]:
        for seat in _choices(engine, state):
            other = engine.determinize(state, seat, rng)
            a = rv.assess(engine, state, seat, steps=STEPS, seed=41)
            b = rv.assess(engine, other, seat, steps=STEPS, seed=41)
            assert a == b


def test_a_whole_game_review_is_reproducible_and_blind() -> None:
    """A whole game's review, through the worker's code (`app/review/compute.py`): equal twice;
    every seat's estimates equal when computed on states re-dealt from that seat's view."""
    engine = REGISTRY["incan_gold"]
    seed, n = 21, 3
    state = engine.setup(n, engine.parse_options(None), seed).state
    rng = Rng.from_seed(2)
    moves: list[tuple[int, Any]] = []
    states = [state]
    while engine.outcome(state) is None:
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        moves.append((seat, engine.dump_action(action)))
        state = engine.apply(state, seat, action).state
        states.append(state)
    job = compute.Job("incan_gold", {}, n, seed, "c0ffee", tuple(moves), game_steps=20_000)
    points, steps = compute.plan(job)
    first, _ = compute.chunk(job, points, steps)
    compute._replayed.clear()
    again, _ = compute.chunk(job, points, steps)
    assert first == again and len(first) == len(points)
    # Simultaneous rounds: a decision for every seat that chose, at the state it chose in.
    assert {seat for _v, seat in points} == set(range(n))
    redeal = Rng.from_seed(77)
    for data in first[:30]:
        version, seat = data["version"], data["seat"]
        other = engine.determinize(states[version], seat, redeal)
        blind = rv.assess_decision(
            engine,
            other,
            seat,
            data["chosen"],
            version,
            steps=steps,
            seed=rv.decision_seed("c0ffee", version, seat),
        )
        assert blind.to_json() == {k: v for k, v in data.items() if k != "words"}


def test_key_moments_are_the_largest_losses() -> None:
    """Key moments: the seat's decisions furthest below the best action, worst first, only
    those at least 5 points below."""
    E = rv.Estimate

    def at(version: int, chosen: float, best: float) -> rv.Assessment:
        return rv.Assessment(version, 0, "a", (E("a", chosen, 10), E("b", best, 10)))

    found = [at(1, 0.5, 0.52), at(2, 0.2, 0.6), at(3, 0.4, 0.5), at(4, 0.6, 0.6)]
    found.append(rv.Assessment(5, 1, "a", (E("a", 0.0, 1), E("b", 1.0, 1))))
    assert [a.version for a in rv.key_moments(found, 0)] == [2, 3]
    assert rv.steps_per_decision(10) == rv.MAX_STEPS
    assert rv.steps_per_decision(10**6) == rv.MIN_STEPS
