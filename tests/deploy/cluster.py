"""Private services and replicas for the failure rehearsals (tests/deploy/test_rehearsal.py).

The PostgreSQL and Redis on the default ports are shared with other people's tests, so a
rehearsal that stops or restarts one starts its OWN: `PrivateRedis` (redis-server on a free
loopback port, nothing saved) and `PrivatePostgres` (initdb + pg_ctl into a temporary folder, on
a free loopback port, trust authentication; as the `postgres` user when run as root). Each
can be stopped (kill -9 or a fast shutdown) and started again on the same port and data, and
is torn down at the end. `Replicas` runs uvicorn processes of the app (as docker-compose does)
behind nginx (tests/deploy/proxy.py) and can kill one with SIGKILL.

Replicas offer one more turn clock than a real server, `blitz` (`BLITZ` seconds a decision, no
bank), so a rehearsal sees clocks run out in seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from app.realtime.transport import SERVE_FLAGS
from tests.deploy.proxy import free_port, nginx_binary, start_nginx, stop_nginx

ROOT = Path(__file__).resolve().parent.parent.parent
BLITZ = 3.0
"""Seconds per decision of the replicas' `blitz` clock."""

_REPLICA = (
    "import sys; from app import clocks; "
    f"clocks.CLOCKS['blitz'] = clocks.ClockSpec('blitz', 'Blitz', {BLITZ}, 0); "
    "import uvicorn; sys.argv[0] = 'uvicorn'; uvicorn.main()"
)


async def wait_ready(
    url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 30
) -> None:
    """Until the server at `url` (process `proc`, writing `log`) answers /readyz; its log's
    tail if it exits or times out first."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=2) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{url}/readyz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"server at {url} not ready: {log.read_text()[-2000:]}")


def _need(what: str, found: object) -> None:
    if not found:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is required in CI")
        pytest.skip(f"{what} is not installed")


def _listening(port: int) -> bool:
    import socket

    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.3):
        return True
    return False


class PrivateRedis:
    """A redis-server of this test only, on a free loopback port (no persistence)."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        _need("redis-server", binary)
        assert binary is not None
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--protected-mode", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not _listening(self.port):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("private redis-server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """Gone at once, as in a crash (its subscribers lose their connections)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.kill()


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


class PrivatePostgres:
    """A PostgreSQL cluster of this test only: initdb into a temporary folder, a free loopback
    port, trust authentication. Run as the `postgres` user when this process is root."""

    def __init__(self) -> None:
        bindir = _postgres_bin()
        _need("PostgreSQL (initdb, pg_ctl)", bindir)
        assert bindir is not None
        self.bin = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="stolik-pg-"))
        self.data = self.dir / "data"
        self.user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root and there is no `postgres` user for initdb")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        user = self.user

        def demote() -> None:
            if user is not None:
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)

        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            preexec_fn=demote if user is not None else None,
            cwd=self.dir,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def init(self) -> None:
        done = self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8"
        )
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        done = self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.dir / "log"),
            "-o",
            options,
            "-w",
            "start",
        )
        if done.returncode != 0:
            log = (self.dir / "log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"pg_ctl start failed: {done.stderr[-1000:]} {log}")

    def stop(self, mode: str = "fast") -> None:
        """A shutdown that ends every session (`fast`; `immediate` is a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def __enter__(self) -> PrivatePostgres:
        self.init()
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class Replicas:
    """uvicorn processes of the app on loopback ports, migrated once, behind nginx."""

    def __init__(self, env: dict[str, str], workdir: Path, count: int = 2) -> None:
        if nginx_binary() is None:
            _need("nginx", None)
        self.env = {**os.environ, **env}
        self.workdir = workdir
        self.ports = [free_port() for _ in range(count)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * count
        self.nginx: subprocess.Popen[bytes] | None = None
        self.proxy = ""

    def log(self, i: int) -> Path:
        return self.workdir / f"app{i}.log"

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def index_of(self, upstream: str) -> int:
        """The replica of an `X-Upstream` answer header (host:port)."""
        return self.ports.index(int(upstream.rsplit(":", 1)[1]))

    async def start(self) -> None:
        migrate = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "alembic", "upgrade", "head"),
            cwd=ROOT,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(migrate.communicate(), 120)
        assert migrate.returncode == 0, output.decode()[-2000:]
        for i in range(len(self.ports)):
            self._spawn(i)
        for i in range(len(self.ports)):
            await self.ready(i)
        proxy_port = free_port()
        self.nginx = start_nginx(
            proxy_port, self.ports, self.workdir / "nginx", expose_upstream=True
        )
        self.proxy = f"127.0.0.1:{proxy_port}"

    def _spawn(self, i: int) -> None:
        with self.log(i).open("ab") as out:
            self.procs[i] = subprocess.Popen(
                [
                    *(sys.executable, "-c", _REPLICA, "app.main:app"),
                    *("--host", "127.0.0.1", "--port", str(self.ports[i])),
                    *SERVE_FLAGS,
                ],
                cwd=ROOT,
                env={**self.env, "AUTO_MIGRATE": "false"},
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    async def ready(self, i: int, timeout: float = 30) -> None:
        proc = self.procs[i]
        assert proc is not None
        await wait_ready(self.url(i), proc, self.log(i), timeout)

    def kill(self, i: int) -> None:
        """kill -9: no shutdown, no goodbye on the bus."""
        proc = self.procs[i]
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)

    def stop(self) -> None:
        if self.nginx is not None:
            stop_nginx(self.nginx)
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            if proc is None:
                continue
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
