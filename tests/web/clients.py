"""Test clients that speak the JSON protocol over real HTTP and websockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


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
        self.ws = await connect(url, additional_headers=headers, open_timeout=5)
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
    private: bool = False,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    start: bool = True,
) -> tuple[list[Player], dict[str, Any]]:
    """Guests for `names`; the first creates an Incan Gold table, the others join it."""
    players = [await Player(base, ws_base).login(n) for n in names]
    r = await players[0].http.post(
        "/api/tables",
        json={
            "game": "incan_gold",
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
