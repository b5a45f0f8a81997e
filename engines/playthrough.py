"""Golden playthroughs: the text record of a seeded random game, shared by the golden tests
(`tests/engines/test_invariants.py`) and the script that writes the files (`scripts/golden.py`).

Per step the record holds who must act, each acting seat's legal actions, every seat's view
and the spectator's, and the action taken, so any change a rule makes to what players see or
may do shows up as a diff to review.
"""

from __future__ import annotations

import json
from typing import Any

from engines.core import Engine, Rng

AnyEngine = Engine[Any, Any, Any]


def canonical(data: Any) -> str:
    """A stable JSON text, used to compare views and states."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def golden_lines(
    engine: AnyEngine, num_players: int, seed: int, options: dict[str, Any] | None, max_steps: int
) -> list[str]:
    """The golden playthrough of a seeded random game, as text lines.

    Per step: who must act, each acting seat's legal actions, every seat's view and the
    spectator's, then the action taken.
    """
    opts = engine.parse_options(options or {})
    opening = engine.setup(num_players, opts, seed)
    state = opening.state
    rng = Rng.from_seed(seed)
    lines = [
        f"game {engine.spec.id}",
        f"players {num_players}",
        f"seed {seed}",
        f"options {canonical(opts.model_dump(mode='json'))}",
        f"opening {canonical([e.to_json() for e in opening.events])}",
    ]
    for step_no in range(max_steps):
        acting = sorted(engine.to_act(state))
        lines.append(f"step {step_no}")
        lines.append(f"to_act {acting}")
        for seat in acting:
            texts = [engine.action_text(a) for a in engine.legal_actions(state, seat)]
            lines.append(f"legal {seat} {canonical(texts)}")
        for seat in [*range(num_players), None]:
            lines.append(f"view {seat} {canonical(engine.view(state, seat))}")
        if not acting:
            outcome = engine.outcome(state)
            lines.append(f"outcome {canonical(outcome.to_json() if outcome else None)}")
            break
        seat = rng.choice(acting)
        action = rng.choice(engine.legal_actions(state, seat))
        lines.append(f"action {seat} {canonical(engine.dump_action(action))}")
        state = engine.apply(state, seat, action).state
    return lines
