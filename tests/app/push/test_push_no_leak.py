"""No hidden game information in a push, for every registered game: what a person is pushed
after a move (whether, which event, the words) is the same when the state the move made is
re-dealt as that person could imagine it (everything their seat may not see), like the frame
leak test (tests/app/presentation/test_frame_no_leak.py): offline tables, the real move
path's `_pushes`, the real payload, whose fields are a fixed public set. (A finished game's
place is compared by recipient only: the cards are shown to everyone then.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.push.outbox import Claimed
from app.push.payload import payload
from bench.pages import offline_table
from engines import ENGINES
from engines.core import Engine, Rng, Step

ALLOWED = {"title", "body", "url", "tag", "kind", "table", "version", "check", "lang"}


def pushed(table: Any, seat: int, action: Any, step: Step[Any]) -> list[Any]:
    """The payloads (with their recipients) of a move at a slow-clock table (every turn is
    pushed) that led to `step`."""
    game = table.game
    move = table.moves._committed(game, seat, action, step, False)
    out = []
    for notice in table.moves._pushes(game, move):
        row = Claimed(
            1,
            notice.kind,
            notice.version,
            notice.params,
            1,
            1,
            "https://push.example/x",
            "k",
            "a",
            notice.user_id,
            "pl",
            None,
            1,
            "offline",
            table.game_id,
            False,
            "x",
            notice.version,
            "playing",
            "slow",
        )
        body = payload(row)
        assert set(body) == ALLOWED
        if notice.kind == "over":
            body.pop("body")  # the place: public once the game is over
        out.append((notice.user_id, body))
    return out


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.spec.id)
def test_pushes_do_not_depend_on_hidden_information(engine: Engine[Any, Any, Any]) -> None:
    """After every move of a seeded random game, the state the move made is re-dealt as each
    person could imagine it (what that seat may not see): their pushes stay the same."""
    players = engine.spec.min_players + (engine.spec.max_players > engine.spec.min_players)
    rng = random.Random(5)
    deal = Rng.from_seed(17)
    state = engine.setup(players, engine.parse_options({}), 5).state
    for _ in range(400):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        step = engine.apply(state, seat, action)
        table = offline_table(engine, state, players)
        table.clock_spec = "slow"
        everyone = pushed(table, seat, action, step)
        for person in range(players):
            mine = [p for p in everyone if p[0] == 100 + person]
            for _ in range(2):
                other = Step(engine.determinize(step.state, person, deal), step.events)
                theirs = [p for p in pushed(table, seat, action, other) if p[0] == 100 + person]
                assert theirs == mine, f"{engine.spec.id}: a push depends on hidden cards"
        state = step.state
