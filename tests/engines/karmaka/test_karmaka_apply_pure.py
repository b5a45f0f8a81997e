"""Karmaka's `apply` never changes a state it was given, nor any earlier state of the game:
it copies a player only when its handlers change that player, and shares with the state copied
the RNG, the Well, the Ruins, the cards shown this turn and, during an offer, the card in play,
which the handlers replace instead of changing (`model.copy_for_apply`). The common log lines
are made once and shared between steps (`table.seat_event`), so no step may change one."""

from __future__ import annotations

import pytest

from engines.core import Event, Rng
from engines.karmaka import ENGINE
from engines.karmaka.model import State
from tests.engines.invariants import canonical


@pytest.mark.parametrize(
    ("players", "mode", "seed"),
    [
        (2, "free_for_all", 21),
        (3, "free_for_all", 22),
        (4, "free_for_all", 23),
        (3, "big_bad_wolf_2v1", 24),
        (4, "teams_2v2", 25),
    ],
)
def test_apply_leaves_every_earlier_state_unchanged(players: int, mode: str, seed: int) -> None:
    """Over whole random games, every state's dump and every step's events are the same at
    the end as when they were made, and every step leaves its input as it was."""
    state = ENGINE.setup(players, ENGINE.parse_options({"mode": mode}), seed).state
    rng = Rng.from_seed(seed)
    states: list[State] = [state]
    dumps = [canonical(ENGINE.dump(state))]
    steps: list[list[Event]] = []
    logs = []
    while ENGINE.outcome(state) is None:
        seat = min(ENGINE.to_act(state))
        options = ENGINE.legal_actions(state, seat)
        step = ENGINE.apply(state, seat, options[rng.randbelow(len(options))])
        state = step.state
        assert canonical(ENGINE.dump(states[-1])) == dumps[-1], "apply changed its input"
        assert type(state.players) is list
        states.append(state)
        dumps.append(canonical(ENGINE.dump(state)))
        steps.append(step.events)
        logs.append([canonical(e.to_json()) for e in step.events])
    assert [canonical(ENGINE.dump(s)) for s in states] == dumps
    assert [[canonical(e.to_json()) for e in events] for events in steps] == logs
