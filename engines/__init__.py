"""Stolik's game engines and their registry.

Every game is a package `engines/<id>/` exposing `ENGINE`, an instance of `engines.core.Engine`.
The games the server ships are the explicit import list below (no directory scanning), so a
newcomer sees every game in one place; adding one is that line and a screen
(docs/adding-a-game.md). Everything else (the lobby, the bots, the replay check, the generic test
suites) reads the registry.

Tests may register a game of their own for a while (`register_engine`, `registered`): such a
game is registered but not shipped (`is_shipped`), which lets the few checks about what ships
(catalogues, rules pages) leave it out.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engines.core import Engine
from engines.dreadful_circus import ENGINE as DREADFUL_CIRCUS
from engines.ganges import ENGINE as GANGES
from engines.incan_gold import ENGINE as INCAN_GOLD
from engines.karmaka import ENGINE as KARMAKA
from engines.racing_hedgehogs import ENGINE as RACING_HEDGEHOGS

SHIPPED: tuple[Engine[Any, Any, Any], ...] = (
    INCAN_GOLD,
    RACING_HEDGEHOGS,
    KARMAKA,
    GANGES,
    DREADFUL_CIRCUS,
)
"""Every game the server ships, in the order the lobby lists them."""

ENGINES: list[Engine[Any, Any, Any]] = list(SHIPPED)
"""Every registered game: the shipped ones, then any registered at run time (by tests). Changed
in place, only by `register_engine` and `unregister_engine`."""

REGISTRY: dict[str, Engine[Any, Any, Any]] = {engine.spec.id: engine for engine in ENGINES}
"""The registered games by id (changed in place with `ENGINES`)."""


def get_engine(game_id: str) -> Engine[Any, Any, Any]:
    """The engine registered under `game_id`; KeyError if there is none."""
    return REGISTRY[game_id]


def is_shipped(game_id: str) -> bool:
    """Whether `game_id` is one of the games the server ships (not one a test registered)."""
    return any(engine.spec.id == game_id for engine in SHIPPED)


def register_engine(engine: Engine[Any, Any, Any]) -> None:
    """Register a game after the shipped ones (tests: a game of their own). Its id must be new."""
    game_id = engine.spec.id
    if game_id in REGISTRY:
        raise ValueError(f"a game called {game_id!r} is already registered")
    ENGINES.append(engine)
    REGISTRY[game_id] = engine


def unregister_engine(game_id: str) -> None:
    """Undo `register_engine`; the shipped games cannot be removed."""
    if is_shipped(game_id):
        raise ValueError(f"{game_id!r} is a shipped game")
    engine = REGISTRY.pop(game_id)
    ENGINES.remove(engine)


@contextmanager
def registered(engine: Engine[Any, Any, Any]) -> Iterator[Engine[Any, Any, Any]]:
    """`engine` registered for the duration of the block, then removed again."""
    register_engine(engine)
    try:
        yield engine
    finally:
        unregister_engine(engine.spec.id)
