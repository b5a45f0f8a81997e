"""A bot's step in Incan Gold: `random_action` draws as `legal_actions(...)[rng.randbelow(n)]`
does, `play` makes no events but reaches the state `apply` does, and `information_key` (the hard
bot's tree key) parts states exactly as the seat's view does. Else the bots would choose other
moves than before these shortcuts."""

from __future__ import annotations

import pytest

from engines.core import GameError, Rng
from engines.incan_gold import ENGINE
from tests.engines.playout import KeyCheck, play_matches_apply


def test_random_action_is_the_listed_action_drawn() -> None:
    checked = 0
    for seed in range(8):
        state = ENGINE.setup(3 + seed % 4, ENGINE.parse_options({}), seed).state
        ours, theirs = Rng.from_seed(seed), Rng.from_seed(seed)
        while ENGINE.outcome(state) is None:
            for seat in range(state.num_players):
                options = ENGINE.legal_actions(state, seat)
                if not options:
                    with pytest.raises(ValueError):
                        ENGINE.random_action(state, seat, ours)
                    continue
                listed = options[theirs.randbelow(len(options))]
                assert ENGINE.random_action(state, seat, ours) == listed
                assert ours.state == theirs.state
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, ours)).state
            theirs.randbelow(2)
            checked += 1
    assert checked > 300


def test_play_reaches_the_state_apply_does() -> None:
    steps = 0
    for seed in range(8):
        options = ENGINE.parse_options({"artifacts": seed % 2 == 0})
        state = ENGINE.setup(3 + seed % 6, options, seed).state
        steps += play_matches_apply(ENGINE, state, Rng.from_seed(seed + 100))
    assert steps > 300


def test_play_refuses_what_apply_refuses() -> None:
    state = ENGINE.setup(3, ENGINE.parse_options({}), 1).state
    seat = min(ENGINE.to_act(state))
    state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0]).state
    with pytest.raises(GameError):
        ENGINE.play(state, seat, ENGINE.legal_actions(state, (seat + 1) % 3)[0])


def test_the_key_parts_states_as_the_view_does() -> None:
    check = KeyCheck(ENGINE, Rng.from_seed(5))
    for seed in range(6):
        options = ENGINE.parse_options({"artifacts": seed % 3 != 2})
        state = ENGINE.setup(3 + seed % 3, options, seed).state
        while True:
            for looker in range(state.num_players):
                check.look(state, looker, worlds=3)
            if ENGINE.outcome(state) is not None:
                break
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, check.rng)).state
    check.assert_parts_as_view(300)
