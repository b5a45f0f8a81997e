"""What the engine's part of one move costs the server, Incan Gold (4 seats), no server and no
database: `apply`, the snapshot's dump, the events' JSON, every seat's prompt, and the five
views a move's push needs (4 seats + a spectator), made alone (`Engine.view` without `shared`)
and as the server makes them (one `shared` dictionary per state, `app.table.live.Audiences`).

    .venv/bin/python -m bench.move_parts [--moves 5000] [--seed 1]

Seeded random games (a seat camps with probability 1/3), a new one when one ends; CPU time
(`time.process_time`) summed per part over all moves. Prints microseconds per move. A script
that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engines.incan_gold.model import Camp, Options, Torch
from engines.incan_gold.rules import IncanGold

PARTS = ("apply", "dump", "events", "prompts", "views alone", "views shared")


def measure(moves: int, seed: int) -> dict[str, float]:
    """Seconds of CPU per part over `moves` moves."""
    engine = IncanGold()
    rng = random.Random(seed)
    spent = dict.fromkeys(PARTS, 0.0)
    state = engine.setup(4, Options(), rng.randrange(1 << 30)).state
    audiences: list[int | None] = [0, 1, 2, 3, None]
    clock = time.process_time
    for n in range(moves):
        if state.over:
            state = engine.setup(4, Options(), rng.randrange(1 << 30)).state
        seat = rng.choice(sorted(engine.to_act(state)))
        action: Any = Camp() if rng.randrange(3) == 0 else Torch()
        t0 = clock()
        step = engine.apply(state, seat, action)
        t1 = clock()
        engine.dump(step.state)
        t2 = clock()
        [e.to_json() for e in step.events]
        t3 = clock()
        for s in range(4):
            [engine.action_text(a) for a in engine.legal_actions(step.state, s)]
        t4 = clock()
        header = engine.header(step.state)
        shared: dict[str, Any] = {}
        # Which way comes first alternates (the second finds the state warm in the cache).
        if n % 2:
            alone = [engine.view(step.state, s, header) for s in audiences]
            t5 = clock()
            together = [engine.view(step.state, s, header, shared) for s in audiences]
            t6 = clock()
            views = (t5 - t4, t6 - t5)
        else:
            together = [engine.view(step.state, s, header, shared) for s in audiences]
            t5 = clock()
            alone = [engine.view(step.state, s, header) for s in audiences]
            t6 = clock()
            views = (t6 - t5, t5 - t4)
        assert together == alone
        for part, took in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, *views), strict=True):
            spent[part] += took
        state = step.state
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spent = measure(args.moves, args.seed)
    print(f"Incan Gold, 4 seats, {args.moves} moves: CPU µs per move")
    for part in PARTS:
        print(f"  {part:<13} {spent[part] / args.moves * 1e6:7.1f}")
    with open("/proc/loadavg") as f:
        print(f"load average: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
