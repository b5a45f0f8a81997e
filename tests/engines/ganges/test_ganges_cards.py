"""The PROVISIONAL card data (docs/rules/ganges.md, "The 144 play cards")."""

from __future__ import annotations

from collections import Counter

from engines.ganges.cards import (
    CARDS,
    CATALOGUE,
    DIE_COLOURS,
    DIE_VALUES,
    PALACE_EFFECTS,
    SHIP_REWARDS,
    catalogue_back,
)


def test_card_counts_by_kind() -> None:
    """144 cards: 28 ships, 54 buildings, 42 goods, 20 palace cards; ids unique."""
    assert len(CATALOGUE) == 144 and len(CARDS) == 144
    kinds = Counter(c.kind for c in CATALOGUE)
    assert kinds == {"ship": 28, "building": 54, "goods": 42, "palace": 20}
    assert [c.index for c in CATALOGUE] == list(range(144))


def test_ships_numbered_once_with_cost_rule() -> None:
    """Ship numbers 1–28 each once; cost ((n - 1) % 3) + 1; known reward codes."""
    ships = [c for c in CATALOGUE if c.kind == "ship"]
    assert sorted(c.number for c in ships) == list(range(1, 29))
    assert all(c.cost_value == (c.number - 1) % 3 + 1 for c in ships)
    assert all(c.reward in SHIP_REWARDS for c in ships)


def test_palace_cards_four_per_cost() -> None:
    """Four palace cards for each cost 2–6, effect by cost."""
    palaces = [c for c in CATALOGUE if c.kind == "palace"]
    assert Counter(c.cost_value for c in palaces) == {2: 4, 3: 4, 4: 4, 5: 4, 6: 4}
    assert {c.cost_value: c.effect for c in palaces} == dict(
        zip(range(2, 7), PALACE_EFFECTS, strict=True)
    )


def test_backs_follow_the_formula_and_are_balanced() -> None:
    """Every back equals the formula; every (colour, value) pair on exactly 6 cards."""
    assert all((c.die_colour, c.die_value) == catalogue_back(c.index) for c in CATALOGUE)
    pairs = Counter((c.die_colour, c.die_value) for c in CATALOGUE)
    assert pairs == {(col, v): 6 for col in DIE_COLOURS for v in DIE_VALUES}


def test_examples_use_the_expected_cards() -> None:
    """The worked examples' cards have the properties the spec names."""
    assert (CARDS["G17"].die_colour, CARDS["G17"].die_value) == ("orange", 3)
    assert CARDS["B11"].buildings == ("red",) and CARDS["B11"].goods[0].good == "tea"
    assert (CARDS["B42"].cost_colour, CARDS["B42"].min_sum) == ("blue", 11)
    assert CARDS["S14"].reward == "die1" and CARDS["S14"].goods[0].good == "silk"
    assert sum(1 for c in CATALOGUE if c.kind == "building" and c.goods) == 9
