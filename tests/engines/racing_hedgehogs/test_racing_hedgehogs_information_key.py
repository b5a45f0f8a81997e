"""Racing Hedgehogs' `information_key` (the hard bot's tree key) must part states exactly as
the seat's view does: worlds the seat cannot tell apart share a key, and any difference the
view shows gives another key (else the bots would search another tree and choose other
moves)."""

from __future__ import annotations

from engines.core import Rng
from engines.racing_hedgehogs import ENGINE
from tests.engines.playout import KeyCheck


def test_the_key_parts_states_as_the_view_does() -> None:
    check = KeyCheck(ENGINE, Rng.from_seed(5))
    for seed in range(4):
        options = ENGINE.parse_options({"advanced_scoring": seed % 2 == 1})
        state = ENGINE.setup(3 + seed % 3, options, seed).state
        step = 0
        while True:
            if step % 3 == 0 or ENGINE.outcome(state) is not None:
                for looker in range(state.num_players):
                    # 12 steps on: rounds ended in worlds the looker cannot tell apart, whose
                    # kept and set-aside cards differ, and so must the keys.
                    check.look(state, looker, worlds=2, steps=12)
            if ENGINE.outcome(state) is not None:
                break
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, check.rng)).state
            step += 1
    check.assert_parts_as_view(300)
