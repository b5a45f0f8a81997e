"""Karmaka: the seed's card FAQ rulings, its reincarnation example and the spec's worked examples
for copies and offers (docs/rules/karmaka.md, "Worked examples")."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.karmaka import ENGINE
from engines.karmaka.cards import WOLF
from engines.karmaka.model import Done, Pick, SpendRings, Target
from tests.engines.karmaka.position import (
    X,
    Y,
    Z,
    act,
    choose,
    cid,
    offered_to,
    play,
    refuse_all,
    step,
    table,
    target,
    texts,
)


def test_faq_crisis_the_target_chooses_which_deed_to_ruin() -> None:
    """Kryzys: the rival picks any of their Deeds, the buried Voyage included (E15)."""
    cr, voy, pk = cid("crisis"), cid("voyage"), cid("peek")
    s = play(table(3, hands={0: [cr]}, deeds={1: [voy, pk]}), 0, cr)
    s = target(s, 0, 1)
    assert ENGINE.to_act(s) == frozenset({1})
    assert [c["id"] for c in ENGINE.view(s, 1)["prompt"]["cards"]] == [voy, pk]
    s = choose(s, 1, voy)
    assert s.players[1].deeds == [pk]
    assert offered_to(s) == [1]


def test_faq_mimic_1_copying_a_rivals_exposed_embody_uses_one_of_your_own_deeds() -> None:
    """Mimikra 1 (E13): B's exposed Embody lets A resolve A's own Voyage Deed."""
    mm, em, voy = cid("mimic"), cid("embody"), cid("voyage")
    s = table(hands={0: [mm]}, deeds={0: [voy], 1: [em]}, well=[X, Y, Z])
    s = play(s, 0, mm)
    assert s.players[0].hand == [Z, Y, X]
    assert s.players[0].deeds == [voy] and s.players[1].deeds == [em]
    assert offered_to(s) == [1]
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "extra"


def test_faq_mimic_2_the_victim_of_the_copied_ability_is_offered_the_mimic() -> None:
    """Mimikra 2: Mimic A's exposed Spite, ruin B's cards: B (not A) is offered the Mimic."""
    mm, sp = cid("mimic"), cid("spite")
    s = table(3, hands={0: [mm], 2: [X, Y]}, deeds={1: [sp]})
    s = play(s, 0, mm)
    s = target(s, 0, 1)  # source: seat 1's exposed Spite
    s = target(s, 0, 2)  # the copied Spite aimed at seat 2
    s = act(s, 0, Pick(position=1))  # the second pick is the only one left: taken at once
    assert s.players[2].hand == [] and sorted(s.ruins) == sorted([X, Y])
    assert s.players[1].deeds == [sp]
    assert offered_to(s) == [2]


def test_faq_mimic_3_may_copy_the_opposite_player_but_not_aim_at_them() -> None:
    """Mimikra 3 (E9): A copies C's exposed Spite, but the Spite may target only B or D."""
    mm, sp = cid("mimic"), cid("spite")
    s = table(4, hands={0: [mm], 1: [X], 3: [Y]}, deeds={2: [sp]})
    s = play(s, 0, mm)
    assert s.prompt is not None and s.prompt.seats == [1, 2, 3]
    s = target(s, 0, 2)
    assert s.prompt is not None and s.prompt.kind == "target" and s.prompt.seats == [1, 3]
    with pytest.raises(IllegalAction):
        act(s, 0, Target(seat=2))
    s = target(s, 0, 3)
    assert s.ruins == [Y]
    assert offered_to(s) == [3]


def test_faq_mimic_4_mimic_on_an_exposed_mimic_does_nothing() -> None:
    """Mimikra 4 (E13): no loops; the played Mimic is offered clockwise."""
    mm, mm2 = cid("mimic", 0), cid("mimic", 1)
    s = table(3, hands={0: [mm]}, deeds={1: [mm2]})
    s = target(play(s, 0, mm), 0, 1)
    assert offered_to(s) == [1, 2]
    assert s.chain is not None and s.chain.target is None


