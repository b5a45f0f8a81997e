"""Four server processes on one PostgreSQL database and one Redis, each table on a channel of
its own (app/realtime/bus.py): every client converges under random routing, and a process
hears nothing about the tables it neither serves nor follows — counted per process and per
table (`RedisBus.heard`: the Redis messages it was made to read on each table's channel)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.realtime.bus import RedisBus
from app.table.table import Table
from tests.app.table.test_processes import pair, socket_on, wait_until
from tests.clients import Player, make_table, table_of
from tests.conftest import REDIS_URL, Server, redis_or_skip, start_server
from tests.tables import app_of

PROCESSES = 4
TABLES = 4
__all__ = ["pair"]  # the two-process fixture, shared with test_processes

MOVES = 24
"""Moves played at each table (random routing between the processes that serve it)."""


@pytest.fixture
async def four(pg_url: str, tmp_path: Path) -> AsyncIterator[list[Server]]:
    """Four servers on one PostgreSQL database and one Redis channel (unique to the test)."""
    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    servers: list[Server] = []
    try:
        for i in range(PROCESSES):
            data = tmp_path / f"p{i}"
            data.mkdir()
            servers.append(
                await start_server(
                    pg_url, data, redis_url=REDIS_URL, redis_channel=channel, follower_grace=1.0
                )
            )
        yield servers
    finally:
        await asyncio.gather(*(s.stop() for s in servers))


def bus_of(server: Server) -> RedisBus:
    bus = app_of(server).state.tables.runtime.bus
    assert isinstance(bus, RedisBus)
    return bus


def said(client: Player) -> int:
    """How many chat lines `client` was sent one by one (not as the history)."""
    return sum(
        1
        for frame in client.frames
        if '"chat"' in frame and (msg := json.loads(frame))["type"] == "chat" and not msg["history"]
    )


def newest_game(servers: list[Server], slug: str) -> Any:
    games = [table_of(app_of(s), slug).game for s in servers]
    return max((g for g in games if g is not None), key=lambda g: g.version)


async def play(
    servers: list[Server], slug: str, sockets: dict[int, list[Player]], rng: random.Random, n: int
) -> int:
    """`n` random moves, each sent through a random socket of the seat that acts (one per
    serving process); the version reached."""
    for _ in range(n):
        game = newest_game(servers, slug)
        if game.over:
            break
        seat = rng.choice(sorted(game.engine.to_act(game.state)))
        client = rng.choice(sockets[seat])
        await client.wait_version(game.version, timeout=30)
        action = rng.choice(game.engine.legal_actions(game.state, seat))
        errors = len(client.errors)
        await client.act(game.engine.dump_action(action), game.version)
        await client.wait_for(
            lambda c, v=game.version, e=errors: c.version > v or len(c.errors) > e, timeout=30
        )
    return int(newest_game(servers, slug).version)


async def test_four_processes_each_hear_only_the_tables_they_serve(four: list[Server]) -> None:
    rng = random.Random(37)
    tables: list[tuple[str, str, list[int], list[Player], dict[int, list[Player]]]] = []
    everyone: list[Player] = []
    for t in range(TABLES):
        # Table t lives on processes t and t+1 (created, joined and started through t): the
        # other two never see a request or a socket of it.
        serving = [t % PROCESSES, (t + 1) % PROCESSES]
        home = four[serving[0]]
        players, table = await make_table(home.url, home.ws_url, ["Ala", "Bo", "Cy"])
        slug, code = table["slug"], table["invite_code"]
        sockets = {
            seat: [await socket_on(p, four[i], slug, code) for i in serving]
            for seat, p in enumerate(players)
        }
        watchers = [
            await socket_on(Player(four[i].url, four[i].ws_url), four[i], slug, code)
            for i in serving
        ]
        everyone += [c for twin in sockets.values() for c in twin] + watchers + players
        tables.append((slug, code, serving, watchers, sockets))

    finals: dict[str, int] = {}
    for slug, _code, serving, _watchers, sockets in tables:
        finals[slug] = await play([four[i] for i in serving], slug, sockets, rng, MOVES)
    # Every client of every table converges on the stored version, with the same view.
    for slug, _code, _serving, watchers, sockets in tables:
        assert finals[slug] >= MOVES // 2
        clients = [c for twin in sockets.values() for c in twin] + watchers
        for client in clients:
            await client.wait_version(finals[slug], timeout=30)
        for a, b in sockets.values():
            assert a.states[-1]["view"] == b.states[-1]["view"]
        assert watchers[0].states[-1]["view"] == watchers[1].states[-1]["view"]

    # Counted per process and table: a process read the messages of the two tables it
    # serves, and not one of the two it never served.
    counts = [dict(bus_of(s).heard) for s in four]
    for slug, _code, serving, _w, _s in tables:
        for i, server in enumerate(four):
            if i in serving:
                assert counts[i].get(slug, 0) >= finals[slug], (i, slug, counts[i])
            else:
                assert counts[i].get(slug, 0) == 0, (i, slug, counts[i])
                assert app_of(server).state.tables.held(slug) is None
    for i in range(PROCESSES):
        assert len(counts[i]) == 2, counts[i]

    # A process that stops serving a table stops hearing of it: process 1 closes its sockets
    # of table 0, forgets it at the next change made elsewhere, and reads nothing after that.
    slug, _code, serving, watchers, sockets = tables[0]
    assert serving == [0, 1]
    for twin in sockets.values():
        await twin[1].close()
    await watchers[1].close()
    one = app_of(four[1]).state.tables
    # The bounds are generous: under the fast run's four workers on two cores these four
    # servers get a fraction of a core each; the waits end as soon as the state is reached.
    await wait_until(lambda: not table_of(app_of(four[1]), slug).presence.connections, timeout=30)
    only_zero = {seat: [twin[0]] for seat, twin in sockets.items()}

    def forgotten() -> bool:
        return one.held(slug) is None and slug not in bus_of(four[1]).watching

    # The change is a chat line, not a move: the game may have ended within its moves (a
    # three-seat Incan Gold game of random moves ends within 24 moves about one time in
    # three), and a chat line changes the table whether or not its game goes on.
    turns = itertools.count()

    async def change(lines: int) -> None:
        """`lines` chat lines said through process 0 (the seats in turn: each has its own
        chat rate limit), each seen by its watcher."""
        for _ in range(lines):
            i = next(turns)
            speaker = only_zero[i % len(only_zero)][0]
            seen = said(watchers[0])
            await speaker.send({"type": "chat", "text": f"line {i}"})
            await watchers[0].wait_for(lambda c, s=seen: said(c) > s, timeout=30)

    # A change heard while the table's lock is held there (a push on its way, a follow in
    # progress) keeps it until the next one: a few changes, each given time to be heard.
    for _ in range(4):
        await change(1)
        with contextlib.suppress(TimeoutError):
            await wait_until(forgotten, timeout=10)
        if forgotten():
            break
    assert forgotten()
    before = bus_of(four[1]).heard[slug]
    await change(4)
    await asyncio.sleep(0.3)
    assert bus_of(four[1]).heard[slug] == before
    assert one.held(slug) is None
    for client in everyone:
        await client.close()


async def test_a_watched_table_hears_what_is_published_right_after_and_nothing_once_left() -> None:
    """`watch` returns once Redis confirmed the subscription: a change published the moment
    after is heard (the boundary `Tables.get` reads the database at). Lobby-wide messages reach
    every process; a table's reach only those watching it, and none once it is left."""
    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    listener, sender = RedisBus(REDIS_URL, channel), RedisBus(REDIS_URL, channel)
    got: list[dict[str, Any]] = []

    async def keep(message: dict[str, Any]) -> None:
        got.append(message)

    async def ignore(_message: dict[str, Any]) -> None:
        pass

    await listener.start(keep)
    await sender.start(ignore)
    try:
        for n in range(30):
            await listener.watch(f"t{n}")
            sender.send({"k": "move", "s": f"t{n}", "n": n})
        sender.send({"k": "move", "s": "elsewhere", "n": -1})
        sender.lobby_changed()
        sender.lobby_changed()  # one is waiting already: not queued twice
        await wait_until(lambda: any(m["k"] == "lobby" for m in got))
        assert [m["n"] for m in got if m["k"] == "move"] == list(range(30))
        assert "elsewhere" not in listener.heard
        listener.unwatch("t0")
        await asyncio.sleep(0.3)
        sender.send({"k": "move", "s": "t0", "n": 100})
        sender.send({"k": "move", "s": "t1", "n": 101})
        await wait_until(lambda: got[-1].get("n") == 101)
        assert listener.heard["t0"] == 1 and listener.heard["t1"] == 2
        # Forgotten and asked for again at once (the leave not sent yet): still heard; two
        # tasks watching one table both wait for its confirmation.
        listener.unwatch("t1")
        await asyncio.gather(listener.watch("t1"), listener.watch("t1"))
        await asyncio.sleep(0.3)
        sender.send({"k": "move", "s": "t1", "n": 102})
        await wait_until(lambda: got[-1].get("n") == 102)
        assert [m["k"] for m in got].count("lobby") == 1
        # Within LOBBY_EVERY of the last: said once, at the end of it.
        sender.lobby_changed()
        sender.lobby_changed()
        await wait_until(lambda: [m["k"] for m in got].count("lobby") == 2)
        await asyncio.sleep(0.6)
        assert [m["k"] for m in got].count("lobby") == 2
    finally:
        await sender.stop()
        await listener.stop()


