"""The bots' fixed ratings: per game and level, measured in the arena by
`bench/bot_ratings.py` (one random player and one bot of each level per game, seats rotating,
the four rated with the same model as people, each starting from a new person's rating; σ
floored at 2). Re-measure after changing a bot and paste the printed lines here. A bot's
rating never changes: it is the yardstick people's ratings move against.
"""

from __future__ import annotations

from app.ratings.model import Rating

MEASURED: dict[str, dict[str, tuple[float, float]]] = {}
"""game → level → (μ, σ), as `bench/bot_ratings.py` printed them."""

UNMEASURED = Rating(25.0, 8.333333333333334)
"""A level or game not measured yet: a new person's rating."""


def ratings(game: str) -> dict[str, Rating]:
    """The fixed rating of each bot level in `game`."""
    return {level: Rating(*pair) for level, pair in MEASURED.get(game, {}).items()}


def rating(game: str, level: str) -> Rating:
    """The fixed rating of the bot `level` in `game`."""
    return ratings(game).get(level, UNMEASURED)
