"""A review's computation, run in a separate worker process (never on the move path).

`Job` holds what a finished game's review needs (engine, options, seed, moves); `plan`
replays it and lists the decisions; `chunk` values some of them (each chunk replays the game
again, cheap next to the search, so chunks need no shared state and report progress between
them). Each decision is valued from the seat's view at that moment only
(`engines/bots/review.py`). Module-level functions only: they are sent to another process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engines import REGISTRY
from engines.bots import review as rv
from engines.core import Engine

AnyEngine = Engine[Any, Any, Any]


@dataclass(frozen=True)
class Job:
    """A finished game as stored: its moves are (seat, action JSON)."""

    engine: str
    options: dict[str, Any]
    num_players: int
    seed: int
    commitment: str
    moves: tuple[tuple[int, Any], ...]
    game_steps: int = rv.GAME_STEPS


_replayed: dict[tuple[str, str, int], tuple[list[Any], list[tuple[int, str]]]] = {}
"""The last game replayed in this process (its chunks come one after another)."""


def _replay(job: Job) -> tuple[AnyEngine, list[Any], list[tuple[int, str]]]:
    engine = REGISTRY[job.engine]
    key = (job.engine, job.commitment, len(job.moves))
    if key not in _replayed:
        state = engine.setup(job.num_players, engine.parse_options(job.options), job.seed).state
        states, moves = [state], []
        for seat, raw in job.moves:
            action = engine.parse_action(raw)
            moves.append((seat, engine.action_text(action)))
            state = engine.apply(state, seat, action).state
            states.append(state)
        _replayed.clear()
        _replayed[key] = (states, moves)
    states, moves = _replayed[key]
    return engine, states, moves


def plan(job: Job) -> tuple[list[tuple[int, int]], int]:
    """The decisions to value, (version, seat), and the engine steps each gets."""
    engine, states, moves = _replay(job)
    points = rv.decision_points(engine, states, moves)
    return points, rv.steps_per_decision(len(points), job.game_steps)


def _words(engine: AnyEngine, state: Any, seat: int, text: str) -> dict[str, Any] | None:
    """The action in words: the first log line its seat reads when it is played (stored as an
    event, put in the reader's language when shown); None if it says nothing."""
    action = next(a for a in engine.legal_actions(state, seat) if engine.action_text(a) == text)
    for event in engine.apply(state, seat, action).events:
        if event.visible_to(seat):
            return event.to_json()
    return None


def chunk(
    job: Job, points: list[tuple[int, int]], steps: int
) -> tuple[list[dict[str, Any]], float]:
    """Value `points`: each decision's JSON (with both actions in words) and the CPU seconds
    of the thread that valued them (the pool's process in production, a thread in tests: the
    process's clock would count the server's own threads too)."""
    start = time.thread_time()
    engine, states, moves = _replay(job)
    out = []
    for version, seat in points:
        state = states[version]
        found = rv.assess_decision(
            engine,
            state,
            seat,
            moves[version][1],
            version,
            steps=steps,
            seed=rv.decision_seed(job.commitment, version, seat),
        )
        data = found.to_json()
        data["words"] = {
            text: _words(engine, state, seat, text) for text in {found.chosen, found.best.text}
        }
        out.append(data)
    return out, time.thread_time() - start
