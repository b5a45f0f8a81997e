"""Karmaka views, hidden information and the log (docs/rules/karmaka.md, "Hidden information")."""

from __future__ import annotations

import json

from engines.core import Rng
from engines.karmaka import ENGINE
from engines.karmaka.flow import reincarnate
from engines.karmaka.model import Pick, State
from tests.engines.invariants import (
    canonical,
    check_determinize_sees_only_the_view,
    check_state_invariants,
)
from tests.engines.karmaka.position import X, Y, Z, act, cid, play, step, table, target, texts


def ids(cards: list[dict[str, object]]) -> list[object]:
    """The ids of cards in a view."""
    return [c["id"] for c in cards]


def no_leak(state: State) -> None:
    """The shared invariant checks (views unchanged by determinize, refusals, round trip,
    determinize blind to what the seat cannot see)."""
    check_state_invariants(ENGINE, state, state.num_players, Rng.from_seed(11))
    check_determinize_sees_only_the_view(ENGINE, state, state.num_players, Rng.from_seed(12))


def test_view_shows_own_cards_and_only_counts_of_hidden_piles() -> None:
    """Own Hand and Future Life in order; Decks are counts only, even for their owner."""
    pk, sp = cid("peek"), cid("spite")
    s = table(
        3,
        hands={0: [pk, X], 1: [Y]},
        decks={0: [Z]},
        futures={0: [sp, cid("crisis")], 1: [cid("panic")]},
        deeds={1: [cid("voyage"), cid("embody")]},
        ruins=[cid("roulette")],
        rings={2: 2},
    )
    v = ENGINE.view(s, 0)
    assert ids(v["hand"]) == [pk, X]
    assert ids(v["future"]) == [sp, cid("crisis")]
    assert "deck" not in v["players"][0] and v["players"][0]["deck_count"] == 1
    b = v["players"][1]
    assert (b["hand_count"], b["future_count"], b["relation"]) == (1, 1, "rival")
    assert b["exposed"]["card"] == "embody" and b["totals"]["green"] == 3
    assert b["card_score"] == 4 and b["threshold"] == 4 and b["reaches_threshold"]
    assert v["players"][2]["rings"] == 2 and v["rings_supply"] == 10
    assert v["ruins_top"]["card"] == "roulette" and v["well_count"] == len(s.well)
    assert v["can_pass"] is True
    spectator = ENGINE.view(s, None)
    assert spectator["hand"] is None and spectator["future"] is None
    assert "Peek" not in json.dumps(spectator) and "Spite" not in json.dumps(spectator)
    no_leak(s)


def test_peek_reveal_is_private_and_forgotten_at_the_end_of_the_turn() -> None:
    """Only the actor's view lists the peeked Hand, until the turn ends."""
    pk = cid("peek")
    s = play(table(3, hands={0: [pk, X], 1: [Y, Z], 2: [cid("spite")]}), 0, pk)
    s = target(s, 0, 1)
    no_leak(s)
    s = act(s, 1, {"type": "refuse"})
    assert ids(ENGINE.view(s, 0)["revealed"][0]["cards"]) == [Y, Z]
    no_leak(s)
    s = act(s, 0, {"type": "end_turn"})
    assert ENGINE.view(s, 0)["revealed"] == []


def test_destiny_cards_are_seen_by_the_actor_alone() -> None:
    """The prompt with the 3 cards is in the actor's view; others learn the count."""
    d = cid("destiny")
    s = play(table(hands={0: [d]}, well=[X, Y, Z]), 0, d)
    mine = ENGINE.view(s, 0)["prompt"]
    assert ids(mine["cards"]) == [Z, Y, X] and mine["optional"] is True
    theirs = ENGINE.view(s, 1)
    assert theirs["prompt"] is None and theirs["waiting"]["cards_count"] == 3
    assert theirs["waiting"]["cards"] is None
    no_leak(s)


def test_swindle_and_spite_rows_stay_face_down_for_everyone() -> None:
    """No view names the cards of a face-down row; the picks are positions."""
    sw = cid("swindle")
    hand = [cid("peek"), cid("spite"), cid("crisis"), cid("panic")]
    s = target(play(table(3, hands={0: [sw], 1: hand, 2: [X]}), 0, sw), 0, 1)
    for seat in (0, 2, None):
        text = json.dumps(ENGINE.view(s, seat))
        assert '"Spite"' not in text and '"Crisis"' not in text
    assert ENGINE.view(s, 0)["prompt"]["positions"] == [1, 2, 3, 4]
    no_leak(s)
    s = act(s, 0, Pick(position=2))
    no_leak(s)
    s = act(s, 0, Pick(position=3))
    s = act(s, 0, Pick(position=4))
    assert len(ENGINE.view(s, 0)["prompt"]["cards"]) == 3
    assert ENGINE.view(s, 2)["prompt"] is None
    no_leak(s)


def test_a_pending_decision_of_another_player_is_shown_to_that_player() -> None:
    """Dwindle: the target's view holds the prompt with its choices; to_act names the target."""
    dw = cid("dwindle")
    s = target(play(table(3, hands={0: [dw], 1: [X, Y]}), 0, dw), 0, 1)
    assert ENGINE.to_act(s) == frozenset({1})
    assert ids(ENGINE.view(s, 1)["prompt"]["cards"]) == [X, Y]
    assert ENGINE.view(s, 0)["waiting"]["seat"] == 1
    no_leak(s)


def test_offer_is_public_with_the_card_in_play() -> None:
    """The card in play and who is asked are public."""
    voy = cid("voyage")
    s = play(table(3, hands={0: [voy]}, well=[X, Y, Z]), 0, voy)
    v = ENGINE.view(s, None)
    assert v["in_play"]["card"]["card"] == "voyage" and v["in_play"]["offer_to"] == [1, 2]
    no_leak(s)


