"""Dreadful Circus final scoring: the seed's worked examples and every scoring-time effect."""

from __future__ import annotations

from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.scoring import (
    Tally,
    best_collections,
    contract_sets,
    majority_points,
    score_all,
    sets_of_four,
)
from engines.dreadful_circus.table import tallies
from tests.engines.dreadful_circus.helpers import goods, table

NO_COINS = (0, 0, 0)
NO_CONTRACTS = (0, 0, 0, 0, 0)


def tally(coins=NO_COINS, contracts=NO_CONTRACTS, area=(), choices=None) -> Tally:  # type: ignore[no-untyped-def]
    return Tally(tuple(coins), tuple(contracts), tuple(area), dict(choices or {}))


def test_seed_scoring_example_ela_scores_53() -> None:
    """The seed's final scoring example (5 players): Ela scores 53 VP, part by part."""
    michal = tally(contracts=(0, 0, 2, 0, 0))
    ela = tally(
        coins=(3, 1, 2),
        contracts=(3, 3, 2, 1, 1),
        area=("scales_of_themis", "exploding_cobs", "exploding_cobs",
              "cotton_candy", "cotton_candy", "cotton_candy"),
    )  # fmt: skip
    tomek = tally(contracts=(0, 0, 0, 2, 0))
    kasia = tally(contracts=(0, 0, 0, 0, 2))
    natalia = tally(contracts=(2, 2, 1, 0, 0))
    ela_score = score_all([michal, ela, tomek, kasia, natalia])[1]
    assert ela_score["coins"] == 3 * 1 + 1 * 2 + 2 * 3 == 11
    assert ela_score["majorities"] == {
        "berlin": 4, "paris": 4, "vegas": 4, "prague": 0, "london": 0,
    }  # fmt: skip
    assert ela_score["sets"] == 16 and ela_score["sets_of_4"] == 2
    assert ela_score["printed"] == 2
    assert ela_score["collections"] == 12
    assert sorted(map(sorted, ela_score["collection_sets"])) == [
        ["cotton_candy"], ["cotton_candy", "popcorn"], ["cotton_candy", "popcorn"],
    ]  # fmt: skip
    assert ela_score["effects_total"] == 0
    assert ela_score["total"] == 11 + 8 + 4 + 0 + 16 + 2 + 12 == 53


def test_seed_scoring_example_michal_loses_the_vegas_tie_to_scales() -> None:
    """Same example: Michał ties Ela on Vegas at 2 but scores nothing for it."""
    scores = majority_points([2, 2, 0, 0, 1], [False, True, False, False, False])
    assert scores == [0, 4, 0, 0, 0]


def test_seed_collection_example_two_of_each_design_scores_23() -> None:
    """The seed's Collection example: 2 copies of each of the 4 designs → 9 + 9 + 5."""
    vp, sets = best_collections((2, 2, 2, 2))
    assert vp == 23
    assert sorted(len(s) for s in sets) == [2, 3, 3]


def test_collection_sets_never_hold_four_designs() -> None:
    """One of each design: a set of 3 and a set of 1 (9 + 2), not a set of 4."""
    assert best_collections((1, 1, 1, 1))[0] == 11
    assert best_collections((3, 0, 0, 0))[0] == 6


def test_sets_of_four_types_is_the_largest_feasible_k() -> None:
    """Spec: counts 3/3/2/1/1 give 2 sets; 4/4/4/4/0 give 4; 5/0/0/0/5 give none."""
    assert sets_of_four([3, 3, 2, 1, 1]) == 2
    assert sets_of_four([4, 4, 4, 4, 0]) == 4
    assert sets_of_four([5, 0, 0, 0, 5]) == 0


def test_the_loop_makes_sets_of_five_worth_11() -> None:
    """Spec example: 2/2/2/2/2 is 16 without The Loop and 22 with it."""
    assert contract_sets([2, 2, 2, 2, 2], loop=False)[0] == 16
    assert contract_sets([2, 2, 2, 2, 2], loop=True) == (22, 2, 0)
    # 3/3/3/3/1: one set of 5 then two of 4 (27) beats three sets of 4 (24).
    assert contract_sets([3, 3, 3, 3, 1], loop=True) == (27, 1, 2)


