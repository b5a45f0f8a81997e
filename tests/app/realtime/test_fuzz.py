"""Property-based fuzzing of what the server parses from strangers (issue 16): the protocol
parser and every engine's `parse_action` give a result or a typed refusal for any JSON — a
small profile here; `python -m bench.fuzz` runs 10,000 examples per target and prints them."""

from __future__ import annotations

from bench.fuzz import run
from engines import REGISTRY


def test_fuzz_small_profile() -> None:
    results = run(examples=300)
    assert set(results) == {"protocol", *REGISTRY}
    for target, seen in results.items():
        assert sum(seen.values()) >= 250, (target, seen)
    # Both outcomes are reached: the generator is not stuck on one side.
    assert any(k.startswith("parsed") for k in results["protocol"])
    assert any(k.startswith("refused") for k in results["protocol"])
    for game_id in REGISTRY:
        assert any("refused" in k for k in results[game_id]), results[game_id]
