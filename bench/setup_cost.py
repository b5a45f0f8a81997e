"""What setting up a table costs the server: CPU per operation, one operation at a time.

Start a server as for `bench/load.py` (budgets off), then:

    .venv/bin/python -m bench.setup_cost --url http://127.0.0.1:8000 --tables 100 \\
        --server-pid $SERVER_PID

It sets up `--tables` Incan Gold tables the way a group does — 4 new guests, the host's
table, 3 joins, the start, then 4 seat sockets and 1 spectator socket each waiting for its
first state — one request or socket at a time, with nothing else running, and reads the
server's CPU time (every thread's, from /proc) around each step of one kind across all
tables. It prints server CPU in ms per guest, table, join, start and socket, and per table
with everything, and the wall time. (The first `--warmup` tables are set up the same way
first and not counted.) The sockets are closed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench.load import COOKIE, GAME, SEATS, threads_cpu

T = TypeVar("T")
STEPS = ("guest", "table", "join", "start", "socket")


class Cost:
    """Server CPU seconds and counts by step."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.cpu = dict.fromkeys(STEPS, 0.0)
        self.count = dict.fromkeys(STEPS, 0)

    async def measure(self, step: str, work: Callable[[], Awaitable[T]]) -> T:
        """Run one operation and charge the server's CPU meanwhile to `step`."""
        before = threads_cpu(self.pid)
        result = await work()
        self.cpu[step] += threads_cpu(self.pid) - before
        self.count[step] += 1
        return result


async def open_socket(url: str, headers: dict[str, str]) -> ClientConnection:
    """A socket, once its first state has come."""
    ws = await connect(url, additional_headers=headers, open_timeout=30)
    await asyncio.wait_for(ws.recv(), 30)
    return ws


async def one_table(base: str, cost: Cost, index: int, sockets: list[ClientConnection]) -> None:
    guests = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(SEATS)]
    try:
        for i, guest in enumerate(guests):
            name = {"name": f"s{index}-{i}"}
            r = await cost.measure("guest", partial(guest.post, "/api/guest", json=name))
            assert r.status_code == 200, r.text
        body = {"game": GAME, "seats": SEATS}
        r = await cost.measure("table", partial(guests[0].post, "/api/tables", json=body))
        assert r.status_code == 201, r.text
        slug = r.json()["slug"]
        for seat in range(1, SEATS):
            path = f"/api/tables/{slug}/join?seat={seat}"
            r = await cost.measure("join", partial(guests[seat].post, path))
            assert r.status_code == 200, r.text
        start = f"/api/tables/{slug}/start"
        r = await cost.measure("start", partial(guests[0].post, start))
        assert r.status_code == 200, r.text
        url = base.replace("http", "ws", 1) + f"/ws/t/{slug}?format=json"
        for seat in [*range(SEATS), None]:
            headers = {}
            if seat is not None:
                headers["Cookie"] = f"{COOKIE}={guests[seat].cookies.get(COOKIE)}"

            sockets.append(await cost.measure("socket", partial(open_socket, url, headers)))
    finally:
        await asyncio.gather(*(g.aclose() for g in guests))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--server-pid", type=int, required=True)
    args = parser.parse_args()
    sockets: list[ClientConnection] = []
    try:
        for i in range(args.warmup):
            await one_table(args.url, Cost(args.server_pid), -1 - i, sockets)
        cost = Cost(args.server_pid)
        started = time.perf_counter()
        for i in range(args.tables):
            await one_table(args.url, cost, i, sockets)
        wall = time.perf_counter() - started
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    print(f"{args.tables} tables set up one operation at a time in {wall:.1f} s")
    print(
        "server CPU per operation, ms: "
        + ", ".join(
            f"{step} {1000 * cost.cpu[step] / max(1, cost.count[step]):.2f}" for step in STEPS
        )
    )
    per_table = 1000 * sum(cost.cpu.values()) / args.tables
    print(f"server CPU per table (4 guests, table, 3 joins, start, 5 sockets): {per_table:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
