"""Turns, rounds, administrators, table and deck, triples, game end (docs/rules/ganges.md)."""

from __future__ import annotations

from engines.core import IllegalAction, NotYourTurn, Rng, events_for
from engines.ganges import ENGINE
from engines.ganges.cards import TRACK_BONUSES
from engines.ganges.state import Options, TrackCard
from engines.ganges.triples import candidates
from tests.engines.ganges.helpers import act, position, prompt_of, refused, texts


def test_setup_deals_table_hands_and_secret_values() -> None:
    """Table of 12/16/20, 4 cards each, each colour's values 6 × 1–6, a random start player."""
    for n, size in ((2, 12), (3, 16), (4, 20)):
        st = ENGINE.setup(n, Options(), seed=5).state
        assert len([c for c in st.table if c]) == size
        assert all(len(p.hand) == 4 for p in st.players)
        assert len(st.deck) == 144 - size - 4 * n
        assert prompt_of(st).kind == "action" and prompt_of(st).seat == st.start_player
    values = ENGINE.setup(2, Options(), seed=5).state.values
    assert values != ENGINE.setup(2, Options(), seed=6).state.values
    assert sorted(values.values()) == sorted([v for v in range(1, 7)] * 24)


def test_turn_order_phases_elephant_and_round_end_refill() -> None:
    """Phase 1 then phase 2 (elephant karma), then refill and the elephant passes on."""
    st = position(table=["G01", "G02", "G03", "G04", "G05"])
    st = act(st, 0, {"type": "goods", "card": "G01"})
    assert prompt_of(st).seat == 1 and st.phase == 1
    st = act(st, 1, {"type": "goods", "card": "G02"})
    assert st.phase == 2 and st.players[0].karma == 1 and not st.elephant_green
    refused(st, 1, {"type": "goods", "card": "G03"}, NotYourTurn)
    st = act(st, 0, {"type": "goods", "card": "G03"})
    top = st.deck[:11]
    st = act(st, 1, {"type": "goods", "card": "G04"})
    assert (st.round, st.phase, st.start_player, st.elephant_green) == (2, 1, 1, True)
    assert st.table[0:4] == top[0:4] and st.table[4] == "G05" and st.table[5:] == top[4:11]
    assert prompt_of(st).seat == 1


def test_administrator_extra_action_and_end_turn() -> None:
    """At the end of the turn an administrator buys one more action; ending is a choice."""
    st = position(table=["G01", "G02", "B01"], players={0: {"admins": 1}})
    st = act(st, 0, {"type": "goods", "card": "G01"})
    assert prompt_of(st).kind == "end_turn"
    assert texts(st, 0) == ["end turn", "admin action", "admin draw"]
    st = act(st, 0, {"type": "admin_action"})
    assert prompt_of(st).kind == "action" and st.players[0].admins == 0
    st = act(st, 0, {"type": "goods", "card": "G02"})
    assert prompt_of(st).seat == 1 and st.players[0].goods == ["G01", "G02"]


def test_administrator_draws_two_from_the_deck_with_hand_limit() -> None:
    """Two deck cards into hand, any time in the turn; a full hand discards first."""
    hand = ["G01", "G02", "G03", "G04", "G05", "G06", "G07"]
    st = position(
        table=["B01"], deck=["B10", "B11", "B12"], players={0: {"hand": hand, "admins": 1}}
    )
    assert "admin draw" in texts(st, 0)
    st = act(st, 0, {"type": "admin_draw"})
    assert prompt_of(st).kind == "discard"
    assert st.players[0].hand[-1] == "B10"
    st = act(st, 0, {"type": "discard", "card": "G05"})
    assert st.players[0].hand[-1] == "B11" and len(st.players[0].hand) == 8
    assert st.deck == ["B12"] and st.admin_supply == 12
    assert prompt_of(st).kind == "action"


