"""Racing Hedgehogs games (docs/rules/racing-hedgehogs.md, seed 001): rounds, tie-break, views."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.core import IllegalAction, MalformedAction, Rng
from engines.racing_hedgehogs import ENGINE
from engines.racing_hedgehogs.data import COLOURS, FINISH, START, TRACK_VALUES, full_deck
from engines.racing_hedgehogs.flow import removed_count
from engines.racing_hedgehogs.model import Options, PlayCard, State
from tests.engines.invariants import canonical, play_random, replay
from tests.engines.racing_hedgehogs.build import finished_round, position


def new_game(num_players: int, seed: int = 1, **options: bool) -> State:
    """A fresh game through the public surface."""
    return ENGINE.setup(num_players, ENGINE.parse_options(options), seed).state


@pytest.mark.parametrize(("num_players", "aside", "hand"), [(3, 10, 15), (4, 3, 13), (5, 0, 11)])
def test_setup_sets_cards_aside_and_deals_the_rest_evenly(
    num_players: int, aside: int, hand: int
) -> None:
    """10 / 3 / 0 cards set aside unseen, 15 / 13 / 11 each; all 55 cards accounted for."""
    state = new_game(num_players)
    assert len(state.removed) == aside
    assert [len(h) for h in state.hands] == [hand] * num_players
    every = [c for h in state.hands for c in h] + state.removed
    assert Counter(every) == Counter(full_deck())
    assert set(state.positions.values()) == {START}
    assert state.current == state.starter
    assert ENGINE.view(state, None)["removed_count"] == aside


def test_options_default_to_basic_scoring_and_reject_unknown_keys() -> None:
    """`advanced_scoring` is off unless asked for; typos are refused."""
    assert ENGINE.parse_options({}) == Options(advanced_scoring=False)
    assert new_game(3, advanced_scoring=True).advanced_scoring is True
    with pytest.raises(MalformedAction, match="Invalid options"):
        ENGINE.parse_options({"advanced": True})


def test_player_count_outside_3_to_5_is_refused() -> None:
    """The game is for 3 to 5 players."""
    with pytest.raises(IllegalAction, match="3 to 5 players"):
        ENGINE.setup(2, Options(), 0)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_as_many_rounds_as_players_and_starters_rotate_left(num_players: int) -> None:
    """One round per player; each round starts left (clockwise) of the previous starter."""
    state, _ = play_random(ENGINE, num_players, seed=11, check_every_step=False)
    first = state.results[0].starter
    assert [r.round for r in state.results] == list(range(1, num_players + 1))
    assert [r.starter for r in state.results] == [
        (first + i) % num_players for i in range(num_players)
    ]
    # Each round ended with exactly one hedgehog on the finish, moved by the finisher.
    for r in state.results:
        assert sorted(r.positions.values())[-1] == len(TRACK_VALUES) - 1
        assert sorted(r.positions.values())[-2] < len(TRACK_VALUES) - 1
        assert [p.bonus > 0 for p in r.players].count(True) == 1


def test_advanced_random_game_uses_advanced_bonus() -> None:
    """With the variant on, the finisher's bonus is +6."""
    state, _ = play_random(
        ENGINE, 3, seed=5, options={"advanced_scoring": True}, check_every_step=False
    )
    assert {max(p.bonus for p in r.players) for r in state.results} == {6}


def game_over(rounds: list[list[int]]) -> State:
    """A finished game whose rounds scored the given points per seat."""
    n = len(rounds[0])
    return position(
        [""] * n,
        current=None,
        round_no=n,
        results=[finished_round(i + 1, pts) for i, pts in enumerate(rounds)],
    )


def test_tie_break_goes_to_more_points_in_the_last_round() -> None:
    """Seats 0 and 1 tie on 20; seat 1 scored more in the last round and wins alone."""
    state = game_over([[10, 5, 3], [6, 5, 2], [4, 10, 4]])
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == {0: 20, 1: 20, 2: 9}
    assert outcome.winners == frozenset({1})
    assert outcome.ranks == {0: 2, 1: 1, 2: 3}
    assert outcome.reason == "highest total, tie broken by last-round points"


def test_tie_on_total_and_last_round_is_a_shared_win() -> None:
    """Still tied after the tie-break: both win, both rank first."""
    state = game_over([[10, 6, 3, 0], [6, 10, 2, 0], [4, 4, 4, 0], [2, 2, 9, 1]])
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == frozenset({0, 1})
    assert outcome.ranks == {0: 1, 1: 1, 2: 3, 3: 4}
    assert outcome.reason.startswith("shared win")
    standings = ENGINE.view(state, None)["standings"]
    assert standings["winners"] == [0, 1]
    assert [row["seat"] for row in standings["table"]] == [0, 1, 2, 3]


