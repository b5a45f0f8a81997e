"""Stolik's game engines and their registry.

Every game is a package `engines/<id>/` exposing `ENGINE`, an instance of `engines.core.Engine`.
Games are registered by the explicit import list below (no directory scanning), so a newcomer
sees every game in one place.
"""

from __future__ import annotations

from typing import Any

from engines.core import Engine
from engines.dreadful_circus import ENGINE as DREADFUL_CIRCUS
from engines.ganges import ENGINE as GANGES
from engines.incan_gold import ENGINE as INCAN_GOLD
from engines.karmaka import ENGINE as KARMAKA
from engines.racing_hedgehogs import ENGINE as RACING_HEDGEHOGS

ENGINES: tuple[Engine[Any, Any, Any], ...] = (
    INCAN_GOLD,
    RACING_HEDGEHOGS,
    KARMAKA,
    GANGES,
    DREADFUL_CIRCUS,
)
"""Every game the server offers, in the order the lobby lists them."""

REGISTRY: dict[str, Engine[Any, Any, Any]] = {engine.spec.id: engine for engine in ENGINES}


def get_engine(game_id: str) -> Engine[Any, Any, Any]:
    """The engine registered under `game_id`; KeyError if there is none."""
    return REGISTRY[game_id]
