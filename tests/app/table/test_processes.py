"""Several server processes on one PostgreSQL database, kept in step by Redis pub/sub.

Each server here is a separate app (its own hubs, its own Redis connections and origin) on its
own port; every client picks a server at random for each connection and act, as a proxy that
does not hash tables would. What must hold: every client of both converges to the same
versions, no version is stored twice, seats are what the database says (no phantom seats),
joins and starts racing across processes are decided by the database (one wins, the other is
refused clearly), chat reaches both, an idle hub is evicted and reloads, and a process can
restart while the other keeps serving.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from sqlalchemy import func, select

from app.realtime.connection import CLOSE_SIGNED_OUT
from app.store.models import Move, SeatRow
from tests.app.api.test_devices import make_link, whoami
from tests.app.api.test_signout_sockets import (
    CLOSE_WITHIN,
    closed_with,
    cookie_of,
    phone_at_the_table,
    phone_of,
    refused_on_reconnect,
    socket_of,
)
from tests.clients import Player, make_table, table_of
from tests.conftest import REDIS_URL, Server, redis_or_skip, start_server
from tests.tables import app_of, stored_game


async def _start(pg_url: str, tmp_path: Path, channel: str, name: str) -> Server:
    data = tmp_path / name
    data.mkdir(exist_ok=True)
    return await start_server(
        pg_url, data, redis_url=REDIS_URL, redis_channel=channel, follower_grace=1.0
    )


@pytest.fixture
async def pair(pg_url: str, tmp_path: Path) -> AsyncIterator[tuple[Server, Server, str]]:
    """Two servers on one PostgreSQL database and one Redis channel (unique to the test)."""
    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    one = await _start(pg_url, tmp_path, channel, "one")
    two = await _start(pg_url, tmp_path, channel, "two")
    try:
        yield one, two, channel
    finally:
        await asyncio.gather(one.stop(), two.stop())


async def post_on(player: Player, server: Server, path: str) -> httpx.Response:
    """A POST with the player's cookie to `server`."""
    async with httpx.AsyncClient(
        base_url=server.url, cookies=player.http.cookies, timeout=10
    ) as client:
        return await client.post(path)


async def socket_on(player: Player, server: Server, slug: str, code: str | None) -> Player:
    """Another JSON socket of the same person, on `server`."""
    twin = Player(server.url, server.ws_url)
    twin.http.cookies = player.http.cookies
    await twin.connect(slug, code)
    return twin


def newest_game(servers: list[Server], slug: str) -> Any:
    """The hub game furthest ahead among the servers (the authority tests read, never change)."""
    games = [table_of(app_of(s), slug).game for s in servers]
    return max((g for g in games if g is not None), key=lambda g: g.version)


