"""A bot playout's step in Racing Hedgehogs: `random_action` builds only the action drawn and
`play` makes no events. They must draw from the generator exactly as
`legal_actions(...)[rng.randbelow(n)]` does, return the same action and reach the same state
as `apply`, or the bots would choose other moves."""

from __future__ import annotations

import pytest

from engines.core import GameError, Rng
from engines.racing_hedgehogs import ENGINE
from engines.racing_hedgehogs.data import Colour, Suit
from engines.racing_hedgehogs.model import PlayCard
from tests.engines.playout import play_matches_apply


def test_random_action_is_the_listed_action_drawn() -> None:
    checked = 0
    for seed in range(6):
        state = ENGINE.setup(3 + seed % 3, ENGINE.parse_options({}), seed).state
        ours, theirs = Rng.from_seed(seed), Rng.from_seed(seed)
        while ENGINE.outcome(state) is None:
            seat = min(ENGINE.to_act(state))
            options = ENGINE.legal_actions(state, seat)
            listed = options[theirs.randbelow(len(options))]
            drawn = ENGINE.random_action(state, seat, ours)
            assert drawn == listed
            assert ENGINE.dump_action(drawn) == ENGINE.dump_action(listed)
            assert ENGINE.action_text(drawn) == f"play {drawn.card.text}" + (
                f" {drawn.hedgehog.value}" if drawn.hedgehog else ""
            )
            assert ours.state == theirs.state
            state = ENGINE.apply(state, seat, drawn).state
            checked += 1
    assert checked > 500


def test_play_reaches_the_state_apply_does() -> None:
    checked = 0
    for seed in range(6):
        options = ENGINE.parse_options({"advanced_scoring": seed % 2 == 1})
        state = ENGINE.setup(3 + seed % 3, options, seed).state
        checked += play_matches_apply(ENGINE, state, Rng.from_seed(seed + 100))
    assert checked > 500


def test_play_refuses_what_apply_refuses() -> None:
    state = ENGINE.setup(3, ENGINE.parse_options({}), 1).state
    seat = min(ENGINE.to_act(state))
    held = {(c.suit, c.pluses) for c in state.hands[seat]}
    missing = next(
        (s, p) for s in Suit for p in (1, 2) if (s, p) not in held and s is not Suit.RAINBOW
    )
    wrong = [
        PlayCard(suit=missing[0], pluses=missing[1]),
        PlayCard(suit=Suit.RAINBOW, pluses=1),
        PlayCard(suit=Suit.YELLOW, pluses=1, hedgehog=Colour.RED),
    ]
    for action in wrong:
        with pytest.raises(GameError):
            ENGINE.apply(state, seat, action)
        with pytest.raises(GameError):
            ENGINE.play(state, seat, action)
    other = (seat + 1) % 3
    action = ENGINE.legal_actions(state, seat)[0]
    with pytest.raises(GameError):
        ENGINE.play(state, other, action)
