"""Ganges' `information_key` (the hard bot's tree key) must part states exactly as the seat's
view does: worlds the seat cannot tell apart share a key, and any difference the view shows
gives another key (else the bots would search another tree and choose other moves)."""

from __future__ import annotations

from engines.core import Rng
from engines.ganges import ENGINE
from tests.engines.playout import KeyCheck


def test_the_key_parts_states_as_the_view_does() -> None:
    check = KeyCheck(ENGINE, Rng.from_seed(5))
    for seed in range(4):
        state = ENGINE.setup(
            2 + seed % 3, ENGINE.parse_options({"night_side_up": seed == 1}), seed
        ).state
        step = 0
        while ENGINE.outcome(state) is None:
            seat = min(ENGINE.to_act(state))
            if step % 3 == 0:
                for looker in range(state.num_players):
                    check.look(state, looker, worlds=2, steps=2)
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, check.rng)).state
            step += 1
    check.assert_parts_as_view(300)
