"""The JSON counterpart of the engines' no-leak invariant, for every registered game: the state
frame a seat (or a spectator) receives — view, room facts and log — is the same text when what
that viewer may not see is re-dealt, and its log holds exactly the lines that viewer may read.
Built through the real presentation code from an offline table (no database, no socket)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.presentation.messages import state_json_text
from app.table import Table
from bench.pages import offline_table
from engines import ENGINES
from engines.core import Engine, Event, Rng

SAMPLES = 6
"""Positions per game (spread over a seeded random game)."""


def _game(engine: Engine[Any, Any, Any], players: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """`SAMPLES` positions of a seeded random game, each with the log up to it."""
    rng = random.Random(seed)
    step = engine.setup(players, engine.parse_options({}), seed)
    state, log = step.state, [(0, e) for e in step.events]
    played = [(state, list(log))]
    for version in range(1, 2001):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        step = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        state = step.state
        log += [(version, e) for e in step.events]
        played.append((state, list(log)))
    picks = sorted({int(i * (len(played) - 1) / (SAMPLES - 1)) for i in range(SAMPLES)})
    return [played[i] for i in picks]


def _table(
    engine: Engine[Any, Any, Any], state: Any, log: list[tuple[int, Event]], players: int
) -> Table:
    hub = offline_table(engine, state, players)
    assert hub.game is not None
    hub.game.log = list(log)
    return hub


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.spec.id)
def test_state_frames_do_not_depend_on_hidden_information(engine: Engine[Any, Any, Any]) -> None:
    """For every seat and a spectator, at positions from the start to the end."""
    players = engine.spec.min_players + (engine.spec.max_players > engine.spec.min_players)
    rng = Rng.from_seed(31)
    for state, log in _game(engine, players, seed=8):
        for seat in [*range(players), None]:
            frame = state_json_text(_table(engine, state, log, players).snapshot(), seat, -1)
            readable = [e for _, e in log if e.visible_to(seat)]
            assert [x["key"] for x in json.loads(frame)["entries"]] == [e.message for e in readable]
            for _ in range(2):
                other = engine.determinize(state, seat, rng)
                again = state_json_text(_table(engine, other, log, players).snapshot(), seat, -1)
                assert again == frame, (
                    f"{engine.spec.id}: the frame of {'a spectator' if seat is None else seat} "
                    "changes with information it may not see"
                )
