"""What a request costs the server after it sat idle: CPU per `GET /healthz` by idle gap.

One request at a time, each on a new connection, with `--gaps` milliseconds of nothing
between them; for each gap it prints the server's CPU per request: its threads' time on a CPU
from /proc schedstat (the scheduler's clock, exact) and utime/stime (the kernel's tick
accounting). With gap 0 the server's CPU stays warm; on a virtual machine a CPU that has been
idle some milliseconds runs the next request several times slower (cold caches, a vCPU woken
by the host), so a figure taken one operation at a time, with client round trips between
(`bench.setup_cost`'s default, `bench.request_cost`), is the cold cost, not the one a busy
server pays. The idle server's own work over a gap (its ticker, the push sender's poll) is
printed last, to subtract.

    .venv/bin/python -m bench.wake_cost --url http://127.0.0.1:8000 --server-pid $SERVER_PID
    .venv/bin/python -m bench.wake_cost --bare   # a bare ASGI app under the same uvicorn flags

`--bare` starts uvicorn itself on `bench.wake_cost:bare_app` (answers every request with a
fixed body, nothing else) on `--port`: the floor any server on this machine pays.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from bench.load import threads_cpu

Scope = MutableMapping[str, Any]


async def bare_app(
    scope: Scope,
    receive: Callable[[], Awaitable[Any]],
    send: Callable[[Any], Awaitable[None]],
) -> None:
    """The least an ASGI app can do: `{"status":"ok"}` for every HTTP request."""
    if scope["type"] != "http":
        return
    headers = [(b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b'{"status":"ok"}'})


def ticks(pid: int) -> tuple[float, float]:
    """utime and stime of `pid` (every thread), seconds, from /proc (tick accounting)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    hz = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / hz, int(fields[12]) / hz


async def one(host: str, port: int) -> None:
    """`GET /healthz` on a new connection, read until the answer, closed by the client."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    await reader.readuntil(b"}")
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def measure(url: str, pid: int, gaps: list[float], requests: int) -> list[str]:
    """The figures' lines: per gap, server CPU per request; then the idle server's own."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    for _ in range(50):  # warm up: imports, caches
        await one(host, port)
    lines = [f"{'gap ms':>7} {'on CPU ms':>10} {'utime ms':>9} {'stime ms':>9}  (per request)"]
    for gap in gaps:
        on0, (u0, s0) = threads_cpu(pid), ticks(pid)
        for _ in range(requests):
            await one(host, port)
            if gap:
                await asyncio.sleep(gap / 1000)
        on1, (u1, s1) = threads_cpu(pid), ticks(pid)
        per = 1000 / requests
        lines.append(
            f"{gap:7g} {(on1 - on0) * per:10.3f} {(u1 - u0) * per:9.3f} {(s1 - s0) * per:9.3f}"
        )
    idle = 5.0
    on0 = threads_cpu(pid)
    await asyncio.sleep(idle)
    share = (threads_cpu(pid) - on0) / idle
    lines.append(
        f"idle server: {share * 100:.2f} % of a core "
        f"({share * max(gaps):.3f} ms over a {max(gaps):g} ms gap)"
    )
    return lines


async def wait_ready(url: str, seconds: float) -> None:
    parts = urlsplit(url)
    deadline = time.monotonic() + seconds
    while True:
        try:
            await one(parts.hostname or "127.0.0.1", parts.port or 80)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, help="the server (not with --bare)")
    parser.add_argument("--bare", action="store_true", help="start and measure a bare ASGI app")
    parser.add_argument("--port", type=int, default=8531, help="the bare app's port")
    parser.add_argument("--gaps", default="0,1,5,20,50", help="idle gaps, ms, comma-separated")
    parser.add_argument("--requests", type=int, default=200, help="requests per gap")
    args = parser.parse_args(argv)
    gaps = [float(g) for g in args.gaps.split(",")]
    if not args.bare:
        if args.server_pid is None:
            parser.error("--server-pid is needed (or --bare)")
        print("\n".join(asyncio.run(measure(args.url, args.server_pid, gaps, args.requests))))
        return
    url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bench.wake_cost:bare_app", "--host", "127.0.0.1",
         "--port", str(args.port), "--no-access-log"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        asyncio.run(wait_ready(url, 30))
        print("\n".join(asyncio.run(measure(url, server.pid, gaps, args.requests))))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
