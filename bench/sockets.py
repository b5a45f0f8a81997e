"""Idle sockets: the server's resident memory per open, idle table websocket.

Start a server on this machine and give its process id (the issue's target: at most 20 KB per
idle socket, 20,000 sockets in one process):

    CREATE_RATE_COUNT=0 scripts/run.sh &
    SERVER_PID=$!   # scripts/run.sh execs uvicorn, so this is the server process
    .venv/bin/python bench/sockets.py --url http://127.0.0.1:8000 --server-pid $SERVER_PID \\
        --sockets 2000 --tables 100

It creates `--tables` started Incan Gold tables (3 guests each, nobody moves; the server's
creation budget must allow it), opens and closes a first small batch of sockets (one-time
allocations), then, `--cycles` times: opens `--sockets` anonymous spectator sockets spread
over the tables (`--format`: html as a browser, json, or a mix; permessage-deflate offered
as browsers do unless `--compression none`), each waiting for its first state and then
reading whatever the server pushes; when nothing has arrived for a second (at most `--settle`
seconds) it reads the server's VmRSS (/proc/PID/status) and open file descriptors, closes
every socket, waits until the server's descriptors are back down (at most `--settle` seconds)
and reads them again.

It prints, per cycle, KB of server memory per idle socket and how much was given back after
the close. The first cycle is what a fresh process pays; later cycles reuse what the first
left allocated, so they read lower. Kernel socket buffers are not in VmRSS. Every spectator
that arrives is announced to the table's other sockets, so keep a few hundred sockets per
table at most (`--tables`) or opening takes a quadratic number of pushes. This process's soft
limit of open files is raised to its hard limit; the server's is read from /proc and reported
when too low.

Tens of thousands of sockets: `--processes N` opens them from N client processes, each from
its own loopback address (127.0.0.2, .3, …), as one process may not hold that many files and
one address has ~28,000 ephemeral ports. The server needs `ulimit -n` above the socket count.

What a socket holds: start the server with `python -m bench.serve_traced --dir D` instead and
pass `--trace-dir D`: each cycle then also prints tracemalloc's bytes per socket (reachable,
and with the unreachable cycles the frozen collector has not freed yet), the allocation sites
that hold most, and the object types that grew. The tracer slows the server and inflates its
RSS: read the RSS figures from an untraced run. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import signal
import sysconfig
import time
import tracemalloc
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

GAME = "incan_gold"
SEATS = 3


def rss_kb(pid: int) -> int:
    """The process's resident set size in KB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit(f"no VmRSS for process {pid}")


def open_fds(pid: int) -> int | None:
    """How many file descriptors the process has open (None if /proc does not tell us)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def fd_limit(pid: int) -> int | None:
    """The process's soft limit of open files."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    return int(line.split()[3])
    except (OSError, ValueError):
        pass
    return None


