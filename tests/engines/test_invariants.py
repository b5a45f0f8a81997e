"""Run the shared engine invariants over every registered engine (docs/architecture.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines import REGISTRY
from engines.core import Event, MalformedAction, Rng, Step
from engines.playthrough import canonical, golden_lines
from tests.engines.invariants import (
    check_determinize_sees_only_the_view,
    play_random,
    replay,
    sampled_positions,
)

GOLDEN_DIR = Path(__file__).parent / "golden"

CASES = [
    (game_id, n)
    for game_id, engine in sorted(REGISTRY.items())
    for n in range(engine.spec.min_players, engine.spec.max_players + 1)
]


@pytest.mark.parametrize(("game_id", "num_players"), CASES)
def test_random_games_end_and_hold_invariants(game_id: str, num_players: int) -> None:
    """Seeded random games run to the end; every step keeps the invariants."""
    engine = REGISTRY[game_id]
    for seed in range(3):
        state, history = play_random(engine, num_players, seed, check_every_step=seed == 0)
        outcome = engine.outcome(state)
        assert outcome is not None
        assert set(outcome.scores) == set(range(num_players))
        assert outcome.winners, "every finished game names at least one winner"
        assert all(outcome.ranks[w] == 1 for w in outcome.winners)
        # Replays: setup(seed) + the recorded actions reproduce the final state.
        assert canonical(engine.dump(replay(engine, num_players, seed, None, history))) == (
            canonical(engine.dump(state))
        )


@pytest.mark.parametrize(("game_id", "num_players"), CASES)
def test_determinize_depends_only_on_the_view(game_id: str, num_players: int) -> None:
    """Bots never use what their seat cannot see (issue 11): over sampled positions of seeded
    random games, finished games included, re-dealing a state and a re-dealt copy of it with
    the same generator gives the same state, for every seat and the spectator."""
    engine = REGISTRY[game_id]
    rng = Rng.from_seed(11 * num_players)
    for seed in (11, 12):
        for state in sampled_positions(engine, num_players, seed, every=5):
            check_determinize_sees_only_the_view(engine, state, num_players, rng)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_setup_is_deterministic_and_seed_dependent(game_id: str) -> None:
    """Same seed, same state; the RNG never comes from outside the state."""
    engine = REGISTRY[game_id]
    n = engine.spec.min_players
    opts = engine.parse_options({})
    a, b = engine.setup(n, opts, 42).state, engine.setup(n, opts, 42).state
    assert engine.dump(a) == engine.dump(b)
    others = {canonical(engine.dump(engine.setup(n, opts, s).state)) for s in range(5)}
    assert len(others) > 1


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_golden_playthrough(game_id: str) -> None:
    """The stored golden playthrough replays line by line (regenerate: scripts/golden.py)."""
    path = GOLDEN_DIR / f"{game_id}.txt"
    assert path.exists(), f"missing {path}; run `python scripts/golden.py {game_id}`"
    stored = path.read_text().splitlines()
    header = dict(line.split(" ", 1) for line in stored[:4])
    steps = sum(1 for line in stored if line.startswith("step "))
    produced = golden_lines(
        REGISTRY[game_id],
        int(header["players"]),
        int(header["seed"]),
        json.loads(header["options"]),
        max_steps=steps,
    )
    for i, (want, got) in enumerate(zip(stored, produced, strict=False)):
        assert got == want, f"{path.name} line {i + 1} differs"
    assert len(produced) == len(stored)


def test_rng_is_uniform_enough_and_reproducible() -> None:
    """The engines' PRNG: reproducible streams and every value reachable."""
    a, b = Rng.from_seed(7), Rng.from_seed(7)
    assert [a.randbelow(6) for _ in range(50)] == [b.randbelow(6) for _ in range(50)]
    seen = {Rng.from_seed(1).randbelow(6)}
    r = Rng.from_seed(1)
    for _ in range(300):
        seen.add(r.randbelow(6))
    assert seen == set(range(6))
    assert Rng.from_seed(3).shuffled(list(range(10))) != list(range(10))


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_typed_options_setup_step_and_actions(game_id: str) -> None:
    """Options parse once into the game's model, `setup` returns a Step whose events are
    Events, and every legal action round-trips through its JSON and text forms."""
    engine = REGISTRY[game_id]
    opts = engine.parse_options({})
    assert isinstance(opts, engine.spec.options)
    for name in engine.spec.options.model_fields:
        with pytest.raises(MalformedAction):
            engine.parse_options({name: {"not": ["a", "valid", "value"]}})
    step = engine.setup(engine.spec.min_players, opts, 3)
    assert isinstance(step, Step) and all(isinstance(e, Event) for e in step.events)
    state, rng = step.state, Rng.from_seed(3)
    for _ in range(60):
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        for seat in acting:
            for action in engine.legal_actions(state, seat):
                dumped = engine.dump_action(action)
                assert engine.parse_action(json.loads(json.dumps(dumped))) == action
                assert engine.action_text(action)
        seat = rng.choice(acting)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
