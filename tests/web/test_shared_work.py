"""Work done once per audience, not per socket: ten spectators of a table receive one JSON
encoding of each state between them, and every one of them the same bytes."""

from __future__ import annotations

from typing import Any

import pytest

from app.realtime import messages
from tests.conftest import Server
from tests.web.clients import Player, hub_of, make_table
from tests.web.tables import app_of, assert_kept_as_stored


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


async def test_a_new_table_is_kept_as_written_and_its_first_join_reads_nothing_back(
    server: Server,
) -> None:
    """A table created through the API or the lobby's form is in memory as the database holds
    it (no reading back of what was just written); joining it then works as ever."""
    players, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bo"], game="karmaka", start=False
    )
    hub = await assert_kept_as_stored(server, table["slug"])
    assert sorted(hub.seats) == [0, 1] and hub.seats[1].name == "Bo"
    host = players[0]
    r = await host.http.post(
        "/tables",
        data={"game": "karmaka", "seats": "2", "visibility": "private", "clock": "none"},
        headers={"Origin": server.url},
    )
    assert r.status_code == 303
    slug = r.headers["location"].split("/t/")[1].split("?")[0]
    hub = await assert_kept_as_stored(server, slug)
    assert hub.private and [s.name for s in hub.seats.values()] == ["Ala"]
    r = await players[1].http.post(
        f"/api/tables/{slug}/join", params={"code": hub.invite_code, "seat": 1}
    )
    assert r.status_code == 200
    await assert_kept_as_stored(server, slug)
    for p in players:
        await p.close()
