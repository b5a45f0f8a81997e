"""Scaling with processes: the load benchmark against 1, 2, 4 and 8 server processes on one
PostgreSQL database and one Redis, the same load per process, tables routed by slug as the
proxy does (`bench/load.py --route hash`); per process, the CPU each move cost it and the Redis
messages its bus had to read per move.

    .venv/bin/python -m bench.scaling --processes 1,2,4,8 --tables-per-process 6 --think 0.25

Method. The target is "each process held to the same CPU quota, throughput of N processes
at least 0.85 x N x one process's". A quota can only be shown by saturating the processes, and
saturating eight server processes needs eight cores for them plus the database, Redis and the
load client: a 2-core machine shared with other work cannot do that, and what it would measure
is the machine. So each process gets the SAME FIXED LOAD (`--tables-per-process` tables, each
seat thinking `--think` s before it acts: a load well below saturation), and what is measured
is each process's own CPU time (utime + stime, /proc; less its idle rate, measured for
`--idle` seconds before the load) and its own committed moves (its `/metrics`:
`stolik_moves_applied`) over the steady part of the run, i.e. its CPU per move.
Under a quota q, a process completes q / (its CPU per move) moves per second, so N processes
complete about N x q / c (c: all the processes' CPU over all their moves), and the ratio to
N x one process's is c_1 / c_N: throughput scales with processes exactly as far as CPU per
move stays flat. The bus's share
of it is shown by what the bus reads (`stolik_bus_messages_read` per move per process): with one
channel for the whole cluster each process read every other's messages (that grows with N);
with a channel per table it reads the messages of its own tables only. `--app-root` runs the
servers of another checkout (e.g. the previous bus) under the same harness, for comparison.

Every run starts from a fresh database (`--database` on the server of `--admin-url`) and a
channel of its own, Redis even for one process (so the bus's cost is in every figure). A
script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from app.realtime.transport import SERVE_FLAGS
from bench import service_args, stop_servers
from bench.load import process_cpu

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-scaling"
MOVES = re.compile(r"^stolik_moves_applied_total\{[^}]*\} ([\d.e+]+)$", re.M)
READ = re.compile(r'^stolik_bus_messages_read\{channel="(table|lobby)"\} ([\d.e+]+)$', re.M)


async def fresh_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


def wait_ready(url: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{url} did not become ready in {timeout:.0f} s")


@dataclass
class Sample:
    at: float
    cpu: float
    moves: float
    table_reads: float | None
    lobby_reads: float | None


def sample(url: str, pid: int) -> Sample:
    """One process's CPU so far, moves committed so far and bus messages read so far."""
    request = urllib.request.Request(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        text = answer.read().decode()
    reads = dict(READ.findall(text))
    return Sample(
        time.monotonic(),
        process_cpu(pid),
        sum(float(m) for m in MOVES.findall(text)),
        float(reads["table"]) if "table" in reads else None,
        float(reads["lobby"]) if "lobby" in reads else None,
    )


@dataclass
class Sampler:
    """Samples every process every `every` seconds in a thread, while the load runs."""

    urls: list[str]
    pids: list[int]
    every: float = 1.0
    samples: list[list[Sample]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                self.samples.append(
                    [sample(u, p) for u, p in zip(self.urls, self.pids, strict=True)]
                )
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()


@dataclass
class Observer:
    """Counts the messages on the lobby-wide channel (`REDIS_CHANNEL`), which every process
    reads: with the previous bus (one channel for everything) that is all of them."""

    url: str
    channel: str
    times: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url)
        pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        pubsub.subscribe(self.channel)
        while not self._stop.is_set():
            message = pubsub.get_message(timeout=0.2)
            if message is not None and message["type"] == "message":
                self.times.append(time.monotonic())
        pubsub.close()
        client.close()

    def stop(self) -> None:
        self._stop.set()

    def between(self, start: float, end: float) -> int:
        return sum(1 for t in self.times if start <= t < end)


@dataclass
class Figures:
    processes: int
    moves_per_s: float
    ms_per_move: list[float]
    """Per process: its CPU (less what it spends idle) over its own committed moves, in ms."""
    reads_per_move: list[float | None]
    """Per process: Redis messages its bus read on tables' channels per move it committed."""
    lobby_per_s: list[float | None]
    window: float
    channel_per_s: float
    """Messages on the lobby-wide channel (each process reads them all) per second."""
    cluster_ms: float
    """All the processes' CPU (less idle) over all their moves, in ms: the per-process
    figures also carry work done for other processes' tables (a table is created on any
    process, then played on the one its slug hashes to), which this evens out."""


def steady_window(samples: list[list[Sample]], seconds: float) -> tuple[int, int]:
    """The samples bounding the last `seconds` of play before the moves stopped (the load
    client's measured window; its setup and warm-up come before, its closing after)."""
    totals = [sum(s.moves for s in row) for row in samples]
    end = max(next(i for i, t in enumerate(totals) if t == totals[-1]) - 1, 1)
    start_at = samples[end][0].at - seconds
    start = next(i for i, row in enumerate(samples) if row[0].at >= start_at)
    return start, end


def run(processes: int, args: argparse.Namespace) -> Figures:
    """One load run against `processes` server processes; its figures."""
    asyncio.run(fresh_database(args.admin_url, args.database))
    base = args.admin_url.rsplit("/", 1)[0]
    app_root = Path(args.app_root).resolve()
    channel = f"stolik:bench:{uuid.uuid4().hex[:8]}"
    observer = Observer(args.redis_url, channel)
    watching = threading.Thread(target=observer.run, daemon=True)
    watching.start()
    env = {
        **os.environ,
        "DATABASE_URL": f"{base}/{args.database}",
        "REDIS_URL": args.redis_url,
        "REDIS_CHANNEL": channel,
        "CREATE_RATE_COUNT": "0",
        "ACT_RATE_COUNT": "0",
        "ACT_RATE_ADDRESS_COUNT": "0",
        "METRICS_TOKEN": TOKEN,
        "LOG_LEVEL": "warning",
        # A finished game's review (app/review) is seconds of CPU in the server's niced worker
        # process, counted with the server (`process_cpu` adds its children), once per game, not
        # per move (bench.review measures it): left on, it was most of the "CPU per move" here
        # (games end every ~25 moves at these tables).
        "REVIEW": "true" if args.review else "false",
    }
    servers: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    try:
        for i in range(processes):
            port = args.port + i
            servers.append(
                subprocess.Popen(
                    [
                        str(app_root / ".venv/bin/uvicorn"),
                        "app.main:app",
                        *("--host", "127.0.0.1", "--port", str(port)),
                        *SERVE_FLAGS,
                        *("--log-level", "warning"),
                    ],
                    cwd=app_root,
                    env=env if i == 0 else {**env, "AUTO_MIGRATE": "false"},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
            wait_ready(urls[-1])
        sampler = Sampler(urls, [s.pid for s in servers])
        thread = threading.Thread(target=sampler.run, daemon=True)
        thread.start()
        # Idle first: what each process spends with no load (its ticker, "alive", these
        # samples' /metrics) is taken off its CPU during the load.
        time.sleep(args.idle)
        quiet = list(sampler.samples)
        idle = [
            (b.cpu - a.cpu) / max(b.at - a.at, 1e-9)
            for a, b in zip(quiet[1], quiet[-1], strict=True)
        ]
        command = [
            sys.executable,
            str(ROOT / "bench/load.py"),
            *(arg for url in urls for arg in ("--url", url)),
            *("--route", "hash", "--tables", str(args.tables_per_process * processes)),
            *("--format", args.format, "--spectators", str(args.spectators)),
            *("--think", str(args.think), "--concurrency", "4"),
            *("--warmup", str(args.warmup), "--seconds", str(args.seconds)),
        ]
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        sampler.stop()
        observer.stop()
        thread.join()
        watching.join()
        if out.returncode != 0:
            raise SystemExit(f"load.py failed:\n{out.stdout}\n{out.stderr}")
        print(f"--- {processes} process(es), {args.tables_per_process} tables each")
        print(out.stdout.rstrip())
        start, end = steady_window(sampler.samples, args.seconds * 0.8)
        first, last = sampler.samples[start], sampler.samples[end]
        window = last[0].at - first[0].at
        ms: list[float] = []
        spent = 0.0
        reads: list[float | None] = []
        lobby: list[float | None] = []
        for a, b, rate in zip(first, last, idle, strict=True):
            moves = max(b.moves - a.moves, 1.0)
            ms.append((b.cpu - a.cpu - rate * (b.at - a.at)) * 1000 / moves)
            spent += (b.cpu - a.cpu - rate * (b.at - a.at)) * 1000
            if a.table_reads is None or b.table_reads is None:
                reads.append(None)
                lobby.append(None)
            else:
                reads.append((b.table_reads - a.table_reads) / moves)
                lobby.append(((b.lobby_reads or 0) - (a.lobby_reads or 0)) / window)
        total = sum(b.moves - a.moves for a, b in zip(first, last, strict=True))
        on_channel = observer.between(first[0].at, last[0].at) / window
        figures = Figures(
            processes, total / window, ms, reads, lobby, window, on_channel, spent / total
        )
        print(
            f"steady {window:.1f} s: {figures.moves_per_s:.0f} moves/s; idle CPU per process "
            f"{', '.join(f'{r * 100:.1f} %' for r in idle)}; per process net CPU ms/move "
            f"{', '.join(f'{m:.2f}' for m in ms)}; bus reads/move "
            f"{', '.join('-' if r is None else f'{r:.2f}' for r in reads)}; "
            f"lobby-wide channel {on_channel:.1f} messages/s (read by every process); "
            f"all processes {figures.cluster_ms:.2f} ms/move"
        )
        return figures
    finally:
        stop_servers(servers)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--processes", default="1,2,4,8", help="process counts to run")
    parser.add_argument("--tables-per-process", type=int, default=6)
    parser.add_argument("--think", type=float, default=0.25, help="mean think time per act")
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--idle", type=float, default=5, help="idle seconds measured first")
    parser.add_argument(
        "--review", action="store_true", help="review finished games (off: a move's cost only)"
    )
    parser.add_argument("--app-root", default=str(ROOT), help="checkout whose servers to run")
    service_args(parser, "stolik_scaling", port=8621)
    args = parser.parse_args()
    results = [run(int(n), args) for n in args.processes.split(",")]
    one = results[0].cluster_ms
    print(
        f"=== {args.format}, {args.tables_per_process} tables per process, think "
        f"{args.think:g} s, app {args.app_root}"
    )
    print(
        "| processes | moves/s | CPU ms/move, all processes | per process (min-max) | bus "
        "reads on "
        "tables' channels per own move | lobby-wide messages/s (each process reads all) | "
        "throughput at equal quota / (N x one) |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results:
        ratio = one / r.cluster_ms
        reads = [x for x in r.reads_per_move if x is not None]
        print(
            f"| {r.processes} | {r.moves_per_s:.0f} | {r.cluster_ms:.2f} | "
            f"{min(r.ms_per_move):.2f}-{max(r.ms_per_move):.2f} | "
            f"{f'{statistics.mean(reads):.2f}' if reads else 'n/a'} | "
            f"{r.channel_per_s:.1f} | {ratio:.2f} |"
        )


if __name__ == "__main__":
    main()
