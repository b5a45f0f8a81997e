"""Stored forms never change by accident: the exact JSON text (key order included) of every
state, action and event of seeded random games, per engine, hashes to a recorded digest.

The golden playthroughs compare views with sorted keys; stored games and exports keep
`dump`/`dump_action`/`Event.to_json` as they are, so a refactoring that reorders a model's
fields or renames a tag fails here. Change a digest only with a rules change that also bumps
`spec.rules_version`.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from engines import REGISTRY
from engines.core import GameError, Rng

MAX_STEPS = 2000
SEEDS = (1, 2, 3)
VARIANTS: dict[str, list[dict[str, object]]] = {
    "dreadful_circus": [{"draft": True}],
    "karmaka": [{"mode": "teams_2v2"}, {"mode": "big_bad_wolf_2v1"}],
}
"""Options besides the defaults that change what a game stores."""

DIGESTS = {
    "dreadful_circus": "617db084a63a94d6336223195b3981f5146435461219daa58561c2271a45560e",
    "ganges": "b522e4515836a6b4c14cbfeeb081ac4eb6a3da26fc45d236ee4a182113286489",
    "incan_gold": "42b84f27dc908bb163e7a5d3c0941366fa87484f134e7ed16cd99ea380b40e09",
    "karmaka": "4c4e447f4f986925859e79b287189b31e4f815921d6c3d3447a895e11bd5b769",
    "racing_hedgehogs": "e31e15cbd3a052b485700734b644e964f63577b62513436f141b6a618e4d3571",
}
"""sha256 of each engine's stored forms, recorded before the engines' refactorings."""


def stored_forms_digest(game_id: str) -> str:
    """The digest of the stored forms of seeded random games: a few per player count with the
    default options, and one per listed variant at every player count it allows."""
    engine = REGISTRY[game_id]
    digest = hashlib.sha256()

    def add(data: object) -> None:
        digest.update(json.dumps(data).encode())
        digest.update(b"\n")

    counts = range(engine.spec.min_players, engine.spec.max_players + 1)
    games: list[tuple[int, dict[str, object], int]] = [(n, {}, s) for n in counts for s in SEEDS]
    games += [(n, options, 1) for options in VARIANTS.get(game_id, []) for n in counts]
    for num_players, options, seed in games:
        try:
            opts = engine.parse_options(options)
            step = engine.setup(num_players, opts, 1000 * seed + num_players)
        except GameError:
            continue  # a variant this player count does not allow
        rng = Rng.from_seed(seed * 10 + num_players)
        add([e.to_json() for e in step.events])
        state = step.state
        for _ in range(MAX_STEPS):
            dumped = engine.dump(state)
            add(dumped)
            assert engine.dump(engine.load(dumped)) == dumped
            acting = sorted(engine.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            action = rng.choice(engine.legal_actions(state, seat))
            add(engine.dump_action(action))
            step = engine.apply(state, seat, action)
            add([e.to_json() for e in step.events])
            state = step.state
    return digest.hexdigest()


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_stored_forms_are_unchanged(game_id: str) -> None:
    """States, actions and events dump to exactly the recorded JSON text."""
    assert stored_forms_digest(game_id) == DIGESTS[game_id]
