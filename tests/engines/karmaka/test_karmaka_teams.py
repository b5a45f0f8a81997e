"""Karmaka team variants: teams_2v2 and big_bad_wolf_2v1 (docs/rules/karmaka.md, "Team
variants"): way D, partners as targets of non-destructive abilities only, offers to rivals only."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction, Rng
from engines.karmaka import ENGINE
from engines.karmaka.cards import TRANSCENDENCE, WOLF
from engines.karmaka.flow import reincarnate
from engines.karmaka.model import Play, Target
from tests.engines.invariants import check_state_invariants, play_random, replay
from tests.engines.karmaka.position import (
    X,
    Y,
    Z,
    act,
    cid,
    offered_to,
    play,
    step,
    table,
    target,
    texts,
)


def test_teams_longevity_on_the_partner_is_offered_to_the_rivals_only() -> None:
    """E20: A + C against B + D; Longevity on C, offered to B then D, never to C."""
    lg = cid("longevity")
    s = play(table(4, mode="teams_2v2", hands={0: [lg]}), 0, lg)
    assert s.prompt is not None and s.prompt.seats == [0, 1, 2, 3]
    s = target(s, 0, 2)
    assert len(s.players[2].deck) == 2
    assert offered_to(s) == [1, 3]


def test_teams_peek_may_look_at_the_partner() -> None:
    """E20: Peek is not destructive, so the partner is a legal target."""
    pk = cid("peek")
    s = play(table(4, mode="teams_2v2", hands={0: [pk, X], 2: [Y]}), 0, pk)
    assert s.prompt is not None and s.prompt.seats == [1, 2, 3]
    s = target(s, 0, 2)
    assert ENGINE.view(s, 0)["revealed"][0]["about"] == 2
    assert offered_to(s) == [1, 3]


@pytest.mark.parametrize(
    ("kind", "seats"),
    [("panic", [0, 1, 3]), ("dwindle", [0, 1, 3]), ("spite", [1, 3]), ("vengeance", [1, 3])],
)
def test_teams_destructive_abilities_never_target_the_partner(kind: str, seats: list[int]) -> None:
    """E20: Panic, Dwindle and every other destructive card exclude seat 2."""
    card = cid(kind)
    s = play(table(4, mode="teams_2v2", hands={0: [card]}), 0, card)
    assert s.prompt is not None and s.prompt.seats == seats
    with pytest.raises(IllegalAction):
        act(s, 0, Target(seat=2))


def test_teams_way_d_puts_a_card_secretly_on_the_partners_future_life() -> None:
    """E20: way D is not offered; only the two partners learn the card."""
    s = table(4, mode="teams_2v2", hands={0: [X, Y], 1: [Z]})
    assert Play(card=X, way="partner") in ENGINE.legal_actions(s, 0)
    result = step(s, 0, {"type": "play", "card": X, "way": "partner"})
    assert result.state.players[2].future == [X] and result.state.turn == 1
    assert any("Jubilee" in t for t in texts(result.events, 0))
    assert any("Jubilee" in t for t in texts(result.events, 2))
    for seat in (1, 3, None):
        assert not any("Jubilee" in t for t in texts(result.events, seat))


def test_teams_way_d_is_also_an_extra_play() -> None:
    """Way D is allowed as an extra play in teams_2v2."""
    ad = cid("another_day")
    others = {1: [Z], 2: [cid("peek")], 3: [cid("spite")]}
    s = play(table(4, mode="teams_2v2", hands={0: [ad, X], **others}, well=[Y]), 0, ad)
    s = act(s, 1, {"type": "refuse"})
    s = act(s, 3, {"type": "refuse"})
    assert s.phase == "extra"
    s = act(s, 0, Play(card=X, way="partner"))
    assert s.players[2].future == [X]


def test_teams_mimic_may_copy_the_partner_but_the_copy_obeys_the_partner_rule() -> None:
    """E20: Mimic C's Exposed Deed; a copied Peek may aim at C, a copied Vengeance may not."""
    mm, pk, vg = cid("mimic"), cid("peek"), cid("vengeance")
    s = play(table(4, mode="teams_2v2", hands={0: [mm]}, deeds={2: [pk]}), 0, mm)
    assert s.prompt is not None and s.prompt.seats == [1, 2, 3]
    s = target(s, 0, 2)
    assert s.prompt is not None and s.prompt.seats == [1, 2, 3]
    s = play(table(4, mode="teams_2v2", hands={0: [mm]}, deeds={2: [vg]}), 0, mm)
    s = target(s, 0, 2)
    assert s.prompt is not None and s.prompt.seats == [1, 3]


