"""A committed move is one record (`app.table.live.Committed`), built once after `apply`: the
move path asks the engine each of its questions about the new state once, whatever the store,
the bus, the log, the clocks and the bots then read of it."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

from app.realtime.protocol import Act
from tests.clients import make_table, table_of
from tests.conftest import Server
from tests.tables import app_of


async def test_a_move_asks_the_engine_each_question_once(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, info = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = info["slug"]
    table = table_of(app_of(server), slug)
    game = table.game
    assert game is not None and not table.presence.connections  # no socket draws anything
    engine = game.engine
    asked: Counter[str] = Counter()
    for name in ("dump_action", "outcome", "to_act"):
        real = getattr(engine, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            # Only the server's questions count, not the engine's to itself (apply and
            # legal_actions ask who is to act, for instance).
            if sys._getframe(1).f_globals.get("__name__", "").startswith("app."):
                asked[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(engine, name, counted)
    seat = sorted(game.acting)[0]
    action = engine.legal_actions(game.state, seat)[0]
    uid = table.seats[seat].user_id
    version = await table.act(
        uid, Act(type="act", version=game.version, action=engine.dump_action(action))
    )
    assert version == 1
    assert asked == {"dump_action": 1, "outcome": 1, "to_act": 1}, asked
    # What the record says is what the table now holds.
    assert game.acting == frozenset(engine.to_act(game.state))
    assert game.outcome is None and not game.over
    for p in players:
        await p.close()