async def test_two_processes_converge_under_random_routing(
    pair: tuple[Server, Server, str],
) -> None:
    one, two, _ = pair
    servers = [one, two]
    rng = random.Random(7)
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo", "Cy", "Di"], start=False)
    slug, code = table["slug"], table["invite_code"]
    r = await post_on(players[0], two, f"/api/tables/{slug}/start")
    assert r.status_code == 200, r.text
    # Every person has a socket on each process; a spectator watches on each.
    sockets = {
        seat: [await socket_on(p, s, slug, code) for s in servers] for seat, p in enumerate(players)
    }
    watchers = [await socket_on(Player(s.url, s.ws_url), s, slug, code) for s in servers]
    everyone = [c for pair_ in sockets.values() for c in pair_] + watchers
    for client in everyone:
        await client.wait_version(0)
    # Chat said on one process is read on the other.
    await sockets[1][1].send({"type": "chat", "text": "hello from two"})
    for client in (sockets[0][0], watchers[0]):
        await client.wait_for(lambda c: any("hello from two" in f for f in c.frames), timeout=10)

    acts = refused = 0
    for _ in range(400):
        game = newest_game(servers, slug)
        if game.over:
            break
        seat = rng.choice(sorted(game.engine.to_act(game.state)))
        client = rng.choice(sockets[seat])
        if client.version < game.version:
            await client.wait_version(game.version, timeout=10)
        action = rng.choice(game.engine.legal_actions(game.state, seat))
        errors = len(client.errors)
        await client.act(game.engine.dump_action(action), game.version)
        acts += 1
        await client.wait_for(
            lambda c, v=game.version, e=errors: c.version > v or len(c.errors) > e, timeout=10
        )
        refused += len(client.errors) > errors
    final = newest_game(servers, slug).version
    assert final > 20
    for client in everyone:
        await client.wait_version(final, timeout=15)
    # One game, one history: every stored version once, and both processes at the same place.
    _room, game_row, count = await stored_game(one, slug)
    assert game_row.version == final == count
    async with app_of(one).state.sessions() as session:
        seqs = (
            (await session.execute(select(Move.seq).where(Move.game_id == game_row.id)))
            .scalars()
            .all()
        )
    assert sorted(seqs) == list(range(1, final + 1))
    hubs = [table_of(app_of(s), slug) for s in servers]
    assert {h.game.version for h in hubs if h.game} == {final}
    assert hubs[0].game and hubs[1].game
    assert hubs[0].game.engine.dump(hubs[0].game.state) == game_row.snapshot
    assert hubs[1].game.engine.dump(hubs[1].game.state) == game_row.snapshot
    # Each seat's two sockets (one per process) hold the same view; so do the spectators.
    for seat, (a, b) in sockets.items():
        assert a.states[-1]["view"] == b.states[-1]["view"], seat
        assert [s["version"] for s in a.states] == sorted(s["version"] for s in a.states)
    assert watchers[0].states[-1]["view"] == watchers[1].states[-1]["view"]
    # Almost every act went through: a refusal is only a race lost to the other process.
    assert refused <= acts // 4
    for client in [*everyone, *players]:
        await client.close()


async def test_a_waiting_room_nobody_watches_here_is_forgotten_then_loaded_again(
    pair: tuple[Server, Server, str],
) -> None:
    """With tables routed to one process, most rooms another process knows of are nobody's
    there: a room that changes elsewhere is forgotten by the process where nobody watches it
    (not reloaded on every join and start, and its channel left: it hears nothing more of
    it), and is loaded again, current, the moment it is asked for — in play too."""
    one, two, _ = pair
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo"], seats=3, start=False)
    slug, code = table["slug"], table["invite_code"]
    # Process two learns of the room (a page asked for through it), then nobody is there.
    r = await players[1].http.get(f"{two.url}/t/{slug}")
    assert r.status_code == 200
    assert app_of(two).state.tables.held(slug) is not None
    # A third person joins through process one: two forgets the room instead of reloading it.
    cy = await Player(one.url, one.ws_url).login("Cy")
    r = await cy.http.post(f"/api/tables/{slug}/join", params={"code": code})
    assert r.status_code == 200, r.text
    await wait_until(lambda: app_of(two).state.tables.held(slug) is None)
    # Asked for again through two: loaded from the database, with the new seat.
    watcher = await socket_on(Player(two.url, two.ws_url), two, slug, code)
    await watcher.wait_version(0)
    assert [s["name"] for s in watcher.states[-1]["room"]["seats"]][:3] == ["Ala", "Bo", "Cy"]
    # In play too: a process with nobody watching forgets it at the next move elsewhere.
    await watcher.close()
    r = await post_on(players[0], one, f"/api/tables/{slug}/start")
    assert r.status_code == 200, r.text
    ala = await socket_on(players[0], one, slug, code)
    await ala.wait_version(0)
    r = await players[1].http.get(f"{two.url}/t/{slug}")  # two loads it, in play
    assert r.status_code == 200
    game = table_of(app_of(one), slug).game
    assert game is not None
    action = game.engine.legal_actions(game.state, 0)[0]
    await ala.act(game.engine.dump_action(action), 0)
    await ala.wait_version(1)
    bus_two = app_of(two).state.tables.runtime.bus
    await wait_until(lambda: app_of(two).state.tables.held(slug) is None)
    await wait_until(lambda: slug not in bus_two.watching)
    heard = bus_two.heard[slug]
    game = table_of(app_of(one), slug).game
    assert game is not None
    seat = min(game.acting)
    action = game.engine.legal_actions(game.state, seat)[0]
    bo = await socket_on(players[1], one, slug, code) if seat == 1 else ala
    await bo.wait_version(1)
    await bo.act(game.engine.dump_action(action), 1)
    await bo.wait_version(2)
    await asyncio.sleep(0.3)
    assert bus_two.heard[slug] == heard  # nothing more about a table two forgot
    # Asked for again through two: current.
    r = await players[1].http.get(f"{two.url}/t/{slug}")
    assert r.status_code == 200
    assert (table_of(app_of(two), slug).game or game).version == 2
    for client in [ala, bo, cy, *players]:
        await client.close()


