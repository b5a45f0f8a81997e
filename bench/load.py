"""Load benchmark: N concurrent Incan Gold tables, 4 websocket clients each, on loopback.

Start a server first (ideally on PostgreSQL), with the per-address and per-socket budgets off
(this client creates hundreds of guests from one address and acts as fast as it can), e.g.
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/stolik_bench \
        CREATE_RATE_COUNT=0 ACT_RATE_COUNT=0 scripts/run.sh
then: .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --tables 100
It plays seeded random legal moves through the JSON protocol and prints moves/s and the
p50/p99 latency from a client's act to every seat of that table having the new version.
A script that prints figures, not a test. Runs are bounded by --moves and --seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from engines.core import Rng


class Seat:
    """One websocket client of a table."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.version = -1
        self.view: dict[str, Any] = {}
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg["type"] == "state":
                self.version = msg["version"]
                self.view = msg["view"]
                self.seen.setdefault(msg["version"], time.perf_counter())
                self.changed.set()


async def guest(base: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=30)
    (await client.post("/api/guest", json={"name": name})).raise_for_status()
    return client


async def run_table(
    base: str,
    ws_base: str,
    index: int,
    moves: int,
    deadline: float,
    latencies: list[float],
    setup_slots: asyncio.Semaphore,
    ready: asyncio.Barrier,
) -> int:
    """Create, fill and play one table; returns the number of moves made.

    Setup (guests, table, joins, sockets) runs a few tables at a time; play starts for all
    tables together once every table is seated and connected.
    """
    async with setup_slots:
        clients, seats, readers = await set_up(base, ws_base, index)
    await ready.wait()
    return await play(seats, readers, clients, index, moves, deadline, latencies)


async def set_up(
    base: str, ws_base: str, index: int
) -> tuple[list[httpx.AsyncClient], list[Seat], list[asyncio.Task[None]]]:
    """Four guests at a started table, each with an open JSON websocket."""
    clients = [await guest(base, f"b{index}-{i}") for i in range(4)]
    r = await clients[0].post("/api/tables", json={"game": "incan_gold", "seats": 4})
    r.raise_for_status()
    slug = r.json()["slug"]
    for c in clients[1:]:
        (await c.post(f"/api/tables/{slug}/join")).raise_for_status()
    (await clients[0].post(f"/api/tables/{slug}/start")).raise_for_status()
    seats = []
    for c in clients:
        ws = await connect(
            f"{ws_base}/ws/t/{slug}?format=json",
            additional_headers={"Cookie": f"stolik={c.cookies.get('stolik')}"},
        )
        seats.append(Seat(ws))
    readers = [asyncio.create_task(s.read()) for s in seats]
    return clients, seats, readers


async def play(
    seats: list[Seat],
    readers: list[asyncio.Task[None]],
    clients: list[httpx.AsyncClient],
    index: int,
    moves: int,
    deadline: float,
    latencies: list[float],
) -> int:
    """Seeded random legal moves until the game ends, `moves` are made or time is up."""
    rng = Rng.from_seed(index)
    made = 0
    try:
        while made < moves and time.perf_counter() < deadline:
            while any(s.version < 0 for s in seats):  # noqa: ASYNC110 - a short poll at start
                await asyncio.sleep(0.01)
            view = seats[0].view
            if view.get("over"):
                break
            seat = rng.choice(view["to_act"])
            target = seats[seat].version + 1
            action = {"type": "camp" if rng.randbelow(3) == 0 else "torch"}
            start = time.perf_counter()
            await seats[seat].ws.send(
                json.dumps({"type": "act", "version": seats[seat].version, "action": action})
            )
            while not all(s.version >= target for s in seats):
                for s in seats:
                    s.changed.clear()
                await asyncio.wait_for(
                    asyncio.wait(
                        [asyncio.create_task(s.changed.wait()) for s in seats],
                        return_when=asyncio.FIRST_COMPLETED,
                    ),
                    30,
                )
            latencies.append(max(s.seen[target] for s in seats) - start)
            made += 1
    finally:
        for s in seats:
            await s.ws.close()
        for t in readers:
            t.cancel()
        for c in clients:
            await c.aclose()
    return made


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table at most")
    parser.add_argument("--seconds", type=float, default=120, help="time bound for the run")
    args = parser.parse_args()
    ws_base = args.url.replace("http://", "ws://")
    latencies: list[float] = []
    setup_slots = asyncio.Semaphore(8)
    ready = asyncio.Barrier(args.tables + 1)
    t_setup = time.perf_counter()
    deadline = t_setup + args.seconds
    tasks = [
        asyncio.create_task(
            run_table(args.url, ws_base, i, args.moves, deadline, latencies, setup_slots, ready)
        )
        for i in range(args.tables)
    ]
    await ready.wait()
    t0 = time.perf_counter()
    print(f"setup of {args.tables} tables (4 guests, joins, sockets each): {t0 - t_setup:.1f}s")
    made = await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    total = sum(made)
    lat = sorted(latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    print(f"tables={args.tables} clients={args.tables * 4} moves={total} play time={elapsed:.1f}s")
    print(f"moves/s={total / elapsed:.1f}")
    print(f"latency act->all seats at new version: p50={p50:.1f} ms p99={p99:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
