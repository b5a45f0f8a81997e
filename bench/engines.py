"""How fast the engines and the bots are: a random game per engine, and bot decisions per level.

    python -m bench.engines                       # every game, every level
    python -m bench.engines --games 40 --levels normal,hard --positions 8
    python -m bench.engines --profile ganges      # cProfile of random games and a hard decision

Times are CPU time of this process (`time.process_time`): on a machine shared with other
work, wall time measures the neighbours as much as the engine.

Printed per game (4 players, or the most the game seats if fewer):
- the median wall time of a full seeded random game (to_act, legal_actions, apply, outcome
  each step, as the bots' playouts do), its median length in actions, and the mean cost of
  `legal_actions`, `apply`, `determinize`, `view` (one seat) over the positions of those games;
- per bot level, the decision time p50/p95 at positions spread over seeded random games, and a
  digest of the actions chosen: equal digests before and after a change mean the bots play
  exactly the same moves (their budgets count engine steps, not seconds).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import statistics
import time
from typing import Any

from engines import SHIPPED, get_engine
from engines.bots import LEVELS, choose_action
from engines.core import Engine, Rng

AnyEngine = Engine[Any, Any, Any]


def players(engine: AnyEngine) -> int:
    """The table size measured: 4, or the nearest the game allows."""
    return max(engine.spec.min_players, min(4, engine.spec.max_players))


def random_game(engine: AnyEngine, seed: int, keep: bool = False) -> tuple[float, int, list[Any]]:
    """One seeded random game: its CPU time, its length, and every state it passed if `keep`
    (kept states are not timed fairly: holding hundreds of states makes the garbage collector
    walk them, so the timed run keeps none)."""
    state = engine.setup(players(engine), engine.parse_options({}), seed).state
    rng = Rng.from_seed(seed * 31 + 7)
    states = [state]
    start = time.process_time()
    steps = 0
    while engine.outcome(state) is None:
        acting = sorted(engine.to_act(state))
        seat = acting[rng.randbelow(len(acting))]
        options = engine.legal_actions(state, seat)
        state = engine.apply(state, seat, options[rng.randbelow(len(options))]).state
        if keep:
            states.append(state)
        steps += 1
    return time.process_time() - start, steps, states


def _mean_us(fn: Any, items: list[Any]) -> float:
    start = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - start) / max(1, len(items)) * 1e6


def engine_figures(engine: AnyEngine, games: int) -> dict[str, float]:
    """Median random game and the mean cost of each contract call."""
    times, lengths, sample = [], [], []
    for seed in range(games):
        elapsed, steps, _ = random_game(engine, seed)
        _, _, states = random_game(engine, seed, keep=True)
        times.append(elapsed)
        lengths.append(steps)
        sample.extend(states[:: max(1, len(states) // 20)])
    live = [s for s in sample if engine.outcome(s) is None]
    movers = [(s, min(engine.to_act(s))) for s in live]
    rng = Rng.from_seed(3)
    acts = [(s, seat, rng.choice(engine.legal_actions(s, seat))) for s, seat in movers]
    return {
        "game_ms": statistics.median(times) * 1000,
        "actions": statistics.median(lengths),
        "legal_us": _mean_us(lambda m: engine.legal_actions(*m), movers),
        "apply_us": _mean_us(lambda a: engine.apply(*a), acts),
        "determinize_us": _mean_us(lambda m: engine.determinize(m[0], m[1], rng), movers),
        "view_us": _mean_us(lambda m: engine.view(*m), movers),
    }


def positions(engine: AnyEngine, count: int) -> list[tuple[Any, int]]:
    """`count` (state, seat) decisions spread over seeded random games (more than one legal
    action each)."""
    found: list[tuple[Any, int]] = []
    seed = 1000
    while len(found) < count:
        _, _, states = random_game(engine, seed, keep=True)
        seed += 1
        picks = [
            (s, min(engine.to_act(s)))
            for s in states
            if engine.outcome(s) is None and len(engine.legal_actions(s, min(engine.to_act(s)))) > 1
        ]
        if picks:
            stride = max(1, len(picks) // 3)
            found.extend(picks[::stride][:3])
    return found[:count]


def bot_figures(engine: AnyEngine, level: str, count: int) -> dict[str, Any]:
    """Decision times at `count` positions and the digest of the choices."""
    times, texts = [], []
    for i, (state, seat) in enumerate(positions(engine, count)):
        start = time.process_time()
        action = choose_action(engine, state, seat, level=level, seed=4242 + i)
        times.append(time.process_time() - start)
        texts.append(engine.action_text(action))
    ordered = sorted(times)
    return {
        "p50_ms": ordered[len(ordered) // 2] * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000,
        "digest": hashlib.sha256("\n".join(texts).encode()).hexdigest()[:12],
    }


def profile(game: str, games: int) -> None:
    """cProfile of `games` random games and of one hard decision, top functions by own time."""
    engine = get_engine(game)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        random_game(engine, seed)
    prof.disable()
    print(f"== {game}: {games} random games")
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    state, seat = positions(engine, 1)[0]
    prof = cProfile.Profile()
    prof.enable()
    choose_action(engine, state, seat, level="hard", seed=1)
    prof.disable()
    print(f"== {game}: one hard decision")
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="random games per engine")
    parser.add_argument("--positions", type=int, default=10, help="bot decisions per level")
    parser.add_argument("--levels", default=",".join(LEVELS), help="'' for none")
    parser.add_argument("--only", default="", help="comma-separated game ids")
    parser.add_argument("--profile", default="", help="a game id: print cProfile tables")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.games)
        return
    ids = args.only.split(",") if args.only else [e.spec.id for e in SHIPPED]
    levels = [level for level in args.levels.split(",") if level]
    print(
        f"{'game':18} {'players':>7} {'median game':>12} {'actions':>8} {'legal':>8} "
        f"{'apply':>8} {'determ.':>8} {'view':>8}"
    )
    for game in ids:
        engine = get_engine(game)
        f = engine_figures(engine, args.games)
        print(
            f"{game:18} {players(engine):>7} {f['game_ms']:>9.1f} ms {f['actions']:>8.0f} "
            f"{f['legal_us']:>5.0f} µs {f['apply_us']:>5.0f} µs {f['determinize_us']:>5.0f} µs "
            f"{f['view_us']:>5.0f} µs",
            flush=True,
        )
    for game in ids:
        engine = get_engine(game)
        for level in levels:
            b = bot_figures(engine, level, args.positions)
            print(
                f"{game:18} {level:6} decision p50 {b['p50_ms']:>6.0f} ms, "
                f"p95 {b['p95_ms']:>6.0f} ms  choices {b['digest']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
