"""Helpers that build explicit Karmaka positions for the rule tests."""

from __future__ import annotations

from typing import Any

from engines.core import Event, Rng, Seat, Step
from engines.karmaka import ENGINE
from engines.karmaka.cards import CARDS, NUM_CARDS
from engines.karmaka.model import Mode, Player, State


def cid(kind: str, copy: int = 0) -> int:
    """The id of the `copy`-th physical card of a kind (0-based)."""
    ids = [i for i, k in enumerate(CARDS) if k.id == kind]
    return ids[copy]


X, Y, Z = cid("jubilee", 1), cid("sowing", 2), cid("recycle", 2)
"""Filler cards that no test plays (copies the tests leave alone)."""


def table(
    n: int = 2,
    *,
    mode: Mode = "free_for_all",
    hands: dict[Seat, list[int]] | None = None,
    decks: dict[Seat, list[int]] | None = None,
    futures: dict[Seat, list[int]] | None = None,
    deeds: dict[Seat, list[int]] | None = None,
    rungs: dict[Seat, int] | None = None,
    rings: dict[Seat, int] | None = None,
    well: list[int] | None = None,
    ruins: list[int] | None = None,
    turn: Seat = 0,
    rest: str = "well",
) -> State:
    """A position at the start of `turn`'s main play (its draw already done).

    Piles are listed bottom → top. Every card not placed goes to the bottom of the Well, or, with
    `rest="future:<seat>"`, to the bottom of that seat's Future Life, so 64 cards stay in play.
    """
    players = [Player() for _ in range(n)]
    placed: list[int] = []

    def put(pile: dict[Seat, list[int]] | None, attr: str) -> None:
        for seat, cards in (pile or {}).items():
            setattr(players[seat], attr, list(cards))
            placed.extend(cards)

    put(hands, "hand")
    put(decks, "deck")
    put(futures, "future")
    put(deeds, "deeds")
    for seat, rung in (rungs or {}).items():
        players[seat].rung = rung
    for seat, count in (rings or {}).items():
        players[seat].rings = count
    well = list(well or [])
    ruins = list(ruins or [])
    placed += well + ruins
    assert len(placed) == len(set(placed)), "a card is placed twice"
    leftover = [c for c in range(NUM_CARDS) if c not in placed]
    if rest == "well":
        well = leftover + well
    else:
        seat = int(rest.split(":")[1])
        players[seat].future = leftover + players[seat].future
    state = State(
        num_players=n,
        mode=mode,
        rng=Rng.from_seed(99),
        players=players,
        well=well,
        ruins=ruins,
        turn=turn,
        phase="play",
        turns_started=1,
    )
    assert_conserved(state)
    return state


def assert_conserved(state: State) -> None:
    """Every one of the 64 cards is in exactly one place."""
    cards = list(state.well) + list(state.ruins)
    for p in state.players:
        cards += p.hand + p.deck + p.future + p.deeds
    if state.chain is not None:
        cards.append(state.chain.card)
    if state.prompt is not None and state.prompt.kind.startswith("destiny"):
        cards += state.prompt.cards
    assert sorted(cards) == list(range(NUM_CARDS))


def act(state: State, seat: Seat, action: Any) -> State:
    """Apply one action (a model or its JSON dict) and check that no card got lost."""
    return step(state, seat, action).state


def step(state: State, seat: Seat, action: Any) -> Step[State]:
    """Apply one action, returning the step with its events."""
    if isinstance(action, dict):
        action = ENGINE.parse_action(action)
    result = ENGINE.apply(state, seat, action)
    assert_conserved(result.state)
    return result


def play(state: State, seat: Seat, card: int, way: str = "ability") -> State:
    """Play a card from the Hand."""
    return act(state, seat, {"type": "play", "card": card, "way": way})


def target(state: State, seat: Seat, who: Seat) -> State:
    """Name a target (or Mimic's source)."""
    return act(state, seat, {"type": "target", "seat": who})


def choose(state: State, seat: Seat, card: int) -> State:
    """Choose a card in a prompt."""
    return act(state, seat, {"type": "choose", "card": card})


def refuse_all(state: State) -> State:
    """Every candidate refuses the offered card."""
    while state.phase == "offer":
        assert state.chain is not None
        state = act(state, state.chain.offer_to[0], {"type": "refuse"})
    return state


def offered_to(state: State) -> list[Seat]:
    """Who is asked, in order, about the card in play."""
    assert state.phase == "offer" and state.chain is not None
    return list(state.chain.offer_to)


def texts(events: list[Event], seat: Seat | None) -> list[str]:
    """The log lines one seat (None = spectator) reads."""
    return [e.text for e in events if e.visible_to(seat)]
