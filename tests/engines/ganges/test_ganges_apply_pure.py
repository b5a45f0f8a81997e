"""Ganges' `apply` never changes a state it was given, nor any earlier state of the game: it
copies only the acting player, and the next one when its turn begins with the elephant
(`state.copy_for_apply`, `state.own_player`), so the other players, the die values, the RNG,
the deck and the track history are shared between consecutive states."""

from __future__ import annotations

import pytest

from engines.core import Rng
from engines.ganges import ENGINE
from engines.ganges.state import State
from tests.engines.invariants import canonical


@pytest.mark.parametrize(
    ("players", "night", "seed"),
    [(2, False, 38), (3, False, 32), (4, False, 33), (2, True, 34), (4, True, 35)],
)
def test_apply_leaves_every_earlier_state_unchanged(players: int, night: bool, seed: int) -> None:
    """Over whole random games, every state's dump is the same at the end as when it was
    made, and every step leaves its input as it was."""
    state = ENGINE.setup(players, ENGINE.parse_options({"night_side_up": night}), seed).state
    rng = Rng.from_seed(seed)
    states: list[State] = [state]
    dumps = [canonical(ENGINE.dump(state))]
    reshuffles = 0
    while ENGINE.outcome(state) is None:
        seat = min(ENGINE.to_act(state))
        options = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, options[rng.randbelow(len(options))]).state
        assert canonical(ENGINE.dump(states[-1])) == dumps[-1], "apply changed its input"
        reshuffles += state.rng.state != states[-1].rng.state
        states.append(state)
        dumps.append(canonical(ENGINE.dump(state)))
    assert [canonical(ENGINE.dump(s)) for s in states] == dumps
    assert reshuffles, "the game should reshuffle the discard pile at least once"
    assert len(state.track_history) > 1
