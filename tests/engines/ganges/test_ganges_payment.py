"""Paying (docs/rules/ganges.md, "Paying"): refusals change nothing; karma stays in 1..6."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

import pytest

from engines.core import IllegalAction, MalformedAction, Rng
from engines.ganges import ENGINE
from engines.ganges.cards import CARDS, CATALOGUE, DIE_COLOURS, DIE_VALUES
from engines.ganges.payment import (
    Die,
    Payment,
    building_payments,
    check_building_payment,
    check_exact_payment,
    exact_payments,
)
from tests.engines.ganges.helpers import act, position, refused, texts

# Green dice: G01 5, G08 6, G18 4, G04 2, G21 1. Orange: G24 4, G17 3, G07 5, G14 6, G34 2.
HAND = ["G01", "G08", "G18", "G04", "G21", "G24", "G17", "G07"]


@pytest.mark.parametrize(
    ("action", "why"),
    [
        ({"type": "build", "card": "B04", "pay": ["G24", "G17"]}, "wrong colour"),
        ({"type": "build", "card": "B04", "pay": ["G18", "G04"]}, "below the cost"),
        ({"type": "build", "card": "B04", "pay": ["G08", "G18", "G21"]}, "superfluous card"),
        ({"type": "build", "card": "B04", "pay": ["G08"], "karma": 1}, "karma above 6"),
        ({"type": "build", "card": "B04", "pay": ["G18", "G21"], "karma": 1}, "karma not exact"),
        ({"type": "build", "card": "B04", "pay": ["G18"], "karma": 3}, "more karma than held"),
        ({"type": "build", "card": "B04", "pay": ["G14"]}, "card not in hand"),
        ({"type": "build", "card": "B04", "pay": ["G01", "G01"]}, "card twice"),
        ({"type": "build", "card": "B04", "pay": [], "jokers": [6, 1]}, "joker without admin"),
        ({"type": "build", "card": "B04"}, "no payment"),
        ({"type": "build", "card": "B05", "pay": ["G08", "G01"]}, "not on the table"),
        ({"type": "build", "card": "S03", "pay": ["G17"]}, "not a building"),
        ({"type": "ship", "card": "S03", "pay": ["G04", "G21"]}, "ship with two cards"),
        ({"type": "ship", "card": "S03", "pay": ["G04"]}, "ship value wrong"),
        ({"type": "ship", "card": "S03", "pay": ["G24"], "karma": 2}, "too much karma"),
        ({"type": "palace", "card": "P13", "pay": ["G18", "G21"]}, "palace with two cards"),
        ({"type": "palace", "card": "P13", "pay": ["G24"]}, "palace value wrong"),
        ({"type": "goods", "card": "B04"}, "not a goods card"),
        ({"type": "pick", "card": "B04"}, "no pick pending"),
        ({"type": "end_turn"}, "a main action is owed"),
    ],
)
def test_illegal_payments_are_refused_without_change(action: dict[str, Any], why: str) -> None:
    """Each refusal is an IllegalAction and leaves the state as it was."""
    st = position(table=["B04", "S03", "P13", "G13"], players={0: {"hand": HAND, "karma": 2}})
    error = refused(st, 0, action, IllegalAction)
    assert error.message, why


def test_malformed_payment_is_refused_at_parse_time() -> None:
    """An unknown field or a wrong type cannot be parsed."""
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "build", "card": "B04", "pay": "G01"})
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "take", "card": "B04", "extra": 1})


def test_karma_clamped_at_six_for_buildings() -> None:
    """B04 (green 7): a 6 can take no karma; a 5 can take 1 (to 6) plus a 1: 5+1+1 = 7."""
    st = position(table=["B04"], players={0: {"hand": HAND, "karma": 2}})
    refused(st, 0, {"type": "build", "card": "B04", "pay": ["G08"], "karma": 1}, IllegalAction)
    after = act(st, 0, {"type": "build", "card": "B04", "pay": ["G01", "G21"], "karma": 1})
    assert after.players[0].karma == 1 and after.players[0].buildings == ["B04"]


def test_karma_clamped_at_one_for_ships() -> None:
    """S01 (cost 1): a 3 needs exactly 2 karma down to 1; 3 karma would go below 1."""
    st = position(table=["S01"], players={0: {"hand": ["G17"], "karma": 3}})
    refused(st, 0, {"type": "ship", "card": "S01", "pay": ["G17"], "karma": 3}, IllegalAction)
    refused(st, 0, {"type": "ship", "card": "S01", "pay": ["G17"], "karma": 1}, IllegalAction)
    after = act(st, 0, {"type": "ship", "card": "S01", "pay": ["G17"], "karma": 2})
    assert after.players[0].karma == 1 and after.players[0].ships == ["S01"]


def test_karma_raises_a_die_for_a_palace() -> None:
    """P13 (cost 5) paid with a 3 and 2 karma."""
    st = position(table=["P13"], players={0: {"hand": ["G17"], "karma": 2}})
    after = act(st, 0, {"type": "palace", "card": "P13", "pay": ["G17"], "karma": 2})
    assert after.players[0].karma == 1  # 2 spent, then palace 5 gives 1


def test_overpaying_with_one_high_card_is_allowed() -> None:
    """B04 (green 7) with 6 + 5 = 11: both needed, no change given."""
    st = position(table=["B04"], players={0: {"hand": HAND}})
    after = act(st, 0, {"type": "build", "card": "B04", "pay": ["G08", "G01"]})
    assert after.players[0].buildings == ["B04"] and after.discard == ["G08", "G01"]


def test_several_jokers_and_joker_for_a_ship() -> None:
    """Two administrators as 6 + 1 pay a 7; a joker declared 3 pays a cost-3 ship."""
    st = position(table=["B04", "S03"], players={0: {"admins": 2}})
    after = act(st, 0, {"type": "build", "card": "B04", "jokers": [6, 1]})
    assert after.players[0].admins == 0 and after.admin_supply == 12
    refused(st, 0, {"type": "build", "card": "B04", "jokers": [6]}, IllegalAction)
    refused(st, 0, {"type": "build", "card": "B04", "jokers": [6, 6, 1]}, IllegalAction)
    refused(st, 0, {"type": "ship", "card": "S03", "jokers": [2]}, IllegalAction)
    after = act(st, 0, {"type": "ship", "card": "S03", "jokers": [3]})
    assert after.players[0].ships == ["S03"] and after.players[0].admins == 1


def test_canonical_payments_are_small_and_all_apply() -> None:
    """Equal dice merge: each distinct payment is listed once, and every one applies."""
    dice = [Die(c, CARDS[c].die_colour, CARDS[c].die_value) for c in HAND]
    pays = building_payments(CARDS["B04"], dice, karma=2, admins=1)
    assert len({p for p in pays}) == len(pays)
    assert all(p.cards or p.jokers for p in pays)
    ships = exact_payments(CARDS["S03"], dice, karma=1, admins=1)
    assert [(p.cards, p.karma) for p in ships if p.cards] == [
        (("G18",), 1),
        (("G04",), 1),
        (("G24",), 1),
        (("G17",), 0),
    ]
    st = position(table=["B04", "S03", "P13"], players={0: {"hand": HAND, "karma": 2, "admins": 1}})
    for action in ENGINE.legal_actions(st, 0):
        ENGINE.apply(st, 0, action)
    assert len(texts(st, 0)) < 60


def test_duplicate_dice_are_one_canonical_choice() -> None:
    """Two green 5s give the same payments; `apply` still accepts either card."""
    st = position(table=["B08"], players={0: {"hand": ["G01", "G25"]}})  # green 5 twice
    builds = [t for t in texts(st, 0) if t.startswith("build")]
    assert builds == ["build B08 pay G01"]
    other = st.players[0].hand[1]
    after = act(st, 0, {"type": "build", "card": "B08", "pay": [other]})
    assert after.players[0].buildings == ["B08"]


def _covered(
    valid: list[tuple[tuple[int, ...], int, int]], listed: list[Payment], dice: dict[str, Die]
) -> None:
    """Every valid (dice values, jokers, karma) is matched by a listed payment using the same
    dice values, no more jokers and no more karma."""
    offers = [
        (tuple(sorted(dice[c].value for c in p.cards)), len(p.jokers), p.karma) for p in listed
    ]
    for values, jokers, karma in valid:
        assert any(v == values and j <= jokers and k <= karma for v, j, k in offers), (
            values,
            jokers,
            karma,
        )


@pytest.mark.parametrize("seed", range(12))
def test_canonical_payments_cover_every_valid_payment(seed: int) -> None:
    """Brute force: `apply`'s rules accept a payment only if legal_actions offers an equal or
    cheaper one (same dice values, no more administrators, no more karma)."""
    rng = Rng.from_seed(seed)
    hand = [Die(c.id, c.die_colour, c.die_value) for c in rng.shuffled(list(CATALOGUE))[:8]]
    by_id = {d.card: d for d in hand}
    karma, admins = rng.randbelow(3), rng.randbelow(3)
    colour = max(DIE_COLOURS, key=lambda col: sum(d.colour == col for d in hand))
    building = rng.choice(
        [c for c in CATALOGUE if c.kind == "building" and c.cost_colour == colour]
    )
    same = [d for d in hand if d.colour == building.cost_colour]
    valid = []
    for r in range(len(same) + 1):
        for dice in combinations(same, r):
            for nj in range(admins + 1):
                for jokers in combinations_with_replacement(DIE_VALUES, nj):
                    for k in range(karma + 1):
                        if not dice and not jokers:
                            continue
                        try:
                            check_building_payment(building, list(dice), list(jokers), k)
                        except IllegalAction:
                            continue
                        valid.append((tuple(sorted(d.value for d in dice)), nj, k))
    assert valid or not same
    _covered(valid, building_payments(building, hand, karma, admins), by_id)
    ship = rng.choice([c for c in CATALOGUE if c.kind in ("ship", "palace")])
    valid = []
    for d in hand:
        for k in range(karma + 1):
            try:
                check_exact_payment(ship, [d], [], k)
            except IllegalAction:
                continue
            valid.append(((d.value,), 0, k))
    if admins:
        valid.append(((), 1, 0))
    _covered(valid, exact_payments(ship, hand, karma, admins), by_id)


def test_a_palace_card_is_not_paid_with_2_plus_3() -> None:
    """Palace cards take exactly one die of their value: a 2 and a 3 do not make a 5, with or
    without karma; one 5 does, and so does a 4 with 1 karma or an administrator as 5."""
    palace = next(c for c in CARDS.values() if c.kind == "palace" and c.cost_value == 5)
    two, three = Die("X1", "green", 2), Die("X2", "orange", 3)
    with pytest.raises(IllegalAction, match="exactly one die"):
        check_exact_payment(palace, [two, three], [], 0)
    with pytest.raises(IllegalAction, match="exactly one die"):
        check_exact_payment(palace, [two, three], [], 1)
    check_exact_payment(palace, [Die("X3", "blue", 5)], [], 0)
    check_exact_payment(palace, [Die("X4", "violet", 4)], [], 1)
    check_exact_payment(palace, [], [5], 0)
    ways = exact_payments(palace, [two, three], karma=0, admins=0)
    assert ways == [], "no single die of 5 and no karma: nothing pays"


def test_the_pickers_ways_to_pay_are_the_engines() -> None:
    """At seeded random positions, the acting seat's view lists for each paid table card the
    ways to pay; each applies as that card's action, and a card with no way has no legal paid
    action — the browser's picker needs no payment rule of its own."""
    import random

    from engines.ganges.actions import Build, BuyShip, UsePalace
    from tests.engines.invariants import play_random, replay

    checked = 0
    for seed in range(4):
        _, history = play_random(ENGINE, 3, seed, check_every_step=False)
        rng = random.Random(seed)
        for cut in sorted(rng.sample(range(len(history)), min(12, len(history)))):
            state = replay(ENGINE, 3, seed, None, history[:cut])
            prompt = state.prompt
            if prompt is None or prompt.kind != "action":
                continue
            seat = prompt.seat
            view = ENGINE.view(state, seat)
            ways = view["prompt"]["payments"]
            assert all(
                ENGINE.view(state, s)["prompt"].get("payments") is None
                for s in [*range(3), None]
                if s != seat
            )
            legal = ENGINE.legal_actions(state, seat)
            paid = {
                (a.card, tuple(a.pay), tuple(sorted(a.jokers)), a.karma)
                for a in legal
                if isinstance(a, Build | BuyShip | UsePalace)
            }
            for card, options in ways.items():
                kind = {"building": "build", "ship": "ship", "palace": "palace"}[CARDS[card].kind]
                if not options:
                    assert not any(p[0] == card for p in paid)
                for w in options:
                    action = {
                        "type": kind,
                        "card": card,
                        "pay": w["cards"],
                        "jokers": w["jokers"],
                        "karma": w["karma"],
                    }
                    ENGINE.apply(state, seat, ENGINE.parse_action(action))
                    checked += 1
    assert checked >= 10
