"""What setting up a table costs the server: CPU per operation, one operation at a time, and
the wall time of setting many tables up at once.

Start a server as for `bench/load.py` (budgets off), then:

    .venv/bin/python -m bench.setup_cost --url http://127.0.0.1:8000 --tables 100 \\
        --server-pid $SERVER_PID
    .venv/bin/python -m bench.setup_cost --url http://127.0.0.1:8000 --tables 500 \\
        --server-pid $SERVER_PID --all-at-once

It sets up `--tables` Incan Gold tables the way a group does — 4 new guests, the host's
table, 3 joins, the start, then 4 seat sockets and 1 spectator socket each waiting for its
first state. By default one request or socket at a time, with nothing else running: it reads
the server's CPU time (every thread's, from /proc) around each step of one kind across all
tables and prints server CPU in ms per guest, table, join, start and socket, and per table
with everything, and the wall time. With `--concurrency N` N tables are set up at once (each
table's steps in order, as a group's browsers do; `--all-at-once`: every table at once, like
issue 37's harness): it prints the wall time from the first request to the last table's fifth
socket having its first state, the server CPU per table over that time, this client's own
CPU (a client near 100 % of a core measures itself), and how long the server's threads waited
for a CPU (/proc schedstat: on a loaded machine that, not the server, makes the wall time).
The first `--warmup` tables are set up one at a time first and not counted. The sockets are
closed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench.load import COOKIE, GAME, SEATS, threads_cpu

STEPS = ("guest", "table", "join", "start", "socket")
TIMEOUT = 120.0
"""Bound of every request and socket opening, seconds (all at once, 500 tables queue)."""
# One TLS context for every guest's client: httpx builds one per client otherwise (~20 ms of
# this client's CPU each, 2,000 at 500 tables).
TLS = ssl.create_default_context()


def threads_waiting(pid: int) -> float:
    """Seconds every thread of `pid` has spent runnable but waiting for a CPU so far (the
    second field of /proc/PID/task/*/schedstat): what a loaded machine adds to a wall time."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[1])
        except OSError:
            continue
    return total / 1e9


class Cost:
    """Server CPU seconds and counts by step (only when one operation runs at a time)."""

    def __init__(self, pid: int, by_step: bool) -> None:
        self.pid = pid
        self.by_step = by_step
        self.cpu = dict.fromkeys(STEPS, 0.0)
        self.count = dict.fromkeys(STEPS, 0)

    async def measure(self, step: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """Run one operation; one at a time, charge the server's CPU meanwhile to `step`."""
        if not self.by_step:
            return await work()
        before = threads_cpu(self.pid)
        result = await work()
        self.cpu[step] += threads_cpu(self.pid) - before
        self.count[step] += 1
        return result


async def open_socket(url: str, headers: dict[str, str]) -> ClientConnection:
    """A socket, once its first state has come."""
    ws = await connect(url, additional_headers=headers, open_timeout=TIMEOUT)
    await asyncio.wait_for(ws.recv(), TIMEOUT)
    return ws


async def one_table(base: str, cost: Cost, index: int, sockets: list[ClientConnection]) -> None:
    guests = [httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=TLS) for _ in range(SEATS)]
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument(
        "--concurrency", type=int, default=1, help="tables set up at once (1: per-step figures)"
    )
    parser.add_argument(
        "--all-at-once", action="store_true", help="every table at once (--concurrency TABLES)"
    )
    args = parser.parse_args()
    concurrency = args.tables if args.all_at_once else max(1, args.concurrency)
    sockets: list[ClientConnection] = []
    cost = Cost(args.server_pid, by_step=concurrency == 1)
    try:
        for i in range(args.warmup):
            await one_table(args.url, Cost(args.server_pid, False), -1 - i, sockets)
        slots = asyncio.Semaphore(concurrency)

        async def table(i: int) -> None:
            async with slots:
                await one_table(args.url, cost, i, sockets)

        load = os.getloadavg()
        server0, own0 = threads_cpu(args.server_pid), time.process_time()
        waited0 = threads_waiting(args.server_pid)
        started = time.perf_counter()
        await asyncio.gather(*(table(i) for i in range(args.tables)))
        wall = time.perf_counter() - started
        server = threads_cpu(args.server_pid) - server0
        waited = threads_waiting(args.server_pid) - waited0
        own = time.process_time() - own0
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    how = "one operation at a time" if concurrency == 1 else f"{concurrency} tables at a time"
    print(
        f"{args.tables} tables set up {how} in {wall:.2f} s "
        f"(load average before {load[0]:.1f}, after {os.getloadavg()[0]:.1f})"
    )
    if cost.by_step:
        print(
            "server CPU per operation, ms: "
            + ", ".join(
                f"{step} {1000 * cost.cpu[step] / max(1, cost.count[step]):.2f}" for step in STEPS
            )
        )
    print(
        f"server CPU per table (4 guests, table, 3 joins, start, 5 sockets): "
        f"{1000 * server / args.tables:.1f} ms ({server:.2f} s, {server / wall:.0%} of a core); "
        f"this client's CPU {own:.2f} s ({own / wall:.0%} of a core)"
    )
    # The server's wall time is CPU, waiting for a CPU (the machine's other work) and idle
    # (waiting for the database or the client); on an idle machine the middle term is ~0.
    idle = max(0.0, wall - server - waited)
    print(
        f"server threads: on a CPU {server:.2f} s, runnable but waiting for a CPU "
        f"{waited:.2f} s; the main thread idle at most {idle:.2f} s of the {wall:.2f} s"
    )


if __name__ == "__main__":
    asyncio.run(main())
