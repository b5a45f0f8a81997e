"""A random game's CPU time with the least noise a shared machine allows: each seeded game
(the same games as `bench.engines`) is played `--repeats` times and its fastest run kept; the
median over the seeds is printed, with the load average.

    python -m bench.random_game_min karmaka --games 30 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics

from bench.engines import random_game
from engines import get_engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    engine = get_engine(args.game)
    best = [
        min(random_game(engine, seed)[0] for _ in range(args.repeats)) for seed in range(args.games)
    ]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{args.game}: median of the fastest of {args.repeats} runs per seed "
        f"{statistics.median(best) * 1000:.1f} ms over {args.games} games (load {load})"
    )


if __name__ == "__main__":
    main()
