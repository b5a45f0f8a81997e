"""Bots against bots, engine only (no server): win shares, scores and decision times.

    python -m bench.arena --game karmaka --seats normal,random,random,random --games 200

Seat kinds are bot levels (easy, normal, hard), a level with some of its budget changed
(`hard+playout_cap=40`, `normal+steps=6000+determinizations=8`: an experiment's variant, made
in each worker from `engines.bots.BUDGETS`), or "random" (uniform random legal moves);
with `--outside URL TOKEN` one seat is "outside", a program with a bot token playing on the
server at URL against the built-in levels (bench/outside.py, docs/bot-api.md). The
order of the kinds rotates from game to game, so every kind plays from every position. Games
run in parallel worker processes (one per core unless --workers says otherwise). Printed: per
kind, the win share (a shared win counts 1/k) with its 95 % Wilson interval, its fair share,
ties, mean score, mean place with its 95 % interval (fair: (seats + 1) / 2), and the decision
time p50/p95 of every bot level: CPU time of the worker process (time.process_time), which a
busy machine does not inflate.

With `--out FILE` every finished game is appended to FILE as one JSON line, and games whose
seed FILE already holds (same game, seats and options) are skipped: a run stopped half-way
resumes where it was. `--summary FILE...` prints the table of every game in the files, one
table per game and seats, so runs split over several files or machines count together:

    python -m bench.arena --game ganges --seats hard,normal,normal,normal --games 100 \
        --out bench/arena-runs/ganges-hard-normal.jsonl
    python -m bench.arena --summary bench/arena-runs/*.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from engines import get_engine
from engines.bots import BUDGETS, LEVELS, Budget, choose_action, random_action
from engines.core import Rng

MAX_STEPS = 20_000


def variant(kind: str) -> Budget:
    """The budget a seat kind plays with: a level's (`hard`), or a level's with fields changed
    (`hard+playout_cap=40+exploration=0.5`); ValueError for anything else."""
    level, *changes = kind.split("+")
    if level not in BUDGETS:
        raise ValueError(f"unknown level {level!r} in {kind!r}")
    base = BUDGETS[level]
    fields = {f.name: type(getattr(base, f.name)) for f in dataclasses.fields(base)}
    values: dict[str, Any] = {}
    for change in changes:
        name, _, text = change.partition("=")
        if name not in fields or not text:
            raise ValueError(f"{change!r}: one of {', '.join(fields)}, with =value")
        kind_of = fields[name]
        values[name] = text.lower() in ("1", "true", "yes") if kind_of is bool else kind_of(text)
    return dataclasses.replace(base, **values)


def _level(kind: str) -> str:
    """`kind` as a name `choose_action` knows: a variant is added to this process's budgets
    the first time it plays (each worker makes its own)."""
    if kind not in BUDGETS:
        BUDGETS[kind] = variant(kind)
    return kind


def play_one(game: str, kinds: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One game: the result per seat, every bot decision's CPU time (seconds) by level and
    the whole game's CPU time (`cpu`, random seats and rules included)."""
    game_start = time.process_time()
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
            start = time.process_time()
            action = choose_action(engine, state, seat, level=_level(kind), seed=rng.next_u64())
            times[kind].append(time.process_time() - start)
        state = engine.apply(state, seat, action).state
    outcome = engine.outcome(state)
    cpu = time.process_time() - game_start
    if outcome is None:
        return {"kinds": kinds, "finished": False, "times": times, "cpu": cpu}
    return {
        "kinds": kinds,
        "finished": True,
        "winners": sorted(outcome.winners),
        "scores": {int(k): v for k, v in outcome.scores.items()},
        "ranks": {int(k): v for k, v in outcome.ranks.items()},
        "times": times,
        "cpu": cpu,
    }


def _job(args: tuple[str, list[str], int, dict[str, Any]]) -> dict[str, Any]:
    return play_one(*args)


