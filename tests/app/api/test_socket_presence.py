"""What a table's sockets are sent as they open (SQLite and PostgreSQL): a new socket gets its
state and the chat, and the seats already there are told once that its seat came online; a
presence push that would show a client what it has already (its own seat coming online right
after its first state) is not sent."""

from __future__ import annotations

import json
from typing import Any

from tests.clients import Player, make_table
from tests.conftest import Server


def kinds(player: Player) -> list[str]:
    return [json.loads(f)["type"] for f in player.frames]


def last_online(player: Player) -> list[int]:
    """The online seats as the client last heard (a state's seats or a presence push)."""
    for raw in reversed(player.frames):
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] == "presence":
            return list(msg["online"])
        if msg["type"] == "state":
            return [s["seat"] for s in msg["room"]["seats"] if s["online"]]
    return []


async def test_sockets_opening_get_state_chat_and_others_presence(server: Server) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Ola", "Ela"])
    ala, ola, ela = players
    try:
        await ala.connect(table["slug"])
        await ala.wait_for(lambda p: kinds(p) == ["state", "chat"])
        await ola.connect(table["slug"])
        await ala.wait_for(lambda p: "presence" in kinds(p))
        await ala.send({"type": "sync"})  # anything queued is sent before this answer
        await ala.wait_for(lambda p: kinds(p)[-1] == "state" and len(p.states) == 2)
        assert kinds(ala) == ["state", "chat", "presence", "state"]
        assert last_online(ala) == [0, 1]

        await ola.send({"type": "sync"})
        await ola.wait_for(lambda p: len(p.states) == 2)
        # Her own seat's arrival was in her first state: no presence push repeats it.
        assert kinds(ola) == ["state", "chat", "state"]
        assert last_online(ola) == [0, 1]

        await ela.connect(table["slug"])
        for p in (ala, ola):
            await p.wait_for(lambda p: last_online(p) == [0, 1, 2])
        await ela.send({"type": "sync"})
        await ela.wait_for(lambda p: len(p.states) == 2)
        assert kinds(ela) == ["state", "chat", "state"] and last_online(ela) == [0, 1, 2]

        assert ola.ws is not None
        await ola.ws.close()  # a seat going offline is still told to the others
        for p in (ala, ela):
            await p.wait_for(lambda p: last_online(p) == [0, 2])
    finally:
        for p in players:
            await p.close()
