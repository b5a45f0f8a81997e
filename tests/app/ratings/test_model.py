"""Ratings, the pure part: our updates are openskill's Plackett-Luce updates for recorded
results (2, 4 and 8 players, a tie, 2 on 2, 2 on 1), forfeited seats count as last, bots keep
their fixed ratings, and the engine's sides are what Karmaka's modes say."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from app.ratings import bots
from app.ratings.model import RatedGame, Rating, rate, rated_game, side_places
from engines import get_engine


def library(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[Rating]]:
    """openskill itself, called directly."""
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks
    )
    return [[Rating(r.mu, r.sigma) for r in team] for team in rated]


def free_for_all(places: list[int]) -> RatedGame:
    """Seat i is person i + 1, alone, at `places[i]`."""
    n = len(places)
    return rated_game(
        "incan_gold",
        1,
        [[s] for s in range(n)],
        dict(enumerate(places)),
        {s: (s + 1, None, False) for s in range(n)},
    )


BEFORE = {1: Rating(31.2, 4.1), 2: Rating(22.0, 6.5), 3: Rating(25.0, 25 / 3), 4: Rating(18.4, 3.0)}


def test_two_players_equal_the_library() -> None:
    game = free_for_all([2, 1])
    after = rate(game, BEFORE, {})
    expected = library([[(31.2, 4.1)], [(22.0, 6.5)]], [2, 1])
    assert after == {1: expected[0][0], 2: expected[1][0]}
    assert after[2].mu > 22.0 and after[1].mu < 31.2, "the winner gains, the loser loses"
    # Recorded from openskill 6.2.0: the numbers move only if the library changes.
    assert after[1].mu == pytest.approx(29.9479, abs=1e-3)
    assert after[2].mu == pytest.approx(25.1463, abs=1e-3)


def test_four_players_equal_the_library() -> None:
    game = free_for_all([3, 1, 4, 2])
    after = rate(game, BEFORE, {})
    expected = library([[(BEFORE[u].mu, BEFORE[u].sigma)] for u in (1, 2, 3, 4)], [3, 1, 4, 2])
    assert [after[u] for u in (1, 2, 3, 4)] == [team[0] for team in expected]


def test_eight_players_equal_the_library_new_ratings_included() -> None:
    places = [5, 2, 8, 1, 3, 7, 4, 6]
    game = free_for_all(places)
    after = rate(game, BEFORE, {})  # persons 5–8 have no rating yet: a new person's
    teams = [
        [(BEFORE[u].mu, BEFORE[u].sigma) if u in BEFORE else (25.0, 25 / 3)] for u in range(1, 9)
    ]
    expected = library(teams, [float(p) for p in places])
    assert [after[u] for u in range(1, 9)] == [team[0] for team in expected]


def test_a_tie_equals_the_library_and_ties_move_alike() -> None:
    game = free_for_all([1, 2, 2])
    after = rate(game, {}, {})
    expected = library([[(25.0, 25 / 3)]] * 3, [1, 2, 2])
    assert [after[u] for u in (1, 2, 3)] == [team[0] for team in expected]
    assert after[2] == after[3]
    assert free_for_all([1, 1]).seats and rate(free_for_all([1, 1]), {}, {})[1].mu == 25.0


def test_two_on_two_equals_the_library() -> None:
    """Karmaka 2 on 2: seats 0 + 2 against 1 + 3; seat 1 transcended (both win), seats 0 and 2
    place 3rd and 4th: the side places by its best seat."""
    game = rated_game(
        "karmaka",
        7,
        [[0, 2], [1, 3]],
        {0: 3, 1: 1, 2: 4, 3: 1},
        {s: (s + 1, None, False) for s in range(4)},
    )
    assert side_places(game) == [2, 1]
    after = rate(game, BEFORE, {})
    expected = library([[(31.2, 4.1), (25.0, 25 / 3)], [(22.0, 6.5), (18.4, 3.0)]], [2.0, 1.0])
    assert [after[1], after[3]] == expected[0]
    assert [after[2], after[4]] == expected[1]


def test_two_on_one_with_a_bot_keeps_the_bot_fixed() -> None:
    """Karmaka's Big Bad Wolf: the Wolf (seat 0, a person) against a person and a bot."""
    wolf_bot = Rating(27.5, 2.0)
    game = rated_game(
        "karmaka",
        8,
        [[0], [1, 2]],
        {0: 1, 1: 2, 2: 2},
        {0: (1, None, False), 1: (2, None, False), 2: (None, "hard", False)},
    )
    after = rate(game, BEFORE, {"hard": wolf_bot})
    expected = library([[(31.2, 4.1)], [(22.0, 6.5), (27.5, 2.0)]], [1.0, 2.0])
    assert after == {1: expected[0][0], 2: expected[1][0]}


def test_forfeited_seats_count_as_last_tied_together() -> None:
    """The winner on points resigned: last. Two seats a bot finished share the last place."""
    game = rated_game(
        "incan_gold",
        9,
        [[0], [1], [2], [3]],
        {0: 1, 1: 2, 2: 3, 3: 4},
        {0: (1, None, True), 1: (2, None, False), 2: (3, None, True), 3: (4, None, False)},
    )
    assert side_places(game) == [3, 1, 3, 2]
    after = rate(game, {}, {})
    assert after[1] == after[3] and after[1].mu < 25 < after[2].mu


def test_karmaka_sides_by_mode() -> None:
    engine = get_engine("karmaka")
    for mode, n, sides in [
        ("free_for_all", 3, [[0], [1], [2]]),
        ("teams_2v2", 4, [[0, 2], [1, 3]]),
        ("big_bad_wolf_2v1", 3, [[0], [1, 2]]),
    ]:
        state = engine.setup(n, engine.parse_options({"mode": mode}), 1).state
        assert engine.teams(state, n) == sides
    other = get_engine("incan_gold")
    state = other.setup(3, other.parse_options({}), 1).state
    assert other.teams(state, 3) == [[0], [1], [2]]


def test_every_bot_level_of_every_game_has_a_fixed_rating_stronger_with_the_level() -> None:
    from app.bots import LEVELS
    from engines import ENGINES

    assert bots.MEASURED, "measured in the arena (bench/bot_ratings.py)"
    for engine in ENGINES:
        fixed = bots.ratings(engine.spec.id)
        assert set(LEVELS) <= set(fixed)
        mus = [fixed[level].mu for level in LEVELS]
        assert mus == sorted(mus) and mus[0] < mus[-1], engine.spec.id
        assert all(bots.rating(engine.spec.id, level) == fixed[level] for level in LEVELS)
    for game, levels in bots.MEASURED.items():
        assert levels["random"][0] < levels["hard"][0], game


def test_measured_bot_ratings_are_ordered_by_pooling_neighbours() -> None:
    raw = {"random": (11.0, 7.0), "easy": (29.0, 7.0), "normal": (33.0, 8.0), "hard": (27.0, 6.0)}
    fixed = bots.ordered(raw)
    assert fixed["random"] == Rating(11.0, 7.0) and fixed["easy"] == Rating(29.0, 7.0)
    assert fixed["normal"] == fixed["hard"] == Rating(30.0, 7.0)
    inverted = bots.ordered({"easy": (30.0, 7.0), "normal": (20.0, 7.0), "hard": (22.0, 7.0)})
    assert [inverted[k].mu for k in ("easy", "normal", "hard")] == [24.0, 24.0, 24.0]
    assert bots.ordered({"random": (1.0, 2.0), "hard": (5.0, 2.0)})["hard"] == Rating(5.0, 2.0)
