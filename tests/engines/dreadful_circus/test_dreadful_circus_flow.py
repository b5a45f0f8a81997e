"""Dreadful Circus: setup, rounds, bids, inspection, hidden wagons, sellers, game length, draft
and the final steps (docs/rules/dreadful-circus.md and the seed rulebook's examples)."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import IllegalAction, MalformedAction, NotYourTurn, Rng
from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.cards import deck_for, is_attraction
from engines.dreadful_circus.flow import end_round
from engines.dreadful_circus.model import Decline, Options, State
from tests.engines.dreadful_circus.helpers import (
    FILLER,
    act,
    act_events,
    dump,
    goods,
    table,
    texts,
)
from tests.engines.invariants import canonical

MICHAL, TOMEK, ELA, KASIA, NATALIA = range(5)


def test_setup_coins_contracts_hands_and_sellers() -> None:
    """3 copper, 2 silver, 1 gold and 6 contracts each; 8 cards (7 with 7–8 players); every
    hand holds an Attraction; the second seller sits opposite the first."""
    for n in range(4, 9):
        s = ENGINE.setup(n, Options(), 11).state
        assert all(sc[:3] == [3, 2, 1] and sum(sc[3:]) == 6 for sc in s.screens)
        assert sum(s.bag) == 55 - 6 * n
        size = 8 if n <= 6 else 7
        assert all(len(h) == size for h in s.hands)
        assert all(any(is_attraction(c) for c in h) for h in s.hands)
        assert len(s.deck) + len(s.discard) + n * size == len(deck_for(n))
        assert s.second_seller == (None if n == 4 else (s.first_seller + n // 2) % n)
        assert ENGINE.to_act(s) == frozenset(range(n))


def test_first_attraction_is_secret_until_all_have_picked() -> None:
    s = ENGINE.setup(4, Options(), 3).state
    picks = {p: next(c for c in s.hands[p] if is_attraction(c)) for p in range(4)}
    s, events = act_events(s, 2, {"type": "first_attraction", "card": picks[2]})
    assert texts(events, 0) == ["{p2} has chosen."]
    assert ENGINE.view(s, 0)["players"][2]["has_chosen"] is True
    assert ENGINE.view(s, 0)["you"]["choice"] is None
    assert ENGINE.view(s, 2)["you"]["choice"] == picks[2]
    assert all(not a for a in s.areas)
    with pytest.raises(IllegalAction):
        act(
            s,
            0,
            {
                "type": "first_attraction",
                "card": next((c for c in s.hands[0] if not is_attraction(c)), "no_such_card"),
            },
        )
    for p in (0, 1, 3):
        s = act(s, p, {"type": "first_attraction", "card": picks[p]})
    assert [a[0] for a in s.areas] == [picks[p] for p in range(4)]
    assert s.phase == "offer" and ENGINE.to_act(s) == frozenset({s.first_seller})


def test_seed_round_example_michal_and_ela() -> None:
    """The seed's round example (5 players): Michał offers Bendy Marcella, Ela Ice-Cream Cones;
    Michał refuses Natalia and accepts Ela; Ela refuses everyone; Ela resolves Marcella."""
    s = table(5, first=MICHAL, second=ELA,
              screens=[goods(copper=2, paris=1) for _ in range(5)])  # fmt: skip
    s.hands[MICHAL] = ["bendy_marcella"] + [FILLER] * 5
    s.hands[ELA] = ["ice_cream_cones"] + [FILLER] * 5
    s = act(s, ELA, {"type": "offer", "card": "ice_cream_cones"})
    assert s.offers == []  # not revealed before every seller has picked
    s = act(s, MICHAL, {"type": "offer", "card": "bendy_marcella"})
    assert s.offers == ["bendy_marcella", "ice_cream_cones"]
    # Sellers must bid on each other's offer.
    with pytest.raises(IllegalAction):
        act(s, MICHAL, {"type": "bid", "offer": 0, "copper": 1})
    for seat in (MICHAL, TOMEK, KASIA):
        s = act(s, seat, {"type": "bid", "offer": 1, "copper": 1})
    s = act(s, ELA, {"type": "bid", "offer": 0, "copper": 2})
    s = act(s, NATALIA, {"type": "bid", "offer": 0, "paris": 1})
    assert s.phase == "inspect" and ENGINE.to_act(s) == frozenset({MICHAL})
    s = act(s, MICHAL, {"type": "inspect", "bidder": NATALIA})
    s = act(s, MICHAL, {"type": "refuse"})
    assert s.screens[NATALIA] == goods(copper=2, paris=1)
    s = act(s, MICHAL, {"type": "inspect", "bidder": ELA})
    s = act(s, MICHAL, {"type": "accept"})
    assert s.screens[MICHAL] == goods(copper=3, paris=1)  # his own bid still waits at Ela's
    assert ENGINE.to_act(s) == frozenset({ELA})
    for seat in (MICHAL, TOMEK, KASIA):
        s = act(s, ELA, {"type": "inspect", "bidder": seat})
        s = act(s, ELA, {"type": "refuse"})
    assert "ice_cream_cones" in s.discard
    assert s.screens[MICHAL] == goods(copper=4, paris=1)
    # Step 7: Ela resolves Bendy Marcella.
    assert s.phase == "perform" and s.prompt is not None and s.prompt.seat == ELA
    s = act(s, ELA, {"type": "choose_targets", "seats": [MICHAL]})
    s = act(s, ELA, {"type": "take", "items": ["copper"]})
    assert s.screens[ELA] == goods(copper=1, paris=1)
    # Step 8: both markers move one seat to the left.
    assert (s.first_seller, s.second_seller) == (TOMEK, KASIA)
    assert s.phase == "offer" and s.round == 2


def bidding_table() -> State:
    s = table(4, screens=[goods(), goods(copper=2, berlin=1), goods(), goods(gold=1)])
    return act(s, 0, {"type": "offer", "card": FILLER})


@pytest.mark.parametrize(
    ("seat", "raw"),
    [
        (1, {"type": "bid", "copper": 3}),  # more than held
        (1, {"type": "bid", "paris": 1}),  # a city not held
        (1, {"type": "bid"}),  # empty although something is held
        (1, {"type": "bid", "offer": 1, "copper": 1}),  # no second offer this round
    ],
)
def test_illegal_bids_are_refused_with_no_change(seat: int, raw: dict[str, Any]) -> None:
    s = bidding_table()
    before = dump(s)
    with pytest.raises(IllegalAction):
        act(s, seat, raw)
    assert dump(s) == before


def test_malformed_bids_and_bids_out_of_turn() -> None:
    s = bidding_table()
    before = dump(s)
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "bid", "copper": -1})
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "bid", "offer": 2})
    with pytest.raises(NotYourTurn):
        act(s, 0, {"type": "bid", "copper": 0})  # the only seller never bids
    s2 = act(s, 1, {"type": "bid", "copper": 1, "berlin": 1})
    before2 = dump(s2)
    with pytest.raises(NotYourTurn):
        act(s2, 1, {"type": "bid", "copper": 1})  # a placed wagon's contents are fixed
    assert dump(s) == before and dump(s2) == before2
    # A bidder with nothing places an empty wagon; that is the only bid offered.
    assert [ENGINE.action_text(a) for a in ENGINE.legal_actions(s2, 2)] == ["bid 0: nothing"]
    s3 = act(s2, 2, {"type": "bid"})
    assert s3.wagon_at[2] == 0


def test_bid_menu_is_canonical_but_any_bid_applies() -> None:
    s = table(4, screens=[goods(), goods(copper=3, silver=2, gold=1, berlin=2, vegas=1),
                          goods(), goods()])  # fmt: skip
    s = act(s, 0, {"type": "offer", "card": FILLER})
    menu = [ENGINE.action_text(a) for a in ENGINE.legal_actions(s, 1)]
    assert menu[:3] == ["bid 0: 1 copper", "bid 0: 2 copper", "bid 0: 3 copper"]
    assert "bid 0: 1 berlin" in menu and "bid 0: 1 vegas" in menu
    assert menu[-1] == "bid 0: 3 copper, 2 silver, 1 gold, 2 berlin, 1 vegas"
    assert len(menu) == 10 + 2 + 1  # values 1..10, one per city held, everything
    s = act(s, 1, {"type": "bid", "silver": 1, "gold": 1, "vegas": 1})  # not in the menu
    assert s.wagons[1] == goods(silver=1, gold=1, vegas=1)
    assert s.screens[1] == goods(copper=3, silver=1, berlin=2)


def test_wagons_can_move_until_the_last_is_placed() -> None:
    s = table(5, first=0, second=2, screens=[goods(copper=1) for _ in range(5)])
    s = act(act(s, 0, {"type": "offer", "card": FILLER}), 2, {"type": "offer", "card": FILLER})
    s = act(s, 1, {"type": "bid", "offer": 0, "copper": 1})
    assert 1 not in ENGINE.to_act(s)
    assert [a.type for a in ENGINE.legal_actions(s, 1)] == ["move_wagon"]
    s, events = act_events(s, 1, {"type": "move_wagon"})
    assert s.wagon_at[1] == 1 and texts(events, None) == ["{p1} moves their wagon to Hall of "
                                                          "Wax Figures."]  # fmt: skip
    s = act(s, 0, {"type": "bid", "offer": 1, "copper": 1})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "move_wagon"})  # a seller has no free choice
    for seat in (2, 3, 4):
        s = act(s, seat, {"type": "bid", "offer": 0 if seat == 2 else 1, "copper": 1})
    assert s.phase == "inspect"
    with pytest.raises(NotYourTurn):
        act(s, 1, {"type": "move_wagon"})


def test_a_refused_wagon_is_never_seen_by_anyone_else() -> None:
    """Only the bidder and the inspecting seller ever see a wagon; a refused one stays secret,
    and a wagon returned unopened is never seen by the seller either."""
    s = table(4, screens=[goods(), goods(copper=2, london=1), goods(silver=1), goods(gold=1)])
    s = act(s, 0, {"type": "offer", "card": FILLER})
    history = [s]
    all_events = []
    for seat, raw in [
        (1, {"type": "bid", "copper": 2, "london": 1}),
        (2, {"type": "bid", "silver": 1}),
        (3, {"type": "bid", "gold": 1}),
        (0, {"type": "inspect", "bidder": 1}),
    ]:
        s, events = act_events(s, seat, raw)
        history.append(s)
        all_events += events
    assert ENGINE.view(s, 0)["players"][1]["wagon"]["contracts"]["london"] == 1
    for viewer in (2, 3, None):
        assert ENGINE.view(s, viewer)["players"][1]["wagon"] is None
    s, events = act_events(s, 0, {"type": "refuse"})
    history.append(s)
    all_events += events
    s, events = act_events(s, 0, {"type": "inspect", "bidder": 2})
    history.append(s)
    all_events += events
    s, events = act_events(s, 0, {"type": "accept"})
    history.append(s)
    all_events += events
    assert s.screens[0] == goods(silver=1) and s.screens[3] == goods(gold=1)
    for state in history:
        for viewer in (2, 3, None):
            assert ENGINE.view(state, viewer)["players"][1]["wagon"] is None
        for viewer in (0, 1, 2, None):
            assert ENGINE.view(state, viewer)["players"][3]["wagon"] is None
        assert ENGINE.view(state, 0)["players"][1]["wagon"] is None or state is history[4]
    secret = "{p1}'s wagon holds 2 copper, 1 London contract."
    assert secret in texts(all_events, 0)
    for viewer in (1, 2, 3, None):
        assert not any("london" in t for t in texts(all_events, viewer)[1:] if "{p0}" in t)
    for viewer in (2, 3, None):
        assert not any("london" in t or "2 copper" in t for t in texts(all_events, viewer))
    assert "{p3}'s wagon goes back unopened." in texts(all_events, None)


def first_legal_game(n: int, seed: int) -> tuple[State, list[tuple[int, int | None]]]:
    """Play a game choosing the first legal action (declining Encore!); record the sellers."""
    s = ENGINE.setup(n, Options(), seed).state
    sellers = []
    while ENGINE.outcome(s) is None:
        seat = min(ENGINE.to_act(s))
        if s.phase == "offer" and not any(s.chosen):
            sellers.append((s.first_seller, s.second_seller))
        prompt = s.prompt
        action = (
            Decline() if prompt and prompt.kind == "encore" else ENGINE.legal_actions(s, seat)[0]
        )
        s = ENGINE.apply(s, seat, action).state
    return s, sellers


@pytest.mark.parametrize(("n", "rounds"), [(4, 16), (5, 10), (6, 12), (7, 11), (8, 12)])
def test_seller_rotation_and_game_length(n: int, rounds: int) -> None:
    """Markers pass left each round; the game ends when every hand holds 3 cards. Hands hold
    7 (4–6 players) or 6 (7–8) cards after the first Attraction, hence the round counts."""
    s, sellers = first_legal_game(n, seed=5)
    assert s.round == rounds == len(sellers)
    first0 = sellers[0][0]
    for r, (first, second) in enumerate(sellers):
        if n == 7 and r == rounds - 1:
            # 21 sales for 7 hands of 6: after 10 rounds only the seat to the right of the
            # first seller of round 1 still holds 4 cards; the markers skip to it alone.
            assert (first, second) == ((first0 - 1) % n, None)
            continue
        assert first == (first0 + r) % n
        if n == 4:
            assert second is None
        else:
            assert second == (first + n // 2) % n
    assert all(len(a) >= 1 for a in s.areas)


def test_a_player_with_three_cards_is_never_made_seller() -> None:
    s = table(5, first=0, second=2)
    s.hands = [[FILLER] * 4, [FILLER] * 3, [FILLER] * 4, [FILLER] * 4, [FILLER] * 3]
    end_round(s, [])
    assert (s.first_seller, s.second_seller) == (2, 3)
    s = table(5, first=0, second=2)
    s.hands = [[FILLER] * 3, [FILLER] * 3, [FILLER] * 3, [FILLER] * 4, [FILLER] * 3]
    events: list[Any] = []
    end_round(s, events)
    assert (s.first_seller, s.second_seller) == (3, None)
    assert "From now on there is a single seller." in texts(events, None)
    assert ENGINE.to_act(s) == frozenset({3})


def test_final_attraction_reveal_and_scoring_choices_from_the_first_seller() -> None:
    s = table(4, first=2)
    s.hands = [["cotton_candy", "strongman", FILLER], [FILLER] * 3, [FILLER] * 3, [FILLER] * 3]
    s.areas = [["gilded_cage"], ["distorting_mirrors"], ["crystal_balls"], []]
    s.screens = [goods(gold=2), goods(gold=3), goods(), goods()]
    end_round(s, [])
    assert s.phase == "final" and ENGINE.to_act(s) == frozenset(range(4))
    s = act(s, 0, {"type": "final_attraction", "card": "cotton_candy"})
    assert ENGINE.view(s, 1)["players"][0]["area"] == ["gilded_cage"]
    assert ENGINE.view(s, 1)["players"][0]["screen"] is None
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "final_attraction", "card": "strongman"})
    for p in (1, 2, 3):
        s = act(s, p, {"type": "final_attraction", "card": None})
    assert s.areas[0] == ["gilded_cage", "cotton_candy"]
    assert all(h == [] for h in s.hands) and "strongman" in s.discard
    assert ENGINE.view(s, None)["players"][1]["screen"]["coins"]["gold"] == 3
    assert ENGINE.to_act(s) == frozenset({2})  # first seller chooses first
    s = act(s, 2, {"type": "choose_design", "design": "ice_cream"})
    assert ENGINE.to_act(s) == frozenset({1})  # seat 3 and 0 have no choices
    assert [ENGINE.action_text(a) for a in ENGINE.legal_actions(s, 1)] == [
        "copy p0 gilded_cage", "copy p0 cotton_candy",
    ]  # fmt: skip
    s = act(s, 1, {"type": "choose_copy", "seat": 0, "card": "gilded_cage"})
    out = ENGINE.outcome(s)
    assert out is not None and ENGINE.to_act(s) == frozenset()
    view = ENGINE.view(s, None)
    assert view["scores"][1]["effects"] == [
        {"card": "gilded_cage", "via": "distorting_mirrors", "vp": 3}
    ]
    assert view["scores"][2]["collections"] == 2
    assert out.scores[1] == 9 + 3


def test_draft_variant_passes_left_and_keeps_picks_secret() -> None:
    s = ENGINE.setup(4, ENGINE.parse_options({"draft": True}), 9).state
    assert s.phase == "draft" and all(len(p) == 8 for p in s.packets)
    packets = [list(p) for p in s.packets]
    view = ENGINE.view(s, 1)
    assert view["you"]["draft_packet"] == packets[1]
    assert all(p["hand_size"] == 0 for p in view["players"])
    for p in range(4):
        s = act(s, p, {"type": "draft_pick", "card": packets[p][0]})
    assert [pk[0] for pk in s.picks] == [packets[p][0] for p in range(4)]
    assert s.packets[1] == packets[0][1:]  # seat 0 passed to its left, seat 1
    rng = Rng.from_seed(1)
    while s.phase == "draft":
        for p in sorted(ENGINE.to_act(s)):
            s = ENGINE.apply(s, p, rng.choice(ENGINE.legal_actions(s, p))).state
    assert s.phase == "first_attraction" and all(len(h) == 8 for h in s.hands)
    assert all(any(is_attraction(c) for c in h) for h in s.hands)


def test_determinize_keeps_what_the_seat_sees_and_reshuffles_the_rest() -> None:
    s = ENGINE.setup(6, Options(), 4).state
    rng = Rng.from_seed(2)
    d = ENGINE.determinize(s, 0, rng)
    assert d.hands[0] == s.hands[0] and d.screens[0] == s.screens[0]
    assert canonical(ENGINE.view(d, 0)) == canonical(ENGINE.view(s, 0))
    assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
    assert d.hands[1:] != s.hands[1:] or d.screens[1:] != s.screens[1:]
    assert sum(d.bag) == sum(s.bag)
    spectator = ENGINE.view(s, None)
    assert spectator["you"] is None and all(p["wagon"] is None for p in spectator["players"])
    assert all(p["screen"] is None for p in spectator["players"])
