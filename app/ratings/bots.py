"""The bots' fixed ratings: per game and level, measured in the arena by
`bench/bot_ratings.py` (one random player and one bot of each level per game, seats rotating,
the four rated with the same model as people, each starting from a new person's rating; σ
floored at 2). Re-measure after changing a bot and paste the printed lines here. A bot's
rating never changes: it is the yardstick people's ratings move against.
"""

from __future__ import annotations

from app.ratings.model import Rating

MEASURED: dict[str, dict[str, tuple[float, float]]] = {
    # python -m bench.bot_ratings --games 8 (seed 1); "random" is the arena's random player.
    "incan_gold": {  # 8 games, 155 s
        "random": (14.34, 6.98),
        "easy": (23.26, 7.05),
        "normal": (28.09, 7.19),
        "hard": (34.33, 7.28),
    },
}
"""game → level → (μ, σ), as `bench/bot_ratings.py` printed them."""

UNMEASURED = Rating(25.0, 8.333333333333334)
"""A level measured in no game at all: a new person's rating."""


def _average(level: str) -> Rating | None:
    """A level's rating averaged over the games it was measured in (for a game not measured
    yet, e.g. one just added)."""
    found = [Rating(*levels[level]) for levels in MEASURED.values() if level in levels]
    if not found:
        return None
    return Rating(sum(r.mu for r in found) / len(found), sum(r.sigma for r in found) / len(found))


def ratings(game: str) -> dict[str, Rating]:
    """The fixed rating of each bot level in `game` (measured there, else the level's average
    over the measured games)."""
    measured = MEASURED.get(game, {})
    found = {level: Rating(*pair) for level, pair in measured.items()}
    for level in ("easy", "normal", "hard"):
        if level not in found:
            found[level] = _average(level) or UNMEASURED
    return found


def rating(game: str, level: str) -> Rating:
    """The fixed rating of the bot `level` in `game`."""
    return ratings(game).get(level, UNMEASURED)