def _played(
    jobs: list[tuple[str, list[str], int, dict[str, Any]]], workers: int
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each job's result as it finishes, with the job's seed."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            futures = {pool.submit(_job, job): job[2] for job in jobs}
            for future in as_completed(futures):
                yield futures[future], future.result()
    else:
        for job in jobs:
            yield job[2], _job(job)


def run(
    game: str,
    seats: list[str],
    games: int,
    seed: int,
    options: dict[str, Any],
    workers: int,
    out: Path | None = None,
) -> dict[str, Any]:
    """Play `games` games rotating `seats`; return the tallies per kind. With `out`, append
    each finished game to that JSON-lines file and skip the seeds it already holds (their
    results count in the tallies)."""
    n = len(seats)
    earlier = (
        [r for r in load([out]) if _key(r) == (game, seats, options)]
        if out is not None and out.exists()
        else []
    )
    done = {r["seed"] for r in earlier}
    jobs = [
        (game, seats[g % n :] + seats[: g % n], seed + g, options)
        for g in range(games)
        if seed + g not in done
    ]
    results = [r for r in earlier if r["seed"] in range(seed, seed + games)]
    for job_seed, res in _played(jobs, workers):
        results.append(res)
        if out is not None:
            record = {"game": game, "seats": seats, "options": options, "seed": job_seed, **res}
            with out.open("a") as f:
                f.write(json.dumps(record) + "\n")
    return tally(seats, results, len(results))


def _key(record: dict[str, Any]) -> tuple[str, list[str], dict[str, Any]]:
    return record["game"], record["seats"], record["options"]


def load(files: Iterable[Path]) -> list[dict[str, Any]]:
    """The games recorded by `run(..., out=...)` in `files` (a seed recorded twice for the same
    game, seats and options counts once)."""
    records: dict[str, dict[str, Any]] = {}
    for path in files:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            for field in ("scores", "ranks"):
                if field in r:
                    r[field] = {int(k): v for k, v in r[field].items()}
            records.setdefault(json.dumps([*_key(r), r["seed"]], sort_keys=True), r)
    return list(records.values())


def summary(files: Iterable[Path], markdown: bool = False) -> str:
    """The table of every game in `files`, one per game, seats and options, and each game's
    mean CPU time (all seats, rules included); with `markdown`, one table row per group for
    the first kind of the seats (docs/benchmarks.md)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in load(files):
        groups[json.dumps(_key(record), sort_keys=True)].append(record)
    parts = []
    for key in sorted(groups):
        records = groups[key]
        game, seats, options = records[0]["game"], records[0]["seats"], records[0]["options"]
        result = tally(seats, records, len(records))
        cpu = [r.get("cpu", 0.0) for r in records]
        if markdown:
            parts.append(_row(game, seats, result, sum(cpu) / len(cpu)))
            continue
        text = report(game, seats, result)
        if options:
            text += f"\noptions {json.dumps(options, sort_keys=True)}"
        text += f"\nCPU per game: mean {sum(cpu) / len(cpu):.1f} s, max {max(cpu):.1f} s"
        parts.append(text)
    return "\n".join(parts) if markdown else "\n\n".join(parts)


def _row(game: str, seats: list[str], result: dict[str, Any], cpu: float) -> str:
    """| game | seats | games | first kind's win share (95 %) | fair | mean place (95 %) | fair
    place | decision CPU p50 / p95 per level | CPU per game |"""
    kind = seats[0]
    t = result["tally"][kind]
    low, high = wilson(t["wins"], t["seats"])
    first, last = place_interval(t)
    times = [
        f"{level} {percentile(ts, 0.5) * 1000:,.0f} / {percentile(ts, 0.95) * 1000:,.0f} ms"
        for level in _timed(result)
        if (ts := result["times"].get(level))
    ]
    return (
        f"| {game} | {','.join(seats)} | {result['games'] - result['unfinished']} | "
        f"{t['wins'] / (t['seats'] or 1):.1%} ({low:.1%}–{high:.1%}) | {1 / len(seats):.1%} | "
        f"{t['place'] / (t['seats'] or 1):.2f} ({first:.2f}–{last:.2f}) | "
        f"{(len(seats) + 1) / 2:.1f} | {'; '.join(times)} | {cpu:.1f} s |"
    )


def tally(seats: list[str], results: list[dict[str, Any]], games: int) -> dict[str, Any]:
    """The tallies per kind of `games` games' results (`play_one`'s, or `bench.outside`'s)."""
    n = len(seats)
    tally: dict[str, dict[str, float]] = {
        kind: {"seats": 0, "wins": 0.0, "ties": 0, "score": 0.0, "place": 0.0, "place2": 0.0}
        for kind in seats
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
            place = res["ranks"].get(seat, n)
            t["place"] += place
            t["place2"] += place * place
            if seat in winners:
                t["wins"] += 1 / len(winners)
                if len(winners) > 1:
                    t["ties"] += 1
    return {"tally": tally, "times": times, "games": games, "unfinished": unfinished}


def _timed(result: dict[str, Any]) -> list[str]:
    """The bot kinds with decision times: the levels in order, then any variant."""
    return [*LEVELS, *sorted(k for k in result["times"] if k not in LEVELS)]


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


def place_interval(t: dict[str, float], z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval (normal approximation) of a kind's mean place from its tally: where
    the win share cannot tell two levels apart in a hundred games, the places (every seat's,
    not only the winner's) often can. A fair mean place is (seats + 1) / 2."""
    n = t["seats"]
    if n < 2:
        return 1.0, float("inf")
    mean = t["place"] / n
    variance = max(0.0, (t["place2"] - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    return mean - half, mean + half


def report(game: str, seats: list[str], result: dict[str, Any]) -> str:
    """The printed table."""
    n = len(seats)
    lines = [
        f"{game}: {result['games']} games, seats {','.join(seats)}"
        + (f", {result['unfinished']} unfinished" if result["unfinished"] else ""),
        f"{'kind':8} {'seats':>6} {'win share':>10} {'95 % interval':>15} {'fair':>6} "
        f"{'ties':>5} {'mean score':>11} {'mean place':>11} {'95 % interval':>13}",
    ]
    for kind, t in result["tally"].items():
        played = t["seats"] or 1
        share = t["wins"] / played
        low, high = wilson(t["wins"], t["seats"])
        first, last = place_interval(t)
        lines.append(
            f"{kind:8} {t['seats']:>6.0f} {share:>9.1%} {f'{low:.1%}–{high:.1%}':>15} "
            f"{1 / n:>6.1%} {t['ties']:>5.0f} {t['score'] / played:>11.2f} "
            f"{t['place'] / played:>11.2f} {f'{first:.2f}–{last:.2f}':>13}"
        )
    for kind in _timed(result):
        ts = result["times"].get(kind)
        if ts:
            lines.append(
                f"decision CPU {kind}: p50 {percentile(ts, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(ts, 0.95) * 1000:.0f} ms ({len(ts)} decisions)"
            )
    return "\n".join(lines)


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game")
    parser.add_argument("--seats", help="comma-separated: easy, normal, hard, random")
    parser.add_argument(
        "--out", type=Path, help="append each finished game to this JSON-lines file (resumes)"
    )
    parser.add_argument(
        "--summary", nargs="+", type=Path, metavar="FILE", help="print the tables of --out files"
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
    parser.add_argument(
        "--markdown", action="store_true", help="with --summary: one table row per group"
    )
    args = parser.parse_args()
    if args.summary:
        print(summary(args.summary, args.markdown))
        return
    if not args.game or not args.seats:
        parser.error("--game and --seats are needed (or --summary FILE...)")
    seats = args.seats.split(",")
    kinds = ("random", *LEVELS) if args.outside is None else ("outside", *LEVELS)
    for kind in seats:
        if kind in kinds:
            continue
        try:
            if args.outside is not None:
                raise ValueError("a built-in level, as it is")
            variant(kind)
        except ValueError as why:
            parser.error(f"unknown seat kind {kind!r} (one of {', '.join(kinds)}): {why}")
    options = json.loads(args.options)
    if args.outside is not None:
        from bench import outside

        if seats.count("outside") != 1 or len(seats) < 2:
            parser.error("--outside needs exactly one seat `outside` and a built-in level")
        command = None if args.bot_cmd == "none" else (args.bot_cmd or outside.DEFAULT_BOT)
        url, token = args.outside
        result = outside.run(url.rstrip("/"), token, args.game, seats, args.games, options, command)
    else:
        result = run(args.game, seats, args.games, args.seed, options, args.workers, args.out)
    print(report(args.game, seats, result))


if __name__ == "__main__":
    main()
