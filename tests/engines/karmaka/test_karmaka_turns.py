"""Karmaka: setup, the turn, passing, reincarnation, the Well refill and the end
(docs/rules/karmaka.md, "Setup", "Turn", "Reincarnation", "The Well runs out", "End")."""

from __future__ import annotations

import pytest

from engines.core import GameOver, IllegalAction, MalformedAction, NotYourTurn
from engines.karmaka import ENGINE
from engines.karmaka.cards import SAFETY_ROUNDS, TRANSCENDENCE, WOLF
from engines.karmaka.flow import reincarnate
from engines.karmaka.model import Done, Options, Pass, Play, SpendRings
from tests.engines.karmaka.position import X, Y, Z, act, choose, cid, play, table

W = cid("another_day", 2)
"""One more filler: it keeps seat 0 from running out of cards."""


def opts(mode: str = "free_for_all") -> Options:
    """Parsed options."""
    return ENGINE.parse_options({"mode": mode})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_four_to_each_hand_and_two_to_each_deck(n: int) -> None:
    """Everybody on Dung Beetle with 0 rings; the starter has already drawn from the Deck."""
    s = ENGINE.setup(n, opts(), 5).state
    for seat, p in enumerate(s.players):
        drawn = 1 if seat == s.turn else 0
        assert (len(p.hand), len(p.deck)) == (4 + drawn, 2 - drawn)
        assert p.rung == 0 and p.rings == 0 and p.future == [] and p.deeds == []
    assert len(s.well) == 64 - 6 * n and s.ruins == []
    assert ENGINE.view(s, None)["rings_supply"] == 12


def test_setup_refuses_a_mode_that_does_not_fit_the_player_count() -> None:
    """2v2 needs 4, 2-on-1 needs 3; unknown modes are malformed."""
    with pytest.raises(IllegalAction, match="needs 4"):
        ENGINE.setup(3, opts("teams_2v2"), 1)
    with pytest.raises(IllegalAction, match="needs 3"):
        ENGINE.setup(4, opts("big_bad_wolf_2v1"), 1)
    with pytest.raises(MalformedAction):
        ENGINE.parse_options({"mode": "everyone_for_himself"})
    with pytest.raises(IllegalAction):
        ENGINE.setup(5, opts(), 1)


def test_big_bad_wolf_setup_puts_the_lone_player_on_wolf() -> None:
    """E21: seat 0 on Wolf, seats 1 and 2 on Dung Beetle."""
    s = ENGINE.setup(3, opts("big_bad_wolf_2v1"), 3).state
    assert [p.rung for p in s.players] == [WOLF, 0, 0]


def test_random_start_player_varies_with_the_seed() -> None:
    """Decision: a random player starts."""
    assert len({ENGINE.setup(4, opts(), seed).state.turn for seed in range(12)}) > 1


def test_passing_needs_a_card_left_in_the_deck_after_the_draw() -> None:
    """E6: Deck 1 → draw it, must play; Deck 2 → may pass; Deck 0 → must play."""
    s = table(hands={0: [Z, W], 1: [X]}, decks={1: [Y]})
    s = act(s, 0, Play(card=Z, way="deed"))
    assert s.turn == 1 and s.players[1].deck == [] and s.players[1].hand == [X, Y]
    assert Pass() not in ENGINE.legal_actions(s, 1)
    with pytest.raises(IllegalAction, match="Deck"):
        act(s, 1, Pass())
    s = table(hands={0: [Z, W], 1: [X]}, decks={1: [Y, cid("peek")]})
    s = act(s, 0, Play(card=Z, way="deed"))
    assert ENGINE.legal_actions(s, 1)[0] == Pass()
    s = act(s, 1, Pass())
    assert s.turn == 0


def test_empty_hand_and_deck_at_turn_start_means_reincarnation_without_a_choice() -> None:
    """E6: Hand 0 and Deck 0 → reincarnation; with no rings it happens at once."""
    s = table(hands={0: [Z, W]}, futures={1: [X]}, deeds={1: [cid("voyage"), cid("jubilee")]})
    s = act(s, 0, Play(card=Z, way="future"))
    # seat 1 scored green 6 ≥ 4, moved to Snake, and its single Future Life card is its Hand
    assert s.players[1].rung == 1 and s.players[1].hand == [X] and len(s.players[1].deck) == 5
    assert s.turn == 0 and s.phase == "play"


