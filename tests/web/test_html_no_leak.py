"""The HTML counterpart of the engines' no-leak invariant, for every registered game: the table
page a seat (or a spectator) receives is byte-for-byte the same when what that viewer may not
see is re-dealt. Rendering goes through the real templates from a live hub object (no
database: the hub only holds the state here)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from app import render
from app.db.repo import SeatInfo
from app.realtime.hub import Connection, GameLive, RoomHub, Runtime
from engines import ENGINES
from engines.core import Engine, Rng

SAMPLES = 6
"""Positions per game (spread over a seeded random game)."""


def _hub(engine: Engine[Any, Any, Any], state: Any, players: int) -> RoomHub:
    room = SimpleNamespace(
        id=1,
        slug="leaktest",
        game_id=engine.spec.id,
        options={},
        num_seats=players,
        private=False,
        invite_code="x",
        host_id=100,
        status="playing",
        clock="normal",
        bot_level="normal",
        rematch_slug=None,
    )
    hub = RoomHub(None, room, Runtime(now=lambda: 1_800_000_000.0))  # type: ignore[arg-type]
    hub.seats = {s: SeatInfo(s, 100 + s, f"Player {s + 1}") for s in range(players)}
    hub.game = GameLive(
        db_id=1,
        engine=engine,
        state=state,
        version=7,
        seed=0,
        seed_commitment="c" * 64,
        log=[],
        prompt_version=dict.fromkeys(range(players), 7),
    )
    return hub


def _positions(engine: Engine[Any, Any, Any], players: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options({}), seed).state
    states = [state]
    for _ in range(2000):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    picks = sorted({int(i * (len(states) - 1) / (SAMPLES - 1)) for i in range(SAMPLES)})
    return [states[i] for i in picks]


@pytest.mark.parametrize("engine", ENGINES, ids=[e.spec.id for e in ENGINES])
def test_table_html_does_not_depend_on_hidden_information(engine: Engine[Any, Any, Any]) -> None:
    """For every seat and a spectator, at positions from the start to the end."""
    players = engine.spec.min_players + (
        1 if engine.spec.max_players > engine.spec.min_players else 0
    )
    rng = Rng.from_seed(99)
    for state in _positions(engine, players, seed=5):
        for seat in [*range(players), None]:
            uid = None if seat is None else 100 + seat
            hub = _hub(engine, state, players)
            html = render.state_html(hub, Connection(user_id=uid, fmt="html"), 500)
            assert '<main id="board"' in html
            for _ in range(2):
                other = engine.determinize(state, seat, rng)
                again = render.state_html(
                    _hub(engine, other, players), Connection(user_id=uid, fmt="html"), 500
                )
                assert again == html, (
                    f"{engine.spec.id}: the page of {'a spectator' if seat is None else seat} "
                    "changes with information it may not see"
                )


@pytest.mark.parametrize("engine", ENGINES, ids=[e.spec.id for e in ENGINES])
def test_presence_redraws_the_seats_bar_without_any_view(
    engine: Engine[Any, Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A presence change sends the seats bar only, the same bar the whole page carries, and
    computes no seat's view for it (the bar reads the view's public header)."""
    players = engine.spec.min_players
    for state in _positions(engine, players, seed=11):
        for seat in [*range(players), None]:
            uid = None if seat is None else 100 + seat
            page = render.state_html(_hub(engine, state, players), Connection(uid, fmt="html"), 50)
            bar = page[page.index('<nav id="seats"') : page.index("</nav>") + len("</nav>")]
            hub = _hub(engine, state, players)
            with monkeypatch.context() as m:
                m.setattr(engine, "game_view", _no_view)
                alone = render.presence_html(hub, Connection(uid, fmt="html"))
            assert alone.strip() == bar


def _no_view(*_: Any) -> Any:
    raise AssertionError("a view was computed for a presence change")
