"""Failures rehearsed with several processes: two replicas of the app behind nginx (as in
docker-compose.yml), a private Redis and, where the database is restarted, a private
PostgreSQL (tests/deploy/cluster.py: the shared servers are never touched). Loopback only;
every wait is bounded. Each test prints its figures (`pytest -s` shows them;
docs/operating.md, "Failures rehearsed", keeps them).

- kill -9 of the replica a table lives on, mid-game with bots and a turn clock: its player
  reconnects through the proxy to the other replica, bots and the clock go on there, and
  every state anyone saw is a state of the one stored game (no move lost or doubled); the
  seats that were connected through the dead replica show offline on the other.
- Redis restarted, and Redis away for `STOLIK_REHEARSAL_OUTAGE` seconds (25 by default;
  `python -m bench.rehearse` runs the real 60): moves still commit, and the spectator on the
  other replica converges once Redis is back, with nobody moving.
- PostgreSQL restarted: acts during the outage are refused with "try again" in the reader's
  language, nothing is half-written, and play resumes by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

from engines import get_engine
from tests.clients import Player
from tests.conftest import scratch_postgres
from tests.deploy.cluster import BLITZ, PrivatePostgres, PrivateRedis, Replicas

OUTAGE = float(os.environ.get("STOLIK_REHEARSAL_OUTAGE", "25"))
"""Seconds Redis stays away in the long-outage rehearsal (bench.rehearse: 60)."""

GONE_AFTER = 20.0
"""A process not heard from for this long is counted gone (app/table/runtime.py)."""


def _env(database_url: str, redis_url: str, data_dir: Path) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "REDIS_CHANNEL": f"stolik:rehearsal:{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": "rehearsal",
        "DATA_DIR": str(data_dir),
        "BOT_DELAY": "0.2",
        "BOT_THINK_SCALE": "0.05",
        "FOLLOWER_GRACE": "1",
        "CREATE_RATE_COUNT": "0",
        "ACT_RATE_COUNT": "0",
        "LOG_LEVEL": "warning",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
    }


def _figure(text: str) -> None:
    print(f"\nREHEARSAL {text}", flush=True)


async def _bot_table(
    base: str, name: str, *, clock: str = "none", bots: int = 3
) -> tuple[Player, str]:
    """A guest `name` (seat 0) at a started Incan Gold table with `bots` bots."""
    host = await Player(base, base.replace("http", "ws", 1)).login(name)
    answer = await host.http.post(
        "/api/tables", json={"game": "incan_gold", "seats": bots + 1, "clock": clock}
    )
    answer.raise_for_status()
    slug = answer.json()["slug"]
    for _ in range(bots):
        (
            await host.http.post(f"/api/tables/{slug}/bots", params={"level": "easy"})
        ).raise_for_status()
    (await host.http.post(f"/api/tables/{slug}/start")).raise_for_status()
    return host, slug


def _online(client: Player) -> list[int] | None:
    """The seats the client was last told are online."""
    for frame in reversed(client.frames):
        msg = json.loads(frame)
        if msg["type"] == "presence":
            return list(msg["online"])
        if msg["type"] == "state":
            return [s["seat"] for s in msg["room"]["seats"] if s.get("online")]
    return None


def _mine(client: Player, seat: int = 0) -> bool:
    return bool(client.states) and seat in client.view["to_act"] and not client.view["over"]


def _over(client: Player) -> bool:
    return bool(client.states) and bool(client.view["over"])


async def _play(client: Player, rng: random.Random, moves: int, timeout: float = 30) -> None:
    """Act for seat 0 whenever it must, until `moves` of its acts were stored."""
    done = 0
    deadline = time.monotonic() + timeout
    while done < moves and time.monotonic() < deadline:
        await client.wait_for(lambda c: _mine(c) or _over(c), timeout=15)
        if _over(client):
            return
        version = client.version
        await client.act({"type": rng.choice(["torch", "torch", "camp"])}, version)
        await client.wait_version(version + 1, timeout=10)
        done += 1


@contextlib.asynccontextmanager
async def _database(dsn: str) -> AsyncIterator[asyncpg.Connection]:
    """A plain asyncpg connection to the database of `dsn` (a SQLAlchemy URL too)."""
    conn = await asyncpg.connect(dsn.replace("+asyncpg", ""), timeout=10)
    try:
        yield conn
    finally:
        await conn.close()


async def _stored_game(dsn: str, slug: str) -> tuple[asyncpg.Record, list[asyncpg.Record]]:
    async with _database(dsn) as conn:
        game = await conn.fetchrow(
            "SELECT g.id, g.seed, g.version, g.snapshot, g.num_players, r.id AS room "
            "FROM games g JOIN rooms r ON r.id = g.room_id WHERE r.slug = $1",
            slug,
        )
        moves = await conn.fetch(
            "SELECT seq, seat, action FROM moves WHERE game_id = $1 ORDER BY seq", game["id"]
        )
        return game, moves


async def _one_stored_game(
    dsn: str, slug: str, *clients: Player, spectators: tuple[Player, ...] = ()
) -> int:
    """The stored moves are versions 1..n, once each, and replay from the seed to the stored
    snapshot; every state a client was shown is seat 0's view (a spectator's: the
    spectator's) of that replay at its version (nothing shown was lost, nothing was applied
    twice). Returns n."""
    game, moves = await _stored_game(dsn, slug)
    assert [m["seq"] for m in moves] == list(range(1, game["version"] + 1))
    engine = get_engine("incan_gold")
    state = engine.setup(game["num_players"], engine.parse_options({}), game["seed"]).state
    views = {0: engine.view(state, 0)}
    watched = {0: engine.view(state, None)}
    for m in moves:
        action = m["action"] if isinstance(m["action"], dict) else json.loads(m["action"])
        state = engine.apply(state, m["seat"], engine.parse_action(action)).state
        views[m["seq"]] = engine.view(state, 0)
        watched[m["seq"]] = engine.view(state, None)
    snapshot = game["snapshot"]
    assert engine.dump(state) == (json.loads(snapshot) if isinstance(snapshot, str) else snapshot)
    shown = 0
    for client in (*clients, *spectators):
        expected = views if client in clients else watched
        for msg in client.states:
            assert msg["version"] in expected, (msg["version"], game["version"])
            assert msg["view"] == expected[msg["version"]]
            shown += 1
    assert shown
    return int(game["version"])


async def _reconnect(player: Player, slug: str, timeout: float) -> Player:
    """A new socket for `player`'s person through the same address, tried every 0.1 s (as the
    page does) until it has a state."""
    deadline = time.monotonic() + timeout
    while True:
        again = Player(str(player.http.base_url), player.ws_base)
        again.http.cookies = player.http.cookies
        try:
            await again.connect(slug)
            await again.wait_version(0, timeout=3)
            return again
        except Exception:
            await again.close()
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def _close(*clients: Player) -> None:
    for client in clients:
        with contextlib.suppress(BaseException):  # a socket to a killed process
            await asyncio.wait_for(client.close(), 5)


async def test_kill_9_a_replica_mid_game(tmp_path: Path) -> None:
    async with scratch_postgres() as pg_url:
        with PrivateRedis() as redis:
            replicas = Replicas(_env(pg_url, redis.url, tmp_path), tmp_path)
            try:
                await replicas.start()
                await _kill_9_rehearsal(replicas, pg_url)
            finally:
                replicas.stop()


async def _kill_9_rehearsal(replicas: Replicas, pg_url: str) -> None:
    proxy = f"http://{replicas.proxy}"
    host, slug = await _bot_table(proxy, "Ala", clock="blitz")
    served = await host.http.get(f"/api/tables/{slug}")
    owner = replicas.index_of(served.headers["x-upstream"])
    other = 1 - owner
    # A spectator on the other replica: that process follows the table (and takes it over).
    watcher = Player(replicas.url(other), replicas.url(other).replace("http", "ws", 1))
    await host.connect(slug)
    await watcher.connect(slug)
    # Presence: a player connected straight to the owner (no proxy: it will not come back),
    # seen from the other replica.
    direct = replicas.url(owner)
    stays, slug2 = await _bot_table(direct, "Bo", bots=2)
    seen_from = Player(replicas.url(other), replicas.url(other).replace("http", "ws", 1))
    await stays.connect(slug2)
    await seen_from.connect(slug2)
    await seen_from.wait_for(lambda c: 0 in (_online(c) or []), timeout=15)

    await _play(host, random.Random(6), 6)
    before = host.version
    await watcher.wait_version(before, timeout=10)

    killed = time.monotonic()
    replicas.kill(owner)
    offline = asyncio.create_task(
        seen_from.wait_for(lambda c: 0 not in (_online(c) or [0]), timeout=GONE_AFTER + 15)
    )
    again = await _reconnect(host, slug, timeout=20)
    reconnect_s = time.monotonic() - killed
    assert again.version >= before
    # Nobody acts for seat 0 any more: its clock runs out on the survivor, and the bots go on.
    await again.wait_for(
        lambda c: c.version >= before + 8 or _over(c),
        timeout=BLITZ * 3 + 30,
    )
    going_on_s = time.monotonic() - killed
    moved = again.version - before
    await offline
    offline_s = time.monotonic() - killed
    await watcher.wait_version(again.version, timeout=10)

    stored = await _one_stored_game(pg_url, slug, host, again, spectators=(watcher,))
    async with _database(pg_url) as conn:
        timed_out = await conn.fetchval(
            "SELECT count(*) FROM room_events e JOIN rooms r ON r.id = e.room_id "
            "WHERE r.slug = $1 AND e.version > $2 AND e.text LIKE '%ran out of time%'",
            slug,
            before,
        )
    assert timed_out >= 1  # the clock fired on the survivor
    _figure(
        f"kill -9: reconnected through the proxy in {reconnect_s:.2f} s; {moved}"
        f" moves by bots and the clock on the survivor within {going_on_s:.1f} s "
        f"({timed_out} clock expiries); seats of the dead process offline after {offline_s:.1f} s;"
        f" {stored} stored moves, none lost or doubled"
    )
    assert reconnect_s < 10
    assert offline_s < GONE_AFTER + 10
    await _close(host, again, watcher, stays, seen_from)


async def test_redis_restarted_and_away(tmp_path: Path) -> None:
    async with scratch_postgres() as pg_url:
        with PrivateRedis() as redis:
            replicas = Replicas(_env(pg_url, redis.url, tmp_path), tmp_path)
            try:
                await replicas.start()
                await _redis_rehearsal(replicas, redis, pg_url)
            finally:
                replicas.stop()


async def _quiet(host: Player) -> None:
    """Until the table waits for seat 0 (the bots have chosen), so nothing more is moving."""
    await host.wait_for(_mine, timeout=15)
    for _ in range(100):
        version = host.version
        await asyncio.sleep(0.6)
        if host.version == version and _mine(host):
            return
    raise AssertionError("the table did not settle")


async def _redis_rehearsal(replicas: Replicas, redis: PrivateRedis, pg_url: str) -> None:
    # The host on replica 0, a spectator on replica 1: every move crosses the bus.
    host, slug = await _bot_table(replicas.url(0), "Ala")
    watcher = Player(replicas.url(1), replicas.url(1).replace("http", "ws", 1))
    await host.connect(slug)
    await watcher.connect(slug)
    rng = random.Random(8)
    await _play(host, rng, 3)
    await watcher.wait_version(host.version, timeout=10)
    figures = []
    for outage in (0.0, OUTAGE):
        await _quiet(host)
        redis.kill()
        went = time.monotonic()
        # Moves still commit (the host's own replica shows them at once)...
        await _play(host, rng, 3)
        await _quiet(host)
        rest = outage - (time.monotonic() - went)
        if rest > 0:
            await asyncio.sleep(rest)
        away_s = time.monotonic() - went
        assert watcher.version < host.version  # ...but the other replica did not hear of them
        redis.start()
        back = time.monotonic()
        # Nobody moves now: the other replica catches up from the database by itself.
        await watcher.wait_version(host.version, timeout=20)
        converged_s = time.monotonic() - back
        await watcher.wait_for(lambda c: 0 in (_online(c) or []), timeout=GONE_AFTER)
        online_s = time.monotonic() - back
        figures.append((away_s, converged_s, online_s))
    await _play(host, rng, 2)  # and the bus carries moves again
    await watcher.wait_version(host.version, timeout=10)
    stored = await _one_stored_game(pg_url, slug, host, spectators=(watcher,))
    (short, c1, o1), (long, c2, o2) = figures
    _figure(
        f"Redis restarted (away {short:.1f} s): the other replica converged {c1:.2f} s after it "
        f"was back (presence {o1:.2f} s); Redis away {long:.0f} s: moves committed meanwhile, "
        f"converged {c2:.2f} s after it was back (presence {o2:.2f} s); {stored} stored moves"
    )
    assert c1 < 10 and c2 < 10
    await _close(host, watcher)


async def test_postgres_restarted_mid_game(tmp_path: Path) -> None:
    with PrivatePostgres() as pg, PrivateRedis() as redis:
        admin = await asyncpg.connect(pg.url, timeout=10)
        await admin.execute("CREATE DATABASE stolik")
        await admin.close()
        url = pg.url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        replicas = Replicas(_env(f"{url}/stolik", redis.url, tmp_path), tmp_path)
        try:
            await replicas.start()
            await _postgres_rehearsal(replicas, pg, f"{url}/stolik")
        finally:
            replicas.stop()


async def _postgres_rehearsal(replicas: Replicas, pg: PrivatePostgres, db_url: str) -> None:
    proxy = f"http://{replicas.proxy}"
    host, slug = await _bot_table(proxy, "Ala", bots=2)
    guest = await Player(proxy, f"ws://{replicas.proxy}").login("Ola")
    # The Polish reader joins before the start: a second table with two people and two bots.
    host2 = await Player(proxy, f"ws://{replicas.proxy}").login("Ewa")
    answer = await host2.http.post("/api/tables", json={"game": "incan_gold", "seats": 4})
    slug2 = answer.json()["slug"]
    (await guest.http.post(f"/api/tables/{slug2}/join")).raise_for_status()
    for _ in range(2):
        (
            await host2.http.post(f"/api/tables/{slug2}/bots", params={"level": "easy"})
        ).raise_for_status()
    (await host2.http.post(f"/api/tables/{slug2}/start")).raise_for_status()
    await host.connect(slug)
    await host2.connect(slug2)
    guest.ws_base = f"ws://{replicas.proxy}"
    await guest.connect(slug2, code="x&lang=pl")  # JSON clients choose a language with ?lang=
    rng = random.Random(9)
    await _play(host, rng, 3)
    # The host's table settled: only the host has to choose (its bots chose, and their moves'
    # pushes reached the host), so no move is in flight when the database goes away.
    await host.wait_for(lambda c: _mine(c) and c.view["to_act"] == [0], timeout=30)
    await guest.wait_for(lambda c: _mine(c, 1), timeout=15)

    pg.stop("fast")
    down = time.monotonic()
    # An act now is refused with "try again", in the reader's language; the socket stays.
    # (The answer is the next error: the play above may have had an act refused as stale, when
    # a bot's move came first.)
    version = host.version
    seen = len(host.errors)
    await host.act({"type": "torch"}, version)
    refused = await host.wait_error(seen + 1, timeout=15)
    assert refused["code"] == "unavailable", refused
    assert "try again" in refused["message"]
    seen = len(guest.errors)
    await guest.act({"type": "torch"}, guest.version)
    refused_pl = await guest.wait_error(seen + 1, timeout=15)
    assert refused_pl["code"] == "unavailable", refused_pl
    assert "spróbuj ponownie" in refused_pl["message"]
    answer = await host.http.post("/api/guest", json={"name": "Nowy"})
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "unavailable"
    page = await host.http.get("/", headers={"Accept": "text/html"})
    assert page.status_code == 503 and "try again" in page.text, page.text[:200]
    assert "<html" in page.text  # the error page, not JSON
    assert host.version == version
    await asyncio.sleep(max(0.0, 3 - (time.monotonic() - down)))
    pg.start()
    back = time.monotonic()
    outage_s = back - down
    # Play resumes by itself: the person's next try goes through (the page's own retry), the
    # bots carry on.
    resumed_s = None
    while time.monotonic() - back < 30:
        errors = len(host.errors)
        await host.act({"type": "torch"}, host.version)
        try:
            await host.wait_for(
                lambda c, seen=errors: c.version > version or len(c.errors) > seen, timeout=5
            )
        except TimeoutError:
            continue
        if host.version > version:
            resumed_s = time.monotonic() - back
            break
        await asyncio.sleep(0.5)
    assert resumed_s is not None, host.errors[-3:]
    await guest.act({"type": "torch"}, guest.version)
    await _play(host, rng, 3)
    stored = await _one_stored_game(db_url, slug, host)
    async with _database(db_url) as conn:
        beyond = await conn.fetchval(
            "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id WHERE m.seq > g.version"
        )
    assert beyond == 0  # nothing half-written
    _figure(
        f"PostgreSQL restarted (down {outage_s:.1f} s): acts refused with 'try again' (en, pl), "
        f"requests 503; play resumed {resumed_s:.2f} s after it was back; {stored} stored "
        f"moves, none half-written"
    )
    await _close(host, host2, guest)
