"""Scaling: the load benchmark against one server process, then against two on one
PostgreSQL database and Redis, each process held to the same CPU budget.

On a machine with fewer cores than processes + database + load client, two processes
cannot show what they would do with a core each: they share the cores with everything
else. Here each server process is put in a cgroup of its own (cgroup v1 `cpu`, a CFS quota
of `--cpu` of a core), so one process has that budget and two have twice it, while the
database, Redis and the load client use the rest of the machine. The ratio of the two
saturated throughputs is how the server scales with processes (the issue's target: two
processes give at least 1.7x one).

    .venv/bin/python -m bench.scaling --tables 100 --cpu 0.4 --seconds 30

It makes a fresh database (`--database`, on the PostgreSQL server of `--admin-url`), starts
the processes one after the other (the first migrates), runs `bench/load.py` (tables routed
to processes by slug, `--route hash`, as the proxy does; `--route random` to test the worst
case) and prints both runs' figures and the ratio. Without a writable
/sys/fs/cgroup/cpu (not root, cgroup v2 only) it says so and stops: unbounded processes
would measure the machine, not the server. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import asyncpg

from app.realtime.transport import SERVE_FLAGS
from bench import service_args, stop_servers

ROOT = Path(__file__).resolve().parent.parent
CGROUP = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000


def limit(pid: int, name: str, cpu: float) -> Path:
    """Put process `pid` in a new cgroup `name` allowed `cpu` of one core."""
    group = CGROUP / name
    group.mkdir(exist_ok=True)
    (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
    (group / "cpu.cfs_quota_us").write_text(str(int(cpu * PERIOD_US)))
    (group / "cgroup.procs").write_text(str(pid))
    return group


def throttled_ms(group: Path) -> float:
    """How long the group's processes were held back by their quota, in ms."""
    for line in (group / "cpu.stat").read_text().splitlines():
        key, _, value = line.partition(" ")
        if key == "throttled_time":
            return int(value) / 1e6
    return 0.0


def release(group: Path) -> None:
    """Remove the cgroup (its processes have exited)."""
    for _ in range(50):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.1)


async def fresh_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


def wait_ready(url: str, timeout: float = 60.0) -> None:
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


def figure(pattern: str, text: str) -> float:
    """A number that bench/load.py printed (it stops the run if load.py printed none)."""
    found = re.search(pattern, text)
    if found is None:
        raise SystemExit(f"bench/load.py printed no {pattern!r}:\n{text}")
    return float(found[1])


def run(processes: int, args: argparse.Namespace, channel: str) -> dict[str, float]:
    """One load run against `processes` server processes; its figures."""
    asyncio.run(fresh_database(args.admin_url, args.database))
    base = args.admin_url.rsplit("/", 1)[0]
    env = {
        **os.environ,
        "DATABASE_URL": f"{base}/{args.database}",
        "REDIS_URL": args.redis_url if processes > 1 else "",
        "REDIS_CHANNEL": channel,
        "CREATE_RATE_COUNT": "0",
        "ACT_RATE_COUNT": "0",
        "LOG_LEVEL": "warning",
    }
    servers: list[subprocess.Popen[bytes]] = []
    groups: list[Path] = []
    urls: list[str] = []
    try:
        for i in range(processes):
            port = args.port + i
            server = subprocess.Popen(
                [
                    str(ROOT / ".venv/bin/uvicorn"),
                    "app.main:app",
                    *("--host", "127.0.0.1", "--port", str(port)),
                    *SERVE_FLAGS,
                    *("--log-level", "warning"),
                ],
                cwd=ROOT,
                env=env if i == 0 else {**env, "AUTO_MIGRATE": "false"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            servers.append(server)
            groups.append(limit(server.pid, f"stolik-bench-{uuid.uuid4().hex[:8]}", args.cpu))
            urls.append(f"http://127.0.0.1:{port}")
            wait_ready(urls[-1])
        throttled = [throttled_ms(g) for g in groups]
        command = [
            sys.executable,
            str(ROOT / "bench/load.py"),
            *(arg for url in urls for arg in ("--url", url)),
            *(arg for s in servers for arg in ("--server-pid", str(s.pid))),
            *("--route", args.route, "--tables", str(args.tables)),
            *("--format", args.format, "--spectators", str(args.spectators)),
            *("--warmup", str(args.warmup), "--seconds", str(args.seconds)),
        ]
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"load.py failed:\n{out.stdout}\n{out.stderr}")
        print(f"--- {processes} process(es), {args.cpu:g} of a core each")
        print(out.stdout.rstrip())
        figures = {
            "moves/s": figure(r"moves/s: ([\d.]+)", out.stdout),
            "ms/move": figure(r"server CPU: ([\d.]+) ms/move", out.stdout),
            "p99": figure(r"p99 ([\d.]+)", out.stdout),
        }
        held = sum(throttled_ms(g) for g in groups) - sum(throttled)
        print(f"held back by the CPU quota: {held / 1000:.1f} s in all")
        return figures
    finally:
        stop_servers(servers)
        for group in groups:
            release(group)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cpu", type=float, default=0.4, help="CPU budget per process (cores)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--route", choices=("hash", "random"), default="hash")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=30)
    service_args(parser, "stolik_scaling", port=8621)
    args = parser.parse_args()
    if not os.access(CGROUP, os.W_OK):
        raise SystemExit(f"{CGROUP} is not writable (cgroup v1 cpu, as root): cannot bound CPU")
    channel = f"stolik:bench:{uuid.uuid4().hex[:8]}"
    one = run(1, args, channel)
    two = run(2, args, channel)
    print(
        f"=== {args.format}, {args.tables} tables, {args.cpu:g} of a core per process: "
        f"one {one['moves/s']:.0f} moves/s ({one['ms/move']:.2f} ms/move), "
        f"two {two['moves/s']:.0f} moves/s ({two['ms/move']:.2f} ms/move): "
        f"{two['moves/s'] / one['moves/s']:.2f}x the throughput"
    )


if __name__ == "__main__":
    main()