def test_reincarnation_moves_up_one_rung_at_most() -> None:
    """E2: green 8 + mosaic 1 = 9 on Snake moves to Wolf only."""
    deeds = [cid("voyage"), cid("jubilee"), cid("sowing"), cid("spite"), cid("embody")]
    s = table(deeds={0: deeds}, rungs={0: 1}, hands={1: [X]})
    reincarnate(s, 0, 0, [])
    assert s.players[0].rung == WOLF and s.players[0].rings == 0


def test_reincarnation_from_ape_wins_and_leaves_the_deeds() -> None:
    """E3: blue 6 + mosaic 1 = 7 on Ape: Transcendence, the game ends, Deeds stay."""
    deeds = [cid("thievery"), cid("swindle"), cid("embody")]
    s = table(deeds={0: deeds}, rungs={0: 3}, hands={1: [X]})
    reincarnate(s, 0, 0, [])
    assert s.players[0].rung == TRANSCENDENCE and s.players[0].deeds == deeds
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({0})
    assert ENGINE.to_act(s) == frozenset()
    with pytest.raises(GameOver):
        ENGINE.apply(s, 1, Pass())


def test_reincarnation_with_mosaic_deeds_only() -> None:
    """E4: Embody, Embody, Mimic, Embody = 4 moves a Dung Beetle to Snake."""
    deeds = [cid("embody", 0), cid("embody", 1), cid("mimic"), cid("embody", 2)]
    s = table(deeds={0: deeds}, hands={1: [X]})
    reincarnate(s, 0, 0, [])
    assert s.players[0].rung == 1


def test_failed_reincarnation_gains_a_ring_and_the_supply_is_unlimited() -> None:
    """Short of the threshold: stay and gain a ring, even past the 12 tokens."""
    s = table(deeds={0: [X]}, rings={0: 12}, hands={1: [Y]})
    reincarnate(s, 0, 0, [])
    assert s.players[0].rung == 0 and s.players[0].rings == 13
    assert ENGINE.view(s, None)["rings_supply"] == 0


@pytest.mark.parametrize(("future", "hand", "deck"), [(7, 7, 0), (3, 3, 3), (0, 0, 6)])
def test_new_life_tops_the_deck_up_to_six_cards(future: int, hand: int, deck: int) -> None:
    """E5: Future Life 7 → Hand 7, Deck 0; 3 → 3 and 3; 0 → 0 and 6."""
    fl = list(range(future))
    s = table(futures={0: fl}, hands={1: [60]})
    reincarnate(s, 0, 0, [])
    assert (len(s.players[0].hand), len(s.players[0].deck)) == (hand, deck)
    assert s.players[0].hand == fl


def test_empty_future_life_then_draw_one_and_may_pass() -> None:
    """E5: with 6 in the Deck the next turn draws 1 and, 5 left, may pass."""
    s = table(hands={0: [X, W]}, futures={1: []}, deeds={1: [Y]})
    s = act(s, 0, Play(card=X, way="deed"))  # seat 1 reincarnates (no rings), seat 0 again
    assert len(s.players[1].deck) == 6
    s = table(hands={0: [Z], 1: []}, decks={1: [1, 2, 3, 4, 5, 6]})
    s = act(s, 0, Play(card=Z, way="deed"))
    assert len(s.players[1].hand) == 1 and ENGINE.legal_actions(s, 1)[0] == Pass()


def test_reincarnation_with_rings_waits_for_the_spend_choice() -> None:
    """The player chooses how many rings to spend; any number up to those held."""
    s = table(hands={0: [Z]}, rings={1: 2}, deeds={1: [cid("voyage")]})
    s = act(s, 0, Play(card=Z, way="deed"))
    assert s.phase == "reincarnate" and ENGINE.to_act(s) == frozenset({1})
    with pytest.raises(IllegalAction):
        act(s, 1, SpendRings(rings=3))
    s = act(s, 1, SpendRings(rings=1))  # green 3 + 1 = 4
    assert s.players[1].rung == 1 and s.players[1].rings == 1


