"""The deployment files are valid: docker-compose.yml loads and names what the app needs,
and deploy/nginx.conf (run by a local nginx, as CI has) routes each table to one replica."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.realtime.transport import SERVE_FLAGS
from tests.deploy.proxy import (
    check_config,
    free_port,
    nginx_binary,
    render_config,
    start_nginx,
    stop_nginx,
)

ROOT = Path(__file__).resolve().parents[2]
needs_nginx = pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed")


def _compose_command() -> list[str] | None:
    """`docker compose` (v2 plugin), else `docker-compose` (v1), else None."""
    docker = shutil.which("docker")
    if docker:
        version = subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30, check=False
        )
        if version.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_compose_file_runs_the_replicated_deployment() -> None:
    """A YAML load (Docker has no engine here); `docker compose config` too when it can."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]

    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])

    redis = services["redis"]
    assert redis["image"].startswith("redis:")
    assert redis["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]

    # Migrations run once, by a one-shot service of the app's image, before any replica.
    migrate = services["migrate"]
    assert migrate["command"] == ["alembic", "upgrade", "head"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"

    replicas = {name: s for name, s in services.items() if name.startswith("app")}
    assert len(replicas) >= 2
    for name, app in replicas.items():
        assert app["image"] == migrate["image"], name
        env = app["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+asyncpg://"), name
        assert env["REDIS_URL"].startswith("redis://redis:"), name
        assert env["AUTO_MIGRATE"] == "false", name
        assert env["SECRET_KEY"].startswith("${STOLIK_SECRET_KEY:?"), name
        assert env["LOG_FORMAT"] == "json" and "METRICS_TOKEN" in env, name
        assert "PUBLIC_ORIGINS" in env and "FORWARDED_ALLOW_IPS" in env, name
        # Not the image's default command (which migrates first); behind the proxy.
        assert "alembic" not in " ".join(app["command"]), name
        assert "--proxy-headers" in app["command"], name
        assert "ports" not in app, f"{name}: only the proxy is published"
        deps = app["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully", name
        assert deps["redis"]["condition"] == "service_healthy", name
        assert deps["db"]["condition"] == "service_healthy", name
        assert "/readyz" in " ".join(app["healthcheck"]["test"]), name

    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert proxy["ports"] == ["8000:80"]
    assert {n: d["condition"] for n, d in proxy["depends_on"].items()} == dict.fromkeys(
        replicas, "service_healthy"
    )
    assert "healthcheck" in proxy
    # Every replica is an upstream server of the proxy.
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for name in replicas:
        assert f"server {name}:8000" in site

    compose_cmd = _compose_command()
    if compose_cmd:
        result = subprocess.run(
            [*compose_cmd, "config", "-q"],
            cwd=ROOT,
            env={"STOLIK_SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr


@needs_nginx
def test_every_way_of_starting_the_server_serves_it_alike() -> None:
    """scripts/run.sh, the Dockerfile and the compose file start uvicorn with the app's own
    flags (`SERVE_FLAGS`: the websocket protocol that really closes, its frame limit, ...)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    commands = {
        "scripts/run.sh": (ROOT / "scripts" / "run.sh").read_text().split(),
        "Dockerfile": (ROOT / "Dockerfile").read_text().replace('"', " ").split(),
        "docker-compose.yml": [
            str(word)
            for service in compose["services"].values()
            for word in service.get("command") or []
        ],
    }
    for where, words in commands.items():
        text = " ".join(words)
        pairs = [" ".join(SERVE_FLAGS[i : i + 2]) for i in range(0, len(SERVE_FLAGS) - 1, 2)]
        for pair in pairs:
            assert pair in text, f"{where} lacks {pair}"
        assert "--proxy-headers" in words, where


def test_the_proxy_closes_idle_upstream_connections_before_the_replicas() -> None:
    """nginx's idle connections to a replica end before the replica ends them (else a request
    nginx sends as the replica closes fails, and a POST is not retried): the upstream's
    `keepalive_timeout` is under the replicas' `--timeout-keep-alive`, which every way of
    starting the server passes (`SERVE_FLAGS`, checked above)."""
    upstream = re.search(
        r"upstream\s+stolik\s*\{([^}]*)\}", (ROOT / "deploy/nginx.conf").read_text()
    )
    assert upstream is not None
    proxy = re.search(r"^\s*keepalive_timeout\s+(\d+)s;", upstream[1], re.M)
    assert proxy is not None, "the upstream block sets no keepalive_timeout (nginx: 60 s)"
    replica = int(SERVE_FLAGS[SERVE_FLAGS.index("--timeout-keep-alive") + 1])
    assert int(proxy[1]) < replica


def test_a_replica_keeps_an_idle_connection_past_uvicorns_default(tmp_path: Path) -> None:
    """Started as deployed (`SERVE_FLAGS`), the server answers a second request on a
    connection left idle past uvicorn's default 5 s (which would have closed it)."""
    port = free_port()
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DATABASE_URL": "", "REVIEW": "false"}
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
         "--port", str(port), *SERVE_FLAGS],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    conn: http.client.HTTPConnection | None = None
    try:
        deadline = time.monotonic() + 60
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request("GET", "/healthz")
                break
            except OSError:
                conn.close()
                assert time.monotonic() < deadline and server.poll() is None, "no server"
                time.sleep(0.2)
        first = conn.getresponse()
        assert first.status == 200 and first.read() == b'{"status":"ok"}'
        assert first.getheader("connection") != "close"
        sock = conn.sock
        time.sleep(6.5)
        # On the same socket: http.client opens a new one only when it has none.
        conn.request("GET", "/healthz")
        second = conn.getresponse()
        assert second.status == 200 and second.read() == b'{"status":"ok"}'
        assert conn.sock is sock
    finally:
        if conn is not None:
            conn.close()
        server.terminate()
        server.wait(15)


def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    """`nginx -t` on deploy/nginx.conf as the tests render it (loopback upstreams)."""
    conf = render_config(free_port(), [free_port(), free_port()], tmp_path)
    result = check_config(conf)
    assert result.returncode == 0, result.stderr


class _Echo(BaseHTTPRequestHandler):
    """An upstream that answers with its port and the headers the proxy sent it."""

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        body = json.dumps(
            {
                "port": self.connection.getsockname()[1],
                "path": self.path,
                **{
                    name: self.headers.get(name)
                    for name in ("host", "upgrade", "connection", "x-forwarded-for")
                },
                "proto": self.headers.get("x-forwarded-proto"),
            }
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[int]:
    """Two echo upstreams behind nginx with deploy/nginx.conf; yields the proxy's port."""
    upstreams = [ThreadingHTTPServer(("127.0.0.1", 0), _Echo) for _ in range(2)]
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in upstreams]
    for t in threads:
        t.start()
    port = free_port()
    proc = start_nginx(port, [s.server_address[1] for s in upstreams], tmp_path)
    try:
        yield port
    finally:
        stop_nginx(proc)
        for s in upstreams:
            s.shutdown()
            s.server_close()


def _get(port: int, path: str, method: str = "GET", **headers: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers=headers)
        response = conn.getresponse()
        assert response.status == 200
        answer: dict[str, Any] = json.loads(response.read())
        return answer
    finally:
        conn.close()


@needs_nginx
def test_proxy_sends_each_table_to_one_replica(proxied: int) -> None:
    """Pages, websocket and API of a table reach the same replica; tables spread over both;
    requests about no table are balanced."""
    homes = set()
    for _ in range(24):
        slug = secrets.token_urlsafe(6)
        paths = [
            f"/t/{slug}",
            f"/t/{slug}/replay?code=abc",
            f"/ws/t/{slug}?format=json",
            f"/api/tables/{slug}",
            f"/api/tables/{slug}/join?code=abc",
        ]
        ports = {_get(proxied, path)["port"] for path in paths}
        ports.add(_get(proxied, f"/t/{slug}/sit", method="POST")["port"])
        assert len(ports) == 1, (slug, ports)
        homes |= ports
    assert len(homes) == 2
    assert len({_get(proxied, "/healthz")["port"] for _ in range(4)}) == 2
    assert len({_get(proxied, "/ws/lobby")["port"] for _ in range(4)}) == 2


@needs_nginx
def test_proxy_passes_websocket_upgrades_and_client_headers(proxied: int) -> None:
    """The handshake headers, the Host the browser used (with its port) and the client's own
    address (not one it claims) reach the app."""
    seen = _get(
        proxied,
        "/ws/t/abc",
        Host="localhost:8000",
        Upgrade="websocket",
        Connection="Upgrade",
        **{"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"},
    )
    assert seen["upgrade"] == "websocket"
    assert seen["connection"] == "upgrade"
    assert seen["host"] == "localhost:8000"
    assert seen["x-forwarded-for"] == "127.0.0.1"
    assert seen["proto"] == "http"
    plain = _get(proxied, "/t/abc")
    assert plain["upgrade"] is None
    assert plain["connection"] in (None, "")


def test_migrations_upgrade_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    """`alembic upgrade head` builds the schema on the embedded default."""
    import asyncio

    import sqlalchemy as sa

    from app.store.migrate import upgrade_database

    db = tmp_path / "fresh.db"
    asyncio.run(upgrade_database(f"sqlite+aiosqlite:///{db}"))
    tables = set(sa.inspect(sa.create_engine(f"sqlite:///{db}")).get_table_names())
    assert {"users", "rooms", "seats", "games", "moves", "alembic_version"} <= tables


def test_the_proxy_and_replicas_have_room_for_many_sockets(tmp_path: Path) -> None:
    """A replica holds 20,000 idle sockets (docs/benchmarks.md): the compose file gives the
    replicas and the proxy enough open files, and the proxy's main file (deploy/nginx-main.conf)
    enough worker connections for such a replica (two connections a proxied socket); with
    a local nginx, `nginx -t` accepts that main file as deployed, around the rendered site."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for name, service in services.items():
        if name.startswith("app") or name == "proxy":
            assert int(service["ulimits"]["nofile"]) >= 65536, name
    assert "./deploy/nginx-main.conf:/etc/nginx/nginx.conf:ro" in services["proxy"]["volumes"]
    main = (ROOT / "deploy" / "nginx-main.conf").read_text()
    words = main.replace(";", " ;").split()
    connections = int(words[words.index("worker_connections") + 1])
    files = int(words[words.index("worker_rlimit_nofile") + 1])
    assert connections >= 2 * 20_000 and files >= connections
    assert "include /etc/nginx/conf.d/*.conf;" in main
    if nginx_binary() is None or not Path("/etc/nginx/mime.types").exists():
        return
    site = render_config(free_port(), [free_port(), free_port()], tmp_path).parent / "stolik.conf"
    local = (
        main.replace("user nginx;", "user root;")
        .replace("/etc/nginx/conf.d/*.conf", str(site))
        .replace("/var/log/nginx/", f"{tmp_path}/")
        .replace("/var/run/nginx.pid", f"{tmp_path}/main.pid")
    )
    conf = tmp_path / "main.conf"
    conf.write_text(local)
    result = check_config(conf)
    assert result.returncode == 0, result.stderr
