"""Racing Hedgehogs turns (docs/rules/racing-hedgehogs.md, seed 001): moves, jokers, round end."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import GameError, GameOver, IllegalAction, MalformedAction, NotYourTurn
from engines.racing_hedgehogs import ENGINE
from engines.racing_hedgehogs.data import FINISH, START, Colour
from engines.racing_hedgehogs.model import PlayCard, State
from tests.engines.invariants import canonical
from tests.engines.racing_hedgehogs.build import cards, finished_round, position


def three_players() -> State:
    """Seat 0 on turn with a mixed hand; nothing near the finish."""
    return position(
        ["yellow+1 yellow+2 rainbow+1 violet+2", "red+1 red+2", "green+1 green+2"],
        {"yellow": 3, "red": 5},
    )


def test_coloured_card_moves_its_own_hedgehog_by_its_pluses() -> None:
    """A yellow two-plus card moves the yellow hedgehog two fields; play passes clockwise."""
    step = ENGINE.apply(three_players(), 0, PlayCard(suit="yellow", pluses=2))
    assert step.state.positions[Colour.YELLOW] == 5
    assert step.state.positions[Colour.RED] == 5  # untouched
    assert step.state.hands[0] == cards("yellow+1 violet+2 rainbow+1")
    assert step.state.current == 1
    assert [e.text for e in step.events] == [
        "{p0} plays yellow+2 and moves the yellow hedgehog to field 5."
    ]


def test_joker_moves_the_hedgehog_the_player_names() -> None:
    """A rainbow card moves whichever hedgehog the player names."""
    step = ENGINE.apply(three_players(), 0, PlayCard(suit="rainbow", pluses=1, hedgehog="red"))
    assert step.state.positions[Colour.RED] == 6
    assert step.state.plays[-1].hedgehog is Colour.RED
    assert ENGINE.view(step.state, None)["last_played"] == {
        "seat": 0,
        "card": {"suit": "rainbow", "pluses": 1},
        "hedgehog": "red",
        "moved_from": 5,
        "moved_to": 6,
    }


def test_legal_actions_list_each_card_once_and_a_joker_per_hedgehog() -> None:
    """Identical cards are one action; a joker offers all four hedgehogs."""
    state = position(["yellow+1 yellow+1 rainbow+2", "red+1", "green+1"])
    texts = [ENGINE.action_text(a) for a in ENGINE.legal_actions(state, 0)]
    assert texts == [
        "play yellow+1",
        "play rainbow+2 yellow",
        "play rainbow+2 red",
        "play rainbow+2 green",
        "play rainbow+2 violet",
    ]
    assert ENGINE.legal_actions(state, 1) == []


def test_finish_reached_by_a_two_step_move_from_12() -> None:
    """A two-plus card from field 12 stops on the finish (13) and ends the round at once."""
    state = position(["green+2 yellow+1", "red+1 red+2", "violet+1"], {"green": 12}, starter=0)
    step = ENGINE.apply(state, 0, PlayCard(suit="green", pluses=2))
    result = step.state.results[0]
    assert result.positions[Colour.GREEN] == FINISH == 13
    assert result.finisher == 0
    assert result.players[0].kept == cards("yellow+1")
    # The next round is dealt straight away, started by the player left of the last starter.
    assert step.state.round == 2
    assert step.state.starter == 1
    assert step.state.current == 1
    assert set(step.state.positions.values()) == {START}
    assert [len(h) for h in step.state.hands] == [15, 15, 15]
    assert len(step.state.removed) == 10
    texts = [e.text for e in step.events]
    assert texts[0] == "{p0} plays green+2 and moves the green hedgehog onto the finish."
    assert texts[1] == "Round 1 ends: {p0} brought the green hedgehog home (+3)."
    assert texts[-3:] == [
        "Round 2 of 3 begins: 15 cards each.",
        "10 cards are set aside unseen.",
        "{p1} starts.",
    ]


def test_joker_two_step_from_12_also_stops_on_the_finish() -> None:
    """The cap applies to jokers too."""
    state = position(["rainbow+2 red+1", "red+2", "violet+1"], {"yellow": 12})
    step = ENGINE.apply(state, 0, PlayCard(suit="rainbow", pluses=2, hedgehog="yellow"))
    assert step.state.results[0].positions[Colour.YELLOW] == FINISH


def test_last_round_ends_the_game_and_clears_the_secrets() -> None:
    """After as many rounds as players nobody acts and no hand or set-aside card remains."""
    state = position(
        ["violet+1 red+1", "red+2", "green+1"],
        {"violet": 12},
        round_no=3,
        starter=2,
        results=[finished_round(1, [4, 4, 4]), finished_round(2, [1, 2, 3])],
    )
    step = ENGINE.apply(state, 0, PlayCard(suit="violet", pluses=1))
    assert ENGINE.to_act(step.state) == frozenset()
    assert step.state.hands == [[], [], []]
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    # Round 3: seat 0 finishes (+3) but keeps red+1 on a −1 field: 2. Seat 1's red+2: −1 → 0.
    # Seat 2's green+1: −1 → 0. Seats 0 and 2 tie on 7; seat 0 scored more in the last round.
    assert outcome.scores == {0: 4 + 1 + 2, 1: 4 + 2 + 0, 2: 4 + 3 + 0}
    assert outcome.winners == frozenset({0})
    assert outcome.ranks == {0: 1, 1: 3, 2: 2}
    assert step.events[-1].text == (
        "Game over: {p0} wins with 7 points (highest total, tie broken by last-round points)."
    )
    with pytest.raises(GameOver):
        ENGINE.apply(step.state, 1, PlayCard(suit="red", pluses=2))


# ---- refusals: the right error, and nothing changes ---------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "error", "message"),
    [
        (1, {"type": "play", "suit": "red", "pluses": 1}, NotYourTurn, "not your turn"),
        (0, {"type": "play", "suit": "green", "pluses": 1}, IllegalAction, "do not hold"),
        (
            0,
            {"type": "play", "suit": "yellow", "pluses": 1, "hedgehog": "red"},
            IllegalAction,
            "only a rainbow joker",
        ),
        (0, {"type": "play", "suit": "rainbow", "pluses": 1}, IllegalAction, "name the hedgehog"),
        (
            0,
            {"type": "play", "suit": "rainbow", "pluses": 2, "hedgehog": "red"},
            IllegalAction,
            "do not hold",
        ),
    ],
    ids=[
        "wrong_seat",
        "card_not_in_hand",
        "coloured_card_names_other",
        "joker_without_hedgehog",
        "joker_not_in_hand",
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(
    seat: int, action: dict[str, Any], error: type[GameError], message: str
) -> None:
    """Each refusal raises its own error type, names the rule, and leaves the state alone."""
    state = three_players()
    before = canonical(ENGINE.dump(state))
    with pytest.raises(error, match=message):
        ENGINE.apply(state, seat, ENGINE.parse_action(action))
    assert canonical(ENGINE.dump(state)) == before


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "pass"},
        {"type": "play", "suit": "blue", "pluses": 1},
        {"type": "play", "suit": "red", "pluses": 3},
        {"type": "play", "suit": "rainbow", "pluses": 1, "hedgehog": "rainbow"},
        {"suit": "red", "pluses": 1},
    ],
)
def test_malformed_actions_are_refused_at_parse_time(raw: dict[str, Any]) -> None:
    """Unknown types, suits, hedgehogs and plus counts never reach the rules."""
    with pytest.raises(MalformedAction):
        ENGINE.parse_action(raw)


def test_coloured_card_may_name_its_own_hedgehog() -> None:
    """Naming a coloured card's own hedgehog is redundant, not wrong."""
    step = ENGINE.apply(three_players(), 0, PlayCard(suit="violet", pluses=2, hedgehog="violet"))
    assert step.state.positions[Colour.VIOLET] == 2
