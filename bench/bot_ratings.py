"""The bots' fixed ratings: each level (and a uniformly random player) rated by playing them
against each other in the arena, engine only.

    python -m bench.bot_ratings --games 8 [--game karmaka]

Every game seats one random player and one bot of each level (easy, normal, hard), in an order
that rotates from game to game, plays it to the end (`bench.arena.play_one`), and rates the
four kinds with openskill's Plackett-Luce model exactly as the server rates people
(`app.ratings.model`), every kind starting from a new person's rating (μ 25, σ 25/3). After the
games each level's μ is its fixed rating in that game; its σ is floored at `SIGMA_FLOOR` (a
bot's strength is known no better than that from a few dozen games). The printed dictionary is
what `app/ratings/bots.py` holds. Because every kind starts where a new person starts, a new
person is rated like the average of the four kinds until they play.
"""

from __future__ import annotations

import argparse
import time

from app.ratings.model import MODEL
from bench.arena import play_one
from engines import ENGINES

KINDS = ["random", "easy", "normal", "hard"]
SIGMA_FLOOR = 2.0


def measure(
    game: str, games: int, seed: int, budget: float | None = None
) -> tuple[dict[str, tuple[float, float]], int]:
    """Rate the four kinds over `games` games of `game` (fewer if `budget` seconds run out
    first: the game under way is the last): kind → (μ, σ), and the games played."""
    ratings = {kind: MODEL.rating() for kind in KINDS}
    started = time.perf_counter()
    played = 0
    for g in range(games):
        if budget is not None and played and time.perf_counter() - started > budget:
            break
        played += 1
        kinds = KINDS[g % 4 :] + KINDS[: g % 4]
        result = play_one(game, kinds, seed + g, {})
        if not result["finished"]:
            continue
        ranks = [float(result["ranks"][seat]) for seat in range(len(kinds))]
        rated = MODEL.rate([[ratings[k]] for k in kinds], ranks=ranks)
        for kind, team in zip(kinds, rated, strict=True):
            ratings[kind] = team[0]
    fixed = {k: (round(r.mu, 2), round(max(r.sigma, SIGMA_FLOOR), 2)) for k, r in ratings.items()}
    return fixed, played


def main() -> None:
    """Command line: print the measured ratings as `app/ratings/bots.py` holds them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="one game (repeatable); default all")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds per game at most (then fewer games)"
    )
    args = parser.parse_args()
    for game in args.game or [e.spec.id for e in ENGINES]:
        started = time.perf_counter()
        measured, played = measure(game, args.games, args.seed, args.budget)
        took = time.perf_counter() - started
        print(f'    "{game}": {{  # {played} games, {took:.0f} s', flush=True)
        for kind, (mu, sigma) in measured.items():
            print(f'        "{kind}": ({mu}, {sigma}),', flush=True)
        print("    },", flush=True)


if __name__ == "__main__":
    main()