def test_majority_split_and_nobody_scores_an_empty_type() -> None:
    """Ties split 4 VP rounded down; a type nobody holds gives nothing."""
    nobody = [False] * 5
    assert majority_points([2, 2, 1, 0, 0], nobody) == [2, 2, 0, 0, 0]
    assert majority_points([1, 1, 1, 0, 0], nobody) == [1, 1, 1, 0, 0]
    assert majority_points([1, 1, 1, 1, 1], nobody) == [0, 0, 0, 0, 0]
    assert majority_points([0, 0, 0, 0, 0], nobody) == [0] * 5
    assert majority_points([3, 3, 3, 0, 0], [True, True, False, False, False]) == [2, 2, 0, 0, 0]


def test_contract_colour_cards_count_for_majorities_and_sets() -> None:
    """Cabaret of Shadows is a Berlin contract at scoring; it also scores its printed 1 VP."""
    a = tally(contracts=(1, 1, 1, 0, 0), area=("cabaret_of_shadows", "clay_golem"))
    b = tally(contracts=(2, 0, 0, 0, 0))
    sa, sb = score_all([a, b])
    assert sa["effective_contracts"]["berlin"] == 2
    assert sa["majorities"]["berlin"] == 2 and sb["majorities"]["berlin"] == 2
    assert sa["sets"] == 8  # Berlin, Paris, Vegas, Prague(card)
    assert sa["printed"] == 2


def test_yellow_scoring_cards() -> None:
    """Flaming Arrow +3 per copper/silver/gold trio; Gilded Cage +1 per gold; Penny Arcade
    +1 per 2 copper."""
    s = score_all([tally(coins=(5, 2, 3), area=("flaming_arrow", "gilded_cage", "penny_arcade"))])
    effects = {e["card"]: e["vp"] for e in s[0]["effects"]}
    assert effects == {"flaming_arrow": 6, "gilded_cage": 3, "penny_arcade": 2}
    assert s[0]["coins"] == 5 + 4 + 9
    assert s[0]["printed"] == 2
    assert s[0]["total"] == 18 + 11 + 2


def test_pickled_things_counts_printed_colours_and_hall_of_wax_only_vp() -> None:
    """Pickled Things: orange, blue (itself and Hall of Wax), red → 3 colours; Wax adds 3 VP."""
    s = score_all([tally(area=("pickled_things", "hall_of_wax", "cotton_candy", "guard_dogs"))])[0]
    assert s["effects"] == [{"card": "pickled_things", "via": None, "vp": 3}]
    assert s["printed"] == 3 + 1


def test_crystal_balls_and_rainbow_bridge_follow_their_choices() -> None:
    """Crystal Balls counts as the chosen design, Rainbow Bridge as the chosen city."""
    t = tally(
        contracts=(1, 1, 1, 0, 0),
        area=("crystal_balls", "cotton_candy", "rainbow_bridge"),
        choices={"crystal_balls#0": "popcorn", "rainbow_bridge#0": "london"},
    )
    s = score_all([t])[0]
    assert s["effective_collections"]["popcorn"] == 1
    assert s["collections"] == 5
    assert s["effective_contracts"]["london"] == 1
    assert s["sets"] == 8


def test_distorting_mirrors_copies_a_neighbours_effect_for_the_copier() -> None:
    """Mirrors copies the left neighbour's Gilded Cage: computed on the copier's own gold,
    without the printed VP; the original still works for its owner."""
    owner = tally(coins=(0, 0, 1), area=("gilded_cage",))
    copier = tally(coins=(0, 0, 4), area=("distorting_mirrors",),
                   choices={"distorting_mirrors#0": "0:gilded_cage"})  # fmt: skip
    s_owner, s_copier = score_all([owner, copier])
    assert s_owner["effects"][0]["vp"] == 1
    assert s_copier["effects"] == [{"card": "gilded_cage", "via": "distorting_mirrors", "vp": 4}]
    assert s_copier["printed"] == 0


