"""Karmaka's `apply` checks a card play or a pass without listing every legal action: the
check must accept and refuse exactly what the legal actions list does, and the turn check must
refuse as the shared one does (GameOver when over, NotYourTurn for any other seat)."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import Engine, GameOver, NotYourTurn, Rng, copy_state
from engines.karmaka import ENGINE
from engines.karmaka.cards import NUM_CARDS
from engines.karmaka.model import Pass, Play, State, copy_game
from tests.engines.invariants import _mutable_parts

WAYS = ("deed", "ability", "future", "partner")


def game(players: int, mode: str, seed: int) -> list[State]:
    """Every state of one seeded random game."""
    state = ENGINE.setup(players, ENGINE.parse_options({"mode": mode}), seed).state
    rng = Rng.from_seed(seed)
    states = [state]
    while ENGINE.outcome(state) is None:
        seat = min(ENGINE.to_act(state))
        options = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, options[rng.randbelow(len(options))]).state
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("players", "mode", "seed"),
    [(2, "free_for_all", 1), (3, "big_bad_wolf_2v1", 2), (4, "teams_2v2", 3)],
)
def test_the_quick_check_agrees_with_the_legal_actions(players: int, mode: str, seed: int) -> None:
    """Every card in every way, and a pass, for every seat at every 7th position."""
    candidates: list[Any] = [Pass()] + [Play(card=c, way=w) for c in range(NUM_CARDS) for w in WAYS]
    for state in game(players, mode, seed)[::7]:
        for seat in range(players):
            legal = ENGINE.legal_actions(state, seat)
            for action in candidates:
                assert ENGINE.is_legal(state, seat, action) == (action in legal)


def test_the_turn_check_refuses_as_the_shared_one() -> None:
    """Another seat is told it is not its turn; after the end everybody is told it is over."""
    states = game(3, "free_for_all", 4)
    state = states[len(states) // 2]
    (seat,) = ENGINE.to_act(state)
    ENGINE.check_turn(state, seat)
    for other in set(range(3)) - {seat}:
        with pytest.raises(NotYourTurn):
            ENGINE.check_turn(state, other)
        with pytest.raises(NotYourTurn):
            Engine.check_turn(ENGINE, state, other)
    for anyone in range(3):
        with pytest.raises(GameOver):
            ENGINE.check_turn(states[-1], anyone)


def test_the_game_copy_is_an_equal_independent_deep_copy() -> None:
    """`copy_game` (what `apply` copies with) gives what `copy_state` gives: an equal state,
    the same fields set, and no list, dict or mutable model shared with the original."""
    for state in game(4, "teams_2v2", 5) + game(3, "free_for_all", 6):
        copy = copy_game(state)
        assert copy == state == copy_state(state)
        assert copy.model_fields_set == state.model_fields_set
        for new, old in zip(copy.players, state.players, strict=True):
            assert new.model_fields_set == old.model_fields_set
        original: dict[int, str] = {}
        copied: dict[int, str] = {}
        _mutable_parts(state, original, "state")
        _mutable_parts(copy, copied, "state")
        assert not set(original) & set(copied)
