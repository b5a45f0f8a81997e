"""Incan Gold rules, one test per rule of docs/rules/incan-gold.md and the seed's examples."""

from __future__ import annotations

import pytest

from engines.core import GameOver, IllegalAction, MalformedAction, NotYourTurn, Rng
from engines.incan_gold import ENGINE
from engines.incan_gold.cards import ARTIFACTS, CARDS, HAZARDS, TREASURES
from engines.incan_gold.flow import split
from engines.incan_gold.model import Camp, PathCard, Player, RoundSummary, State, Torch


def treasure(value: int) -> int:
    """The id of a treasure card of this value."""
    return next(c.id for c in CARDS if c.kind == "treasure" and c.value == value)


def hazard(kind: str, copy: int = 0) -> int:
    """The id of the `copy`-th hazard card of this kind."""
    return [c.id for c in CARDS if c.hazard == kind][copy]


def artifact(name: str) -> int:
    """The id of an artifact card."""
    return next(c.id for c in CARDS if c.name == name)


def position(n: int, deck: list[int], path: list[int] | None = None, **kw: object) -> State:
    """A mid-round position with a stacked deck; everybody in the temple, nobody has chosen."""
    state = ENGINE.setup(n, ENGINE.parse_options({}), 1).state
    state.players = [Player() for _ in range(n)]
    state.deck = list(deck)
    state.path = [PathCard(card=c) for c in (path or [])]
    state.round = 1
    state.rounds = []
    for key, value in kw.items():
        setattr(state, key, value)
    return state


def everyone(state: State, choices: dict[int, str]) -> State:
    """Apply a full set of simultaneous choices (seat → torch/camp)."""
    for seat, choice in choices.items():
        state = ENGINE.apply(state, seat, Torch() if choice == "torch" else Camp()).state
    return state


def test_split_example_11_among_4_gives_2_each_and_leaves_3_on_the_card() -> None:
    """The seed's example: a treasure of 11 with four explorers."""
    assert split(11, 4) == (2, 3)
    state = position(4, [treasure(11), treasure(1)])
    state = everyone(state, {0: "torch", 1: "torch", 2: "torch", 3: "torch"})
    assert [p.haul for p in state.players] == [2, 2, 2, 2]
    assert state.path[-1].remainder == 3


def test_remainder_is_shared_by_leavers_and_the_rest_stays() -> None:
    """Two leavers share 7 gems on the path: 3 each, 1 stays; they bank their haul."""
    state = position(4, [treasure(1), treasure(2)], path=[treasure(7)])
    state.path[0].remainder = 7
    for p in state.players:
        p.haul = 4
    state = everyone(state, {0: "camp", 1: "camp", 2: "torch", 3: "torch"})
    assert state.players[0].tent == 4 + 3 and state.players[1].tent == 4 + 3
    assert state.players[0].haul == 0 and not state.players[0].in_temple
    assert sum(pc.remainder for pc in state.path[:1]) == 1
    # The stayers' haul is untouched by the leavers' sharing; the next card (1) goes to 2 of them.
    assert state.players[2].haul == 4 and state.players[2].tent == 0
    assert state.path[-1].remainder == 1


def test_single_leaver_takes_all_artifacts_on_the_path() -> None:
    """Exactly one leaver carries out every artifact; values follow the carried order."""
    state = position(3, [treasure(3)], path=[artifact("idol"), treasure(4), artifact("mask")])
    state = everyone(state, {0: "camp", 1: "torch", 2: "torch"})
    assert state.players[0].artifacts == [5, 5]
    assert state.players[0].artifact_names == ["idol", "mask"]
    assert all(CARDS[pc.card].kind != "artifact" for pc in state.path)


def test_two_leavers_together_take_no_artifact() -> None:
    """Two or more leaving together leave the artifacts on the path."""
    state = position(3, [treasure(3)], path=[artifact("idol")])
    state = everyone(state, {0: "camp", 1: "camp", 2: "torch"})
    assert state.players[0].artifacts == [] and state.players[1].artifacts == []
    assert any(pc.card == artifact("idol") for pc in state.path)


def test_artifact_values_are_5_5_5_10_10_over_the_game() -> None:
    """The 1st–3rd artifact carried out are worth 5, the 4th and 5th 10."""
    names = ["idol", "mask", "necklace", "vase", "cup"]
    state = position(3, [treasure(1)], path=[artifact(n) for n in names])
    state = everyone(state, {0: "camp", 1: "torch", 2: "torch"})
    assert state.players[0].artifacts == [5, 5, 5, 10, 10]
    state = position(3, [treasure(1)], path=[artifact("cup")], artifacts_carried=3)
    state = everyone(state, {0: "torch", 1: "camp", 2: "torch"})
    assert state.players[1].artifacts == [10]


