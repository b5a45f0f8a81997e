"""Benchmarks that print figures (docs/benchmarks.md lists them and today's results)."""

from __future__ import annotations

import argparse
import subprocess


def service_args(parser: argparse.ArgumentParser, database: str, *, port: int) -> None:
    """The options of a benchmark that starts its own servers: their first port, the
    PostgreSQL database it makes afresh (from `--admin-url`) and the Redis they share."""
    parser.add_argument("--port", type=int, default=port, help="first server's port")
    parser.add_argument(
        "--admin-url",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL database to create the benchmark's own from",
    )
    parser.add_argument("--database", default=database)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")


def stop_servers(servers: list[subprocess.Popen[bytes]]) -> None:
    """Ask every server to stop, then wait for each (15 s before a kill)."""
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
