"""Test clients that speak the JSON protocol over real HTTP and websockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from app.table import Table

if TYPE_CHECKING:
    from tests.conftest import Server


class Player:
    """A guest with a cookie, an HTTP client and (once connected) a JSON websocket."""

    def __init__(self, base_url: str, ws_base: str) -> None:
        self.http = httpx.AsyncClient(base_url=base_url, timeout=10)
        self.ws_base = ws_base
        self.ws: ClientConnection | None = None
        self.frames: list[str] = []
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.version = -1
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    async def login(self, name: str) -> Player:
        """Become a guest."""
        r = await self.http.post("/api/guest", json={"name": name})
        r.raise_for_status()
        return self

    @property
    def cookie(self) -> str:
        """The signed session cookie header."""
        return f"stolik={self.http.cookies.get('stolik')}"

    async def connect(self, slug: str, code: str | None = None) -> None:
        """Open the table socket (JSON format) and start reading."""
        url = f"{self.ws_base}/ws/t/{slug}?format=json" + (f"&code={code}" if code else "")
        headers = {"Cookie": self.cookie} if self.http.cookies.get("stolik") else {}
        self.ws = await connect(url, additional_headers=headers, open_timeout=15)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for raw in self.ws:
            text = raw if isinstance(raw, str) else raw.decode()
            self.frames.append(text)
            msg = json.loads(text)
            if msg["type"] == "state":
                self.states.append(msg)
                self.version = msg["version"]
            elif msg["type"] == "error":
                self.errors.append(msg)
            self._changed.set()

    async def wait_for(self, predicate: Any, timeout: float = 5.0) -> None:
        """Wait until `predicate(self)` holds."""

        async def loop() -> None:
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def wait_version(self, version: int, timeout: float = 5.0) -> None:
        """Wait until this client has seen `version`."""
        await self.wait_for(lambda p: p.version >= version, timeout)

    async def wait_error(self, count: int, timeout: float = 5.0) -> dict[str, Any]:
        """Wait for the `count`-th error message and return it."""
        await self.wait_for(lambda p: len(p.errors) >= count, timeout)
        return self.errors[count - 1]

    async def send(self, data: Any) -> None:
        """Send a raw frame (str) or a JSON message (dict)."""
        assert self.ws is not None
        await self.ws.send(data if isinstance(data, str | bytes) else json.dumps(data))

    async def act(self, action: dict[str, Any], version: int | None = None) -> None:
        """Send an act at the latest version this client has seen."""
        await self.send(
            {
                "type": "act",
                "version": self.version if version is None else version,
                "action": action,
            }
        )

    @property
    def view(self) -> dict[str, Any]:
        """The latest view received."""
        view: dict[str, Any] = self.states[-1]["view"]
        return view

    async def close(self) -> None:
        """Close the socket and the HTTP client."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self.http.aclose()


async def make_table(
    base: str,
    ws_base: str,
    names: list[str],
    *,
    game: str = "incan_gold",
    private: bool = False,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    start: bool = True,
) -> tuple[list[Player], dict[str, Any]]:
    """Guests for `names`; the first creates a `game` table, the others join it (seats follow
    the order of `names`)."""
    players = [await Player(base, ws_base).login(n) for n in names]
    r = await players[0].http.post(
        "/api/tables",
        json={
            "game": game,
            "seats": seats or len(names),
            "private": private,
            "options": options or {},
        },
    )
    r.raise_for_status()
    table: dict[str, Any] = r.json()
    for p in players[1:]:
        r = await p.http.post(
            f"/api/tables/{table['slug']}/join", params={"code": table["invite_code"]}
        )
        r.raise_for_status()
    if start:
        r = await players[0].http.post(f"/api/tables/{table['slug']}/start")
        r.raise_for_status()
    return players, table


def table_of(app: Any, slug: str) -> Table:
    """The live hub of a room in an in-process server (`Server.server.config.app`); tests use
    it to read the authoritative state, never to change it."""
    hub: Table | None = app.state.tables.held(slug)
    assert hub is not None, slug
    return hub


async def drive(
    app: Any,
    slug: str,
    seats: dict[int, Player],
    watchers: list[Player],
    *,
    moves: int,
    seed: int = 0,
    choose: Any = None,
) -> int:
    """Play up to `moves` moves over the real sockets: each time one seat that must act sends
    a legal action picked from the authoritative state (at random, or by `choose(state,
    seat, actions)`), and every client waits for the new version. Returns the moves played."""
    import random

    rng = random.Random(seed)
    played = 0
    for _ in range(moves):
        game = table_of(app, slug).game
        assert game is not None
        if game.engine.outcome(game.state) is not None:
            break
        seat = min(game.engine.to_act(game.state))
        actions = game.engine.legal_actions(game.state, seat)
        action = choose(game.state, seat, actions) if choose else rng.choice(actions)
        version = game.version
        player = seats[seat]
        await player.wait_version(version)
        await player.act(game.engine.dump_action(action), version)
        for p in [*seats.values(), *watchers]:
            await p.wait_version(version + 1)
        played += 1
    return played


@dataclass
class Live:
    """A started table over the sockets: its seated players (in seat order) and watchers
    (anonymous spectators), each connected and past the first state."""

    seats: list[Player]
    watchers: list[Player]
    table: dict[str, Any]

    @property
    def slug(self) -> str:
        """The table's slug."""
        slug: str = self.table["slug"]
        return slug

    @property
    def everyone(self) -> list[Player]:
        """The seats, then the watchers."""
        return [*self.seats, *self.watchers]


@contextlib.asynccontextmanager
async def live_table(
    server: Server, names: list[str], *, watchers: int = 0, **table: Any
) -> AsyncIterator[Live]:
    """`make_table` on a test server (`names`, then `table`'s keywords), with every seat and
    `watchers` spectators connected and at version 0; every client is closed at the end."""
    seats, made = await make_table(server.url, server.ws_url, names, **table)
    live = Live(seats, [Player(server.url, server.ws_url) for _ in range(watchers)], made)
    try:
        for client in live.everyone:
            await client.connect(live.slug)
        for client in live.everyone:
            await client.wait_version(0)
        yield live
    finally:
        for client in live.everyone:
            await client.close()


async def drive_to_end(server: Server, live: Live, *, seed: int = 0, moves: int = 400) -> int:
    """`drive` the table's seats (seeded random moves) until its game is over and the first
    seat has seen the room finished; returns the moves played."""
    app = server.server.config.app
    played = await drive(app, live.slug, dict(enumerate(live.seats)), [], moves=moves, seed=seed)
    await live.seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
    return played
