"""Games nights' scoring (app/nights/points.py): points per place scaled by the number of
players, ties sharing the places they span, the standings and the podium."""

from __future__ import annotations

import pytest

from app.nights.points import Result, place_points, podium, standings


def test_points_spread_from_ten_to_zero_whatever_the_player_count() -> None:
    """The winner gets 10, the last 0, the places between evenly apart."""
    assert place_points({0: 1, 1: 2}) == {0: 10.0, 1: 0.0}
    assert place_points({0: 2, 1: 1, 2: 3}) == {0: 5.0, 1: 10.0, 2: 0.0}
    five = place_points({s: s + 1 for s in range(5)})
    assert five == {0: 10.0, 1: 7.5, 2: 5.0, 3: 2.5, 4: 0.0}


def test_tied_seats_share_the_places_they_span() -> None:
    """Two tied for first of four stand at places 1 and 2: 8.33 each; a game's points always
    add up to 5 × n."""
    tied = place_points({0: 1, 1: 1, 2: 3, 3: 4})
    assert tied[0] == tied[1] == pytest.approx(25 / 3)
    assert tied[2] == pytest.approx(10 / 3) and tied[3] == 0.0
    middle = place_points({0: 1, 1: 2, 2: 2, 3: 2, 4: 5})  # three share places 2–4
    assert middle[1] == middle[2] == middle[3] == 5.0
    everyone = place_points({0: 1, 1: 1, 2: 1})
    assert set(everyone.values()) == {5.0}
    for ranks in ({0: 1, 1: 1, 2: 3, 3: 4}, {0: 1, 1: 2, 2: 2, 3: 2, 4: 5}, {0: 1, 1: 1}):
        assert sum(place_points(ranks).values()) == pytest.approx(5 * len(ranks))


def test_standings_add_up_the_night_and_share_places_when_equal() -> None:
    """Points add over the games each played; equal points, wins and games share a place."""
    results = [
        Result({0: "ala", 1: "bot", 2: "bartek"}, {0: 1, 1: 2, 2: 3}),  # 10, 5, 0
        Result({0: "ala", 1: "bot", 2: "bartek"}, {0: 3, 1: 2, 2: 1}),  # 0, 5, 10
        Result({0: "bartek", 1: "celina"}, {0: 2, 1: 1}),  # 0, 10
    ]
    rows = standings(results, present=["daria"])
    by = {r.key: r for r in rows}
    assert (by["ala"].points, by["bartek"].points, by["bot"].points) == (10, 10, 10)
    assert by["celina"].points == 10 and by["celina"].played == 1
    # All on 10: those with a win share first (however many games they played); the bot
    # has no win.
    assert {r.key: r.place for r in rows} == {
        "celina": 1,
        "ala": 1,
        "bartek": 1,
        "bot": 4,
        "daria": 5,
    }
    assert by["daria"].points == 0 and by["daria"].played == 0
    assert by["ala"].history == [10.0, 0.0]


def test_standings_ties_share_a_place_and_the_podium_step() -> None:
    """Two exactly equal share first; the podium's second step stays empty (as 1, 1, 3)."""
    results = [
        Result({0: "a", 1: "b", 2: "c"}, {0: 1, 1: 1, 2: 3}),
        Result({0: "a", 1: "b", 2: "c"}, {0: 1, 1: 1, 2: 3}),
    ]
    rows = standings(results)
    assert [(r.key, r.place) for r in rows] == [("a", 1), ("b", 1), ("c", 3)]
    steps = podium(rows)
    assert [[r.key for r in step] for step in steps] == [["a", "b"], [], ["c"]]


def test_podium_leaves_out_whoever_has_not_played() -> None:
    """Someone at the night without a finished game is in the standings, not on the podium."""
    rows = standings([Result({0: "a", 1: "b"}, {0: 1, 1: 2})], present=["c"])
    assert [[r.key for r in step] for step in podium(rows)] == [["a"], ["b"], []]
    assert {r.key: r.place for r in rows} == {"a": 1, "b": 2, "c": 2}
    assert rows[0].key == "a"