def test_administrator_cannot_be_used_mid_effect() -> None:
    """While a pick is pending, administrators wait."""
    st = position(table=["S11", "B01", "B02"], players={0: {"hand": ["G40"], "admins": 1}})
    st = act(st, 0, {"type": "ship", "card": "S11", "pay": ["G40"]})
    refused(st, 0, {"type": "admin_draw"}, IllegalAction)


def test_empty_table_gets_four_deck_cards_at_once() -> None:
    """Taking the last table card lays the deck's top 4 in slots 1–4 (also mid-effect)."""
    st = position(
        table=["S11"], deck=["B01", "B02", "B03", "B04", "B05"], players={0: {"hand": ["G40"]}}
    )
    st = act(st, 0, {"type": "ship", "card": "S11", "pay": ["G40"]})
    assert st.table[:4] == ["B01", "B02", "B03", "B04"]
    st = act(st, 0, {"type": "pick", "card": "B02"})
    st = act(st, 0, {"type": "pick", "card": "B04"})
    assert st.players[0].hand == ["B02", "B04"]


def test_deck_exhausted_reshuffles_the_discard_pile() -> None:
    """Taking the last deck card turns the shuffled discard pile into the new deck."""
    st = position(
        table=["P17", "B01"],
        deck=["G01"],
        discard=["B05", "B06", "B07"],
        players={0: {"hand": ["G14"]}},
    )
    st = act(st, 0, {"type": "palace", "card": "P17", "pay": ["G14"]})
    assert st.players[0].goods == ["G01"]
    assert sorted(st.deck) == ["B05", "B06", "B07", "G14"]
    assert st.discard == ["P17"]


def test_different_buildings_triple_is_minimal() -> None:
    """Red, yellow and white from a minimal set of cards: 1 administrator."""
    st = position(table=["B25"], players={0: {"buildings": ["B37"], "hand": ["G36"]}})
    st = act(st, 0, {"type": "build", "card": "B25", "pay": ["G36"]})
    p = st.players[0]
    assert p.buildings == [] and p.admins == 1 and p.fame == 1


def test_same_type_triple_takes_every_symbol_even_four() -> None:
    """Four reds after nested gains: one triple takes all four for one administrator."""
    st = position(table=["B01"], players={0: {"buildings": ["B02", "B03", "B04"]}})
    st.players[0].buildings.append("B05")
    kinds = [(t.kind, t.label, len(t.cards)) for t in candidates(st.players[0])]
    assert kinds == [("same_buildings", "red", 4)]


def test_third_administrator_gives_two_fame_and_empty_supply_loses_gains() -> None:
    """Three administrators return for 2 fame; with none in the supply a gain is lost."""
    st = position(
        table=["S08", "B01"],
        players={0: {"ships": ["S02", "S03"], "hand": ["G40"], "admins": 2, "karma": 1}},
    )
    st = act(st, 0, {"type": "ship", "card": "S08", "pay": ["G40"]})
    p = st.players[0]
    assert (p.admins, p.fame, p.karma) == (1, 2, 0)
    empty = position(table=["S08"], players={0: {"ships": ["S02", "S03"], "hand": ["G40"]}})
    empty.admin_supply = 0
    empty = act(empty, 0, {"type": "ship", "card": "S08", "pay": ["G40"]})
    q = empty.players[0]
    assert (q.admins, q.karma, q.ships) == (0, 2, [])


def test_night_side_up_variant_chooses_any_card() -> None:
    """Variant: bonuses visible; a conversion may use any card still night side up."""
    st = position(
        table=["B07", "B01"], players={0: {"fame": 2, "hand": ["G24"]}}, night_side_up=True
    )
    assert ENGINE.view(st, 1)["players"][0]["track"][3]["bonus"] == "admin1"
    st = act(st, 0, {"type": "build", "card": "B07", "pay": ["G24"]})
    prompt = prompt_of(st)
    assert [c.position for c in prompt.conversions] == [1, 2, 3, 4, 5, 6]
    st = act(st, 0, {"type": "convert", "by": "fame", "position": 4})
    assert st.players[0].admins == 1 and st.players[0].track[3].flipped


