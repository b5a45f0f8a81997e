"""Dreadful Circus: every Performance and every permanent Attraction effect, in explicit
positions (docs/rules/dreadful-circus.md, "Card set", "Effect rules")."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.model import State
from tests.engines.dreadful_circus.helpers import (
    FILLER,
    act,
    act_events,
    city,
    dump,
    goods,
    perform,
    table,
    texts,
)


def legal_texts(s: State, seat: int) -> list[str]:
    return [ENGINE.action_text(a) for a in ENGINE.legal_actions(s, seat)]


def done(s: State, card: str) -> None:
    """The Performance is resolved: discarded, no prompt, the game has moved on."""
    assert s.prompt is None
    assert card in s.discard
    assert s.phase == "offer"
    assert all(w == goods() for w in s.wagons)


# ---- red: loading wagons ----------------------------------------------------------------


def test_bendy_marcella_loads_coins_and_takes_one_of_choice() -> None:
    """Only legal target (others have Guard Dogs / Strongbox) is chosen automatically."""
    s = table(
        screens=[goods(), goods(copper=2, gold=1, berlin=3), goods(silver=1), goods(copper=1)],
        areas=[[], [], ["guard_dogs"], ["iron_strongbox"]],
    )
    s, events = perform(s, 0, "bendy_marcella")
    assert s.prompt is not None and s.prompt.kind == "take" and s.prompt.targets == [1]
    assert s.wagons[1] == goods(copper=2, gold=1) and s.screens[1] == goods(berlin=3)
    assert "{p1} loads all their coins for {p0}." in texts(events, None)
    assert legal_texts(s, 0) == ["take copper", "take gold"]
    # The resolver sees the loaded wagon, the others do not.
    assert ENGINE.view(s, 0)["players"][1]["wagon"]["coins"] == {"copper": 2, "silver": 0,
                                                                  "gold": 1}  # fmt: skip
    assert ENGINE.view(s, 2)["players"][1]["wagon"] is None
    s, events = act_events(s, 0, {"type": "take", "items": ["gold"]})
    assert s.screens[0] == goods(gold=1)
    assert s.screens[1] == goods(copper=2, berlin=3)
    assert texts(events, 1)[0] == "{p0} takes 1 gold from {p1}'s wagon."
    assert texts(events, 2)[0] == "{p0} takes from {p1}'s wagon."
    done(s, "bendy_marcella")


def test_bendy_marcella_asks_for_a_target_and_refuses_illegal_ones() -> None:
    s = table(screens=[goods(), goods(copper=1), goods(copper=1), goods(copper=1)],
              areas=[[], [], ["guard_dogs"], []])  # fmt: skip
    s, _ = perform(s, 0, "bendy_marcella")
    assert s.prompt is not None and s.prompt.kind == "targets"
    assert legal_texts(s, 0) == ["targets p1", "targets p3"]
    before = dump(s)
    for bad in ([2], [0], [1, 3]):
        with pytest.raises(IllegalAction):
            act(s, 0, {"type": "choose_targets", "seats": bad})
    assert dump(s) == before
    s = act(s, 0, {"type": "choose_targets", "seats": [3]})
    assert s.prompt is not None and s.prompt.targets == [3]


def test_loading_an_empty_screen_gives_an_empty_wagon_and_take_nothing() -> None:
    s = table(screens=[goods(), goods(berlin=1), goods(), goods()],
              areas=[[], [], ["guard_dogs"], ["guard_dogs"]])  # fmt: skip
    s, _ = perform(s, 0, "bendy_marcella")
    assert legal_texts(s, 0) == ["take nothing"]
    s = act(s, 0, {"type": "take", "items": []})
    assert s.screens[1] == goods(berlin=1)
    done(s, "bendy_marcella")


def test_knife_thrower_takes_two_contracts_of_choice_even_from_a_strongbox() -> None:
    s = table(
        screens=[goods(), goods(berlin=2, paris=1, gold=1), goods(), goods()],
        areas=[[], ["iron_strongbox"], ["guard_dogs"], ["guard_dogs"]],
    )
    s, _ = perform(s, 0, "knife_thrower")
    assert s.prompt is not None and s.prompt.targets == [1]
    assert legal_texts(s, 0) == ["take berlin+berlin", "take berlin+paris"]
    s = act(s, 0, {"type": "take", "items": ["paris", "berlin"]})
    assert s.screens[0] == goods(berlin=1, paris=1)
    assert s.screens[1] == goods(berlin=1, gold=1)
    done(s, "knife_thrower")


def test_knife_thrower_takes_all_when_two_or_fewer() -> None:
    s = table(screens=[goods(), goods(vegas=1), goods(), goods()],
              areas=[[], [], ["guard_dogs"], ["guard_dogs"]])  # fmt: skip
    s, _ = perform(s, 0, "knife_thrower")
    assert legal_texts(s, 0) == ["take vegas"]
    s = act(s, 0, {"type": "take", "items": ["vegas"]})
    assert s.screens[0] == goods(vegas=1)


def test_pickpocket_clowns_takes_a_copper_from_every_unprotected_wagon() -> None:
    s = table(
        screens=[goods(), goods(copper=2, gold=1), goods(silver=1), goods(copper=3)],
        areas=[[], [], [], ["guard_dogs"]],
    )
    s, events = perform(s, 0, "pickpocket_clowns")
    assert s.screens[0] == goods(copper=1)
    assert s.screens[1] == goods(copper=1, gold=1)
    assert s.screens[2] == goods(silver=1)
    assert s.screens[3] == goods(copper=3)
    assert "{p0} takes 1 copper from {p1}'s wagon." in texts(events, 1)
    assert "{p0} takes 1 copper from {p1}'s wagon." not in texts(events, 2)
    done(s, "pickpocket_clowns")


def test_human_cannonball_two_targets_one_contract_each() -> None:
    s = table(screens=[goods(), goods(berlin=1, paris=1), goods(london=2), goods(vegas=1)])
    s, _ = perform(s, 0, "human_cannonball")
    assert s.prompt is not None and s.prompt.kind == "targets" and s.prompt.count == 2
    assert legal_texts(s, 0) == ["targets p1,p2", "targets p1,p3", "targets p2,p3"]
    s = act(s, 0, {"type": "choose_targets", "seats": [2, 1]})
    assert legal_texts(s, 0) == ["take berlin", "take paris"]
    s = act(s, 0, {"type": "take", "items": ["paris"]})
    assert legal_texts(s, 0) == ["take london"]
    s = act(s, 0, {"type": "take", "items": ["london"]})
    assert s.screens[0] == goods(paris=1, london=1)
    assert s.screens[1] == goods(berlin=1) and s.screens[2] == goods(london=1)
    done(s, "human_cannonball")


def test_fire_breather_never_takes_gold() -> None:
    s = table(screens=[goods(), goods(gold=2), goods(copper=1, silver=1, gold=1), goods()],
              areas=[[], [], [], ["iron_strongbox"]])  # fmt: skip
    s, _ = perform(s, 0, "fire_breather")  # exactly two legal targets: chosen automatically
    assert s.prompt is not None and s.prompt.targets == [1, 2]
    assert legal_texts(s, 0) == ["take nothing"]
    s = act(s, 0, {"type": "take", "items": []})
    assert legal_texts(s, 0) == ["take copper", "take silver"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "take", "items": ["gold"]})
    s = act(s, 0, {"type": "take", "items": ["silver"]})
    assert s.screens[0] == goods(silver=1)
    assert s.screens[1] == goods(gold=2) and s.screens[2] == goods(copper=1, gold=1)


def test_candy_thieves_moves_a_collection_card_but_not_from_guard_dogs() -> None:
    s = table(areas=[[], ["cotton_candy", "clay_golem"], ["guard_dogs", "ice_cream_cones"], []])
    s, _ = perform(s, 0, "candy_thieves")
    assert legal_texts(s, 0) == ["steal p1 cotton_candy"]
    s = act(s, 0, {"type": "steal", "seat": 1, "card": "cotton_candy"})
    assert s.areas[0] == ["cotton_candy"] and s.areas[1] == ["clay_golem"]
    done(s, "candy_thieves")
    s2, _ = perform(table(areas=[["cotton_candy"], [], [], []]), 0, "candy_thieves")
    done(s2, "candy_thieves")


# ---- yellow: coins ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "gain"),
    [
        ("coin_juggler", goods(copper=1, silver=1)),
        ("golden_trapeze", goods(gold=1)),
        ("strongman", goods(copper=3)),
    ],
)
def test_supply_performances(card: str, gain: list[int]) -> None:
    s, _ = perform(table(), 0, card)
    assert s.screens[0] == gain
    done(s, card)


def test_alchemist_turns_copper_into_silver_then_adds_a_copper() -> None:
    s, _ = perform(table(screens=[goods(copper=5), goods(), goods(), goods()]), 0, "alchemist")
    assert legal_texts(s, 0) == ["alchemy 0", "alchemy 1", "alchemy 2", "alchemy 3"]
    s = act(s, 0, {"type": "alchemy", "copper": 2})
    assert s.screens[0] == goods(copper=4, silver=2)
    s2, _ = perform(table(), 0, "alchemist")
    assert legal_texts(s2, 0) == ["alchemy 0"]
    with pytest.raises(IllegalAction):
        act(s2, 0, {"type": "alchemy", "copper": 1})


def test_rain_of_coins_gives_everyone_copper_and_the_resolver_silver() -> None:
    s, _ = perform(table(areas=[[], ["guard_dogs"], [], []]), 2, "rain_of_coins")
    assert s.screens == [goods(copper=1)] * 2 + [goods(copper=1, silver=1)] + [goods(copper=1)]


# ---- blue: contracts, areas, hands ------------------------------------------------------


def test_sleight_of_hand_draws_three_or_what_is_left() -> None:
    s, events = perform(table(bag=[5, 5, 5, 5, 5]), 1, "sleight_of_hand")
    assert sum(s.screens[1][3:]) == 3 and sum(s.bag) == 22
    assert "{p1} draws 3 contracts." in texts(events, 0)
    assert "{p1} draws 3 contracts." not in texts(events, 1)
    s, _ = perform(table(bag=[0, 2, 0, 0, 0]), 1, "sleight_of_hand")
    assert s.screens[1] == goods(paris=2) and s.bag == [0] * 5


def test_tightrope_walker_keeps_two_and_returns_the_rest() -> None:
    s, _ = perform(table(bag=[2, 2, 0, 0, 0]), 0, "tightrope_walker")
    assert s.prompt is not None and s.prompt.drawn == [2, 2, 0, 0, 0] and s.bag == [0] * 5
    assert legal_texts(s, 0) == ["keep berlin+berlin", "keep berlin+paris", "keep paris+paris"]
    assert ENGINE.view(s, 0)["prompt"]["drawn"]["berlin"] == 2
    assert ENGINE.view(s, 1)["prompt"] is None
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "keep", "cities": ["vegas", "berlin"]})
    s = act(s, 0, {"type": "keep", "cities": ["paris", "berlin"]})
    assert s.screens[0] == goods(berlin=1, paris=1) and s.bag == [1, 1, 0, 0, 0]
    s, _ = perform(table(bag=[0, 0, 0, 1, 1]), 0, "tightrope_walker")
    assert s.screens[0] == goods(prague=1, london=1)
    done(s, "tightrope_walker")


def test_vanishing_cabinet_swaps_or_declines_and_respects_guard_dogs() -> None:
    areas = [["fog_carousel"], ["clay_golem"], ["guard_dogs", "hall_of_wax"], []]
    s, _ = perform(table(areas=areas), 0, "vanishing_cabinet")
    assert legal_texts(s, 0) == ["decline", "swap fog_carousel p1 clay_golem"]
    s2 = act(s, 0, {"type": "swap", "card": "fog_carousel", "seat": 1, "their_card": "clay_golem"})
    assert s2.areas[0] == ["clay_golem"] and s2.areas[1] == ["fog_carousel"]
    done(s2, "vanishing_cabinet")
    s3 = act(s, 0, {"type": "decline"})
    assert s3.areas == areas
    done(s3, "vanishing_cabinet")


def test_encore_plays_a_card_from_a_hand_of_four_or_more() -> None:
    hands = [["strongman", "cotton_candy", FILLER, FILLER]] + [[FILLER] * 5] * 3
    s, _ = perform(table(hands=[list(h) for h in hands]), 0, "encore")
    assert legal_texts(s, 0) == ["decline", "play strongman", "play cotton_candy",
                                 f"play {FILLER}"]  # fmt: skip
    s2 = act(s, 0, {"type": "play", "card": "strongman"})
    assert s2.screens[0] == goods(copper=3)
    assert s2.hands[0] == ["cotton_candy", FILLER, FILLER]
    assert "encore" in s2.discard and "strongman" in s2.discard
    s3 = act(s, 0, {"type": "play", "card": "cotton_candy"})
    assert s3.areas[0] == ["cotton_candy"]
    s4, _ = perform(table(hands=[[FILLER] * 3] + [[FILLER] * 5] * 3), 0, "encore")
    assert s4.hands[0] == [FILLER] * 3
    done(s4, "encore")


def test_resurrection_show_takes_an_attraction_from_the_discard_pile() -> None:
    s = table()
    s.discard = ["strongman", "cotton_candy"]
    s, _ = perform(s, 0, "resurrection_show")
    assert legal_texts(s, 0) == ["decline", "resurrect cotton_candy"]
    s = act(s, 0, {"type": "resurrect", "card": "cotton_candy"})
    assert s.areas[0] == ["cotton_candy"]
    assert s.discard == ["strongman", "resurrection_show"]


def test_grand_parade_everyone_draws_then_the_resolver_again() -> None:
    s, _ = perform(table(bag=[3, 3, 3, 3, 3]), 1, "grand_parade")
    assert [sum(sc[3:]) for sc in s.screens] == [1, 2, 1, 1]
    assert sum(s.bag) == 10


def test_wheel_of_fortune_returns_then_draws_one_more() -> None:
    s = table(screens=[goods(berlin=2, paris=1), goods(), goods(), goods()], bag=[0, 0, 4, 0, 0])
    s, _ = perform(s, 0, "wheel_of_fortune")
    assert "return nothing" in legal_texts(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "return_contracts", "berlin": 3})
    s = act(s, 0, {"type": "return_contracts", "berlin": 2})
    assert s.screens[0][city("paris")] == 1
    assert sum(s.screens[0][3:]) == 1 + 3
    assert sum(s.bag) == 4 + 2 - 3
    done(s, "wheel_of_fortune")


# ---- permanent Attractions through a real round -----------------------------------------


def sell(s: State, card: str, winner: int, bid: list[int]) -> State:
    """One-seller round: seller 0 offers `card`; `winner` bids `bid`; the others bid 1 item;
    the seller inspects the winner's wagon first and accepts it."""
    s.hands[0] = [card, *s.hands[0]]
    s = act(s, 0, {"type": "offer", "card": card})
    for b in (1, 2, 3):
        if b == winner:
            raw = dict(zip(["copper", "silver", "gold", "berlin", "paris", "vegas", "prague",
                            "london"], bid, strict=True))  # fmt: skip
            s = act(s, b, {"type": "bid", "offer": 0, **raw})
        else:
            s = ENGINE.apply(s, b, ENGINE.legal_actions(s, b)[0]).state
    s = act(s, 0, {"type": "inspect", "bidder": winner})
    return act(s, 0, {"type": "accept"})


