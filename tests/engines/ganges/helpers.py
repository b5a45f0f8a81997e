"""Explicit Ganges positions for the rule tests (docs/rules/ganges.md, "Worked examples")."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from engines.core import GameError
from engines.ganges import ENGINE
from engines.ganges.cards import ADMINISTRATORS, CATALOGUE, TABLE_SIZE, TRACK_BONUSES
from engines.ganges.state import Options, Player, Prompt, State, TrackCard


def position(
    num_players: int = 2,
    *,
    table: Iterable[str] = (),
    deck: Iterable[str] | None = None,
    discard: Iterable[str] = (),
    players: dict[int, dict[str, Any]] | None = None,
    active: int = 0,
    phase: int = 1,
    night_side_up: bool = False,
) -> State:
    """A state where `active` must take a main action, with catalogue die values.

    `players[seat]` sets Player fields (hand, buildings, ships, goods, fame, karma, coins,
    admins) and `track` (a list of six bonus codes, position 1 first). Unless `deck` is given,
    the deck holds every card not placed elsewhere, in catalogue order.
    """
    state = ENGINE.setup(num_players, Options(night_side_up=night_side_up), seed=1).state
    state.values = {c.id: c.die_value for c in CATALOGUE}
    seats: list[Player] = []
    held = 0
    for seat in range(num_players):
        fields = dict((players or {}).get(seat, {}))
        track = fields.pop("track", list(TRACK_BONUSES))
        p = Player(track=[TrackCard(bonus=b) for b in track], **fields)
        held += p.admins
        seats.append(p)
    state.players = seats
    state.admin_supply = ADMINISTRATORS - held
    table = list(table)
    state.table = table + [None] * (TABLE_SIZE[num_players] - len(table))
    state.discard = list(discard)
    used = set(table) | set(state.discard)
    for p in seats:
        used |= set(p.hand) | set(p.buildings) | set(p.ships) | set(p.goods)
    if deck is None:
        state.deck = [c.id for c in CATALOGUE if c.id not in used]
    else:
        state.deck = list(deck)
    state.carried = []
    state.start_player = 0
    state.turn = active
    state.phase = phase
    state.round = 1
    state.elephant_green = phase == 1
    state.owed = 1
    state.tasks = []
    state.last_ship = None
    state.over = False
    state.prompt = Prompt(kind="action", seat=active, owed=1)
    return state


def act(state: State, seat: int, action: dict[str, Any]) -> State:
    """Apply one action given as JSON; fails the test if it is refused."""
    parsed = ENGINE.parse_action(action)
    return ENGINE.apply(state, seat, parsed).state


def refused(
    state: State, seat: int, action: dict[str, Any], error: type[GameError] = GameError
) -> GameError:
    """Assert the action is refused with `error` and the state is unchanged."""
    before = json.dumps(ENGINE.dump(state), sort_keys=True)
    with pytest.raises(error) as info:
        ENGINE.apply(state, seat, ENGINE.parse_action(action))
    assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
    return info.value


def texts(state: State, seat: int) -> list[str]:
    """The legal actions of `seat` as text."""
    return [ENGINE.action_text(a) for a in ENGINE.legal_actions(state, seat)]


def prompt_of(state: State) -> Prompt:
    """The pending prompt (never None in these tests)."""
    assert state.prompt is not None
    return state.prompt