def test_faq_denial_1_the_rival_hit_by_the_copied_thievery_is_offered_the_denial() -> None:
    """Wykluczenie 1: only B is offered the Denial; the Thievery stays in the Ruins."""
    dn, th = cid("denial"), cid("thievery")
    s = table(3, hands={0: [dn, th], 1: [Y]}, deeds={1: [X]})
    s = play(s, 0, dn)  # the Thievery is the only Hand card: ruined at once
    s = target(s, 0, 1)
    assert s.players[0].hand == [X] and s.ruins == [th]
    assert offered_to(s) == [1]
    s = act(s, 1, {"type": "accept"})
    assert s.players[1].future == [dn] and s.ruins == [th]


def test_faq_denial_2_a_ruined_salvage_can_take_itself_back() -> None:
    """Wykluczenie 2 (E11): the Salvage is on top of the Ruins when its ability runs."""
    dn, sv = cid("denial"), cid("salvage")
    s = table(3, hands={0: [dn, sv]}, ruins=[X, Y])
    s = play(s, 0, dn)  # the Salvage is the only Hand card: ruined at once
    assert s.prompt is not None and s.prompt.cards == [X, Y, sv]
    s = choose(s, 0, sv)
    assert s.players[0].hand == [sv] and s.ruins == [X, Y]
    assert offered_to(s) == [1, 2]


def test_faq_denial_3_a_denial_chain_ruins_each_copied_card_and_offers_only_the_first() -> None:
    """Wykluczenie 3 (E10): Denial₁ → Denial₂ → Thievery on B; Ruins end Denial₂, Thievery."""
    d1, d2, th = cid("denial", 0), cid("denial", 1), cid("thievery")
    s = table(3, hands={0: [d1, d2, th]}, deeds={1: [X]})
    s = play(s, 0, d1)
    s = choose(s, 0, d2)  # Denial₂ then ruins the only card left, the Thievery
    s = target(s, 0, 1)
    assert s.ruins == [d2, th]
    assert s.players[0].hand == [X]
    assert s.chain is not None and s.chain.card == d1
    assert offered_to(s) == [1]


def test_faq_swindle_picks_three_or_fewer_and_keeps_one() -> None:
    """Podstęp (E16): B holds 2, A sees both, keeps 1 and gives 1 back; B learns which."""
    sw = cid("swindle")
    s = table(hands={0: [sw], 1: [X, Y]})
    s = play(s, 0, sw)
    s = act(s, 0, Pick(position=2))  # the other position is then picked at once
    assert s.prompt is not None and s.prompt.kind == "swindle_keep"
    assert sorted(s.prompt.cards) == sorted([X, Y])
    result = step(s, 0, {"type": "choose", "card": Y})
    s = result.state
    assert s.players[0].hand == [Y] and s.players[1].hand == [X]
    mine, theirs = texts(result.events, 0), texts(result.events, 1)
    assert any("you keep Sowing" in t for t in mine)
    assert any("takes Sowing" in t for t in theirs)
    assert not any("Sowing" in t for t in texts(result.events, None))
    assert [c["id"] for c in ENGINE.view(s, 0)["revealed"][0]["cards"]] == s.reveals[0].cards


def test_faq_roulette_ruin_two_then_draw_zero_to_three_one_at_a_time() -> None:
    """Uśmiech losu (E17): after ruining 2, stop after seeing the first drawn card."""
    rl = cid("roulette")
    s = table(hands={0: [rl, X, Y]}, well=[cid("peek"), Z])
    s = play(s, 0, rl)
    s = choose(s, 0, Y)
    s = choose(s, 0, X)
    s = act(s, 0, {"type": "draw"})
    assert s.players[0].hand == [Z]
    assert s.prompt is not None and s.prompt.count == 1 and s.prompt.limit == 3
    s = act(s, 0, Done())
    assert s.players[0].hand == [Z] and s.ruins == [Y, X]
    assert offered_to(s) == [1]


def test_faq_roulette_ruining_none_allows_at_most_one_draw() -> None:
    """Uśmiech losu: 0 ruined → 0 or 1 card."""
    rl = cid("roulette")
    s = table(hands={0: [rl, X]}, well=[Z, Y])
    s = play(s, 0, rl)
    s = act(s, 0, Done())
    s = act(s, 0, {"type": "draw"})
    assert s.players[0].hand == [X, Y]
    assert offered_to(s) == [1]


