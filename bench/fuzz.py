"""Fuzz what the server parses from strangers, with Hypothesis: every websocket frame goes
through `app.realtime.protocol.parse_incoming`, every action through each engine's
`parse_action`. Random JSON of every shape (and raw text, bytes, deep nesting, huge numbers)
must give a parsed message or one of the typed refusals — never another exception.

    python -m bench.fuzz [--examples 10000] [--seed 0]

prints how many examples each target ran and what they came to;
tests/app/realtime/test_fuzz.py runs a smaller profile of the same properties in the suite.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import Refusal
from app.realtime.protocol import parse_incoming
from engines import REGISTRY
from engines.core import GameError

MAX_BYTES = 4096

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=40,
)


def action_like(type_names: list[str]) -> st.SearchStrategy[Any]:
    """Objects that look like actions: a known or unknown `type` and random fields."""
    return st.fixed_dictionaries(
        {"type": st.sampled_from(type_names) | st.text(max_size=10)},
        optional={
            "card": json_values,
            "seat": json_values,
            "option": json_values,
            "cards": json_values,
            "amount": json_values,
            "pay": json_values,
            "jokers": json_values,
            "karma": json_values,
        },
    )


def frames() -> st.SearchStrategy[str | bytes]:
    """Client frames: JSON text of messages and of anything, raw text and bytes, deep nests."""
    messages = st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "sync", "chat"]) | st.text(max_size=8)},
        optional={"version": json_values, "action": json_values, "text": json_values},
    )
    deep = st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n)
    return (
        messages.map(json.dumps)
        | json_values.map(json.dumps)
        | st.text(max_size=200)
        | st.binary(max_size=200)
        | deep
    )


def check_frame(raw: str | bytes, seen: Counter[str]) -> None:
    """A frame parses or is refused with a typed `Refusal`."""
    try:
        msg = parse_incoming(raw, MAX_BYTES)
    except Refusal as exc:
        seen[f"refused {exc.code}"] += 1
        return
    seen[f"parsed {type(msg).__name__}"] += 1


def check_action(game_id: str, raw: Any, seen: Counter[str]) -> None:
    """An action parses or is refused with a `GameError`."""
    try:
        REGISTRY[game_id].parse_action(raw)
    except GameError as exc:
        seen[f"{game_id} refused {exc.code}"] += 1
        return
    seen[f"{game_id} parsed"] += 1


def action_types(game_id: str) -> list[str]:
    """The `type` values of a game's actions (from its legal actions at the start)."""
    engine = REGISTRY[game_id]
    state = engine.setup(engine.spec.min_players, engine.parse_options({}), 1).state
    types = set()
    for seat in engine.to_act(state):
        for action in engine.legal_actions(state, seat):
            types.add(str(engine.dump_action(action).get("type")))
    return sorted(types)


def run(examples: int, seed: int | None = None) -> dict[str, Counter[str]]:
    """Run every property for `examples` examples each; what they came to, per target."""
    results: dict[str, Counter[str]] = {}
    profile = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
    )

    frame_seen: Counter[str] = Counter()

    @profile
    @given(frames())
    def frames_property(raw: str | bytes) -> None:
        check_frame(raw, frame_seen)

    frames_property()
    results["protocol"] = frame_seen
    for game_id in sorted(REGISTRY):
        results[game_id] = _fuzz_actions(game_id, profile)
    return results


def _fuzz_actions(game_id: str, profile: settings) -> Counter[str]:
    seen: Counter[str] = Counter()

    @profile
    @given(json_values | action_like(action_types(game_id)))
    def action_property(raw: Any) -> None:
        check_action(game_id, raw, seen)

    action_property()
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    results = run(args.examples, args.seed)
    total = 0
    for target, seen in results.items():
        count = sum(seen.values())
        total += count
        top = ", ".join(f"{k}: {v}" for k, v in seen.most_common(4))
        print(f"{target:18} {count:6d} examples, no unexpected exception  ({top})")
    print(f"total {total} examples in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