async def test_a_burst_of_changes_is_published_in_order_in_few_round_trips() -> None:
    """Changes queued while a publish waits for Redis go together in one message: another
    process receives every one, in the order they were sent, the sender published far fewer
    messages than changes, and a message the bus cannot read is skipped, not fatal."""
    from app.realtime.bus import RedisBus

    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    sender, receiver = RedisBus(REDIS_URL, channel), RedisBus(REDIS_URL, channel)
    got: list[int] = []
    own: list[int] = []

    async def keep(message: dict[str, Any]) -> None:
        got.append(message["n"])

    async def echo(message: dict[str, Any]) -> None:
        own.append(message["n"])

    await receiver.start(keep)
    await sender.start(echo)
    try:
        for n in range(300):
            sender.send({"k": "move", "n": n})
        await wait_until(lambda: len(got) == 300)
        # Something else on the channel (not a bus message) does not stop the listener.
        await sender.client.publish(channel, b"not a batch of changes")
        for n in range(300, 600):
            sender.send({"k": "move", "n": n})
        await wait_until(lambda: len(got) == 600)
        assert got == list(range(600))
        assert sender.published == 600 and sender.batches < 100
        assert receiver.received == 600
        assert own == []  # a process skips its own messages
    finally:
        await sender.stop()
        await receiver.stop()


async def _cut_off(origin: str) -> None:
    """Redis drops the subscription of the bus of process `origin` (its connection is
    named after it), as when the connection breaks."""
    admin = aioredis.from_url(REDIS_URL)
    try:
        subscribers = await admin.client_list(_type="pubsub")
        (mine,) = [c for c in subscribers if c.get("name") == f"stolik-bus-{origin}"]
        assert await admin.client_kill_filter(_id=mine["id"]) == 1
    finally:
        await admin.aclose()


async def test_a_bus_that_lost_redis_resubscribes_and_says_so() -> None:
    """When Redis drops the bus's subscription, the listener subscribes again, tells the
    process (which then checks every device again: a sign-out may have been missed), and
    receives what is published after."""
    from app.realtime.bus import RedisBus

    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    sender, receiver = RedisBus(REDIS_URL, channel), RedisBus(REDIS_URL, channel)
    got: list[dict[str, Any]] = []

    async def keep(message: dict[str, Any]) -> None:
        got.append(message)

    async def nothing(message: dict[str, Any]) -> None:
        pass

    await receiver.start(keep)
    await sender.start(nothing)
    try:
        sender.send({"k": "move", "n": 1})
        await wait_until(lambda: len(got) == 1)
        await _cut_off(receiver.origin)
        await wait_until(lambda: any(m["k"] == "resubscribed" for m in got))
        sender.send({"k": "move", "n": 2})
        await wait_until(lambda: [m.get("n") for m in got if m["k"] == "move"] == [1, 2])
    finally:
        await sender.stop()
        await receiver.stop()