def test_faq_embody_1_useless_without_deeds_or_with_only_an_embody() -> None:
    """Symulakrum 1 (E13): no Deeds, or only an Embody Deed: nothing; offered clockwise."""
    em, em2 = cid("embody", 0), cid("embody", 1)
    s = play(table(3, hands={0: [em]}), 0, em)
    assert offered_to(s) == [1, 2]
    s = play(table(3, hands={0: [em]}, deeds={0: [em2]}), 0, em)
    assert offered_to(s) == [1, 2]
    assert s.chain is not None and s.chain.target is None


def test_faq_embody_2_embody_on_your_mimic_copies_a_rivals_exposed_deed() -> None:
    """Symulakrum 2 (E13): Embody → own Mimic → B's exposed Vengeance, aimed at B: B offered."""
    em, mm, vg = cid("embody"), cid("mimic"), cid("vengeance")
    s = table(3, hands={0: [em]}, deeds={0: [mm], 1: [X, vg]})
    s = play(s, 0, em)  # the only Deed: Mimic (forced)
    assert s.prompt is not None and s.prompt.kind == "mimic_source"
    s = target(s, 0, 1)
    s = target(s, 0, 1)
    assert s.players[1].deeds == [X] and s.ruins == [vg]
    assert offered_to(s) == [1]


def test_faq_transmigrate_announces_the_position_taken() -> None:
    """Wędrówka dusz: others learn the position counted from the top, not the card."""
    t = cid("transmigrate")
    s = table(hands={0: [t]}, futures={0: [X, Y, Z]})
    s = play(s, 0, t)
    result = step(s, 0, {"type": "choose", "card": X})
    public = texts(result.events, None)
    assert any("card 3 from the top" in line for line in public)
    assert not any("Jubilee" in line for line in public)
    assert result.state.players[0].future == [Y, Z]


def test_faq_dwindle_on_yourself_or_a_rival_who_chooses() -> None:
    """Wypalenie: self is a legal target; a rival with an empty Hand is too (E22)."""
    dw = cid("dwindle")
    s = play(table(3, hands={0: [dw, X]}), 0, dw)
    assert s.prompt is not None and s.prompt.seats == [0, 1, 2]
    s = target(s, 0, 0)
    assert s.ruins == [X]  # A's own single card, forced
    assert offered_to(s) == [1, 2]
    s = target(play(table(3, hands={0: [dw]}), 0, dw), 0, 2)
    assert offered_to(s) == [2]


def test_faq_spite_ruins_the_picks_in_order_picked() -> None:
    """Złośliwość (E16): position 3 then position 1; position 1's card ends on top."""
    sp = cid("spite")
    hand = [X, Y, Z, cid("peek")]
    s = play(table(hands={0: [sp], 1: hand}), 0, sp)
    assert s.prompt is not None
    row = list(s.prompt.row)
    s = act(s, 0, Pick(position=3))
    with pytest.raises(IllegalAction):
        act(s, 0, Pick(position=3))
    s = act(s, 0, Pick(position=1))
    assert s.ruins == [row[2], row[0]]


def test_seed_reincarnation_example_wolf_to_ape_spending_one_of_two_rings() -> None:
    """E1 (the seed's Anna): red 4 + mosaic 1 = 5, one ring → 6: Ape, one ring left."""
    deeds = [cid("panic"), cid("crisis"), cid("another_day"), cid("dwindle"), cid("mimic")]
    fl = [X, Y]
    s = table(
        hands={1: [Z]},
        decks={1: [cid("peek")]},
        deeds={0: deeds},
        futures={0: fl},
        rungs={0: WOLF},
        rings={0: 2},
        turn=1,
    )
    s = act(s, 1, {"type": "pass"})
    assert s.phase == "reincarnate" and s.turn == 0
    view = ENGINE.view(s, 0)
    assert view["players"][0]["card_score"] == 5
    assert view["players"][0]["rings_to_move_up"] == 1
    assert ENGINE.legal_actions(s, 0) == [SpendRings(rings=k) for k in range(3)]
    after = act(s, 0, SpendRings(rings=1))
    me = after.players[0]
    assert me.rung == WOLF + 1 and me.rings == 1
    assert after.ruins[-5:] == deeds
    assert me.hand == fl and len(me.deck) == 4 and me.deeds == [] and me.future == []
    stay = act(s, 0, SpendRings(rings=0)).players[0]
    assert stay.rung == WOLF and stay.rings == 3
    waste = act(s, 0, SpendRings(rings=2)).players[0]
    assert waste.rung == WOLF + 1 and waste.rings == 0