def test_copied_scales_wins_ties_and_copied_loop_and_rainbow() -> None:
    """A copied Scales wins a majority tie; Corridors copying Rainbow Bridge picks its own city;
    a second Loop effect adds nothing."""
    a = tally(contracts=(2, 0, 0, 0, 0), area=("scales_of_themis",))
    b = tally(
        contracts=(2, 0, 0, 0, 0), area=("distorting_mirrors",),
        choices={"distorting_mirrors#0": "0:scales_of_themis"},
    )  # fmt: skip
    # Two Scales effects among the leaders: they share (4 // 2).
    sa, sb = score_all([a, b])
    assert sa["majorities"]["berlin"] == 2 and sb["majorities"]["berlin"] == 2
    assert sb["scales"]
    c = tally(
        contracts=(1, 1, 1, 1, 0),
        area=("rainbow_bridge", "twisted_corridors", "the_loop"),
        choices={"rainbow_bridge#0": "london", "twisted_corridors#0": "0:rainbow_bridge",
                 "twisted_corridors#0.city": "london"},
    )  # fmt: skip
    sc = score_all([c])[0]
    assert sc["effective_contracts"]["london"] == 2
    assert sc["sets"] == 11  # one set of 5; the leftover London is alone
    assert sc["loop"]


def test_copy_of_a_collection_card_counts_as_that_design() -> None:
    """Twisted Corridors copying Candied Apples is a second Candied Apples card."""
    t = tally(area=("candied_apples", "twisted_corridors"),
              choices={"twisted_corridors#0": "0:candied_apples"})  # fmt: skip
    assert score_all([t])[0]["collections"] == 4


def over_state(n: int = 4, **kw):  # type: ignore[no-untyped-def]
    s = table(n, **kw)
    s.hands = [[] for _ in range(n)]
    s.phase = "over"
    s.revealed = True
    return s


def test_tie_break_attractions_then_contracts_then_coins() -> None:
    """The seed's tie-break order among players tied on total (no Scales anywhere)."""
    s = over_state(4, first=3)
    # 6 VP each: p0 has two Attractions, p1 one.
    s.areas = [["hall_of_wax", "cotton_candy"], ["hall_of_wax"], [], []]
    s.screens = [goods(copper=1), goods(copper=3), goods(), goods()]
    out = ENGINE.outcome(s)
    assert out is not None and out.scores[0] == out.scores[1] == 6
    assert out.winners == frozenset({0}) and out.ranks[1] == 2
    # Same Attraction count: more contract tokens wins (p0 shares Berlin with p2: 2 VP).
    s.areas = [["hall_of_wax"], ["hall_of_wax"], [], []]
    s.screens = [goods(copper=1, berlin=1), goods(copper=3), goods(berlin=1), goods()]
    out = ENGINE.outcome(s)
    assert out is not None and out.scores[0] == out.scores[1] == 6
    assert out.winners == frozenset({0})
    # Same contracts too: more coin pieces (not value) wins.
    s.screens = [goods(gold=1), goods(copper=1, silver=1), goods(), goods()]
    out = ENGINE.outcome(s)
    assert out is not None and out.scores[0] == out.scores[1] == 6
    assert out.winners == frozenset({1})


def test_tie_break_scales_first_and_first_seller_marker_last() -> None:
    """Scales wins a tie outright; with everything else equal the first-seller marker wins;
    without it, the tied players share the win."""
    s = over_state(4, first=1)
    s.areas = [["hall_of_wax"], ["hall_of_wax"], [], []]
    s.screens = [goods(copper=1), goods(copper=1), goods(), goods()]
    out = ENGINE.outcome(s)
    assert out is not None and out.winners == frozenset({1})
    s.first_seller = 2
    out = ENGINE.outcome(s)
    assert out is not None and out.winners == frozenset({0, 1})
    assert out.ranks[0] == out.ranks[1] == 1
    s.areas = [["gilded_cage", "hall_of_wax"], ["scales_of_themis", "hall_of_wax"], [], []]
    s.screens = [goods(copper=1, gold=0), goods(copper=0), goods(), goods()]
    out = ENGINE.outcome(s)
    assert out is not None
    assert out.scores[0] == out.scores[1] == 5
    assert out.winners == frozenset({1})


def test_tallies_read_screens_areas_and_choices() -> None:
    """The engine hands the scoring module exactly what lies behind screens and in areas."""
    s = over_state(4)
    s.screens[2] = goods(copper=1, gold=2, paris=3)
    s.areas[2] = ["crystal_balls"]
    s.scoring_choices[2] = {"crystal_balls#0": "ice_cream"}
    t = tallies(s)[2]
    assert t.coins == (1, 0, 2) and t.contracts == (0, 3, 0, 0, 0)
    assert t.area == ("crystal_balls",) and t.choices == {"crystal_balls#0": "ice_cream"}
