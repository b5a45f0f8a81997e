"""Karmaka: one test per card ability (docs/rules/karmaka.md, "Cards"), happy path and edge."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.karmaka import ENGINE
from engines.karmaka.model import Choose, Done, Draw, Pick, Target
from tests.engines.karmaka.position import (
    X,
    Y,
    Z,
    act,
    choose,
    cid,
    offered_to,
    play,
    table,
    target,
)


def test_transmigrate_takes_any_future_life_card_and_keeps_the_others_order() -> None:
    """The chosen card goes to the Hand; the others keep their order; offered to the rival."""
    t = cid("transmigrate")
    a, b, c = cid("peek"), cid("spite"), cid("crisis")
    s = table(hands={0: [t]}, futures={0: [a, b, c]})
    s = play(s, 0, t)
    assert s.prompt is not None and s.prompt.kind == "transmigrate"
    s = choose(s, 0, b)
    assert s.players[0].hand == [b] and s.players[0].future == [a, c]
    assert offered_to(s) == [1]


def test_transmigrate_with_an_empty_future_life_is_legal_and_still_offered() -> None:
    """E22: nothing happens, the card is offered clockwise."""
    t = cid("transmigrate")
    s = play(table(3, hands={0: [t]}), 0, t)
    assert offered_to(s) == [1, 2]


def test_peek_shows_the_hand_to_the_actor_only_and_grants_an_extra_play() -> None:
    """Peek on a rival: the actor's view lists the Hand, the others' do not; then an extra play."""
    p, x = cid("peek"), cid("vengeance")
    hand1 = [cid("spite"), cid("crisis")]
    s = table(3, hands={0: [p, x], 1: hand1}, turn=0)
    s = play(s, 0, p)
    s = target(s, 0, 1)
    assert offered_to(s) == [1]
    for seat in (0, 1, 2, None):
        revealed = ENGINE.view(s, seat)["revealed"]
        if seat == 0:
            assert [c["id"] for c in revealed[0]["cards"]] == hand1
        else:
            assert revealed == []
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra" and s.turn == 0


def test_peek_with_an_empty_hand_has_no_extra_play() -> None:
    """Extra plays need a card in Hand: with none left the turn ends."""
    p = cid("peek")
    s = table(hands={0: [p], 1: [X]}, decks={1: [Y]})
    s = play(s, 0, p)  # the only rival is named at once
    s = act(s, 1, {"type": "refuse"})
    assert s.turn == 1 and s.phase == "play"


def test_destiny_keeps_up_to_two_and_returns_the_rest_in_chosen_order() -> None:
    """Look at 3, keep 1 on the Future Life, put 2 back with the chosen one on top."""
    d = cid("destiny")
    a, b, c = cid("peek", 1), cid("spite"), cid("crisis")
    s = table(hands={0: [d]}, well=[a, b, c])
    s = play(s, 0, d)
    assert s.prompt is not None and s.prompt.cards == [c, b, a]
    s = choose(s, 0, b)
    s = act(s, 0, Done())
    assert s.prompt is not None and s.prompt.kind == "destiny_return"
    s = choose(s, 0, a)  # first back: a, then c (forced) on top
    assert s.players[0].future == [b]
    assert s.well[-2:] == [a, c]
    assert offered_to(s) == [1]


def test_destiny_with_an_empty_well_and_few_ruins_sees_nothing() -> None:
    """No Well card and 3 Ruins: nothing to look at; the card is still offered."""
    d = cid("destiny")
    s = table(hands={0: [d]}, ruins=[X, Y, Z], rest="future:1")
    s = play(s, 0, d)
    assert offered_to(s) == [1]
    assert s.ruins == [X, Y, Z]


def test_stolen_dreams_moves_the_top_future_life_card() -> None:
    """The rival's top Future Life card goes onto the actor's Future Life."""
    sd = cid("stolen_dreams")
    s = table(hands={0: [sd]}, futures={0: [Z], 1: [X, Y]})
    s = play(s, 0, sd)
    assert s.players[0].future == [Z, Y] and s.players[1].future == [X]
    assert offered_to(s) == [1]


@pytest.mark.parametrize(("ability", "pile"), [("stolen_dreams", "future"), ("thievery", "hand")])
def test_taking_from_an_empty_pile_does_nothing(ability: str, pile: str) -> None:
    """Stolen Dreams on an empty Future Life, Thievery on a rival without Deeds: nothing to
    take (the actor's `pile` stays empty), but the rival named is offered the card."""
    card = cid(ability)
    s = play(table(hands={0: [card]}), 0, card)
    assert getattr(s.players[0], pile) == [] and offered_to(s) == [1]


def test_denial_ruins_a_hand_card_then_uses_its_ability() -> None:
    """Denial ruins Another Day and copies it: draw 1, and the copied extra play."""
    dn, ad = cid("denial"), cid("another_day")
    s = table(hands={0: [dn, ad, X]}, well=[Y])
    s = play(s, 0, dn)
    s = choose(s, 0, ad)
    assert s.ruins == [ad]
    assert s.players[0].hand == [X, Y]
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra"


def test_denial_with_an_empty_hand_resolves_nothing() -> None:
    """A copy with nothing to copy: no target, offered clockwise."""
    dn = cid("denial")
    s = play(table(3, hands={0: [dn]}), 0, dn)
    assert offered_to(s) == [1, 2]


def test_thievery_takes_the_exposed_deed_into_the_hand() -> None:
    """Only the top Deed moves."""
    th = cid("thievery")
    s = table(hands={0: [th]}, deeds={1: [X, Y]})
    s = play(s, 0, th)
    assert s.players[0].hand == [Y] and s.players[1].deeds == [X]
    assert offered_to(s) == [1]


def test_swindle_picks_three_keeps_one_and_gives_the_others_back() -> None:
    """Three blind picks from a 4-card Hand; the actor keeps one of them."""
    sw = cid("swindle")
    hand1 = [cid("peek"), cid("spite"), cid("crisis"), cid("panic")]
    s = table(hands={0: [sw], 1: hand1})
    s = play(s, 0, sw)
    assert s.prompt is not None and s.prompt.kind == "swindle_pick"
    assert sorted(s.prompt.row) == sorted(hand1)
    for position in (4, 1, 2):
        s = act(s, 0, Pick(position=position))
    assert s.prompt is not None and s.prompt.kind == "swindle_keep"
    picked = list(s.prompt.cards)
    assert len(picked) == 3
    s = choose(s, 0, picked[1])
    assert s.players[0].hand == [picked[1]]
    assert sorted(s.players[1].hand) == sorted(c for c in hand1 if c != picked[1])
    assert offered_to(s) == [1]


def test_swindle_on_a_one_card_hand_takes_that_card() -> None:
    """Fewer than 3 cards: all of them are picked; with 1 the choice is forced."""
    sw = cid("swindle")
    s = play(table(hands={0: [sw], 1: [X]}), 0, sw)
    assert s.players[0].hand == [X] and s.players[1].hand == []
    assert offered_to(s) == [1]


def test_another_day_draws_one_and_grants_an_extra_play() -> None:
    """Draw 1 from the Well; after the offer, the extra play."""
    ad = cid("another_day")
    s = table(hands={0: [ad]}, well=[X])
    s = play(s, 0, ad)
    assert s.players[0].hand == [X]
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra" and s.ruins == [ad]


def test_another_day_with_no_card_anywhere_draws_nothing() -> None:
    """Empty Well, no refill possible: no card, so no extra play either."""
    ad = cid("another_day")
    s = table(hands={0: [ad]}, decks={1: [Y]}, rest="future:1")
    s = play(s, 0, ad)
    assert s.players[0].hand == []
    s = act(s, 1, {"type": "refuse"})
    assert s.turn == 1


def test_recycle_puts_one_of_the_top_three_ruins_on_the_future_life() -> None:
    """Only the top 3 Ruins are offered; the others keep their order."""
    rc = cid("recycle")
    a, b = cid("peek"), cid("spite")
    s = table(hands={0: [rc]}, ruins=[a, b, X, Y, Z])
    s = play(s, 0, rc)
    assert s.prompt is not None and s.prompt.cards == [X, Y, Z]
    with pytest.raises(IllegalAction):
        act(s, 0, Choose(card=b))
    s = choose(s, 0, Y)
    assert s.players[0].future == [Y] and s.ruins == [a, b, X, Z]


def test_recycle_with_one_ruins_card_takes_it() -> None:
    """Fewer than 3: all of them; with 1 the choice is forced."""
    rc = cid("recycle")
    s = play(table(hands={0: [rc]}, ruins=[X]), 0, rc)
    assert s.players[0].future == [X] and s.ruins == []


def test_salvage_puts_one_of_the_top_three_ruins_into_the_hand() -> None:
    """The chosen Ruins card goes into the Hand."""
    sv = cid("salvage")
    s = table(hands={0: [sv]}, ruins=[X, Y])
    s = play(s, 0, sv)
    s = choose(s, 0, X)
    assert s.players[0].hand == [X] and s.ruins == [Y]


def test_salvage_with_empty_ruins_does_nothing() -> None:
    """Nothing to take."""
    sv = cid("salvage")
    s = play(table(hands={0: [sv]}), 0, sv)
    assert s.players[0].hand == [] and offered_to(s) == [1]


def test_longevity_puts_two_well_cards_on_the_targets_deck() -> None:
    """Two cards, one at a time, on top of the target's Deck; the target is offered the card."""
    lg = cid("longevity")
    s = table(3, hands={0: [lg]}, decks={1: [Z]}, well=[X, Y])
    s = target(play(s, 0, lg), 0, 1)
    assert s.players[1].deck == [Z, Y, X]
    assert offered_to(s) == [1]


def test_longevity_on_yourself_with_one_well_card_left_and_no_refill() -> None:
    """Fewer cards than asked: the effect gets what there is; self target is offered clockwise."""
    lg = cid("longevity")
    s = table(3, hands={0: [lg]}, well=[X], rest="future:2")
    s = target(play(s, 0, lg), 0, 0)
    assert s.players[0].deck == [X]
    assert offered_to(s) == [1, 2]


def test_sowing_draws_two_then_puts_two_hand_cards_on_the_future_life() -> None:
    """The two cards may include those just drawn; the order chosen is kept."""
    sw = cid("sowing")
    s = table(hands={0: [sw, Z]}, well=[X, Y])
    s = play(s, 0, sw)
    assert sorted(s.players[0].hand) == sorted([Z, X, Y])
    s = choose(s, 0, Y)
    s = choose(s, 0, Z)
    assert s.players[0].future == [Y, Z] and s.players[0].hand == [X]
    assert offered_to(s) == [1]


def test_sowing_with_one_card_available_puts_that_one() -> None:
    """Empty Well, one Hand card: the second step puts all (1) of them."""
    sw = cid("sowing")
    s = table(hands={0: [sw, Z]}, rest="future:1")
    s = play(s, 0, sw)
    assert s.players[0].future == [Z] and s.players[0].hand == []


def test_voyage_draws_three_and_grants_an_extra_play() -> None:
    """Three cards from the Well, offer, then the extra play."""
    vg = cid("voyage")
    a, b, c = cid("peek"), cid("spite"), cid("crisis")
    s = table(hands={0: [vg]}, well=[a, b, c])
    s = play(s, 0, vg)
    assert s.players[0].hand == [c, b, a]
    s = act(s, 1, {"type": "accept"})
    assert s.players[1].future == [vg] and s.phase == "extra"


def test_voyage_draws_fewer_when_the_well_runs_dry() -> None:
    """Two Well cards and no refill: two cards."""
    vg = cid("voyage")
    s = play(table(hands={0: [vg]}, well=[X, Y], rest="future:1"), 0, vg)
    assert s.players[0].hand == [Y, X]


def test_jubilee_puts_up_to_two_cards_on_the_deeds_in_chosen_order() -> None:
    """The last one placed becomes the Exposed Deed."""
    jb = cid("jubilee")
    s = table(hands={0: [jb, X, Y, Z]})
    s = play(s, 0, jb)
    s = choose(s, 0, Y)
    s = choose(s, 0, X)
    assert s.players[0].deeds == [Y, X]
    assert offered_to(s) == [1]


def test_jubilee_may_place_none() -> None:
    """0 is allowed: stop at once."""
    jb = cid("jubilee")
    s = play(table(hands={0: [jb, X]}), 0, jb)
    s = act(s, 0, Done())
    assert s.players[0].deeds == [] and s.players[0].hand == [X]


def test_dwindle_lets_the_target_choose_the_card_to_ruin() -> None:
    """The target, not the actor, must answer."""
    dw = cid("dwindle")
    s = table(hands={0: [dw], 1: [X, Y]})
    s = target(play(s, 0, dw), 0, 1)
    assert ENGINE.to_act(s) == frozenset({1})
    assert ENGINE.view(s, 1)["prompt"]["kind"] == "dwindle"
    assert ENGINE.view(s, 0)["prompt"] is None
    s = choose(s, 1, Y)
    assert s.players[1].hand == [X] and s.ruins == [Y]
    assert offered_to(s) == [1]


def test_panic_ruins_the_top_of_the_targets_deck_and_grants_an_extra_play() -> None:
    """Top card of the Deck to the Ruins."""
    pn = cid("panic")
    s = table(hands={0: [pn, Z], 1: [cid("peek")]}, decks={1: [X, Y]})
    s = target(play(s, 0, pn), 0, 1)
    assert s.players[1].deck == [X] and s.ruins == [Y]
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra"


def test_panic_on_an_empty_deck_does_nothing() -> None:
    """The target is still offered the card."""
    pn = cid("panic")
    s = target(play(table(hands={0: [pn]}), 0, pn), 0, 1)
    assert s.ruins == [] and offered_to(s) == [1]


def test_crisis_lets_the_target_ruin_any_deed() -> None:
    """E15: the buried Voyage goes; Peek stays exposed."""
    cr = cid("crisis")
    pk = cid("peek")
    s = table(hands={0: [cr]}, deeds={1: [X, pk]})
    s = play(s, 0, cr)
    assert ENGINE.to_act(s) == frozenset({1})
    s = choose(s, 1, X)
    assert s.players[1].deeds == [pk] and s.ruins == [X]


def test_crisis_on_a_rival_without_deeds_does_nothing() -> None:
    """Nothing to ruin; offered to that rival."""
    cr = cid("crisis")
    s = play(table(hands={0: [cr]}), 0, cr)
    assert offered_to(s) == [1]


def test_hells_heart_ruins_the_top_two_future_life_cards_top_first() -> None:
    """E19: z then y are ruined, y ends on top; x stays."""
    hh = cid("hells_heart")
    x, y, z = X, Y, Z
    s = play(table(hands={0: [hh]}, futures={1: [x, y, z]}), 0, hh)
    assert s.ruins == [z, y] and s.players[1].future == [x]


def test_hells_heart_on_a_one_card_future_life() -> None:
    """Fewer than 2: just the one."""
    hh = cid("hells_heart")
    s = play(table(hands={0: [hh]}, futures={1: [X]}), 0, hh)
    assert s.ruins == [X] and s.players[1].future == []


def test_roulette_ruins_up_to_two_then_draws_up_to_that_plus_one() -> None:
    """E17: 2 ruined allow 3 draws, one at a time."""
    rl = cid("roulette")
    a, b, c = cid("peek"), cid("spite"), cid("crisis")
    s = table(hands={0: [rl, X, Y]}, well=[a, b, c])
    s = play(s, 0, rl)
    s = choose(s, 0, X)
    s = choose(s, 0, Y)
    assert s.prompt is not None and s.prompt.kind == "roulette_draw" and s.prompt.limit == 3
    for _ in range(3):
        s = act(s, 0, Draw())
    assert s.players[0].hand == [c, b, a]
    assert offered_to(s) == [1]


def test_roulette_ruining_none_allows_one_draw_and_stopping_early() -> None:
    """E17: 0 ruined, 0 or 1 draw; stopping before the first draw is allowed."""
    rl = cid("roulette")
    s = play(table(hands={0: [rl, X]}, well=[Y]), 0, rl)
    s = act(s, 0, Done())
    assert s.prompt is not None and s.prompt.limit == 1
    s = act(s, 0, Done())
    assert s.players[0].hand == [X] and offered_to(s) == [1]


def test_vengeance_ruins_the_exposed_deed() -> None:
    """Only the top Deed."""
    vg = cid("vengeance")
    s = play(table(hands={0: [vg]}, deeds={1: [X, Y]}), 0, vg)
    assert s.players[1].deeds == [X] and s.ruins == [Y]


def test_vengeance_without_deeds_does_nothing() -> None:
    """Nothing to ruin."""
    vg = cid("vengeance")
    s = play(table(hands={0: [vg]}), 0, vg)
    assert s.ruins == [] and offered_to(s) == [1]


def test_spite_ruins_two_blind_picks_in_order() -> None:
    """E16: picks 3 then 1; the second pick ends on top of the Ruins."""
    sp = cid("spite")
    hand1 = [cid("peek"), cid("crisis"), cid("panic"), X]
    s = play(table(hands={0: [sp], 1: hand1}), 0, sp)
    row = list(s.prompt.row) if s.prompt else []
    s = act(s, 0, Pick(position=3))
    s = act(s, 0, Pick(position=1))
    assert s.ruins == [row[2], row[0]]
    assert sorted(s.players[1].hand) == sorted([row[1], row[3]])


def test_spite_on_a_one_card_hand_ruins_that_card() -> None:
    """E16: only as many picks as the target holds."""
    sp = cid("spite")
    s = play(table(hands={0: [sp], 1: [X]}), 0, sp)
    assert s.ruins == [X] and offered_to(s) == [1]


def test_embody_resolves_one_of_your_deeds_which_stays() -> None:
    """Embody copies an own Voyage Deed: draw 3 and the copied extra play."""
    em = cid("embody")
    vg = cid("voyage")
    s = table(hands={0: [em]}, deeds={0: [vg, Z]}, well=[X, Y, cid("peek")])
    s = play(s, 0, em)
    s = choose(s, 0, vg)
    assert s.players[0].deeds == [vg, Z] and len(s.players[0].hand) == 3
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra"


def test_embody_with_no_deeds_does_nothing_and_is_offered() -> None:
    """E13: offered to B in 2 players."""
    em = cid("embody")
    s = play(table(hands={0: [em]}), 0, em)
    assert offered_to(s) == [1]


def test_mimic_resolves_a_rivals_exposed_deed() -> None:
    """Mimic on B's exposed Vengeance aimed at B ruins that very Deed."""
    mm, vg = cid("mimic"), cid("vengeance")
    s = table(3, hands={0: [mm]}, deeds={1: [X, vg]})
    s = play(s, 0, mm)
    assert s.prompt is not None and s.prompt.kind == "mimic_source"
    s = target(s, 0, 1)
    assert s.prompt is not None and s.prompt.kind == "target" and s.prompt.seats == [1, 2]
    s = target(s, 0, 1)
    assert s.players[1].deeds == [X] and s.ruins == [vg]
    assert offered_to(s) == [1]


def test_mimic_on_a_rival_without_deeds_does_nothing() -> None:
    """No Exposed Deed: nothing resolves; offered clockwise."""
    mm = cid("mimic")
    s = target(play(table(3, hands={0: [mm]}), 0, mm), 0, 2)
    assert offered_to(s) == [1, 2]


def test_target_prompt_refuses_a_seat_that_is_not_a_legal_target() -> None:
    """A rival-only ability cannot name yourself."""
    vg = cid("vengeance")
    s = play(table(3, hands={0: [vg]}, deeds={1: [X]}), 0, vg)
    with pytest.raises(IllegalAction):
        act(s, 0, Target(seat=0))
