"""Soak: tables of bots on two server processes for a long while; memory, leftovers, latency.

    .venv/bin/python -m bench.soak --minutes 30 --tables 100

It makes a fresh database (`--database`, on the PostgreSQL server of `--admin-url`), starts two
uvicorn processes on loopback (the first migrates) sharing it and Redis (a channel of its own),
and plays `--tables` Incan Gold tables on them, each routed to one process by its index (as
the proxy routes by slug). A table is a guest in seat 0 (the host) and three bots; the host
and one anonymous spectator keep a JSON socket open. The host thinks `--think` seconds (0.5
to 1.5 times, seeded) before each of its decisions; the bots move after `BOT_DELAY`. When a
game ends the host asks for the rematch ("Play again", the bots come along), starts it and
both sockets move to the new table, so every table keeps playing.

Every `--interval` seconds it prints one line: the machine's load average (on a shared machine
latency follows it), moves seen, the host's act → new state on its own socket and the
spectator's (p50, p99, max), each process's RSS, open sockets and live tables (from
/metrics). After `--minutes` every host resigns (a bot finishes the seat), the sockets
close, and it waits (at most `--settle` seconds) until both processes hold no socket
and no table (`HUB_EVICT_AFTER` is `--evict-after`). It prints:

- RSS of each process at minute 5 (or half the run, if shorter) and at the end, and the change
  (target: within 10 %);
- sockets and tables left after the tables ended (target: 0);
- p99 act → broadcast per interval (target: flat).

Bounded: every request and wait has a timeout, the run stops after `--minutes`, and all
traffic stays on 127.0.0.1. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.realtime.transport import SERVE_FLAGS
from bench import service_args, stop_servers

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 15.0
"""Seconds any one request, socket opening or awaited state may take."""


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def percentile(values: list[float], p: float) -> float:
    """The `p`-th percentile (nearest rank) of `values`, 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


async def fresh_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url, timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def drop_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url, timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@dataclass
class Run:
    """What the whole run has seen."""

    think: float
    seed: int
    latencies: list[float] = field(default_factory=list)
    """Act → new state on the host's and the spectator's socket (this interval)."""
    moves: int = 0
    games: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    stopping: bool = False

    def fail(self, why: str) -> None:
        self.failures[why] = self.failures.get(why, 0) + 1


