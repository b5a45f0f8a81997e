"""How long a whole 4-player game's review takes, per title, on one core.

    .venv/bin/python -m bench.review [--games 1] [--steps 250000]

Plays a game with the `easy` bot in every seat (seeded), then reviews every decision of every
seat exactly as the server's background worker does (`app/review/compute.py`), and prints the
decisions, the engine steps per decision and the CPU seconds (target: ≤ 60 s per game).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from engines import REGISTRY
from engines.bots import choose_action
from engines.bots import review as rv
from engines.core import Rng


def play(game_id: str, seed: int) -> tuple[list[Any], list[tuple[int, str]]]:
    """A 4-player game by `easy` bots: every state and every (seat, action text)."""
    engine = REGISTRY[game_id]
    state = engine.setup(4, engine.parse_options(None), seed).state
    states, moves = [state], []
    rng = Rng.from_seed(seed)
    while engine.outcome(state) is None:
        acting = sorted(engine.to_act(state))
        seat = acting[rng.randbelow(len(acting))]
        action = choose_action(engine, state, seat, level="easy", seed=rng.next_u64(), scale=0.25)
        moves.append((seat, engine.action_text(action)))
        state = engine.apply(state, seat, action).state
        states.append(state)
    return states, moves


def review_time(game_id: str, seed: int, game_steps: int) -> tuple[int, int, int, float]:
    """(moves, decisions, steps per decision, CPU seconds) of one game's review."""
    engine = REGISTRY[game_id]
    states, moves = play(game_id, seed)
    start = time.process_time()
    points = rv.decision_points(engine, states, moves)
    steps = rv.steps_per_decision(len(points), game_steps)
    for version, seat in points:
        rv.assess_decision(
            engine,
            states[version],
            seat,
            moves[version][1],
            version,
            steps=steps,
            seed=rv.decision_seed(str(seed), version, seat),
        )
    return len(moves), len(points), steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--steps", type=int, default=rv.GAME_STEPS)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    print(f"{'game':18} {'moves':>6} {'decisions':>9} {'steps/dec':>9} {'CPU s':>7}")
    for game_id in args.game or sorted(REGISTRY):
        for g in range(args.games):
            moves, points, steps, cpu = review_time(game_id, 1000 + g, args.steps)
            print(f"{game_id:18} {moves:6d} {points:9d} {steps:9d} {cpu:7.1f}", flush=True)


if __name__ == "__main__":
    main()