def test_loop_rule_mimic_embody_mimic_stops_at_a_deed_already_copied() -> None:
    """E14: Mimic → B's Embody → A's Mimic Deed → B's Embody again: nothing more happens."""
    mm, mm2, em = cid("mimic", 0), cid("mimic", 1), cid("embody")
    s = table(3, hands={0: [mm]}, deeds={0: [mm2], 1: [em]})
    s = target(play(s, 0, mm), 0, 1)  # B's Embody → A's only Deed (Mimic), forced
    assert s.prompt is not None and s.prompt.kind == "mimic_source"
    s = target(s, 0, 1)
    assert offered_to(s) == [1, 2]
    assert s.chain is not None and s.chain.used_sources == [em, mm2]


def test_embody_choosing_your_own_embody_deed_does_nothing() -> None:
    """E13 (decision): an Embody ability picking an Embody Deed resolves nothing."""
    em, em2, voy = cid("embody", 0), cid("embody", 1), cid("voyage")
    s = table(hands={0: [em]}, deeds={0: [voy, em2]})
    s = play(s, 0, em)
    s = choose(s, 0, em2)
    assert s.players[0].hand == [] and offered_to(s) == [1]


def test_offers_three_players_follow_the_target_or_go_clockwise() -> None:
    """E8: Voyage → B then C, then the extra play; Vengeance on C → only C; Longevity on self."""
    voy, vg, lg = cid("voyage"), cid("vengeance"), cid("longevity")
    s = play(table(3, hands={0: [voy, X]}), 0, voy)
    assert offered_to(s) == [1, 2]
    s = act(s, 1, {"type": "refuse"})
    assert s.phase == "offer" and ENGINE.to_act(s) == frozenset({2})
    s = act(s, 2, {"type": "accept"})
    assert s.players[2].future[-1] == voy and s.phase == "extra"
    s = target(play(table(3, hands={0: [vg]}, deeds={2: [X]}), 0, vg), 0, 2)
    assert offered_to(s) == [2]
    s = target(play(table(3, hands={0: [lg]}), 0, lg), 0, 0)
    assert offered_to(s) == [1, 2]
    s = refuse_all(s)
    assert s.ruins[-1] == lg


def test_four_players_targets_exclude_the_opposite_but_offers_include_them() -> None:
    """E9: Spite never at C; a Voyage copied by Mimic is offered to B, C, D."""
    sp = cid("spite")
    s = play(table(4, hands={0: [sp]}), 0, sp)
    assert s.prompt is not None and s.prompt.seats == [1, 3]
    mm, voy = cid("mimic"), cid("voyage")
    s = table(4, hands={0: [mm, X]}, deeds={2: [voy]})
    s = target(play(s, 0, mm), 0, 2)
    assert offered_to(s) == [1, 2, 3]
    s = refuse_all(s)
    assert s.phase == "extra" and s.turn == 0


def test_extra_plays_chain_two_players() -> None:
    """E12: Another Day (refused), extra Peek (B takes it), extra Deed ends the turn."""
    ad, pk = cid("another_day"), cid("peek")
    s = table(hands={0: [ad, pk, X], 1: [Y]}, decks={1: [Z]}, well=[cid("panic")])
    s = play(s, 0, ad)
    s = act(s, 1, {"type": "refuse"})
    assert s.ruins == [ad] and s.phase == "extra"
    s = play(s, 0, pk)
    s = act(s, 1, {"type": "accept"})
    assert s.players[1].future == [pk] and s.phase == "extra"
    s = play(s, 0, X, "deed")
    assert s.turn == 1 and s.players[0].deeds == [X]


def test_no_effect_dwindle_on_an_empty_hand_is_still_offered_to_that_rival() -> None:
    """E22: the seed's example of playing for no effect."""
    dw = cid("dwindle")
    s = target(play(table(hands={0: [dw]}), 0, dw), 0, 1)
    assert offered_to(s) == [1]
