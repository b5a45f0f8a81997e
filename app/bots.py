"""The server's side of bots: which levels a table offers, and one decision for one seat.

The search itself is pure and lives next to the engines (`engines/bots/`); this module only
derives a public, reproducible seed for each decision (so every process that runs the same
decision picks the same move), applies the server's think-time scale, and makes sure a table
never hangs on a bot: should the search fail, the seat still gets a legal move.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from engines.bots import LEVELS, choose_action
from engines.core import Engine, Rng, Seat

__all__ = ["LEVELS", "decide", "decision_seed"]

logger = logging.getLogger("stolik.bots")


def decision_seed(seed_commitment: str, version: int, seat: Seat) -> int:
    """A seed for one decision built from public facts only (never from the secret seed)."""
    digest = hashlib.sha256(f"bot:{seed_commitment}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def decide(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat, level: str, seed: int, scale: float = 1.0
) -> Any:
    """One legal action for `seat`, chosen by the search bot at `level`."""
    try:
        return choose_action(engine, state, seat, level=level, seed=seed, scale=scale)
    except Exception:
        logger.exception("bot search failed in %s; playing a random legal move", engine.spec.id)
        return Rng.from_seed(seed).choice(engine.legal_actions(state, seat))