def test_outcome_is_none_while_rounds_remain() -> None:
    """Two of three rounds played: the game goes on."""
    state = position(
        ["red+1", "red+2", "green+1"],
        round_no=3,
        results=[finished_round(1, [1, 2, 3]), finished_round(2, [3, 2, 1])],
    )
    assert ENGINE.outcome(state) is None
    assert ENGINE.to_act(state) == frozenset({0})


# ---- views and secrets ------------------------------------------------------------------------


def test_view_shows_own_hand_only_and_everyone_s_counts() -> None:
    """A seat sees its hand; others' hands only as counts; spectators see no hand at all."""
    state = new_game(4, seed=3)
    mine = ENGINE.view(state, 2)
    assert mine["hand"] == [{"suit": c.suit.value, "pluses": c.pluses} for c in state.hands[2]]
    assert mine["hand_counts"] == [13, 13, 13, 13]
    assert mine["to_act"] == state.current
    assert mine["round"] == 1 and mine["rounds"] == 4
    assert [f["value"] for f in mine["track"]] == list(TRACK_VALUES)
    assert mine["track"][0]["hedgehogs"] == [c.value for c in COLOURS]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None
    assert "removed" not in spectator and spectator["removed_count"] == 3
    # Nothing in the spectator's view depends on any hand: swap two hands and compare.
    swapped = state.model_copy(update={"hands": [state.hands[1], state.hands[0], *state.hands[2:]]})
    assert canonical(ENGINE.view(swapped, None)) == canonical(spectator)


def test_view_after_a_round_shows_each_player_s_kept_cards_and_points() -> None:
    """The finished round is public: kept cards, score lines, bonus, and the set-aside cards."""
    state = position(["violet+2 yellow+1", "yellow+2", "rainbow+1"], {"violet": 12, "yellow": 9})
    after = ENGINE.apply(state, 0, PlayCard(suit="violet", pluses=2)).state
    last = ENGINE.view(after, 1)["last_round"]
    assert last["finisher"] == 0 and last["finishing_hedgehog"] == "violet"
    assert last["positions"] == {"yellow": 9, "red": 0, "green": 0, "violet": 13}
    assert [p["kept"] for p in last["players"]] == [
        [{"suit": "yellow", "pluses": 1}],
        [{"suit": "yellow", "pluses": 2}],
        [{"suit": "rainbow", "pluses": 1}],
    ]
    assert [(p["card_points"], p["bonus"], p["points"]) for p in last["players"]] == [
        (1, 3, 4),
        (1, 0, 1),
        (0, 0, 0),
    ]
    assert last["players"][0]["lines"] == [
        {
            "kind": "cards",
            "colour": "yellow",
            "cards": ["yellow+1"],
            "value": 1,
            "multiplier": 1,
            "points": 1,
        }
    ]


def test_determinize_redeals_only_what_the_seat_cannot_see() -> None:
    """Own hand and every count stay; others' hands and the set-aside cards are re-dealt."""
    state = new_game(3, seed=8)
    rng = Rng.from_seed(4)
    changed = False
    for _ in range(5):
        other = ENGINE.determinize(state, 1, rng)
        assert other.hands[1] == state.hands[1]
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        assert len(other.removed) == len(state.removed)
        pooled = Counter(c for s in (0, 2) for c in other.hands[s]) + Counter(other.removed)
        assert pooled == Counter(c for s in (0, 2) for c in state.hands[s]) + Counter(state.removed)
        assert canonical(ENGINE.view(other, 1)) == canonical(ENGINE.view(state, 1))
        changed |= other.hands[0] != state.hands[0]
        assert other.rng != state.rng  # future deals are not known either
    assert changed


def test_state_round_trips_through_json_mid_game() -> None:
    """Dumped and loaded, a state in the middle of a later round equals the original."""
    final, history = play_random(ENGINE, 4, seed=2, check_every_step=False)
    state = replay(ENGINE, 4, 2, None, history[: len(history) // 2])
    assert state.round >= 2 and state.results and state.plays
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    assert ENGINE.load(ENGINE.dump(final)) == final


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_no_hand_runs_dry_before_a_hedgehog_finishes(num_players: int) -> None:
    """Even with the biggest cards set aside, the deal carries more pluses than the 48 fields
    the four hedgehogs can take without one of them finishing."""
    pluses = sorted(c.pluses for c in full_deck())
    worst_deal = pluses[: len(pluses) - removed_count(num_players)]
    assert sum(worst_deal) > len(COLOURS) * (FINISH - 1)