def test_a_player_emptied_during_another_turn_is_saved_by_longevity() -> None:
    """Reincarnation is checked only at the start of one's own turn."""
    lg = cid("longevity")
    s = table(hands={0: [lg]}, well=[X, Y])
    s = play(s, 0, lg)
    s = act(s, 0, {"type": "target", "seat": 1})
    s = act(s, 1, {"type": "refuse"})
    assert s.turn == 1 and s.players[1].hand == [X] and s.players[1].deck == [Y]
    assert s.players[1].rung == 0 and s.phase == "play"


def test_well_refill_keeps_the_top_three_ruins() -> None:
    """E7: Ruins r1…r10, empty Well: r1…r7 become the Well, r8–r10 stay; then the draw."""
    ruins = list(range(40, 50))
    ad = cid("another_day")
    s = table(hands={0: [ad]}, ruins=ruins, rest="future:1")
    s = play(s, 0, ad)
    assert s.ruins == ruins[-3:]
    assert len(s.well) == 6 and len(s.players[0].hand) == 1
    assert sorted(s.well + s.players[0].hand) == sorted(ruins[:7])


def test_well_refill_with_three_ruins_moves_nothing() -> None:
    """E7: with 3 Ruins nothing moves and the draw gets no card."""
    ad = cid("another_day")
    s = play(table(hands={0: [ad]}, ruins=[X, Y, Z], rest="future:1"), 0, ad)
    assert s.ruins == [X, Y, Z] and s.well == [] and s.players[0].hand == []


def test_destiny_refills_the_well_midway() -> None:
    """E18: Well 2, Ruins 5: take 2, refill (Ruins keep 3), take 1, keep 1, return 2."""
    d = cid("destiny")
    r = [40, 41, 42, 43, 44]
    s = table(hands={0: [d]}, well=[X, Y], ruins=r, rest="future:1")
    s = play(s, 0, d)
    assert s.prompt is not None and len(s.prompt.cards) == 3
    assert s.prompt.cards[:2] == [Y, X] and s.prompt.cards[2] in (40, 41)
    assert s.ruins == [42, 43, 44] and len(s.well) == 1
    s = choose(s, 0, X)
    s = act(s, 0, Done())
    s = choose(s, 0, Y)
    assert s.players[0].future[-1] == X and len(s.well) == 3 and s.well[-2] == Y


def test_safety_limit_ends_the_game_without_a_winner() -> None:
    """Decision: after 500 full rounds the game ends with no winner."""
    s = table(hands={0: [X], 1: [Y]})
    s.turns_started = SAFETY_ROUNDS * 2
    s = act(s, 0, Play(card=X, way="deed"))
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == frozenset()
    assert "500" in outcome.reason


def test_refusals_are_typed_and_change_nothing() -> None:
    """Wrong seat, unknown action, a card not in Hand, way D outside teams_2v2."""
    s = table(hands={0: [X], 1: [Y]})
    before = ENGINE.dump(s)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 1, Play(card=Y, way="deed"))
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "play", "card": X})
    with pytest.raises(IllegalAction, match="not in your Hand"):
        ENGINE.apply(s, 0, Play(card=Y, way="deed"))
    with pytest.raises(IllegalAction, match="teams of two"):
        ENGINE.apply(s, 0, Play(card=X, way="partner"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, SpendRings(rings=0))
    assert ENGINE.dump(s) == before


def test_action_texts_and_json_round_trip() -> None:
    """Every action has a short text and survives its JSON form."""
    s = table(3, hands={0: [cid("peek"), X]}, decks={0: [Y]})
    texts = [ENGINE.action_text(a) for a in ENGINE.legal_actions(s, 0)]
    assert texts[:4] == ["pass", "play peek#3 deed", "play peek#3 ability", "play peek#3 future"]
    for action in ENGINE.legal_actions(s, 0):
        assert ENGINE.parse_action(ENGINE.dump_action(action)) == action
