"""What one HTTP request costs the server: CPU per request of a few routes, kept-alive.

Start a server as for `bench/setup_cost.py` (budgets off: `CREATE_RATE_COUNT=0`), then:

    .venv/bin/python -m bench.request_cost --url http://127.0.0.1:8000 \\
        --server-pid $SERVER_PID --requests 500

Over one kept-alive connection, one request at a time, it sends `--requests` of each of
`GET /healthz` (no route work: the HTTP and ASGI layers alone), `GET /api/tables/{slug}` (the
person and the table resolved, no database), `POST /api/guest` (a new guest, one statement),
`POST /api/tables` (a new table), `POST /api/tables/{slug}/join` and `POST
/api/tables/{slug}/start`, and prints the server's CPU (every thread's, /proc schedstat) per
request of each kind. The cookies are sent by hand, so one connection serves every guest.
Run it with `--rounds 2` or more: the first round warms caches up (and the person checks of
`identity.Known`); the figures of every round are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Awaitable, Callable

import httpx

from bench.load import COOKIE, GAME, SEATS, threads_cpu

KINDS = ("healthz", "get table", "guest", "table", "join", "start")


class Client:
    """One kept-alive connection; every request carries the cookie it is given."""

    def __init__(self, base: str) -> None:
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        self.http = httpx.AsyncClient(base_url=base, timeout=60, limits=limits)

    async def call(
        self, method: str, path: str, cookie: str | None = None, **kw: object
    ) -> httpx.Response:
        headers = {"cookie": f"{COOKIE}={cookie}"} if cookie else {}
        r = await self.http.request(method, path, headers=headers, **kw)  # type: ignore[arg-type]
        self.http.cookies.clear()
        return r

    async def guest(self, name: str) -> str:
        r = await self.call("POST", "/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        cookie = r.cookies.get(COOKIE)
        assert cookie
        return cookie


async def cost(pid: int, n: int, one: Callable[[int], Awaitable[None]]) -> float:
    """Server CPU ms per call of `one(i)`, `n` calls one after another."""
    before = threads_cpu(pid)
    for i in range(n):
        await one(i)
    return 1000 * (threads_cpu(pid) - before) / n


async def round_(client: Client, pid: int, n: int, tag: str) -> dict[str, float]:
    out: dict[str, float] = {}

    async def healthz(_i: int) -> None:
        r = await client.call("GET", "/healthz")
        assert r.status_code == 200

    out["healthz"] = await cost(pid, n, healthz)
    host = await client.guest(f"{tag}-host")
    r = await client.call("POST", "/api/tables", host, json={"game": GAME, "seats": SEATS})
    assert r.status_code == 201, r.text
    slug = r.json()["slug"]

    async def get_table(_i: int) -> None:
        r = await client.call("GET", f"/api/tables/{slug}", host)
        assert r.status_code == 200, r.text

    out["get table"] = await cost(pid, n, get_table)

    async def guest(i: int) -> None:
        await client.guest(f"{tag}-g{i}")

    out["guest"] = await cost(pid, n, guest)
    # Tables for the joins and starts: n // (SEATS - 1) of them, each host a new guest.
    count = max(1, n // (SEATS - 1))
    hosts = [await client.guest(f"{tag}-h{i}") for i in range(count)]
    slugs: list[str] = []

    async def table(i: int) -> None:
        r = await client.call("POST", "/api/tables", hosts[i], json={"game": GAME, "seats": SEATS})
        assert r.status_code == 201, r.text
        slugs.append(r.json()["slug"])

    out["table"] = await cost(pid, count, table)
    players = [
        [await client.guest(f"{tag}-p{i}-{s}") for s in range(1, SEATS)] for i in range(count)
    ]

    async def join(k: int) -> None:
        i, s = divmod(k, SEATS - 1)
        path = f"/api/tables/{slugs[i]}/join?seat={s + 1}"
        r = await client.call("POST", path, players[i][s])
        assert r.status_code == 200, r.text

    out["join"] = await cost(pid, count * (SEATS - 1), join)

    async def start(i: int) -> None:
        r = await client.call("POST", f"/api/tables/{slugs[i]}/start", hosts[i])
        assert r.status_code == 200, r.text

    out["start"] = await cost(pid, count, start)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    client = Client(args.url)
    tag = f"r{int(time.time()) % 100000}"
    try:
        for k in range(args.rounds):
            load = os.getloadavg()[0]
            out = await round_(client, args.server_pid, args.requests, f"{tag}-{k}")
            print(
                f"round {k + 1}: server CPU per request, ms: "
                + ", ".join(f"{kind} {out[kind]:.3f}" for kind in KINDS)
                + f" (load average {load:.1f} → {os.getloadavg()[0]:.1f})",
                flush=True,
            )
    finally:
        await client.http.aclose()


if __name__ == "__main__":
    asyncio.run(main())
