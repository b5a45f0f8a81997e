"""Helpers for tests of games nights: people, a night and its next table through the pages'
forms, the night as JSON, and a table played to the end by bots (autopilot for the people)."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from app.table import Table
from tests.clients import Player
from tests.conftest import Server
from tests.tables import app_of


async def login(server: Server, name: str) -> Player:
    """A guest named `name`."""
    return await Player(server.url, server.ws_url).login(name)


async def start_night(host: Player, name: str = "Friday") -> str:
    """The lobby's form: a new night; returns its slug."""
    r = await host.http.post("/nights", data={"name": name})
    assert r.status_code == 303, r.text
    path = r.headers["location"]
    assert path.startswith("/n/")
    return path.removeprefix("/n/")


async def next_table(host: Player, night: str, game: str, seats: int) -> tuple[str, str]:
    """The host's "next table" form; returns the new table's slug and invite code."""
    r = await host.http.post(f"/n/{night}/tables", data={"game": game, "seats": str(seats)})
    assert r.status_code == 303, r.text
    url = urlsplit(r.headers["location"])
    return url.path.removeprefix("/t/"), parse_qs(url.query)["code"][0]


async def night_json(client: Player | httpx.AsyncClient, night: str) -> dict[str, Any]:
    """The night as JSON."""
    http = client.http if isinstance(client, Player) else client
    r = await http.get(f"/api/nights/{night}")
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


async def bots_play_it(
    server: Server, slug: str, people: list[Player], *, finish: bool = True
) -> Table:
    """Start the table (unless started); with `finish`, let bots play every person's seat
    (autopilot) to the end."""
    hubs = app_of(server).state.tables
    if hubs.held(slug) is None or hubs.held(slug).status == "open":
        r = await people[0].http.post(f"/api/tables/{slug}/start")
        r.raise_for_status()
    hub: Table | None = hubs.held(slug)
    assert hub is not None
    if not finish:
        return hub
    for p in people:
        r = await p.http.post(f"/api/tables/{slug}/autopilot", params={"on": True})
        r.raise_for_status()
    for _ in range(600):
        if hub.status == "finished":
            break
        await asyncio.sleep(0.05)
    assert hub.status == "finished", "the bots did not finish the game"
    return hub