def finishing(track_left: int = 1) -> list[TrackCard]:
    """A track with `track_left` cards still to flip (the last ones)."""
    done = len(TRACK_BONUSES) - track_left
    return [TrackCard(bonus=b, flipped=i < done) for i, b in enumerate(TRACK_BONUSES)]


def test_game_ends_after_the_round_single_finisher_wins() -> None:
    """Flipping the sixth card ends the game after the round; that player wins."""
    st = position(
        table=["B07", "G01", "G02", "G03"],
        players={0: {"fame": 2, "hand": ["G24"]}},
        active=0,
        phase=2,
    )
    st.players[0].track = finishing()
    st = act(st, 0, {"type": "build", "card": "B07", "pay": ["G24"]})
    assert ENGINE.view(st, None)["last_round"] is True
    assert ENGINE.outcome(st) is None
    # extra_action was the last card: one more action first.
    st = act(st, 0, {"type": "goods", "card": "G01"})
    st = act(st, 1, {"type": "goods", "card": "G02"})
    outcome = ENGINE.outcome(st)
    assert outcome is not None and outcome.winners == frozenset({0})
    assert outcome.reason == "first to flip all six track cards"
    assert ENGINE.to_act(st) == frozenset() and ENGINE.legal_actions(st, 0) == []


def test_tie_break_points_then_karma_then_shared() -> None:
    """Several finishers: 2 per fame + 1 per coin, then karma, then a shared win."""
    st = position(table=["G02"], active=1, phase=2)
    for p in st.players:
        p.track = finishing(0)
    st.players[0].fame, st.players[0].coins = 1, 1  # 3 points
    st.players[1].fame, st.players[1].coins = 0, 4  # 4 points
    st.players[0].karma = 2
    done = act(st, 1, {"type": "goods", "card": "G02"})
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == frozenset({1})
    st.players[1].coins = 2  # 3 points each (G02 adds 1 coin): karma decides
    done = act(st, 1, {"type": "goods", "card": "G02"})
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == frozenset({0})
    st.players[0].karma = 0
    done = act(st, 1, {"type": "goods", "card": "G02"})
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == frozenset({0, 1})


def test_views_hide_die_values_and_unflipped_bonuses() -> None:
    """Owner sees dice; others and spectators see colours only; unflipped bonuses hidden."""
    st = ENGINE.setup(3, Options(), seed=3).state
    seat = prompt_of(st).seat
    mine = ENGINE.view(st, seat)
    other = ENGINE.view(st, (seat + 1) % 3)
    spectator = ENGINE.view(st, None)
    assert all("value" in d for d in mine["players"][seat]["hand"])
    for view in (other, spectator):
        assert all(set(d) == {"colour"} for d in view["players"][seat]["hand"])
        assert all(t["bonus"] is None for p in view["players"] for t in p["track"])
    assert "playable" in mine["prompt"] and "playable" not in other["prompt"]
    assert mine["deck"]["top"] == st.deck[0] and mine["deck"]["top"] in mine["cards"]


def test_determinize_keeps_what_the_seat_sees() -> None:
    """Own hand and discard values, deck top and flipped bonuses survive the re-deal."""
    st = position(table=["B01"], discard=["G05"], players={0: {"hand": ["G01", "G17"]}})
    rng = Rng.from_seed(9)
    seen = set()
    for _ in range(5):
        other = ENGINE.determinize(st, 0, rng)
        assert other.values["G01"] == 5 and other.values["G05"] == 3
        assert other.deck[0] == st.deck[0] and sorted(other.deck) == sorted(st.deck)
        seen.add(tuple(other.deck[1:6]))
        assert ENGINE.view(other, 0) == ENGINE.view(st, 0)
    assert len(seen) > 1