def test_duplicate_hazard_makes_everyone_flee_and_is_removed() -> None:
    """A second hazard of a kind: hauls lost, that card out of the game, artifacts lost."""
    state = position(
        3, [hazard("fire", 1), treasure(5)], path=[hazard("fire", 0), artifact("vase"), treasure(9)]
    )
    for p in state.players:
        p.haul = 3
        p.tent = 10
    state = everyone(state, {0: "torch", 1: "torch", 2: "torch"})
    assert [p.tent for p in state.players] == [10, 10, 10]
    assert hazard("fire", 1) in state.removed_hazards
    assert hazard("fire", 0) not in state.removed_hazards
    assert artifact("vase") in state.removed_artifacts
    assert state.round == 2 and state.rounds[0].ended_by == "flight"
    assert state.rounds[0].hazard == "fire"
    # The removed hazard is not in the next round's deck; its two siblings are.
    next_round_cards = state.deck + [pc.card for pc in state.path]
    assert hazard("fire", 1) not in next_round_cards
    assert hazard("fire", 0) in next_round_cards and hazard("fire", 2) in next_round_cards


def test_a_first_hazard_of_a_kind_does_nothing() -> None:
    """A single hazard of a kind on the path is harmless."""
    state = position(3, [hazard("snakes", 0), treasure(5)], path=[hazard("fire", 0)])
    for p in state.players:
        p.haul = 2
    state = everyone(state, {0: "torch", 1: "torch", 2: "torch"})
    assert [p.haul for p in state.players] == [2, 2, 2]
    assert state.round == 1 and ENGINE.to_act(state) == {0, 1, 2}


def test_stayers_alone_share_the_next_treasure() -> None:
    """After some leave, only those still inside share a treasure."""
    state = position(4, [treasure(14)], path=[treasure(1)])
    state = everyone(state, {0: "camp", 1: "torch", 2: "torch", 3: "camp"})
    assert [p.haul for p in state.players] == [0, 7, 7, 0]


def test_round_ends_when_everyone_has_left_and_lead_passes_left() -> None:
    """All leave → next round, start player moves one seat to the left."""
    state = position(3, [treasure(1)], path=[treasure(5)], start_player=2)
    state = everyone(state, {0: "camp", 1: "camp", 2: "camp"})
    assert state.round == 2 and state.start_player == 0
    assert all(p.in_temple for p in state.players)
    assert state.rounds[-1].ended_by == "all_left"


def test_revealed_but_untaken_artifacts_leave_the_game_unrevealed_ones_return() -> None:
    """End of round: artifacts on the path are removed; those still in the deck come back."""
    state = position(
        3,
        [artifact("cup"), treasure(2)],
        path=[artifact("idol")],
        future_artifacts=[artifact("mask")],
        round_artifact=artifact("idol"),
    )
    state = everyone(state, {0: "camp", 1: "camp", 2: "camp"})
    assert artifact("idol") in state.removed_artifacts
    assert artifact("cup") not in state.removed_artifacts
    round2 = set(state.deck) | {pc.card for pc in state.path}
    assert artifact("cup") in round2 and artifact("mask") in round2
    assert artifact("idol") not in round2


def test_first_card_is_revealed_before_any_choice() -> None:
    """Setup reveals the opening card (two if the first was a hazard, per the seed)."""
    for seed in range(30):
        state = ENGINE.setup(3, ENGINE.parse_options({}), seed).state
        assert 1 <= len(state.path) <= 2 or state.round > 1
        if len(state.path) == 2:
            assert CARDS[state.path[0].card].kind == "hazard"
        if len(state.path) == 1:
            assert CARDS[state.path[0].card].kind != "hazard"


def test_empty_deck_returns_everyone_safely() -> None:
    """Defensive rule: no card left → everybody inside banks their haul."""
    state = position(3, [], path=[treasure(5)])
    for p in state.players:
        p.haul = 6
    state = everyone(state, {0: "torch", 1: "torch", 2: "torch"})
    assert [p.tent for p in state.players] == [6, 6, 6]
    assert state.rounds[-1].ended_by == "deck_empty"


def test_tie_break_by_artifacts_then_shared_win() -> None:
    """Highest score wins; a tie goes to most artifacts; still tied is a shared win."""
    state = position(3, [])
    state.over = True
    state.players[0].tent, state.players[1].tent, state.players[2].tent = 20, 15, 25
    state.players[1].artifacts = [5]
    state.players[2].artifacts = []
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == {0: 20, 1: 20, 2: 25} and outcome.winners == {2}
    state.players[2].tent = 15
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == {1} and outcome.ranks == {0: 2, 1: 1, 2: 3}
    state.players[0].artifacts = [5]
    state.players[0].tent = 15
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == {0, 1}
    assert "shared" in outcome.reason


