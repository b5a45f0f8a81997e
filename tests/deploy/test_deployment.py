"""The deployment's topology without Docker: nginx (deploy/nginx.conf) in front of two uvicorn
processes that share one PostgreSQL database and Redis, as docker-compose.yml runs them.

A table is played through the proxy by four JSON seats (nginx hashes the table to one
replica) while a spectator watches it on the OTHER replica directly, so every move crosses
processes over Redis. Also: an idle hub is evicted and reloads transparently.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.realtime.transport import SERVE_FLAGS
from tests.clients import Player, make_table, table_of
from tests.conftest import REDIS_URL, Server, redis_or_skip
from tests.deploy.cluster import wait_ready
from tests.deploy.proxy import free_port, nginx_binary, start_nginx, stop_nginx
from tests.tables import app_of

ROOT = Path(__file__).resolve().parent.parent.parent


def _uvicorn(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own handle
        return subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1"),
                *("--port", str(port), *SERVE_FLAGS),
            ],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )


async def _ready(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    await wait_ready(f"http://127.0.0.1:{port}", proc, log)


@contextlib.contextmanager
def _stopped(procs: list[subprocess.Popen[bytes]]) -> Iterator[None]:
    try:
        yield
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


@pytest.fixture
async def topology(pg_url: str, tmp_path: Path) -> AsyncIterator[tuple[str, list[int]]]:
    """(proxy URL, replica ports): two uvicorn processes + Redis + nginx, on loopback."""
    await redis_or_skip()
    if nginx_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is required in CI (scripts/test.sh installs it)")
        pytest.skip("nginx is not installed")
    env = {
        "DATABASE_URL": pg_url,
        "REDIS_URL": REDIS_URL,
        "REDIS_CHANNEL": f"stolik:test:{uuid.uuid4().hex}",
        "SECRET_KEY": "deployment-test",
        "DATA_DIR": str(tmp_path),
        "BOT_DELAY": "0",
        "CREATE_RATE_COUNT": "0",
        "ACT_RATE_COUNT": "0",
        "LOG_LEVEL": "warning",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
    }
    ports = [free_port(), free_port()]
    procs: list[subprocess.Popen[bytes]] = []
    with _stopped(procs):
        # Migrations run once (compose's one-shot service), then the replicas start.
        migrate = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "alembic", "upgrade", "head"),
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(migrate.communicate(), 120)
        assert migrate.returncode == 0, output.decode()[-2000:]
        for i, port in enumerate(ports):
            log = tmp_path / f"app{i}.log"
            procs.append(_uvicorn(port, {**env, "AUTO_MIGRATE": "false"}, log))
        for i, port in enumerate(ports):
            await _ready(port, procs[i], tmp_path / f"app{i}.log")
        proxy_port = free_port()
        nginx = start_nginx(proxy_port, ports, tmp_path / "nginx", expose_upstream=True)
        try:
            yield f"127.0.0.1:{proxy_port}", ports
        finally:
            stop_nginx(nginx)


async def test_a_table_through_the_proxy_is_watched_live_on_the_other_replica(
    topology: tuple[str, list[int]],
) -> None:
    proxy, ports = topology
    base, ws_base = f"http://{proxy}", f"ws://{proxy}"
    players, table = await make_table(base, ws_base, ["Ala", "Bo", "Cy", "Di"])
    slug = table["slug"]
    # Every request about the table went to one replica: nginx hashes its slug.
    answers = [await players[0].http.get(f"/t/{slug}") for _ in range(4)]
    served = {a.headers["x-upstream"] for a in answers}
    assert len(served) == 1, served
    owner = int(served.pop().rsplit(":", 1)[1])
    other = next(p for p in ports if p != owner)
    # A spectator on the other replica (straight to it, not through the proxy).
    watcher = Player(f"http://127.0.0.1:{other}", f"ws://127.0.0.1:{other}")
    await watcher.login("Eve")
    await watcher.connect(slug)
    for p in players:
        await p.connect(slug)
    for client in [*players, watcher]:
        await client.wait_version(0, timeout=10)
    rng = random.Random(3)
    version = 0
    for _ in range(40):
        view = players[0].states[-1]["view"]
        if view["over"]:
            break
        seat = rng.choice(view["to_act"])  # Incan Gold: every deciding seat torches or camps
        mover = players[seat]
        await mover.wait_version(version, timeout=10)
        await mover.act({"type": rng.choice(["torch", "torch", "camp"])}, version)
        await mover.wait_version(version + 1, timeout=10)
        version = mover.version
        for p in players:
            await p.wait_version(version, timeout=10)
    assert version >= 10
    # The other replica heard every move over Redis and showed it to its spectator.
    await watcher.wait_version(version, timeout=10)
    assert watcher.states[-1]["view"] == players[0].states[-1]["view"] or (
        watcher.states[-1]["room"]["to_act"] == players[0].states[-1]["room"]["to_act"]
    )
    versions = [s["version"] for s in watcher.states]
    assert versions == sorted(versions)
    await watcher.send({"type": "chat", "text": "watching from the other one"})
    await players[2].wait_for(
        lambda c: any("watching from the other one" in f for f in c.frames), timeout=10
    )
    for client in [*players, watcher]:
        await client.close()


async def test_an_idle_hub_is_evicted_and_reloads(server: Server) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    hubs = app_of(server).state.tables
    await players[0].connect(slug)
    await players[0].wait_version(0)
    game = table_of(app_of(server), slug).game
    assert game is not None
    seat = sorted(game.engine.to_act(game.state))[0]
    if seat:
        await players[seat].connect(slug)
    mover = players[seat]
    await mover.wait_version(0)
    await mover.act(game.engine.dump_action(game.engine.legal_actions(game.state, seat)[0]))
    await mover.wait_version(1)
    # While a socket is open the hub stays, however long ago it was used.
    assert hubs.evict_idle(0) == 0
    for p in players:
        if p.ws is not None:
            await p.ws.close()
    await _until(lambda: not table_of(app_of(server), slug).presence.connections)
    assert hubs.evict_idle(3600) == 0  # not idle for long enough yet
    assert hubs.evict_idle(0) == 1
    assert slug not in {h.slug for h in hubs.live()}
    # The next visitor loads it again, transparently, at the same version.
    again = Player(server.url, server.ws_url)
    again.http.cookies = players[0].http.cookies
    await again.connect(slug)
    await again.wait_version(1)
    assert table_of(app_of(server), slug).game.version == 1  # type: ignore[union-attr]
    await again.close()
    for p in players:
        await p.close()


async def _until(predicate: object, timeout: float = 5.0) -> None:
    async def loop() -> None:
        while not predicate():  # type: ignore[operator]  # noqa: ASYNC110 (server state)
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)