def test_action_texts_round_trip() -> None:
    """Every legal action's JSON parses back to itself; texts are short and distinct."""
    st = position(
        table=["B04", "S03", "P13", "G13"],
        players={0: {"hand": ["G01", "G08", "G18", "G17"], "karma": 1, "admins": 1}},
    )
    actions = ENGINE.legal_actions(st, 0)
    assert all(ENGINE.parse_action(ENGINE.dump_action(a)) == a for a in actions)
    all_texts = [ENGINE.action_text(a) for a in actions]
    assert len(set(all_texts)) == len(all_texts)
    assert "ship S03 pay G17" in all_texts and "palace P13 pay G18 karma 1" in all_texts


def test_every_card_is_in_exactly_one_place_during_random_games() -> None:
    """Deck, table, discard pile, palace in play, hands and displays always hold the 144 cards."""
    for n, seed in ((2, 11), (3, 12), (4, 13)):
        st = ENGINE.setup(n, Options(), seed).state
        rng = Rng.from_seed(seed)
        while ENGINE.outcome(st) is None:
            places = [*st.deck, *(c for c in st.table if c), *st.discard, *st.carried]
            settled = not st.tasks  # between actions every settle step has finished
            for p in st.players:
                places += [*p.hand, *p.buildings, *p.ships, *p.goods]
                assert len(p.hand) <= 8
                assert not settled or (p.karma < 3 and p.admins < 3 and not candidates(p))
            assert sorted(places) == sorted(st.values)
            assert sum(p.admins for p in st.players) + st.admin_supply == 12
            seat = min(ENGINE.to_act(st))
            st = ENGINE.apply(st, seat, rng.choice(ENGINE.legal_actions(st, seat))).state


def test_log_names_the_die_only_to_its_owner() -> None:
    """Taking a card: the owner reads its die, others and spectators only its colour."""
    st = position(table=["B05", "B06"], players={0: {}})
    step = ENGINE.apply(st, 0, ENGINE.parse_action({"type": "take", "card": "B05"}))
    own, other, spectator = (events_for(step.events, s) for s in (0, 1, None))
    assert "You take a die card from the table: blue 3." in own
    assert "{p0} takes a blue die card from the table." in other
    assert other == spectator and not any("3" in line for line in spectator)


def test_discard_prompt_choices_only_for_the_owner() -> None:
    """A pending hand-limit discard shows the hand cards to their owner only."""
    hand = ["G01", "G02", "G03", "G04", "G05", "G06", "G07", "G08"]
    st = position(table=["B05", "B06"], players={0: {"hand": hand}})
    st = act(st, 0, {"type": "take", "card": "B05"})
    assert ENGINE.view(st, 0)["prompt"]["cards"] == hand
    assert ENGINE.view(st, 1)["prompt"]["cards"] == []
    assert ENGINE.view(st, None)["prompt"]["kind"] == "discard"


def test_log_and_refusals_speak_in_the_games_words() -> None:
    """Over seeded random games, no log line names a card by its internal id ("P06", "G25")
    or an effect by its code ("karma2_die1"), and neither do refusals of random bad acts."""
    import random
    import re

    from engines.core import GameError
    from tests.engines.invariants import play_random, replay

    internal = re.compile(r"\b[A-Z]\d\d\b|\b[a-z]+\d_[a-z0-9_]+\b")
    for seed in range(4):
        _, history = play_random(ENGINE, 2 + seed % 3, seed, check_every_step=False)
        state = ENGINE.setup(2 + seed % 3, ENGINE.parse_options({}), seed).state
        rng = random.Random(seed)
        for seat, action in history:
            step = ENGINE.apply(state, seat, action)
            for event in step.events:
                assert not internal.search(event.text), event.text
            bad = {"type": rng.choice(["build", "ship", "palace", "take"]), "card": "B01"}
            try:
                ENGINE.apply(state, seat, ENGINE.parse_action(bad))
            except GameError as exc:
                assert not internal.search(exc.message), exc.message
            state = step.state
        assert replay(ENGINE, 2 + seed % 3, seed, None, history) == state
