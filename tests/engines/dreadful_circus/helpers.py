"""Explicit positions for the Dreadful Circus tests (docs/rules/dreadful-circus.md)."""

from __future__ import annotations

import json
from typing import Any

from engines.core import Event, Seat, events_for
from engines.dreadful_circus import ENGINE
from engines.dreadful_circus.cards import CITIES, ITEMS
from engines.dreadful_circus.flow import continue_performances
from engines.dreadful_circus.model import Options, Pending, State

FILLER = "hall_of_wax"
"""A card with no effect, used to pad hands."""


def goods(**counts: int) -> list[int]:
    """Eight counts from keyword items: goods(copper=2, berlin=1)."""
    return [counts.get(item, 0) for item in ITEMS]


def table(
    n: int = 4,
    *,
    hands: list[list[str]] | None = None,
    areas: list[list[str]] | None = None,
    screens: list[list[int]] | None = None,
    first: Seat = 0,
    second: Seat | None = None,
    bag: list[int] | None = None,
    seed: int = 1,
) -> State:
    """A position at the start of a round (offer phase) with everything given explicitly."""
    s = ENGINE.setup(n, Options(), seed).state
    s.phase = "offer"
    s.round = 1
    s.hands = hands if hands is not None else [[FILLER] * 6 for _ in range(n)]
    s.areas = areas if areas is not None else [[] for _ in range(n)]
    s.screens = screens if screens is not None else [goods() for _ in range(n)]
    s.bag = bag if bag is not None else [11 - sum(sc[3 + i] for sc in s.screens) for i in range(5)]
    s.deck = []
    s.discard = []
    s.first_seller, s.second_seller = first, second
    return s


def perform(state: State, seat: Seat, card: str) -> tuple[State, list[Event]]:
    """Start resolving a Performance for `seat` (round step 7) in a copy of `state`."""
    s = state.model_copy(deep=True)
    s.phase = "perform"
    s.queue = [Pending(seat=seat, card=card)]
    events: list[Event] = []
    continue_performances(s, events)
    return s, events


def act(state: State, seat: Seat, raw: dict[str, Any]) -> State:
    """Apply a JSON action through the engine's parser, as the server would."""
    return ENGINE.apply(state, seat, ENGINE.parse_action(raw)).state


def act_events(state: State, seat: Seat, raw: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply a JSON action and return the events too."""
    step = ENGINE.apply(state, seat, ENGINE.parse_action(raw))
    return step.state, step.events


def dump(state: State) -> str:
    """A canonical text of the whole state."""
    return json.dumps(ENGINE.dump(state), sort_keys=True)


def texts(events: list[Event], seat: Seat | None) -> list[str]:
    """What `seat` reads in the log."""
    return events_for(events, seat)


def city(name: str) -> int:
    """Index of a city in goods lists."""
    return 3 + CITIES.index(name)