async def test_a_move_committed_while_a_process_reads_the_table_is_not_lost(
    pair: tuple[Server, Server, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The subscription's boundary: process two subscribes to a table's channel, then reads
    it from the database; a move that process one commits after that read (and publishes
    while two is still loading) is held and applied once two keeps the table — two is at the
    new version without anybody moving again."""
    one, two, _ = pair
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo", "Cy"])
    slug, code = table["slug"], table["invite_code"]
    ala = await socket_on(players[0], one, slug, code)
    await ala.wait_version(0)
    game = table_of(app_of(one), slug).game
    assert game is not None
    action = game.engine.dump_action(game.engine.legal_actions(game.state, 0)[0])
    tables_two = app_of(two).state.tables
    assert tables_two.held(slug) is None
    load = Table.load

    async def move_during_load(self: Table, session: Any) -> None:
        await load(self, session)  # read at version 0
        if self.runtime is tables_two.runtime and self.slug == slug:
            await ala.act(action, 0)
            await ala.wait_version(1)
            await wait_until(lambda: bool(tables_two._arriving.get(slug)))

    monkeypatch.setattr(Table, "load", move_during_load)
    held = await tables_two.get(slug)
    assert held is not None and held.game is not None
    assert held.game.version == 1
    await ala.close()
    for p in players:
        await p.close()
