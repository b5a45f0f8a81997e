"""Racing Hedgehogs scoring (docs/rules/racing-hedgehogs.md, seed 001): examples, pairs, floor."""

from __future__ import annotations

import pytest

from engines.racing_hedgehogs import ENGINE
from engines.racing_hedgehogs.data import FINISH, Colour
from engines.racing_hedgehogs.flow import score_advanced, score_basic, score_player
from engines.racing_hedgehogs.model import PlayCard
from tests.engines.racing_hedgehogs.build import cards, finished_round, position

# The seed's scoring pictures: violet reached the finish (3), yellow stands on a 2, red on a 0,
# green on a −1.
EXAMPLE_FIELDS = {"violet": 12, "yellow": 11, "red": 7, "green": 4}


def test_seed_example_basic_scoring_ala_scores_11() -> None:
    """Seed, "Przykład podliczenia punktów": 3 + 6 + 0 − 1 + joker = 8, +3 for finishing = 11."""
    state = position(
        [
            "violet+1 violet+2 yellow+1 yellow+2 yellow+1 red+2 green+1 rainbow+2",
            "red+1",
            "green+2",
        ],
        EXAMPLE_FIELDS,
    )
    step = ENGINE.apply(state, 0, PlayCard(suit="violet", pluses=1))
    ala = step.state.results[0].players[0]

    assert step.state.results[0].positions[Colour.VIOLET] == FINISH
    assert [(line.value, line.multiplier, line.points) for line in ala.lines] == [
        (2, 3, 6),  # yellow: 3 cards × 2
        (0, 1, 0),  # red
        (-1, 1, -1),  # green
        (3, 1, 3),  # violet, on the finish
        (0, 0, 0),  # the joker
    ]
    assert ala.card_points == 8
    assert ala.bonus == 3
    assert ala.points == 11
    assert step.state.results[0].finisher == 0


def test_seed_example_advanced_scoring_ala_scores_19() -> None:
    """Seed, advanced variant: 6 + 10 + 2 − 5 + joker = 13, +6 for finishing = 19."""
    state = position(
        [
            # violet+1 is played; violet+2 kept (3×2); three yellow one-plus cards on a 2 make a
            # pair (2×5) and a single (2×1); two green one-plus cards on a −1 make a pair (−1×5).
            "violet+1 violet+2 yellow+1 yellow+1 yellow+1 green+1 green+1 rainbow+1",
            "red+1",
            "green+2",
        ],
        EXAMPLE_FIELDS,
        advanced=True,
    )
    step = ENGINE.apply(state, 0, PlayCard(suit="violet", pluses=1))
    ala = step.state.results[0].players[0]

    assert sorted(line.points for line in ala.lines) == sorted([6, 10, 2, -5, 0])
    assert ala.card_points == 13
    assert ala.bonus == 6
    assert ala.points == 19


@pytest.mark.parametrize(
    ("ones", "pairs", "singles"),
    [(1, 0, 1), (2, 1, 0), (3, 1, 1), (4, 2, 0), (5, 2, 1), (6, 3, 0)],
)
def test_advanced_pairs_with_odd_and_even_counts(ones: int, pairs: int, singles: int) -> None:
    """Every two one-plus cards of a colour pair up (×5); an odd one left over scores ×1."""
    positions = {c: 11 for c in Colour}  # value 2 everywhere
    hand = cards(" ".join(["red+1"] * ones + ["red+2"]))
    lines = score_advanced(hand, positions)
    kinds = [line.kind for line in lines]
    assert kinds.count("pair") == pairs
    assert kinds.count("single") == singles
    assert kinds.count("two_plus") == 1
    assert sum(line.points for line in lines) == 2 * (5 * pairs + singles + 2)


def test_advanced_pairs_never_cross_colours() -> None:
    """A yellow and a red one-plus card are two singles, not a pair."""
    positions = {c: 12 for c in Colour}
    lines = score_advanced(cards("yellow+1 red+1"), positions)
    assert [line.kind for line in lines] == ["single", "single"]
    assert sum(line.points for line in lines) == 4


def test_basic_scoring_ignores_pluses_and_jokers() -> None:
    """Basic scoring: one-plus and two-plus cards both score the field value; jokers 0."""
    positions = {Colour.YELLOW: 9, Colour.RED: 0, Colour.GREEN: 13, Colour.VIOLET: 8}
    lines = score_basic(cards("yellow+1 yellow+2 green+2 rainbow+1 rainbow+2"), positions)
    assert sum(line.points for line in lines) == 1 + 1 + 3
    assert lines[-1].kind == "joker" and len(lines[-1].cards) == 2


def test_negative_round_total_counts_as_zero() -> None:
    """Cards on −1 fields give a negative total; the round scores 0, the total is kept for show."""
    positions = dict.fromkeys(Colour, 2)
    score = score_player(cards("yellow+1 red+2 green+1"), positions, False, False)
    assert score.total == -3
    assert score.points == 0


def test_floor_at_zero_does_not_reduce_earlier_rounds() -> None:
    """A negative second round scores 0 and leaves the first round's points intact."""
    state = position(
        ["violet+2", "yellow+1 yellow+2 red+1 green+2", "violet+1"],
        {"violet": 11},
        round_no=2,
        results=[finished_round(1, [5, 7, 2])],
    )
    # Seat 0 finishes round 2 (+3); seat 1 holds four cards on −1 fields: −4, floored to 0;
    # seat 2 keeps violet+1 with violet on the finish: 3.
    after = ENGINE.apply(state, 0, PlayCard(suit="violet", pluses=2)).state
    seat1 = after.results[1].players[1]
    assert seat1.total == -4
    assert seat1.points == 0
    assert ENGINE.view(after, None)["scores"] == {
        "rounds": [[5, 7, 2], [3, 0, 3]],
        "totals": [8, 7, 5],
    }


def test_finisher_bonus_only_for_the_player_who_finished() -> None:
    """The +3 goes to the player who moved the hedgehog home, even with a joker."""
    state = position(["rainbow+2", "green+1", "red+1"], {"red": 11}, current=0)
    after = ENGINE.apply(state, 0, PlayCard(suit="rainbow", pluses=2, hedgehog="red")).state
    result = after.results[0]
    assert result.finisher == 0
    assert result.finishing_hedgehog is Colour.RED
    assert [p.bonus for p in result.players] == [3, 0, 0]
    # Seat 2 keeps red+1 with red on the finish: 3 points; seat 1 keeps green+1 on −1: 0.
    assert [p.points for p in result.players] == [3, 0, 3]
