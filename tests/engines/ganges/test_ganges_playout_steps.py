"""A bot playout's step: `random_action` builds one main action alone and `play` makes no
events. They must draw from the generator exactly as `legal_actions(...)[rng.randbelow(n)]`
does, return the same action and reach the same state as `apply`, or the bots would choose
other moves."""

from __future__ import annotations

from engines.core import Rng
from engines.ganges import ENGINE
from tests.engines.playout import play_matches_apply


def test_random_action_is_the_listed_action_drawn() -> None:
    checked = 0
    for seed in range(6):
        state = ENGINE.setup(2 + seed % 3, ENGINE.parse_options({}), seed).state
        ours, theirs = Rng.from_seed(seed), Rng.from_seed(seed)
        while ENGINE.outcome(state) is None:
            seat = min(ENGINE.to_act(state))
            options = ENGINE.legal_actions(state, seat)
            listed = options[theirs.randbelow(len(options))]
            drawn = ENGINE.random_action(state, seat, ours)
            assert drawn == listed
            assert ENGINE.dump_action(drawn) == ENGINE.dump_action(listed)
            assert ours.state == theirs.state
            state = ENGINE.apply(state, seat, drawn).state
            checked += 1
    assert checked > 500


def test_play_reaches_the_state_apply_does() -> None:
    checked = 0
    for seed in range(6):
        state = ENGINE.setup(
            2 + seed % 3, ENGINE.parse_options({"night_side_up": seed % 2}), seed
        ).state
        checked += play_matches_apply(ENGINE, state, Rng.from_seed(seed + 100))
    assert checked > 500
