"""The lobby socket's live list: a push that fails is logged (with the person), not lost in
silence; a lobby socket otherwise gets the list when it opens."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from websockets.asyncio.client import connect

from app.api.routes import ws_lobby as ws_routes
from tests.clients import Player
from tests.conftest import Server


class _Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def _lobby_frame(sqlite_server: Server, player: Player) -> str:
    url = f"{sqlite_server.ws_url}/ws/lobby?format=json"
    async with connect(url, additional_headers={"Cookie": player.cookie}, open_timeout=5) as sock:
        raw = await asyncio.wait_for(sock.recv(), 5)
    return raw if isinstance(raw, str) else raw.decode()


async def test_a_lobby_socket_gets_the_table_list(sqlite_server: Server) -> None:
    """Opening the lobby socket pushes the table list once (JSON format)."""
    player = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    try:
        first = json.loads(await _lobby_frame(sqlite_server, player))
    finally:
        await player.http.aclose()
    assert first["type"] == "lobby" and first["tables"] == []


async def test_a_failed_lobby_push_is_logged(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When building the list fails, `stolik.ws` logs "lobby push failed" with the traceback
    and the person's id, and nothing is sent."""

    async def broken(*_args: object) -> list[object]:
        raise RuntimeError("the lobby query broke")

    monkeypatch.setattr(ws_routes, "lobby_listing", broken)
    player = await Player(sqlite_server.url, sqlite_server.ws_url).login("Ola")
    keep = _Keep()
    stolik = logging.getLogger("stolik")
    stolik.addHandler(keep)
    try:
        url = f"{sqlite_server.ws_url}/ws/lobby?format=json"
        headers = {"Cookie": player.cookie}
        async with connect(url, additional_headers=headers, open_timeout=5) as sock:
            for _ in range(100):
                if any(r.getMessage() == "lobby push failed" for r in keep.records):
                    break
                await asyncio.sleep(0.05)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(sock.recv(), 0.3)
    finally:
        stolik.removeHandler(keep)
        await player.http.aclose()
    failed = [r for r in keep.records if r.getMessage() == "lobby push failed"]
    assert len(failed) == 1, [r.getMessage() for r in keep.records]
    record = failed[0]
    assert record.name == "stolik.ws" and record.levelno == logging.ERROR
    assert record.exc_info is not None and isinstance(record.exc_info[1], RuntimeError)
    assert isinstance(getattr(record, "user", None), int)
