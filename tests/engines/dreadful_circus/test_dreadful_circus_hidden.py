"""Dreadful Circus hidden information: the shared no-leak invariants at special positions,
determinization, state copies and the setup redeal (docs/rules/dreadful-circus.md)."""

from __future__ import annotations

from engines.core import Event, Rng, copy_state
from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.cards import is_attraction
from engines.dreadful_circus.flow import end_round, redeal_without_attraction
from engines.dreadful_circus.model import Options, State
from tests.engines.dreadful_circus.helpers import FILLER, act, goods, perform, table
from tests.engines.invariants import canonical, check_state_invariants


def check(state: State) -> None:
    """The shared invariants (round trip, no leaks, refusals change nothing) at `state`."""
    check_state_invariants(ENGINE, state, state.num_players, Rng.from_seed(7))


def test_no_leak_while_a_seller_inspects_a_wagon() -> None:
    s = table(5, first=0, second=2, screens=[goods(copper=2, paris=1) for _ in range(5)])
    s = act(act(s, 0, {"type": "offer", "card": FILLER}), 2, {"type": "offer", "card": FILLER})
    check(s)  # offers revealed, nobody has bid
    s = act(s, 1, {"type": "bid", "offer": 0, "paris": 1})
    check(s)  # one wagon placed, its contents secret
    for seat, offer in ((0, 1), (2, 0), (3, 1), (4, 0)):
        s = act(s, seat, {"type": "bid", "offer": offer, "copper": 1})
    s = act(s, 0, {"type": "inspect", "bidder": 4})
    check(s)  # the first seller looks into seat 4's wagon


def test_no_leak_with_loaded_wagons_and_drawn_contracts() -> None:
    s = table(screens=[goods(), goods(copper=1, silver=2), goods(gold=1), goods(copper=1)],
              areas=[["sticky_monkey"], [], [], []])  # fmt: skip
    s, _ = perform(s, 0, "human_cannonball")
    check(s)
    s = act(s, 0, {"type": "choose_targets", "seats": [1, 2]})
    check(s)
    s, _ = perform(table(bag=[3, 3, 3, 3, 3]), 1, "tightrope_walker")
    assert s.prompt is not None and s.prompt.kind == "keep"
    check(s)


def test_no_leak_with_secret_picks_pending() -> None:
    s = ENGINE.setup(6, Options(), 2).state
    first = next(c for c in s.hands[3] if is_attraction(c))
    s = act(s, 3, {"type": "first_attraction", "card": first})
    check(s)
    s = table(4, first=1)
    s.hands = [["cotton_candy", FILLER, "strongman"] for _ in range(4)]
    end_round(s, [])
    s = act(s, 2, {"type": "final_attraction", "card": "cotton_candy"})
    s = act(s, 0, {"type": "final_attraction", "card": None})
    check(s)
    s = ENGINE.setup(4, ENGINE.parse_options({"draft": True}), 5).state
    s = act(s, 1, {"type": "draft_pick", "card": s.packets[1][0]})
    check(s)


def test_determinize_redeals_others_but_keeps_picks_consistent() -> None:
    s = table(4, first=1)
    s.hands = [["cotton_candy", FILLER, "strongman"] for _ in range(4)]
    end_round(s, [])
    s = act(s, 2, {"type": "final_attraction", "card": "cotton_candy"})
    for seed in range(20):
        d = ENGINE.determinize(s, 0, Rng.from_seed(seed))
        assert d.hands[0] == s.hands[0]
        choice = d.choices[2]
        assert choice is not None and is_attraction(choice) and choice in d.hands[2]
        assert sorted(c for h in d.hands[1:] for c in h) == sorted(
            c for h in s.hands[1:] for c in h
        )


def test_fast_copy_is_an_independent_deep_copy() -> None:
    s, _ = perform(table(bag=[3, 3, 3, 3, 3]), 1, "tightrope_walker")
    s.scoring_choices[0]["crystal_balls#0"] = "popcorn"
    c = copy_state(s)
    assert c == s and canonical(ENGINE.dump(c)) == canonical(ENGINE.dump(s))
    assert c == s.model_copy(deep=True)
    c.hands[0].append("x")
    c.screens[1][0] += 5
    c.scoring_choices[0]["k"] = "v"
    assert c.prompt is not None and s.prompt is not None
    c.prompt.drawn[0] += 1
    c.rng.next_u64()
    assert s == s.model_copy(deep=True) and c != s
    assert "x" not in s.hands[0] and "k" not in s.scoring_choices[0]
    assert s.rng.state != c.rng.state


def test_setup_redeal_discards_a_hand_without_attraction_face_up() -> None:
    s = table(4)
    s.deck = ["strongman", "cotton_candy", "encore"]
    s.discard = []
    hands = [["coin_juggler", "strongman"], ["clay_golem"], ["fog_carousel"], ["guard_dogs"]]
    events: list[Event] = []
    redeal_without_attraction(s, hands, events)
    assert hands[0] == ["encore", "cotton_candy"]
    assert s.discard == ["coin_juggler", "strongman"] and s.deck == ["strongman"]
    assert events[0].text == (
        "{p0} has no Attraction and discards Coin Juggler, Strongman for a new hand."
    )
    # The set-aside deck runs out: the discard pile is shuffled into a new one.
    s.deck, s.discard = ["strongman"], ["cotton_candy"]
    hands = [["golden_trapeze", "encore"], ["clay_golem"], ["fog_carousel"], ["guard_dogs"]]
    redeal_without_attraction(s, hands, [])
    assert "cotton_candy" in hands[0] and len(hands[0]) == 2
    assert sorted(hands[0] + s.deck + s.discard) == sorted(
        ["golden_trapeze", "encore", "strongman", "cotton_candy"]
    )
