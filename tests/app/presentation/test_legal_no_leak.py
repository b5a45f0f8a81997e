"""The `legal` field of a JSON state (`?legal=1`, the bot API) is the seat's legal actions:
they must tell the seat nothing it may not see. Along seeded random games of every shipped
engine, a seat's legal actions are the same in any state `determinize` can deal it (what the
seat cannot see re-dealt)."""

from __future__ import annotations

import random

import pytest

from engines import SHIPPED
from engines.core import Engine, Rng

ENGINES = {e.spec.id: e for e in SHIPPED}


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_legal_actions_depend_only_on_what_the_seat_sees(game_id: str) -> None:
    engine: Engine = ENGINES[game_id]  # type: ignore[type-arg]
    checked = 0
    for players in range(engine.spec.min_players, min(engine.spec.max_players, 4) + 1):
        for seed in range(2):
            state = engine.setup(players, engine.parse_options({}), seed).state
            moves = random.Random(seed)
            for step in range(300):
                if engine.outcome(state) is not None:
                    break
                for seat in sorted(engine.to_act(state)):
                    legal = [engine.dump_action(a) for a in engine.legal_actions(state, seat)]
                    dealt = engine.determinize(state, seat, Rng.from_seed(seed * 7919 + step))
                    again = [engine.dump_action(a) for a in engine.legal_actions(dealt, seat)]
                    assert legal == again, (players, seed, step, seat)
                    checked += 1
                seat = moves.choice(sorted(engine.to_act(state)))
                state = engine.apply(
                    state, seat, moves.choice(engine.legal_actions(state, seat))
                ).state
    assert checked > 100