def test_determinize_re_deals_what_the_seat_cannot_see() -> None:
    """Rivals' Hands, Decks, Future Lives and the Well change; own and public cards do not."""
    s = ENGINE.setup(3, ENGINE.parse_options({}), 8).state
    rng = Rng.from_seed(4)
    seat = s.turn
    others = [p for p in range(3) if p != seat]
    changed = False
    for _ in range(5):
        d = ENGINE.determinize(s, seat, rng)
        assert d.players[seat].hand == s.players[seat].hand
        assert [len(p.hand) for p in d.players] == [len(p.hand) for p in s.players]
        changed |= any(d.players[o].hand != s.players[o].hand for o in others)
    assert changed


def test_determinize_re_shuffles_a_face_down_row() -> None:
    """Spite's row order is secret even to the target, whose Hand it is; a ruined pick stays."""
    spite = cid("spite")
    hand = [cid("peek"), cid("swindle"), cid("crisis"), cid("panic"), X]
    s = target(play(table(3, hands={0: [spite], 1: hand, 2: [Y]}), 0, spite), 0, 1)
    assert s.prompt is not None
    rng = Rng.from_seed(5)
    rows = {tuple(_row(ENGINE.determinize(s, 1, rng))) for _ in range(4)}
    assert len(rows) > 1 and all(sorted(r) == sorted(hand) for r in rows)
    for seat in (0, 2, None):
        d = ENGINE.determinize(s, seat, rng)
        assert sorted(_row(d)) == sorted(d.players[1].hand)
    s = act(s, 0, Pick(position=2))
    ruined = s.ruins[-1]
    for seat in (0, 1, 2, None):
        d = ENGINE.determinize(s, seat, rng)
        assert _row(d)[1] == ruined and set(_row(d)) - {ruined} == set(d.players[1].hand)
    no_leak(s)


def _row(state: State) -> list[int]:
    assert state.prompt is not None
    return list(state.prompt.row)


def test_game_end_reveals_every_card() -> None:
    """Decision: at the end all Hands, Decks and Future Lives are in every view."""
    deeds = [cid("thievery"), cid("swindle"), cid("embody")]
    s = table(deeds={0: deeds}, rungs={0: 3}, hands={1: [X]}, decks={1: [Y]})
    reincarnate(s, 0, 0, [])
    v = ENGINE.view(s, None)
    assert ids(v["players"][1]["hand"]) == [X] and ids(v["players"][1]["deck"]) == [Y]
    assert v["outcome"]["winners"] == [0]
    no_leak(s)


def test_game_end_reveals_the_well_too_top_first() -> None:
    """Decision (spec): every card is revealed at the end, the Well included; before the end
    the Well is a count only, for seats and spectators alike."""
    s = table(deeds={0: [cid("thievery"), cid("swindle"), cid("embody")]}, rungs={0: 3})
    assert s.well, "the position has cards left in the Well"
    for seat in (0, 1, None):
        assert ENGINE.view(s, seat)["well"] is None
    reincarnate(s, 0, 0, [])
    for seat in (0, 1, None):
        shown = ENGINE.view(s, seat)["well"]
        assert ids(shown) == list(reversed(s.well)), "the top of the pile (drawn next) first"
    no_leak(s)


def test_draw_events_have_a_private_and_a_public_half() -> None:
    """'You draw Voyage' for the drawer, 'draws from their Deck' for the others."""
    s = table(hands={0: [X], 1: [Y]}, decks={1: [cid("voyage")]})
    result = step(s, 0, {"type": "play", "card": X, "way": "deed"})
    assert any("You draw Voyage" in t for t in texts(result.events, 1))
    assert not any("Voyage" in t for t in texts(result.events, 0))
    assert any("{p1} draws from their Deck" in t for t in texts(result.events, None))


def test_views_are_stable_json() -> None:
    """Views are plain JSON and the same state gives the same text."""
    s = ENGINE.setup(4, ENGINE.parse_options({}), 2).state
    for seat in (0, 1, 2, 3, None):
        assert canonical(ENGINE.view(s, seat)) == canonical(ENGINE.view(s, seat))


def test_a_copied_deed_now_in_a_hand_is_named_by_its_ability_only() -> None:
    """Mimic copying a rival's Thievery takes that very card into the copier's Hand; the card
    in play still says what it copied, but no other seat (nor a spectator) is shown that
    physical card while it sits in a Hand. Found by random play (seeded), as in the frame
    checks of tests/app/presentation/test_frames_karmaka.py."""
    import random

    from engines.karmaka.cards import kind

    engine = ENGINE

    def ids(node: object) -> set[int]:
        if isinstance(node, dict):
            own = {node["id"]} if isinstance(node.get("id"), int) and "card" in node else set()
            return own.union(*(ids(v) for v in node.values()))
        if isinstance(node, list):
            return set().union(*(ids(v) for v in node))
        return set()

    found = 0
    for seed in range(160):
        state = engine.setup(2, engine.parse_options({"mode": "free_for_all"}), seed).state
        rng = random.Random(seed)
        for _ in range(150):
            if engine.outcome(state) is not None:
                break
            chain = state.chain
            for owner, player in enumerate(state.players):
                if chain is None:
                    break
                in_hand = set(chain.used_sources) & set(player.hand)
                if not in_hand:
                    continue
                found += 1
                for viewer in [None, *range(state.num_players)]:
                    view = engine.view(state, viewer)
                    assert [c["card"] for c in view["in_play"]["copied"]] == [
                        kind(c).id for c in chain.used_sources
                    ]
                    if viewer != owner:
                        assert not ids(view) & in_hand
            seat = min(engine.to_act(state))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
    assert found  # the situation occurred, so the check above ran