def test_teams_transcendence_wins_for_the_whole_team() -> None:
    """E3 in teams_2v2: A's team (seats 0 and 2) wins."""
    deeds = [cid("thievery"), cid("swindle"), cid("embody")]
    s = table(4, mode="teams_2v2", deeds={0: deeds}, rungs={0: 3}, hands={1: [X]})
    reincarnate(s, 0, 0, [])
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({0, 2})
    assert outcome.ranks[0] == outcome.ranks[2] == 1 and outcome.ranks[1] > 1


def test_two_on_one_offers_go_only_to_the_other_side() -> None:
    """E21: seat 1's Voyage is offered only to seat 0; seat 0's to seat 1 then seat 2."""
    voy = cid("voyage")
    s = play(table(3, mode="big_bad_wolf_2v1", hands={1: [voy]}, turn=1), 1, voy)
    assert offered_to(s) == [0]
    s = play(table(3, mode="big_bad_wolf_2v1", hands={0: [voy]}, rungs={0: WOLF}), 0, voy)
    assert offered_to(s) == [1, 2]


def test_two_on_one_partners_follow_the_partner_rule_without_way_d() -> None:
    """Longevity may aim at the partner, Vengeance not; there is no way D."""
    lg, vg = cid("longevity"), cid("vengeance")
    s = table(3, mode="big_bad_wolf_2v1", hands={1: [lg, vg]}, turn=1)
    assert all(a.way != "partner" for a in ENGINE.legal_actions(s, 1) if isinstance(a, Play))
    s1 = play(s, 1, lg)
    assert s1.prompt is not None and s1.prompt.seats == [1, 2, 0]
    s2 = play(s, 1, vg)
    assert s2.chain is not None and s2.chain.target == 0  # the only legal target, named at once


def test_two_on_one_a_partner_transcending_wins_for_both() -> None:
    """E21: seat 2 reaches Transcendence: seats 1 and 2 win."""
    deeds = [cid("thievery"), cid("swindle"), cid("embody")]
    s = table(3, mode="big_bad_wolf_2v1", deeds={2: deeds}, rungs={2: 3}, hands={1: [X]})
    reincarnate(s, 2, 0, [])
    assert s.players[2].rung == TRANSCENDENCE
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({1, 2})


@pytest.mark.parametrize(("n", "mode"), [(4, "teams_2v2"), (3, "big_bad_wolf_2v1")])
def test_team_modes_random_games_end_with_a_winning_team(n: int, mode: str) -> None:
    """Seeded random team games end in time; the invariants hold at sampled steps."""
    for seed in range(2):
        state, history = play_random(
            ENGINE, n, seed, options={"mode": mode}, check_every_step=False
        )
        outcome = ENGINE.outcome(state)
        assert outcome is not None and len(outcome.winners) in (1, 2)
        assert all(outcome.ranks[w] == 1 for w in outcome.winners)
        assert ENGINE.dump(replay(ENGINE, n, seed, {"mode": mode}, history)) == ENGINE.dump(state)
        replayed = ENGINE.setup(n, ENGINE.parse_options({"mode": mode}), seed).state
        for i, (seat, action) in enumerate(history[:400]):
            if i % 40 == 0:
                check_state_invariants(ENGINE, replayed, n, Rng.from_seed(i))
            replayed = ENGINE.apply(replayed, seat, action).state