def raise_own_limit() -> int:
    """Raise this process's soft limit of open files to the hard limit; returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


async def make_tables(base: str, count: int, timeout: float) -> list[str]:
    """`count` started tables of 3 guests each; returns their slugs."""
    slugs = []
    for t in range(count):
        guests = [httpx.AsyncClient(base_url=base, timeout=timeout) for _ in range(SEATS)]
        try:
            for i, g in enumerate(guests):
                (await g.post("/api/guest", json={"name": f"s{t}-{i}"})).raise_for_status()
            r = await guests[0].post("/api/tables", json={"game": GAME, "seats": SEATS})
            r.raise_for_status()
            slug = r.json()["slug"]
            for g in guests[1:]:
                (await g.post(f"/api/tables/{slug}/join")).raise_for_status()
            (await guests[0].post(f"/api/tables/{slug}/start")).raise_for_status()
            slugs.append(slug)
        except httpx.HTTPStatusError as exc:
            raise SystemExit(
                f"table setup refused: {exc.response.status_code} {exc.response.text[:120]} "
                "(CREATE_RATE_COUNT=0 on the server lifts the creation budget)"
            ) from None
        finally:
            for g in guests:
                await g.aclose()
    return slugs


class Sockets:
    """Open spectator sockets and what they received."""

    def __init__(
        self,
        base: str,
        slugs: list[str],
        fmt: str,
        timeout: float,
        compression: bool,
        local_host: str | None = None,
    ) -> None:
        self.base = base
        self.local_host = local_host
        self.compression = compression
        self.slugs = slugs
        self.fmt = fmt
        self.timeout = timeout
        self.open: list[tuple[ClientConnection, asyncio.Task[None]]] = []
        self.failures: Counter[str] = Counter()
        self.messages = 0
        self.last_message = time.monotonic()
        self.closed_by_server = 0

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for _ in ws:
                self.messages += 1
                self.last_message = time.monotonic()
        except ConnectionClosed:
            pass
        if ws.close_code not in (None, 1000):  # e.g. 4408: the server found it too slow
            self.closed_by_server += 1

    async def open_one(self, index: int) -> None:
        slug = self.slugs[index % len(self.slugs)]
        html = self.fmt == "html" or (self.fmt == "mix" and index % 2 == 0)
        url = self.base.replace("http", "ws", 1) + f"/ws/t/{slug}"
        try:
            ws = await connect(
                url + ("" if html else "?format=json"),
                origin=Origin(self.base) if html else None,
                open_timeout=self.timeout,
                close_timeout=self.timeout,
                ping_interval=None,  # idle means idle: no keepalive pings either way
                max_queue=None,
                compression="deflate" if self.compression else None,
                local_addr=(self.local_host, 0) if self.local_host else None,
            )
            await asyncio.wait_for(ws.recv(), self.timeout)  # the first state
        except Exception as exc:
            self.failures[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
            return
        self.open.append((ws, asyncio.create_task(self.read(ws))))

    @property
    def opened(self) -> int:
        """Sockets open now."""
        return len(self.open)

    async def open_many(self, count: int, first: int, concurrency: int) -> None:
        await self.open_some(range(first, first + count), concurrency)

    async def open_some(self, indexes: range, concurrency: int) -> None:
        slots = asyncio.Semaphore(concurrency)

        async def one(index: int) -> None:
            async with slots:
                await self.open_one(index)

        await asyncio.gather(*(one(i) for i in indexes))

    def clear(self) -> None:
        self.failures.clear()
        self.messages = 0

    async def close_all(self, concurrency: int) -> None:
        slots = asyncio.Semaphore(concurrency)

        async def one(ws: ClientConnection, reader: asyncio.Task[None]) -> None:
            async with slots:
                with contextlib.suppress(Exception):
                    await ws.close()
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

        sockets, self.open = self.open, []
        await asyncio.gather(*(one(ws, r) for ws, r in sockets))

    async def quiet(self, settle: float) -> float:
        """Wait until no push has arrived for a second (at most `settle` s); returns the wait."""
        started = time.monotonic()
        while time.monotonic() - started < settle:
            if time.monotonic() - self.last_message >= 1.0:
                break
            await asyncio.sleep(0.2)
        return time.monotonic() - started


class Fleet:
    """`Sockets` spread over client processes (`--processes`), each from its own loopback
    address (127.0.0.2, .3, …: a process may open as many files as its limit allows, and
    each address has its own ephemeral ports). Same interface as `Sockets`."""

    def __init__(self, args: argparse.Namespace, slugs: list[str], processes: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.workers = []
        for i in range(processes):
            mine, theirs = ctx.Pipe()
            spec = (args.url.rstrip("/"), slugs, args.format, args.timeout)
            worker = ctx.Process(
                target=work,
                args=(theirs, spec, args.compression == "deflate", f"127.0.0.{2 + i}"),
                daemon=True,
            )
            worker.start()
            self.pipes.append(mine)
            self.workers.append(worker)
        self.failures: Counter[str] = Counter()
        self.messages = 0
        self.closed_by_server = 0
        self.opened = 0

    async def ask(self, *command: Any) -> list[Any]:
        for pipe in self.pipes:
            pipe.send(command)
        answers = [await asyncio.to_thread(pipe.recv) for pipe in self.pipes]
        self.opened = sum(a["opened"] for a in answers)
        self.messages = sum(a["messages"] for a in answers)
        self.closed_by_server = sum(a["closed_by_server"] for a in answers)
        self.failures = sum((Counter(a["failures"]) for a in answers), Counter())
        return [a["value"] for a in answers]

    async def open_many(self, count: int, first: int, concurrency: int) -> None:
        n = len(self.pipes)
        for i, pipe in enumerate(self.pipes):  # worker i opens every n-th socket
            pipe.send(("open", count, first, n, i, max(1, concurrency // n)))
        await self.ask("stats")

    async def quiet(self, settle: float) -> float:
        return float(max(await self.ask("quiet", settle)))

    async def close_all(self, concurrency: int) -> None:
        await self.ask("close", max(1, concurrency // len(self.pipes)))

    def clear(self) -> None:
        for pipe in self.pipes:
            pipe.send(("clear",))
        self.failures.clear()
        self.messages = 0

    def stop(self) -> None:
        for pipe in self.pipes:
            pipe.send(("stop",))
        for worker in self.workers:
            worker.join(10)


def work(
    pipe: Connection, spec: tuple[str, list[str], str, float], deflate: bool, host: str
) -> None:
    """A client process of `Fleet`: opens, reads and closes sockets as told."""
    raise_own_limit()
    base, slugs, fmt, timeout = spec

    async def serve() -> None:
        socks = Sockets(base, slugs, fmt, timeout, deflate, host)
        while True:
            command = await asyncio.to_thread(pipe.recv)
            value: Any = None
            if command[0] == "open":
                _, count, first, step, offset, concurrency = command
                await socks.open_some(range(first + offset, first + count, step), concurrency)
                continue  # the answer is the next "stats"
            if command[0] == "quiet":
                value = await socks.quiet(command[1])
            elif command[0] == "close":
                await socks.close_all(command[1])
            elif command[0] == "clear":
                socks.clear()
                continue
            elif command[0] == "stop":
                return
            pipe.send(
                {
                    "value": value,
                    "opened": socks.opened,
                    "messages": socks.messages,
                    "closed_by_server": socks.closed_by_server,
                    "failures": dict(socks.failures),
                }
            )

    asyncio.run(serve())


STDLIB = sysconfig.get_paths()["stdlib"]


class Tracer:
    """Marks of a server started by `bench.serve_traced`: each `mark()` sends SIGUSR1 and
    waits for that mark's snapshots; `report()` prints what the sockets hold between two."""

    def __init__(self, pid: int, where: Path, top: int) -> None:
        self.pid = pid
        self.where = where
        self.top = top
        self.count = len(list(where.glob("*.done")))

    async def mark(self, timeout: float = 600) -> int:
        n = self.count
        self.count += 1
        os.kill(self.pid, signal.SIGUSR1)
        started = time.monotonic()
        while not (self.where / f"{n}.done").exists():
            if time.monotonic() - started > timeout:
                raise SystemExit(f"no snapshot {n} in {self.where}: is the server serve_traced?")
            await asyncio.sleep(0.2)
        return n

    def report(self, before: int, after: int, sockets: int) -> None:
        """Per socket: traced bytes (live, and with unreachable cycles), the biggest
        allocation sites and the object types that grew."""
        per: dict[str, list[tracemalloc.StatisticDiff]] = {}
        for kind in ("raw", "live"):
            a = tracemalloc.Snapshot.load(str(self.where / f"{before}.{kind}"))
            b = tracemalloc.Snapshot.load(str(self.where / f"{after}.{kind}"))
            per[kind] = b.compare_to(a, "traceback")
        raw = sum(d.size_diff for d in per["raw"]) / sockets / 1024
        live = sum(d.size_diff for d in per["live"]) / sockets / 1024
        print(
            f"  tracemalloc per socket: {live:.1f} KB reachable, {raw:.1f} KB with the "
            f"garbage not yet collected (unreachable cycles: {raw - live:.1f} KB)"
        )
        print(f"  where the reachable bytes were allocated (top {self.top}, B per socket):")
        for diff in per["live"][: self.top]:
            print(
                f"    {diff.size_diff / sockets:7.0f} {diff.count_diff / sockets:5.1f}x  "
                f"{where_from(diff.traceback)}"
            )
        types = [json.loads((self.where / f"{n}.types").read_text()) for n in (before, after)]
        grown = Counter(types[1])
        grown.subtract(types[0])
        listed = ", ".join(
            f"{name} {count / sockets:.1f}" for name, count in grown.most_common(self.top)
        )
        print(f"  objects per socket by type: {listed}")


