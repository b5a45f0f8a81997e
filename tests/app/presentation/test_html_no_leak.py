"""The HTML counterpart of the engines' no-leak invariant, for every registered game: the table
page a seat (or a spectator) receives is byte-for-byte the same when what that viewer may not
see is re-dealt. Rendering goes through the real templates from a live hub object (no
database: the hub only holds the state here)."""

from __future__ import annotations

from typing import Any

import pytest

from app.presentation.table import presence_html, state_html
from app.realtime.connection import Connection
from app.table import Table
from bench.pages import offline_table, positions
from engines import ENGINES
from engines.core import Engine, Rng

SAMPLES = 6
"""Positions per game (spread over a seeded random game)."""


def _hub(engine: Engine[Any, Any, Any], state: Any, players: int) -> Table:
    return offline_table(engine, state, players)


def _positions(engine: Engine[Any, Any, Any], players: int, seed: int) -> list[Any]:
    return positions(engine, players, seed, SAMPLES)


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
            html = state_html(hub.snapshot(), Connection(user_id=uid, fmt="html"), 500)
            assert '<main id="board"' in html
            for _ in range(2):
                other = engine.determinize(state, seat, rng)
                again = state_html(
                    _hub(engine, other, players).snapshot(),
                    Connection(user_id=uid, fmt="html"),
                    500,
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
            page = state_html(
                _hub(engine, state, players).snapshot(), Connection(uid, fmt="html"), 50
            )
            bar = page[page.index('<nav id="seats"') : page.index("</nav>") + len("</nav>")]
            hub = _hub(engine, state, players)
            with monkeypatch.context() as m:
                m.setattr(engine, "game_view", _no_view)
                alone = presence_html(hub.snapshot(), Connection(uid, fmt="html"))
            assert alone.strip() == bar


def _no_view(*_: Any) -> Any:
    raise AssertionError("a view was computed for a presence change")
