"""The invariants every engine must hold (docs/architecture.md, "Invariants every engine must
hold").

These functions are engine-agnostic; `test_invariants.py` runs them over every registered
engine, and each engine's own tests may call them with special positions.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from engines.core import (
    VIEW_HEADER,
    Engine,
    GameError,
    GameOver,
    MalformedAction,
    NotYourTurn,
    Rng,
    Seat,
    copy_state,
)
from engines.playthrough import canonical as canonical

AnyEngine = Engine[Any, Any, Any]


def play_random(
    engine: AnyEngine,
    num_players: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    max_steps: int = 5000,
    check_every_step: bool = True,
) -> tuple[Any, list[tuple[Seat, Any]]]:
    """Play a seeded random game to the end, checking the invariants at every step.

    Returns the final state and the (seat, action) list. Fails the test if the game does not
    end within `max_steps`.
    """
    opts = engine.parse_options(options or {})
    state = engine.setup(num_players, opts, seed).state
    rng = Rng.from_seed(seed * 7919 + num_players)
    history: list[tuple[Seat, Any]] = []
    for _ in range(max_steps):
        if check_every_step:
            check_state_invariants(engine, state, num_players, rng)
        if engine.outcome(state) is not None:
            assert engine.to_act(state) == frozenset()
            return state, history
        acting = sorted(engine.to_act(state))
        assert acting, "a game that is not over must have someone to act"
        seat = rng.choice(acting)
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat} must act but has no legal action"
        action = rng.choice(actions)
        before = canonical(engine.dump(state))
        step = engine.apply(state, seat, action)
        assert canonical(engine.dump(state)) == before, "apply mutated its input"
        history.append((seat, action))
        state = step.state
    pytest.fail(f"{engine.spec.id}: game with {num_players} players, seed {seed} did not end")


def check_state_invariants(engine: AnyEngine, state: Any, num_players: int, rng: Rng) -> None:
    """Round trip, no leaks, and refusals that change nothing, at one state."""
    dumped = engine.dump(state)
    assert engine.load(json.loads(json.dumps(dumped))) == state, "load(dump(s)) != s"
    before = canonical(dumped)

    for seat in [*range(num_players), None]:
        view = engine.view(state, seat)
        json.dumps(view)  # must be JSON-serialisable
        # No leaks: re-deal what `seat` cannot see; its view must not change.
        for _ in range(2):
            other = engine.determinize(state, seat, rng)
            assert canonical(engine.view(other, seat)) == canonical(view), (
                f"view for seat {seat} depends on hidden information"
            )
        assert canonical(engine.dump(state)) == before, "determinize mutated its input"

    check_shared_views(engine, state, num_players)
    over = engine.outcome(state) is not None
    acting = engine.to_act(state)
    check_header(engine, state, num_players)
    check_copy_is_independent(state)
    # A seat that is not to act is refused with NotYourTurn (or GameOver), nothing changes.
    for seat in range(num_players):
        if seat in acting:
            continue
        donors = sorted(acting)
        if not donors:
            sample = None
        else:
            legal = engine.legal_actions(state, donors[0])
            sample = legal[0] if legal else None
        if sample is None:
            continue
        with pytest.raises(GameOver if over else NotYourTurn):
            engine.apply(state, seat, sample)
        assert canonical(engine.dump(state)) == before
    # Malformed input is refused at parse time.
    with pytest.raises(MalformedAction):
        engine.parse_action({"type": "__no_such_action__"})
    # Every legal action applies (bounded sample) and round-trips through JSON.
    for seat in sorted(acting):
        for action in engine.legal_actions(state, seat)[:12]:
            assert engine.parse_action(engine.dump_action(action)) == action
            try:
                engine.apply(state, seat, action)
            except GameError as exc:  # pragma: no cover - a failure message is the point
                pytest.fail(f"legal action {engine.action_text(action)} refused: {exc}")
        assert canonical(engine.dump(state)) == before


def check_determinize_sees_only_the_view(
    engine: AnyEngine, state: Any, num_players: int, rng: Rng
) -> None:
    """`determinize(s, seat, rng)` depends only on `view(s, seat)` and `rng` (issue 11).

    For every seat (and the spectator), `s2 = determinize(s, seat, Rng(a))` is a state that
    differs from `s` only in what the seat cannot see; re-dealing `s` and `s2` with the same
    `Rng(k)` must give the very same state. This fails if the re-deal keeps the real order of a
    hidden pile, carries the state's own RNG (its future draws) over, or draws randomness from
    anywhere but `rng`. The re-dealt state also shows the seat exactly its view.
    """
    before = canonical(engine.dump(state))
    real_rng = engine.dump(state).get("rng")
    for seat in [*range(num_players), None]:
        view = canonical(engine.view(state, seat))
        other = engine.determinize(state, seat, Rng.from_seed(rng.next_u64()))
        assert canonical(engine.view(other, seat)) == view
        k = rng.next_u64()
        mine = engine.determinize(state, seat, Rng.from_seed(k))
        theirs = engine.determinize(other, seat, Rng.from_seed(k))
        dumped = engine.dump(mine)
        assert canonical(dumped) == canonical(engine.dump(theirs)), (
            f"{engine.spec.id}: determinize for seat {seat} depends on hidden information "
            f"(differs at {sorted(diff_keys(dumped, engine.dump(theirs)))[:6]})"
        )
        assert canonical(engine.view(mine, seat)) == view
        if real_rng is not None:
            assert dumped["rng"] != real_rng, "determinize kept the state's own RNG"
    assert canonical(engine.dump(state)) == before, "determinize mutated its input"


def diff_keys(a: Any, b: Any, path: str = "") -> set[str]:
    """The paths (top two levels) where two dumped states differ, for failure messages."""
    if isinstance(a, dict) and isinstance(b, dict) and path.count(".") < 2:
        out: set[str] = set()
        for key in set(a) | set(b):
            if a.get(key) != b.get(key):
                out |= diff_keys(a.get(key), b.get(key), f"{path}.{key}")
        return out
    return {path or "."}


def sampled_positions(
    engine: AnyEngine, num_players: int, seed: int, *, every: int, max_steps: int = 5000
) -> list[Any]:
    """Every `every`-th state of a seeded random game, and always its final (finished) state."""
    state = engine.setup(num_players, engine.parse_options({}), seed).state
    rng = Rng.from_seed(seed * 104729 + num_players)
    out: list[Any] = []
    for step_no in range(max_steps):
        if engine.outcome(state) is not None:
            out.append(state)
            return out
        if step_no % every == 0:
            out.append(state)
        seat = rng.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
    pytest.fail(f"{engine.spec.id}: game with {num_players} players, seed {seed} did not end")


def replay(
    engine: AnyEngine,
    num_players: int,
    seed: int,
    options: dict[str, Any] | None,
    history: list[tuple[Seat, Any]],
) -> Any:
    """`setup(seed)` plus the recorded actions, through their JSON forms."""
    state = engine.setup(num_players, engine.parse_options(options or {}), seed).state
    for seat, action in history:
        parsed = engine.parse_action(json.loads(json.dumps(engine.dump_action(action))))
        state = engine.apply(state, seat, parsed).state
    return state


def _mutable_parts(value: Any, found: dict[int, str], path: str) -> None:
    if isinstance(value, list):
        found[id(value)] = path
        for i, item in enumerate(value):
            _mutable_parts(item, found, f"{path}[{i}]")
    elif isinstance(value, dict):
        found[id(value)] = path
        for key, item in value.items():
            _mutable_parts(item, found, f"{path}.{key}")
    elif isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        found[id(value)] = path
        for name, item in value.__dict__.items():
            _mutable_parts(item, found, f"{path}.{name}")


def check_copy_is_independent(state: Any) -> None:
    """`copy_state` gives an equal state that shares no list, dict or mutable model with the
    original, so `apply` and `determinize` may mutate their copy freely."""
    copy = copy_state(state)
    assert copy == state
    original: dict[int, str] = {}
    copied: dict[int, str] = {}
    _mutable_parts(state, original, "state")
    _mutable_parts(copy, copied, "state")
    shared = sorted(original[i] for i in set(original) & set(copied))
    assert not shared, f"copy_state shares mutable parts: {shared[:5]}"


def check_header(engine: AnyEngine, state: Any, num_players: int) -> None:
    """Every view carries the same typed header, true to `to_act`, `chosen` and `outcome`."""
    outcome = engine.outcome(state)
    expected = engine.header(state)
    assert tuple(expected) == VIEW_HEADER
    assert expected["to_act"] == sorted(engine.to_act(state))
    assert expected["over"] is (outcome is not None)
    assert expected["outcome"] == (outcome.to_json() if outcome is not None else None)
    chosen = expected["chosen"]
    assert chosen == sorted(set(chosen)) and all(0 <= s < num_players for s in chosen)
    assert not set(chosen) & set(expected["to_act"]), "a seat both chose and must act"
    if not engine.spec.simultaneous or outcome is not None:
        assert chosen == [], "only a simultaneous step still waiting has seats that chose"
    for seat in [*range(num_players), None]:
        assert engine.view(state, seat)["header"] == expected


def check_shared_views(engine: AnyEngine, state: Any, num_players: int) -> None:
    """Views made with one `shared` dictionary for all audiences of the state (as the server
    makes them, `Engine.view`) are the same, to the byte and the key order, as views made
    alone, whichever audience comes first; and making them changes neither the state nor a
    view made before."""
    audiences: list[Seat | None] = [*range(num_players), None]
    alone = {seat: json.dumps(engine.view(state, seat)) for seat in audiences}
    before = canonical(engine.dump(state))
    for order in (audiences, audiences[::-1]):
        shared: dict[str, Any] = {}
        views = {seat: engine.view(state, seat, None, shared) for seat in order}
        for seat in order:
            assert json.dumps(views[seat]) == alone[seat], f"shared view of {seat} differs"
    assert canonical(engine.dump(state)) == before, "a shared view changed the state"
