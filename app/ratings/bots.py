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
    "karmaka": {  # 3 games, 1438 s
        "random": (17.67, 7.83),
        "easy": (27.07, 7.97),
        "normal": (24.03, 7.81),
        "hard": (31.3, 8.01),
    },
    "dreadful_circus": {  # 5 games, 1378 s
        "random": (11.19, 7.4),
        "easy": (29.48, 7.54),
        "normal": (32.78, 7.71),
        "hard": (26.81, 7.44),
    },
}
"""game → level → (μ, σ), as `bench/bot_ratings.py` printed them (on the shared 2-core machine
under heavy load, so few games: the strength of each level is known only roughly, σ ≈ 7–8)."""

ORDER = ("random", "easy", "normal", "hard")
"""The kinds from weakest to strongest: the arena's win shares say so (docs/benchmarks.md)."""

UNMEASURED = Rating(25.0, 8.333333333333334)
"""A level measured in no game at all: a new person's rating."""


def _average(level: str) -> Rating | None:
    """A level's (ordered) rating averaged over the games it was measured in (for a game not
    measured yet, e.g. one just added)."""
    found = [ordered(levels)[level] for levels in MEASURED.values() if level in levels]
    if not found:
        return None
    return Rating(sum(r.mu for r in found) / len(found), sum(r.sigma for r in found) / len(found))


def ordered(measured: dict[str, tuple[float, float]]) -> dict[str, Rating]:
    """The measured ratings made to rise with the level, as the levels' strengths do: where a
    few games left a stronger level below a weaker one, the two (and any neighbours they then
    pass) share their mean μ and σ (pooling adjacent violators: the closest ordered fit)."""
    kinds = [k for k in ORDER if k in measured]
    blocks: list[tuple[list[str], float, float]] = []
    for kind in kinds:
        mu, sigma = measured[kind]
        block = ([kind], mu, sigma)
        while blocks and blocks[-1][1] > block[1]:
            prev = blocks.pop()
            n, m = len(prev[0]), len(block[0])
            block = (
                prev[0] + block[0],
                (prev[1] * n + block[1] * m) / (n + m),
                (prev[2] * n + block[2] * m) / (n + m),
            )
        blocks.append(block)
    return {kind: Rating(mu, sigma) for members, mu, sigma in blocks for kind in members}


def ratings(game: str) -> dict[str, Rating]:
    """The fixed rating of each bot level in `game` (measured there and ordered, else the
    level's average over the measured games)."""
    found = ordered(MEASURED.get(game, {}))
    for level in ("easy", "normal", "hard"):
        if level not in found:
            found[level] = _average(level) or UNMEASURED
    return found


def rating(game: str, level: str) -> Rating:
    """The fixed rating of the bot `level` in `game`."""
    return ratings(game).get(level, UNMEASURED)