def test_barkers_booth_fortune_machine_and_toll_gate_fire_in_order() -> None:
    s = table(
        screens=[goods(), goods(silver=1), goods(copper=1), goods(copper=1)],
        areas=[["barkers_booth"], ["fortune_machine"], ["toll_gate"], []],
    )
    s, events = act_events(
        act(act(act(act(s, 0, {"type": "offer", "card": FILLER}), 1,
                        {"type": "bid", "silver": 1}), 2, {"type": "bid", "copper": 1}),
            3, {"type": "bid", "copper": 1}),
        0, {"type": "inspect", "bidder": 1},
    )  # fmt: skip
    s, events = act_events(s, 0, {"type": "accept"})
    public = texts(events, None)
    assert public[1:4] == [
        "Barker's Booth: {p0} takes 1 copper.",
        "Fortune-Telling Machine: {p1} takes 1 copper.",
        "Toll Gate: {p1} pays 1 copper to {p2}.",
    ]
    assert s.screens[0] == goods(silver=1, copper=1)
    assert s.screens[1] == goods()
    assert s.screens[2] == goods(copper=2)  # its returned bid plus the toll
    assert s.screens[3] == goods(copper=1)
    assert s.areas[1] == ["fortune_machine", FILLER]


def test_toll_gate_without_copper_and_against_a_strongbox() -> None:
    s = table(screens=[goods(), goods(gold=1), goods(), goods()], areas=[[], [], ["toll_gate"], []])
    s2 = sell(s, FILLER, 1, goods(gold=1))
    assert s2.screens[2] == goods()
    s = table(screens=[goods(), goods(copper=2), goods(), goods()],
              areas=[[], ["iron_strongbox"], ["toll_gate"], []])  # fmt: skip
    s2 = sell(s, FILLER, 1, goods(copper=1))
    assert s2.screens[1] == goods(copper=1) and s2.screens[2] == goods()
    # Seat 3 is also a neighbour of seat 2 (to its left).
    s = table(
        screens=[goods(), goods(), goods(), goods(copper=2)], areas=[[], [], ["toll_gate"], []]
    )
    s2 = sell(s, FILLER, 3, goods(copper=1))
    assert s2.screens[3] == goods() and s2.screens[2] == goods(copper=1)