async def test_a_process_whose_bus_lost_redis_checks_every_device_again(
    pair: tuple[Server, Server, str],
) -> None:
    """A sign-out published while a process's bus was cut off from Redis never reaches it,
    so once it has subscribed again it trusts none of the devices it checked before."""
    _one, two, _ = pair
    ala = await Player(two.url, two.ws_url).login("Ala")
    assert await whoami(ala.http) == "Ala"
    known = app_of(two).state.tables.known
    assert known._devices  # Ala's device, checked
    bus = app_of(two).state.tables.runtime.bus
    await _cut_off(bus.origin)
    await wait_until(lambda: not known._devices)
    assert await whoami(ala.http) == "Ala"  # checked in the database again
    assert known._devices
    await ala.close()


async def test_joins_and_starts_racing_across_processes(
    pair: tuple[Server, Server, str],
) -> None:
    one, two, _ = pair
    host = await Player(one.url, one.ws_url).login("Host")
    r = await host.http.post("/api/tables", json={"game": "incan_gold", "seats": 4})
    slug = r.json()["slug"]
    # Both processes have the room live before anything races.
    await hub_of_loaded(one, slug)
    await hub_of_loaded(two, slug)
    x = await Player(one.url, one.ws_url).login("X")
    y = await Player(two.url, two.ws_url).login("Y")
    # Two people want seat 1 at once, through different processes: one gets it.
    answers = await asyncio.gather(
        x.http.post(f"/api/tables/{slug}/join", params={"seat": 1}),
        y.http.post(f"/api/tables/{slug}/join", params={"seat": 1}),
    )
    codes = sorted(a.status_code for a in answers)
    assert codes[0] == 200 and codes[1] == 409, [a.text for a in answers]
    lost = next(a for a in answers if a.status_code == 409)
    assert lost.json()["error"]["code"] in ("seat_taken", "conflict")
    assert await seat_count(one, slug) == 2

    # The loser sits elsewhere; then a start through one process races a join through the other.
    loser = x if answers[0].status_code == 409 else y
    r = await loser.http.post(f"/api/tables/{slug}/join", params={"seat": 2})
    assert r.status_code == 200, r.text
    z = await Player(two.url, two.ws_url).login("Z")
    start, join = await asyncio.gather(
        host.http.post(f"/api/tables/{slug}/start"),
        z.http.post(f"/api/tables/{slug}/join", params={"seat": 3}),
    )
    assert {start.status_code, join.status_code} <= {200, 409}, (start.text, join.text)
    if start.status_code == 409:
        # The join landed between what the start read and its claim: start again.
        assert start.json()["error"]["code"] == "conflict"
        r = await post_on(host, two, f"/api/tables/{slug}/start")
        assert r.status_code == 200, r.text
    elif join.status_code == 409:
        assert join.json()["error"]["code"] == "already_started"
    # (Both 200: the join came first and the game started with Z in it.)
    # No phantom seat: the game has exactly the seats the database has, on both processes.
    _room, game_row, _ = await stored_game(one, slug)
    seats = await seat_count(one, slug)
    assert game_row.num_players == seats
    for server in (one, two):
        hub = await hub_of_loaded(server, slug)
        await wait_until(lambda h=hub: h.game is not None and len(h.seats) == seats)
        assert hub.status == "playing"
    # Starting again, through either process, is a clear refusal, not a server error.
    for server in (one, two):
        r = await post_on(host, server, f"/api/tables/{slug}/start")
        assert r.status_code == 409 and r.json()["error"]["code"] == "already_started"
    for p in (host, x, y, z):
        await p.close()