def where_from(traceback: tracemalloc.Traceback) -> str:
    """An allocation's site: its innermost frame and the innermost one outside the
    standard library (where the library call was made), if different."""
    frames = list(traceback)  # most recent call last
    inner = frames[-1]
    own = next((f for f in reversed(frames) if not f.filename.startswith(STDLIB)), inner)

    def short(f: tracemalloc.Frame) -> str:
        name = f.filename
        for cut in ("site-packages/", "/work/", STDLIB + "/"):
            if cut in name:
                name = name.split(cut, 1)[1]
        return f"{name}:{f.lineno}"

    return short(inner) if own is inner else f"{short(own)} -> {short(inner)}"


async def fds_down_to(pid: int, target: int, settle: float) -> None:
    """Wait until the server holds at most `target` descriptors (at most `settle` s)."""
    started = time.monotonic()
    while time.monotonic() - started < settle:
        fds = open_fds(pid)
        if fds is None or fds <= target:
            return
        await asyncio.sleep(0.2)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (bench/sockets.py) for what is measured.",
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=8, help="tables the sockets watch")
    parser.add_argument("--format", choices=("html", "json", "mix"), default="html")
    parser.add_argument("--concurrency", type=int, default=50, help="sockets opened at once")
    parser.add_argument("--warmup-sockets", type=int, default=100)
    parser.add_argument(
        "--settle", type=float, default=10, help="bound of the quiet and close waits, seconds"
    )
    parser.add_argument("--timeout", type=float, default=15, help="seconds per open or request")
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="offer permessage-deflate, as browsers do (default), or not",
    )
    parser.add_argument("--cycles", type=int, default=2, help="open/measure/close rounds")
    parser.add_argument(
        "--trace-dir",
        type=Path,
        help="the server runs bench.serve_traced with this --dir: print tracemalloc's view",
    )
    parser.add_argument("--top", type=int, default=12, help="allocation sites listed")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="client processes (more than one: each from its own 127.0.0.x address)",
    )
    args = parser.parse_args()
    pid = args.server_pid
    base = args.url.rstrip("/")
    rss_kb(pid)  # fails early on a wrong pid

    own_limit = raise_own_limit()
    need = (args.sockets + args.warmup_sockets) // args.processes + 64
    if own_limit < need:
        print(f"warning: this process may open {own_limit} files, {need} are needed")
    server_limit = fd_limit(pid)
    if server_limit is not None and server_limit < args.sockets + 64:
        print(f"warning: the server may open {server_limit} files (ulimit -n), fewer than asked")

    slugs = await make_tables(base, args.tables, args.timeout)
    socks: Sockets | Fleet = (
        Fleet(args, slugs, args.processes)
        if args.processes > 1
        else Sockets(base, slugs, args.format, args.timeout, args.compression == "deflate")
    )
    await socks.open_many(args.warmup_sockets, 0, args.concurrency)
    await socks.quiet(args.settle)
    await socks.close_all(args.concurrency)
    await asyncio.sleep(1)
    if socks.failures:
        print(f"warm-up: {sum(socks.failures.values())} of {args.warmup_sockets} sockets failed")
    print(
        f"{args.sockets} {args.format} spectator sockets on {len(slugs)} tables, "
        f"{args.concurrency} opened at a time, compression {args.compression}, "
        f"{args.processes} client process(es)"
    )
    tracer = Tracer(pid, args.trace_dir, args.top) if args.trace_dir else None
    for cycle in range(1, args.cycles + 1):
        await measure(socks, pid, cycle, args, tracer)
    if isinstance(socks, Fleet):
        socks.stop()