def test_sticky_fingered_monkey_takes_one_more_item() -> None:
    s = table(screens=[goods(), goods(copper=1, silver=2), goods(), goods()],
              areas=[["sticky_monkey"], [], ["guard_dogs"], ["guard_dogs"]])  # fmt: skip
    s, _ = perform(s, 0, "bendy_marcella")
    s = act(s, 0, {"type": "take", "items": ["silver"]})
    assert s.prompt is not None and s.prompt.kind == "extra"
    assert legal_texts(s, 0) == ["decline", "take_extra p1 copper", "take_extra p1 silver"]
    s2, events = act_events(s, 0, {"type": "take_extra", "seat": 1, "item": "copper"})
    assert s2.screens[0] == goods(copper=1, silver=1) and s2.screens[1] == goods(silver=1)
    assert "Sticky-Fingered Monkey: {p0} takes one more item from {p1}." in texts(events, 3)
    done(s2, "bendy_marcella")
    s3 = act(s, 0, {"type": "decline"})
    assert s3.screens[1] == goods(copper=1, silver=1)


def test_guard_dogs_protect_from_every_targeting_performance() -> None:
    dogs = [[], ["guard_dogs", "cotton_candy"], ["guard_dogs"], ["guard_dogs"]]
    rich = goods(copper=2, berlin=2)
    for card in ("bendy_marcella", "knife_thrower", "pickpocket_clowns", "human_cannonball",
                 "fire_breather", "candy_thieves", "vanishing_cabinet"):  # fmt: skip
        s = table(screens=[goods(), rich, rich, rich], areas=[list(a) for a in dogs])
        s.areas[0] = ["fog_carousel"]
        s, _ = perform(s, 0, card)
        assert s.screens[1:] == [rich] * 3, card
        done(s, card)