def test_game_ends_after_five_rounds() -> None:
    """Round 5 ending ends the game; further actions raise GameOver."""
    state = position(3, [treasure(1)], path=[treasure(9)], round=5)
    state = everyone(state, {0: "camp", 1: "camp", 2: "camp"})
    assert state.over and ENGINE.to_act(state) == frozenset()
    with pytest.raises(GameOver):
        ENGINE.apply(state, 0, Torch())


def test_variant_without_artifacts_has_no_artifact_cards() -> None:
    """`artifacts: false` is the original Diamant."""
    state = ENGINE.setup(3, ENGINE.parse_options({"artifacts": False}), 5).state
    cards = set(state.deck) | {pc.card for pc in state.path}
    assert not cards & set(ARTIFACTS)
    assert cards == set(TREASURES) | set(HAZARDS)
    with pytest.raises(MalformedAction):
        ENGINE.parse_options({"artifacts": "maybe"})
    with pytest.raises(MalformedAction):
        ENGINE.parse_options({"bogus": 1})


def test_choices_are_secret_until_all_have_chosen() -> None:
    """Others see that a seat has chosen, not what; the chooser sees their own choice."""
    state = position(3, [treasure(5), treasure(1)], path=[treasure(3)])
    state = ENGINE.apply(state, 0, Camp()).state
    mine = ENGINE.view(state, 0)["players"][0]
    theirs = ENGINE.view(state, 1)["players"][0]
    spectator = ENGINE.view(state, None)["players"][0]
    assert mine["choice"] == "camp" and mine["has_chosen"]
    assert theirs["choice"] is None and theirs["has_chosen"]
    assert spectator["choice"] is None and spectator["has_chosen"]
    assert ENGINE.to_act(state) == {1, 2}
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, Torch())


def test_tents_are_secret_until_the_end() -> None:
    """A tent total is shown only to its owner, and to all once the game is over."""
    state = position(3, [treasure(5)], path=[treasure(3)])
    state.players[1].tent = 17
    assert ENGINE.view(state, 1)["players"][1]["tent"] == 17
    assert ENGINE.view(state, 0)["players"][1]["tent"] is None
    assert ENGINE.view(state, None)["players"][1]["tent"] is None
    state.over = True
    assert ENGINE.view(state, None)["players"][1]["tent"] == 17


def test_determinize_guesses_tents_from_what_the_seat_knows() -> None:
    """Others' tents are invented (secret), but plausibly: all 0 before any round is banked,
    then within twice the larger of the seat's own tent and 4 gems per banked round; the
    seat's own tent is kept."""
    state = position(3, [treasure(5)], path=[treasure(3)])
    state.players[1].tent, state.players[2].tent = 9, 12
    for k in range(20):
        world = ENGINE.determinize(state, 0, Rng.from_seed(k))
        assert [p.tent for p in world.players] == [0, 0, 0]
    state.rounds = [RoundSummary(round=1, ended_by="all_left")] * 2
    state.round = 3
    state.players[0].tent = 30
    seen: set[int] = set()
    for k in range(200):
        world = ENGINE.determinize(state, 0, Rng.from_seed(k))
        assert world.players[0].tent == 30
        seen.update(p.tent for p in world.players[1:])
    assert max(seen) <= 60 and len(seen) > 20
    state.players[0].tent = 0
    worlds = [ENGINE.determinize(state, 0, Rng.from_seed(k)) for k in range(200)]
    assert max(p.tent for w in worlds for p in w.players[1:]) <= 16


def test_refusals_change_nothing() -> None:
    """Out-of-turn, non-actions and a seat that already left are refused."""
    state = position(3, [treasure(5), treasure(7)], path=[treasure(3)])
    state = everyone(state, {0: "camp", 1: "torch", 2: "torch"})
    before = ENGINE.dump(state)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, Torch())
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, object())
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "run"})
    with pytest.raises(MalformedAction):
        ENGINE.parse_action({"type": "torch", "extra": 1})
    assert ENGINE.dump(state) == before
    assert ENGINE.legal_actions(state, 0) == []
    assert [a.type for a in ENGINE.legal_actions(state, 1)] == ["torch", "camp"]


def test_action_text_round_trips() -> None:
    """Canonical texts and JSON forms of the two actions."""
    for action in (Torch(), Camp()):
        assert ENGINE.parse_action(ENGINE.dump_action(action)) == action
        assert ENGINE.action_text(action) == action.type