async def test_a_change_judged_on_a_stale_hub_is_judged_again_on_the_database(
    pair: tuple[Server, Server, str],
) -> None:
    """A process judges a room change on its hub without reading the room first; when the
    hub has not heard yet of what another process did a moment ago (here made stale by
    hand, as if the bus were slow), the database refuses the write, or the stale hub
    refuses the change, and the change is judged again on what the database holds: a join
    that asked for any seat gets the next free one, a seat the hub wrongly thinks taken is
    given, and what is refused is refused for a reason the database holds."""
    one, two, _ = pair
    host = await Player(one.url, one.ws_url).login("Host")
    r = await host.http.post("/api/tables", json={"game": "incan_gold", "seats": 4})
    slug = r.json()["slug"]
    watcher = await socket_on(host, two, slug, None)  # two keeps following the room
    await watcher.wait_version(0)
    behind = await hub_of_loaded(two, slug)
    before = dict(behind.seats)  # the host only
    x = await Player(one.url, one.ws_url).login("X")
    r = await x.http.post(f"/api/tables/{slug}/join")
    assert r.status_code == 200 and r.json()["seat"] == 1
    await wait_until(lambda: len(behind.seats) == 2)
    behind.seats = dict(before)  # process two has not heard of X yet
    y = await Player(two.url, two.ws_url).login("Y")
    r = await y.http.post(f"/api/tables/{slug}/join")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 2  # not 1, which the stale hub thought free
    assert await seat_count(one, slug) == 3
    assert sorted(behind.seats) == [0, 1, 2]  # caught up

    # X leaves through one; two still thinks seat 1 taken, and is asked for exactly it.
    stale = dict(behind.seats)
    r = await x.http.post(f"/api/tables/{slug}/leave")
    assert r.status_code == 200, r.text
    await wait_until(lambda: sorted(behind.seats) == [0, 2])
    behind.seats = stale
    z = await Player(two.url, two.ws_url).login("Z")
    r = await z.http.post(f"/api/tables/{slug}/join", params={"seat": 1})
    assert r.status_code == 200 and r.json()["seat"] == 1, r.text
    # A refusal that holds in the database stays a refusal: Y is seated already.
    r = await y.http.post(f"/api/tables/{slug}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
    assert await seat_count(one, slug) == 3
    for p in (watcher, host, x, y, z):
        await p.close()


async def test_a_process_restarts_while_the_other_keeps_serving(
    pair: tuple[Server, Server, str], pg_url: str, tmp_path: Path
) -> None:
    one, two, channel = pair
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    watcher = await socket_on(players[0], one, slug, None)
    await watcher.wait_version(0)
    await hub_of_loaded(two, slug)
    await two.stop()
    # The game goes on through the process that stayed.
    for _ in range(3):
        await play_one(players, one, slug)
    version = await play_one(players, one, slug)
    await watcher.wait_version(version)
    # A new process comes up, loads the current game and serves it; the first one hears it.
    again = await _start(pg_url, tmp_path, channel, "again")
    try:
        moved = await play_one(players, again, slug)
        assert moved == version + 1
        await watcher.wait_version(moved, timeout=10)
        assert table_of(app_of(one), slug).game.version == moved  # type: ignore[union-attr]
    finally:
        await again.stop()
    await watcher.close()
    for p in players:
        await p.close()


async def play_one(players: list[Player], server: Server, slug: str) -> int:
    """The first seat that must act plays its first legal action through a new socket on
    `server`; returns the version after it."""
    hub = await hub_of_loaded(server, slug)
    game = hub.game
    assert game is not None
    seat = sorted(game.engine.to_act(game.state))[0]
    client = await socket_on(players[seat], server, slug, None)
    await client.wait_version(game.version)
    action = game.engine.legal_actions(game.state, seat)[0]
    await client.act(game.engine.dump_action(action), game.version)
    await client.wait_version(game.version + 1)
    version = client.version
    await client.close()
    return version


async def hub_of_loaded(server: Server, slug: str) -> Any:
    hub = await app_of(server).state.tables.get(slug)
    assert hub is not None
    return hub


async def seat_count(server: Server, slug: str) -> int:
    """Seats of the room as the database has them."""
    hub = await hub_of_loaded(server, slug)
    async with app_of(server).state.sessions() as session:
        count = await session.execute(
            select(func.count()).select_from(SeatRow).where(SeatRow.room_id == hub.id)
        )
    return int(count.scalar_one())


async def wait_until(predicate: Any, timeout: float = 10.0) -> None:
    async def loop() -> None:
        while not predicate():  # noqa: ASYNC110 (polls state the servers own)
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


async def test_a_device_signed_out_through_one_process_is_nobody_on_the_other(
    pair: tuple[Server, Server, str],
) -> None:
    """Each process remembers checked devices for a few seconds; signing a device out through
    one process makes the other forget it (over Redis) well before that."""
    one, two, _ = pair
    laptop = httpx.AsyncClient(base_url=one.url, timeout=10)
    assert (await laptop.post("/api/guest", json={"name": "Ala"})).status_code == 200
    token = await make_link(laptop)
    phone = httpx.AsyncClient(base_url=two.url, timeout=10)
    assert (await phone.post(f"/link/{token}")).status_code == 303
    # Process two has checked the phone's device and remembers it.
    assert await whoami(phone) == "Ala"
    assert await whoami(phone) == "Ala"
    assert (await laptop.post("/devices/signout-others")).status_code == 303
    for _ in range(50):  # the bus delivers in milliseconds; bounded at 2.5 s (< Known.SECONDS)
        if await whoami(phone) is None:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("process two still trusts a signed-out device")
    # A rename through one reaches process two's memory of the laptop's person too.
    laptop_on_two = httpx.AsyncClient(base_url=two.url, cookies=laptop.cookies, timeout=10)
    assert await whoami(laptop_on_two) == "Ala"
    assert (await laptop.post("/api/guest", json={"name": "Alicja"})).status_code == 200
    for _ in range(50):
        if await whoami(laptop_on_two) == "Alicja":
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("process two still shows the old name")
    for client in (laptop, phone, laptop_on_two):
        await client.aclose()


async def test_a_silent_process_loses_its_seats_and_gets_them_back(
    pair: tuple[Server, Server, str],
) -> None:
    """A process that stops being heard (killed, cut off from Redis) cannot keep its seats
    online for ever elsewhere: after `gone_after` they are offline (so a bot may take over),
    and when it is heard again the others ask who is connected through it."""
    one, two, _ = pair
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo", "Cy"])
    slug, code = table["slug"], table["invite_code"]
    here = await socket_on(players[0], one, slug, code)
    there = await socket_on(players[1], two, slug, code)  # seat 1 is connected through two only
    for client in (here, there):
        await client.wait_version(0)
    hubs_one = app_of(one).state.tables
    hub = table_of(app_of(one), slug)
    for _ in range(100):
        if 1 in hub.presence.online_seats():
            break
        await asyncio.sleep(0.05)
    assert 1 in hub.presence.online_seats() and hub.presence.offline_for(1) is None
    bus_two = app_of(two).state.tables.runtime.bus
    assert bus_two.origin in hubs_one.heard
    assert hubs_one.drop_silent() == []  # just heard: not gone
    # With nothing else to say, two still says "alive" (its ticker; made frequent here).
    hubs_two = app_of(two).state.tables
    hubs_two.runtime = dataclasses.replace(hubs_two.runtime, alive_every=0.1)
    first = hubs_one.heard[bus_two.origin]
    for _ in range(100):
        if hubs_one.heard[bus_two.origin] > first + 1.0:
            break
        await asyncio.sleep(0.05)
    assert hubs_one.heard[bus_two.origin] > first + 1.0

    # Two goes silent: its bus stops without a word (as a killed process would).
    for task in bus_two._tasks:
        task.cancel()
    await asyncio.gather(*bus_two._tasks, return_exceptions=True)
    later = time.monotonic() + app_of(one).state.tables.runtime.gone_after + 1
    assert hubs_one.drop_silent(now=later) == [bus_two.origin]
    assert 1 not in hub.presence.online_seats()
    offline = hub.presence.offline_for(1)
    assert offline is not None and offline < 5  # its takeover clock starts now

    # Heard again: one asks, two answers with the seats connected through it.
    await bus_two.start(app_of(two).state.tables.follow)
    bus_two.send({"k": "alive"})
    for _ in range(100):
        if 1 in hub.presence.online_seats():
            break
        await asyncio.sleep(0.05)
    assert 1 in hub.presence.online_seats() and hub.presence.offline_for(1) is None
    for client in [here, there, *players]:
        await client.close()


async def test_a_device_signed_out_through_one_process_loses_its_sockets_on_the_other(
    pair: tuple[Server, Server, str],
) -> None:
    """Two processes on one database and one Redis channel: the phone plays through process
    two, the laptop signs it out through process one; the phone's socket on two closes at
    once and reconnecting there (or on one) with its cookie is refused."""
    one, two, _ = pair
    seats, table = await make_table(one.url, one.ws_url, ["Ala", "Bartek", "Celina"])
    slug = table["slug"]
    laptop = seats[0].http
    phone, phone_cookie, table_ws, lobby_ws = await phone_at_the_table(laptop, two, slug)
    started = time.monotonic()
    assert (await laptop.post("/devices/signout-others")).status_code == 303
    code, reason = await closed_with(table_ws)
    took = time.monotonic() - started
    assert (code, reason) == (CLOSE_SIGNED_OUT, "signed out")
    assert (await closed_with(lobby_ws))[0] == CLOSE_SIGNED_OUT
    assert took < CLOSE_WITHIN
    print(f"\nsigned-out socket on the other process closed in {took * 1000:.0f} ms")
    for server in (two, one):
        await refused_on_reconnect(server, f"/ws/t/{slug}?format=json", phone_cookie)
    await phone.aclose()
    for s in seats:
        await s.close()


async def test_a_sign_out_missed_while_the_bus_was_cut_off_still_closes_the_socket(
    pair: tuple[Server, Server, str],
) -> None:
    """A sign-out whose message process two never heard (its bus was cut off from Redis; here
    written straight to the database, with no message at all): once two has subscribed again
    it checks the devices of its open sockets and closes the signed-out one."""
    from app.store import people

    _one, two, _ = pair
    laptop = httpx.AsyncClient(base_url=two.url, timeout=10)
    assert (await laptop.post("/api/guest", json={"name": "Ala"})).status_code == 200
    phone = await phone_of(laptop, two.url)
    lobby_ws = await socket_of(two, "/ws/lobby?format=json", cookie_of(phone))
    await asyncio.wait_for(lobby_ws.recv(), 5)  # open and listed
    tables = app_of(two).state.tables
    (phone_device,) = tables.sockets.devices()
    async with tables.sessions() as session:
        device = await people.get_device(session, phone_device)
        assert device is not None
        assert await people.revoke_devices(session, device.user_id, 0.0, only=phone_device)
        await session.commit()
    await _cut_off(tables.runtime.bus.origin)
    code, _ = await closed_with(lobby_ws, within=10)
    assert code == CLOSE_SIGNED_OUT
    for client in (laptop, phone):
        await client.aclose()


async def test_a_choice_of_words_made_through_one_process_reaches_the_others_table(
    pair: tuple[Server, Server, str],
) -> None:
    """How a person wants to be spoken of (issue 33), changed through one process: the table
    they sit at in the other process takes it too, with a new revision (its pages and log are
    drawn again)."""
    one, two, _ = pair
    players, table = await make_table(one.url, one.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    try:
        there = await hub_of_loaded(two, slug)
        assert there.seats[0].grammar == "neutral"
        before = there.revision
        r = await players[0].http.post("/name", data={"name": "Ala", "gender": "she"})
        assert r.status_code == 303
        await wait_until(lambda: there.seats[0].gender == "she")
        assert there.revision > before
        assert table_of(app_of(one), slug).seats[0].gender == "she"
    finally:
        for p in players:
            await p.close()