async def measure(
    socks: Sockets | Fleet, pid: int, cycle: int, args: argparse.Namespace, tracer: Tracer | None
) -> None:
    """Open the sockets, read the server's memory, close them, read it again."""
    socks.clear()
    mark = await tracer.mark() if tracer else 0
    before, fds_before = rss_kb(pid), open_fds(pid)
    t0 = time.perf_counter()
    await socks.open_many(args.sockets, args.warmup_sockets, args.concurrency)
    opening = time.perf_counter() - t0
    opened = socks.opened
    pushes = socks.messages
    waited = await socks.quiet(args.settle)
    held, fds_held = rss_kb(pid), open_fds(pid)
    marked = await tracer.mark() if tracer else 0
    await socks.close_all(args.concurrency)
    await fds_down_to(pid, (fds_before or 0) + 8, args.settle)
    await asyncio.sleep(1)
    after, fds_after = rss_kb(pid), open_fds(pid)

    label = "first" if cycle == 1 else f"after {cycle - 1} open and close"
    print(f"cycle {cycle} ({label}): {opened} opened in {opening:.1f} s")
    for reason, count in socks.failures.most_common():
        print(f"  failed: {count} x {reason}")
    print(
        f"  pushes received while opening: {pushes} ({pushes / max(opened, 1):.1f} per "
        f"socket; quiet {waited:.1f} s later)"
    )
    if socks.closed_by_server:
        print(f"  closed by the server with an error code: {socks.closed_by_server}")
    print(f"  server fds: {fds_before} before, {fds_held} with the sockets, {fds_after} after")
    if fds_before is not None and fds_held is not None and fds_held - fds_before < opened * 0.9:
        print(f"  warning: process {pid} does not hold these sockets; is it the one at --url?")
    growth = held - before
    print(
        f"  server RSS: {before / 1024:.1f} MB before, {held / 1024:.1f} MB with the sockets, "
        f"{after / 1024:.1f} MB after closing them"
    )
    if opened:
        print(f"  KB per idle socket: {growth / opened:.1f} (target: at most 20)")
    given_back = held - after
    share = f" ({given_back / growth * 100:.0f} % of the growth)" if growth > 0 else ""
    print(f"  given back after close: {given_back / 1024:.1f} MB{share}")
    if tracer and opened:
        tracer.report(mark, marked, opened)


if __name__ == "__main__":
    asyncio.run(main())
