"""A bot's step in Dreadful Circus: `random_action` draws as `legal_actions(...)[rng.randbelow(n)]`
does, `play` makes no events but reaches the state `apply` does, and `information_key` (the hard
bot's tree key) parts states exactly as the seat's view does. Else the bots would choose other
moves than before these shortcuts."""

from __future__ import annotations

import pytest

from engines.core import GameError, Rng
from engines.dreadful_circus import ENGINE
from tests.engines.playout import KeyCheck, play_matches_apply


def test_random_action_is_the_listed_action_drawn() -> None:
    checked = bids = 0
    for seed in range(6):
        options = ENGINE.parse_options({"draft": seed % 3 == 1})
        state = ENGINE.setup(4 + seed % 5, options, seed).state
        ours, theirs, mover_rng = Rng.from_seed(seed), Rng.from_seed(seed), Rng.from_seed(seed + 9)
        while ENGINE.outcome(state) is None:
            for seat in range(state.num_players):
                listed_options = ENGINE.legal_actions(state, seat)
                if not listed_options:
                    with pytest.raises(ValueError):
                        ENGINE.random_action(state, seat, ours)
                    assert ours.state == theirs.state
                    continue
                listed = listed_options[theirs.randbelow(len(listed_options))]
                assert ENGINE.random_action(state, seat, ours) == listed
                assert ours.state == theirs.state
                checked += 1
                bids += state.phase == "bid"
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, mover_rng)).state
    assert checked > 1000
    assert bids > 200


def test_play_reaches_the_state_apply_does() -> None:
    steps = 0
    for seed in range(8):
        options = ENGINE.parse_options({"draft": seed % 2 == 0})
        state = ENGINE.setup(4 + seed % 5, options, seed).state
        steps += play_matches_apply(ENGINE, state, Rng.from_seed(seed + 100))
    assert steps > 800


def test_play_refuses_what_apply_refuses() -> None:
    state = ENGINE.setup(4, ENGINE.parse_options({}), 1).state
    seat = min(ENGINE.to_act(state))
    state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0]).state
    with pytest.raises(GameError):
        ENGINE.play(state, seat, ENGINE.legal_actions(state, (seat + 1) % 4)[0])


def test_the_key_parts_states_as_the_view_does() -> None:
    check = KeyCheck(ENGINE, Rng.from_seed(5))
    for seed in range(5):
        options = ENGINE.parse_options({"draft": seed % 3 == 2})
        state = ENGINE.setup(4 + seed % 4, options, seed).state
        step = 0
        while True:
            if step % 2 == 0 or ENGINE.outcome(state) is not None:
                for looker in range(state.num_players):
                    check.look(state, looker, worlds=2)
            if ENGINE.outcome(state) is not None:
                break
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, check.rng)).state
            step += 1
    check.assert_parts_as_view(1000)
