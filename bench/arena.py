"""Bots against bots, engine only (no server): win shares, scores and decision times.

    python -m bench.arena --game karmaka --seats normal,random,random,random --games 200

Seat kinds are bot levels (easy, normal, hard) or "random" (uniform random legal moves);
with `--outside URL TOKEN` one seat is "outside", a program with a bot token playing on the
server at URL against the built-in levels (bench/outside.py, docs/bot-api.md). The
order of the kinds rotates from game to game, so every kind plays from every position. Games
run in parallel worker processes (one per core unless --workers says otherwise). Printed: per
kind, the win share (a shared win counts 1/k) with its 95 % Wilson interval, its fair share,
ties, mean score and place, and the decision time p50/p95 of every bot level.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines import get_engine
from engines.bots import LEVELS, choose_action, random_action
from engines.core import Rng

MAX_STEPS = 20_000


def play_one(game: str, kinds: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One game: the result per seat and every bot decision's time (seconds) by level."""
    engine = get_engine(game)
    state = engine.setup(len(kinds), engine.parse_options(options), seed).state
    rng = Rng.from_seed(seed ^ 0x5DEECE66D)
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(MAX_STEPS):
        if engine.outcome(state) is not None:
            break
        acting = sorted(engine.to_act(state))
        seat = acting[rng.randbelow(len(acting))]
        kind = kinds[seat]
        if kind == "random":
            action = random_action(engine, state, seat, rng)
        else:
            start = time.perf_counter()
            action = choose_action(engine, state, seat, level=kind, seed=rng.next_u64())
            times[kind].append(time.perf_counter() - start)
        state = engine.apply(state, seat, action).state
    outcome = engine.outcome(state)
    if outcome is None:
        return {"kinds": kinds, "finished": False, "times": times}
    return {
        "kinds": kinds,
        "finished": True,
        "winners": sorted(outcome.winners),
        "scores": {int(k): v for k, v in outcome.scores.items()},
        "ranks": {int(k): v for k, v in outcome.ranks.items()},
        "times": times,
    }


def _job(args: tuple[str, list[str], int, dict[str, Any]]) -> dict[str, Any]:
    return play_one(*args)


def run(
    game: str, seats: list[str], games: int, seed: int, options: dict[str, Any], workers: int
) -> dict[str, Any]:
    """Play `games` games rotating `seats`; return the tallies per kind."""
    n = len(seats)
    jobs = [(game, seats[g % n :] + seats[: g % n], seed + g, options) for g in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_job, jobs))
    else:
        results = [_job(job) for job in jobs]
    return tally(seats, results, games)


def tally(seats: list[str], results: list[dict[str, Any]], games: int) -> dict[str, Any]:
    """The tallies per kind of `games` games' results (`play_one`'s, or `bench.outside`'s)."""
    n = len(seats)
    tally: dict[str, dict[str, float]] = {
        kind: {"seats": 0, "wins": 0.0, "ties": 0, "score": 0.0, "place": 0.0} for kind in seats
    }
    times: dict[str, list[float]] = defaultdict(list)
    unfinished = 0
    for res in results:
        for kind, ts in res["times"].items():
            times[kind].extend(ts)
        if not res["finished"]:
            unfinished += 1
            continue
        winners = res["winners"]
        for seat, kind in enumerate(res["kinds"]):
            t = tally[kind]
            t["seats"] += 1
            t["score"] += res["scores"].get(seat, 0)
            t["place"] += res["ranks"].get(seat, n)
            if seat in winners:
                t["wins"] += 1 / len(winners)
                if len(winners) > 1:
                    t["ties"] += 1
    return {"tally": tally, "times": times, "games": games, "unfinished": unfinished}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wilson(wins: float, seats: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a win share: `wins` of `seats` (a
    shared win counts as a fraction)."""
    if seats <= 0:
        return 0.0, 1.0
    p = wins / seats
    centre = (p + z * z / (2 * seats)) / (1 + z * z / seats)
    half = z * math.sqrt(p * (1 - p) / seats + z * z / (4 * seats * seats)) / (1 + z * z / seats)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(game: str, seats: list[str], result: dict[str, Any]) -> str:
    """The printed table."""
    n = len(seats)
    lines = [
        f"{game}: {result['games']} games, seats {','.join(seats)}"
        + (f", {result['unfinished']} unfinished" if result["unfinished"] else ""),
        f"{'kind':8} {'seats':>6} {'win share':>10} {'95 % interval':>15} {'fair':>6} "
        f"{'ties':>5} {'mean score':>11} {'mean place':>11}",
    ]
    for kind, t in result["tally"].items():
        played = t["seats"] or 1
        share = t["wins"] / played
        low, high = wilson(t["wins"], t["seats"])
        lines.append(
            f"{kind:8} {t['seats']:>6.0f} {share:>9.1%} {f'{low:.1%}–{high:.1%}':>15} "
            f"{1 / n:>6.1%} {t['ties']:>5.0f} {t['score'] / played:>11.2f} "
            f"{t['place'] / played:>11.2f}"
        )
    for kind in LEVELS:
        ts = result["times"].get(kind)
        if ts:
            lines.append(
                f"decision time {kind}: p50 {percentile(ts, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(ts, 0.95) * 1000:.0f} ms ({len(ts)} decisions)"
            )
    return "\n".join(lines)


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument(
        "--seats", required=True, help="comma-separated: easy, normal, hard, random"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--outside",
        nargs=2,
        metavar=("URL", "TOKEN"),
        help="play on the server at URL, seat kind `outside` being the bot with TOKEN "
        "(bench/outside.py)",
    )
    parser.add_argument(
        "--bot-cmd",
        default=None,
        help="with --outside: the bot program, given URL, TOKEN and --table=SLUG (default: "
        "examples/bot.py; `none`: a bot that finds the tables by itself)",
    )
    args = parser.parse_args()
    seats = args.seats.split(",")
    kinds = ("random", *LEVELS) if args.outside is None else ("outside", *LEVELS)
    for kind in seats:
        if kind not in kinds:
            parser.error(f"unknown seat kind {kind!r} (one of {', '.join(kinds)})")
    options = json.loads(args.options)
    if args.outside is not None:
        from bench import outside

        if seats.count("outside") != 1 or len(seats) < 2:
            parser.error("--outside needs exactly one seat `outside` and a built-in level")
        command = None if args.bot_cmd == "none" else (args.bot_cmd or outside.DEFAULT_BOT)
        url, token = args.outside
        result = outside.run(url.rstrip("/"), token, args.game, seats, args.games, options, command)
    else:
        result = run(args.game, seats, args.games, args.seed, options, args.workers)
    print(report(args.game, seats, result))


if __name__ == "__main__":
    main()