class Socket:
    """One JSON table socket: its latest version and what its seat may do."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.version = -1
        self.status = ""
        self.mine = False
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                msg = orjson.loads(raw)
                if msg.get("type") == "state":
                    self.version = msg["version"]
                    self.status = msg.get("room", {}).get("status", "")
                    view = msg.get("view") or {}
                    self.mine = self.seat is not None and self.seat in view.get("to_act", ())
                self.changed.set()
        self.changed.set()

    async def until(self, done: Any, timeout: float = TIMEOUT) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0 or self.reader.done():
                return bool(done())
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        self.reader.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)


class SoakTable:
    """One table played on one process by its host (seat 0) against three bots."""

    def __init__(self, run: Run, index: int, url: str, bot_level: str) -> None:
        self.run = run
        self.index = index
        self.url = url
        self.ws_url = url.replace("http://", "ws://")
        self.bot_level = bot_level
        self.rng = random.Random(run.seed * 1_000_003 + index)
        self.host = httpx.AsyncClient(base_url=url, timeout=TIMEOUT)
        self.slug = ""
        self.sockets: list[Socket] = []

    async def post(self, path: str, body: Any = None, **params: Any) -> Any:
        answer = await self.host.post(path, json=body, params=params or None)
        answer.raise_for_status()
        return answer.json()

    async def set_up(self) -> None:
        await self.post("/api/guest", {"name": f"Soak {self.index}"})
        table = await self.post("/api/tables", {"game": "incan_gold", "seats": 4})
        self.slug = table["slug"]
        for _ in range(3):
            await self.post(f"/api/tables/{self.slug}/bots", level=self.bot_level)
        await self.post(f"/api/tables/{self.slug}/start")
        await self.connect()

    async def connect(self) -> None:
        cookie = f"stolik={self.host.cookies.get('stolik')}"
        url = f"{self.ws_url}/ws/t/{self.slug}?format=json"
        host = await connect(url, additional_headers={"Cookie": cookie}, open_timeout=TIMEOUT)
        watcher = await connect(url, open_timeout=TIMEOUT)
        self.sockets = [Socket(host, 0), Socket(watcher, None)]

    async def close_sockets(self) -> None:
        sockets, self.sockets = self.sockets, []
        await asyncio.gather(*(s.close() for s in sockets))

    async def play(self) -> None:
        while not self.run.stopping:
            try:
                await self._step()
            except (httpx.HTTPError, ConnectionClosed, OSError) as exc:
                self.run.fail(type(exc).__name__)
                await asyncio.sleep(1)
                await self._recover()

    async def _recover(self) -> None:
        """After a failure: sockets again on the table (a page reconnects likewise)."""
        with contextlib.suppress(Exception):
            await self.close_sockets()
            await self.connect()

    async def _step(self) -> None:
        host, watcher = self.sockets
        seen = host.version
        # While the host has camped, the bots play on alone (a round may take a while): any
        # new state is progress; none in TIMEOUT seconds is a failure.
        if not await host.until(
            lambda: host.mine or host.status == "finished" or host.version != seen
        ):
            self.run.fail("no state in time")
            await self._recover()
            return
        if not host.mine and host.status != "finished":
            return
        if host.status == "finished":
            self.run.games += 1
            rematch = await self.post(f"/api/tables/{self.slug}/rematch")
            await self.close_sockets()
            self.slug = rematch["slug"]
            await self.post(f"/api/tables/{self.slug}/start")
            await self.connect()
            return
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.run.think)
        if self.run.stopping or not host.mine:
            return
        version = host.version
        choice = "camp" if self.rng.randrange(3) == 0 else "torch"
        sent = time.perf_counter()
        await host.ws.send(
            orjson.dumps({"type": "act", "version": version, "action": {"type": choice}}).decode()
        )
        reached = await host.until(lambda: host.version > version) and await watcher.until(
            lambda: watcher.version > version
        )
        if reached:
            self.run.latencies.append(time.perf_counter() - sent)
            self.run.moves += 1
        else:
            self.run.fail("act not broadcast in time")
            await self._recover()

    async def end(self) -> None:
        """The host resigns (a bot finishes the seat), then the sockets close."""
        with contextlib.suppress(httpx.HTTPError):
            await self.post(f"/api/tables/{self.slug}/resign")
        if self.sockets:
            await self.sockets[0].until(lambda: self.sockets[0].status == "finished", 60)
        await self.close_sockets()
        await self.host.aclose()


async def metrics(url: str, token: str) -> dict[str, float]:
    """Open sockets (all kinds) and live tables of one process (-1 if it does not answer)."""
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            answer = await client.get(
                f"{url}/metrics", headers={"Authorization": f"Bearer {token}"}
            )
        text = answer.text
    except httpx.HTTPError:
        return {"sockets": -1.0, "tables": -1.0}
    sockets = sum(
        float(m[1]) for m in re.finditer(r"^stolik_open_sockets\{[^}]*\} ([\d.e+]+)$", text, re.M)
    )
    hubs = re.search(r"^stolik_live_hubs ([\d.e+]+)$", text, re.M)
    return {"sockets": sockets, "tables": float(hubs[1]) if hubs else -1.0}


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{url}: the server exited ({proc.returncode})")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.3)
    raise SystemExit(f"{url} did not become ready in {timeout:.0f} s")


async def soak(args: argparse.Namespace, urls: list[str], pids: list[int], token: str) -> None:
    run = Run(think=args.think, seed=args.seed)
    tables = [SoakTable(run, i, urls[i % len(urls)], args.bot_level) for i in range(args.tables)]
    slots = asyncio.Semaphore(8)

    async def set_up(table: SoakTable) -> None:
        async with slots:
            await table.set_up()

    started = time.monotonic()
    await asyncio.gather(*(set_up(t) for t in tables))
    print(f"set up {len(tables)} tables in {time.monotonic() - started:.1f} s", flush=True)
    players = [asyncio.create_task(t.play()) for t in tables]
    begin = time.monotonic()
    end = begin + args.minutes * 60
    mark = begin + min(300.0, args.minutes * 30)
    rss_mark: list[float] | None = None
    p99s: list[float] = []
    print(
        "  min  load  moves  p50 ms  p99 ms  max ms  "
        + "  ".join(f"RSS{i} MB  sock{i}  tables{i}" for i in range(len(urls))),
        flush=True,
    )
    while time.monotonic() < end:
        await asyncio.sleep(min(args.interval, max(0.0, end - time.monotonic())))
        now = time.monotonic()
        if rss_mark is None and now >= mark:
            rss_mark = [rss_mb(p) for p in pids]
        lat, run.latencies = run.latencies, []
        moves, run.moves = run.moves, 0
        p99 = percentile(lat, 99) * 1000
        p99s.append(p99)
        held = [await metrics(u, token) for u in urls]
        cols = "  ".join(
            f"{rss_mb(p):8.1f}  {h['sockets']:5.0f}  {h['tables']:7.0f}"
            for p, h in zip(pids, held, strict=True)
        )
        print(
            f"{(now - begin) / 60:5.1f}  {os.getloadavg()[0]:4.1f}  {moves:5d}  "
            f"{percentile(lat, 50) * 1000:6.1f}  "
            f"{p99:6.1f}  {max(lat, default=0) * 1000:6.1f}  {cols}",
            flush=True,
        )
    run.stopping = True
    rss_end = [rss_mb(p) for p in pids]
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(*(t.end() for t in tables), return_exceptions=True)
    ended = time.monotonic()
    left = [await metrics(u, token) for u in urls]
    while time.monotonic() - ended < args.settle and any(h["sockets"] or h["tables"] for h in left):
        await asyncio.sleep(2)
        left = [await metrics(u, token) for u in urls]
    settled = time.monotonic() - ended
    print(f"=== soak: {args.tables} tables, {args.minutes:g} min, two processes")
    print(f"games finished: {run.games}; failures: {run.failures or 'none'}")
    rss_mark = rss_mark or rss_end
    for i, (a, b) in enumerate(zip(rss_mark, rss_end, strict=True)):
        change = (b - a) / a * 100 if a else 0.0
        print(
            f"process {i}: RSS {a:.1f} MB at minute {(mark - begin) / 60:g}, {b:.1f} MB at the "
            f"end ({change:+.1f} %, target within 10 %)"
        )
    print(
        "left after the tables ended: "
        + ", ".join(
            f"process {i}: {h['sockets']:.0f} sockets, {h['tables']:.0f} tables"
            for i, h in enumerate(left)
        )
        + f" (after {settled:.0f} s; target 0)"
    )
    print("p99 act → broadcast per interval (ms): " + " ".join(f"{p:.0f}" for p in p99s))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--interval", type=float, default=60, help="seconds per printed line")
    parser.add_argument("--think", type=float, default=3.0, help="host's think time, seconds")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--bot-level", default="easy")
    parser.add_argument("--bot-think-scale", type=float, default=0.05)
    parser.add_argument("--evict-after", type=float, default=20)
    parser.add_argument("--settle", type=float, default=120, help="seconds to wait for 0 left")
    parser.add_argument("--seed", type=int, default=1)
    service_args(parser, "stolik_soak", port=8731)
    args = parser.parse_args()
    if args.minutes <= 0 or args.minutes > 24 * 60:
        raise SystemExit("--minutes: more than 0, at most a day")
    asyncio.run(fresh_database(args.admin_url, args.database))
    token = secrets.token_hex(8)
    base = args.admin_url.rsplit("/", 1)[0]
    env = {
        **os.environ,
        "DATABASE_URL": f"{base}/{args.database}",
        "REDIS_URL": args.redis_url,
        "REDIS_CHANNEL": f"stolik:soak:{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": token,
        "METRICS_TOKEN": token,
        "CREATE_RATE_COUNT": "0",
        "ACT_RATE_COUNT": "0",
        "BOT_DELAY": str(args.bot_delay),
        "BOT_THINK_SCALE": str(args.bot_think_scale),
        "HUB_EVICT_AFTER": str(args.evict_after),
        "LOG_LEVEL": "warning",
    }
    servers: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    try:
        for i in range(2):
            port = args.port + i
            servers.append(
                subprocess.Popen(
                    [
                        *(sys.executable, "-m", "uvicorn", "app.main:app"),
                        *("--host", "127.0.0.1", "--port", str(port)),
                        *SERVE_FLAGS,
                        *("--log-level", "warning"),
                    ],
                    cwd=ROOT,
                    env=env if i == 0 else {**env, "AUTO_MIGRATE": "false"},
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
            wait_ready(urls[-1], servers[-1])
        asyncio.run(soak(args, urls, [s.pid for s in servers], token))
    finally:
        stop_servers(servers)
        with contextlib.suppress(Exception):
            asyncio.run(drop_database(args.admin_url, args.database))


if __name__ == "__main__":
    main()
