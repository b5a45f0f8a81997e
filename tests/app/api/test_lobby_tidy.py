"""The lobby after an evening: a person's own tables are listed where it is their turn first,
then running, then waiting; a waiting table of its host and bots that nobody used for ten
minutes closes by itself (the page says so while it waits), so a rematch nobody joined leaves
every list. Time is the injected clock (`FakeClock`), never a sleep."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect

from app.store.models import Room
from app.table import Table
from app.table.idle import IDLE_CLOSE_AFTER
from tests.clients import Player, make_table, table_of
from tests.conftest import FakeClock, Server
from tests.tables import app_of, bot_table, play_until_over, post


@pytest.fixture
async def clock() -> FakeClock:
    """The injected wall clock, starting now (rooms are stamped with the real time)."""
    return FakeClock(time.time())


async def listed(player: Player) -> list[dict[str, Any]]:
    """The lobby's rows for `player` (the JSON listing)."""
    r = await player.http.get("/api/tables")
    r.raise_for_status()
    rows: list[dict[str, Any]] = r.json()
    return rows


async def page(server: Server, player: Player, slug: str) -> str:
    """The table page's first push over the HTML socket (then the socket closes and the
    test waits until the table has seen it go)."""
    url = f"{server.ws_url}/ws/t/{slug}"
    async with connect(url, additional_headers={"Cookie": player.cookie}, open_timeout=5) as sock:
        raw = await asyncio.wait_for(sock.recv(), 5)
    await left(table_of(app_of(server), slug))
    return raw if isinstance(raw, str) else raw.decode()


async def left(hub: Table) -> None:
    """Wait until nobody is connected to the table."""
    for _ in range(250):
        if not hub.presence.connections:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("a connection stayed")


async def test_my_turn_first_then_running_then_waiting(clocked: Server) -> None:
    """Created in the opposite order, Ola's tables come back: her turn, running, waiting;
    another host's public table after hers."""
    base, ws = clocked.url, clocked.ws_url
    (ola, ewa), mine = await make_table(base, ws, ["Ola", "Ewa"], game="high_card")
    (ewa2, jan), theirs = await make_table(base, ws, ["Ewa2", "Jan"], game="high_card")
    # Ewa2's table does not include Ola; Ola joins a running one where Ewa hosts.
    r = await ewa.http.post("/api/tables", json={"game": "high_card", "seats": 2})
    running = r.json()
    await post(ola, f"/api/tables/{running['slug']}/join", seat=1)
    await post(ewa, f"/api/tables/{running['slug']}/start")
    r = await ola.http.post("/api/tables", json={"game": "high_card", "seats": 3})
    waiting = r.json()
    app = app_of(clocked)
    try:
        assert table_of(app, mine["slug"]).game is not None
        assert table_of(app, mine["slug"]).game.acting == frozenset({0})  # type: ignore[union-attr]
        assert table_of(app, running["slug"]).game.acting == frozenset({0})  # type: ignore[union-attr]
        rows = await listed(ola)
        slugs = [row["slug"] for row in rows]
        assert slugs[:3] == [mine["slug"], running["slug"], waiting["slug"]], rows
        assert rows[0]["your_turn"] and not rows[1]["your_turn"]
        assert slugs[3:] == [theirs["slug"]]
    finally:
        for p in (ola, ewa, ewa2, jan):
            await p.close()


async def test_a_host_and_bots_table_closes_after_ten_idle_minutes(
    clocked: Server, clock: FakeClock
) -> None:
    """Only the host and bots, nobody at the page: still listed just before ten minutes, gone
    (and closed) after; a table with a second person, or with its host on the page, stays."""
    (host,), lonely = await bot_table(clocked, "incan_gold", start=False)
    (host2, guest), shared = await bot_table(clocked, "incan_gold", humans=2, start=False)
    (host3,), watched = await bot_table(clocked, "incan_gold", start=False)
    try:
        assert "closes by itself after 10 minutes" in await page(clocked, host, lonely["slug"])
        assert "closes by itself" not in await page(clocked, host2, shared["slug"])
        await host3.connect(watched["slug"])
        await host3.wait_for(lambda p: bool(p.states))

        clock.advance(IDLE_CLOSE_AFTER - 1)
        assert lonely["slug"] in [row["slug"] for row in await listed(host)]
        clock.advance(2)
        rows = [row["slug"] for row in await listed(host)]
        assert lonely["slug"] not in rows
        assert shared["slug"] in rows and watched["slug"] in rows
        room, *_ = await _room(clocked, lonely["slug"])
        assert room.status == "closed"
        assert "closed by itself" in await page(clocked, host, lonely["slug"])

        # The host of the watched table leaves its page: ten minutes later the ticker closes it.
        assert host3.ws is not None
        await host3.ws.close()
        hub = table_of(app_of(clocked), watched["slug"])
        await left(hub)
        clock.advance(IDLE_CLOSE_AFTER + 1)
        await app_of(clocked).state.tables.tick()
        assert hub.status == "closed"
        assert watched["slug"] not in [row["slug"] for row in await listed(host2)]
        assert shared["slug"] in [row["slug"] for row in await listed(host2)]
    finally:
        for p in (host, host2, guest, host3):
            await p.close()


async def test_a_rematch_nobody_joined_leaves_every_list(clocked: Server, clock: FakeClock) -> None:
    """Two people finish a game with a bot; one asks to play again and goes away. The rematch
    (its host and the bot) is in both lists at first, in neither ten minutes later."""
    (ola, ewa), table = await bot_table(clocked, "high_card", humans=2)
    slug = table["slug"]
    try:
        await ola.connect(slug)
        await ewa.connect(slug)
        await _finish(clocked, slug, ola, ewa)
        r = await post(ola, f"/api/tables/{slug}/rematch")
        r.raise_for_status()
        again = r.json()["slug"]
        assert again in [row["slug"] for row in await listed(ola)]
        assert again in [row["slug"] for row in await listed(ewa)]
        clock.advance(IDLE_CLOSE_AFTER + 1)
        assert again not in [row["slug"] for row in await listed(ewa)]
        assert again not in [row["slug"] for row in await listed(ola)]
    finally:
        await ola.close()
        await ewa.close()


async def _finish(server: Server, slug: str, ola: Player, ewa: Player) -> None:
    """Both people play seeded legal moves until the game ends (the bots play theirs)."""
    await asyncio.gather(
        play_until_over(server, slug, ola, 0, seed=1), play_until_over(server, slug, ewa, 1, seed=2)
    )


async def _room(server: Server, slug: str) -> Any:
    async with app_of(server).state.sessions() as session:
        room = (await session.execute(select(Room).where(Room.slug == slug))).scalar_one()
    return (room,)
