"""Work done once per audience, not per socket: ten spectators of a table receive one JSON
encoding of each state between them, and every one of them the same bytes."""

from __future__ import annotations

from typing import Any

import pytest

from app.realtime import messages
from tests.conftest import Server
from tests.web.clients import Player, hub_of, make_table
from tests.web.tables import app_of


async def test_spectators_share_one_encoding_per_state(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    watchers = [Player(server.url, server.ws_url) for _ in range(10)]
    for w in watchers:
        await w.connect(slug)
        await w.wait_version(0)
    mover = players[0]
    await mover.connect(slug)
    await mover.wait_version(0)
    encoded: list[Any] = []
    real = messages.encode_json

    def counting(data: Any) -> str:
        if data.get("type") == "state":
            encoded.append(data["room"]["your_seat"])
        return real(data)

    monkeypatch.setattr(messages, "encode_json", counting)
    game = hub_of(app_of(server), slug).game
    assert game is not None
    await mover.act(game.engine.dump_action(game.engine.legal_actions(game.state, 0)[0]))
    for client in [mover, *watchers]:
        await client.wait_version(1)
    # One encoding for the ten spectators (seat None), one for the mover's seat.
    assert encoded.count(None) == 1, encoded
    assert encoded.count(0) == 1, encoded
    frames = {w.frames[-1] for w in watchers if '"type":"state"' in w.frames[-1]}
    assert len(frames) == 1
    for client in [*players, *watchers]:
        await client.close()
