"""The deployment's reverse proxy on loopback: deploy/nginx.conf run by a local nginx binary.

`start_nginx(listen_port, upstream_ports, workdir)` renders deploy/nginx.conf for loopback use
(its `server appN:8000` upstream lines become one line per given port on 127.0.0.1, `listen 80`
becomes the given port), wraps it in a main config whose pid, logs and temporary files all
live in `workdir` (so it runs without root and touches nothing of a system nginx), starts
nginx in the foreground and returns once the port accepts connections. Stop it with
`stop_nginx`. `nginx_binary()` is None when no nginx is installed (tests skip then).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SITE = ROOT / "deploy" / "nginx.conf"

_UPSTREAM = re.compile(r"(upstream\s+stolik\s*\{)(?P<body>[^}]*)\}")
_SERVER = re.compile(r"^(?P<indent>[ \t]*)server\s+app\d+:8000(?P<params>[^;]*);[ \t]*\n", re.M)
_LISTEN = re.compile(r"^(?P<indent>[ \t]*)listen\s+80\s*;", re.M)
_TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_binary() -> str | None:
    """The nginx executable (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    found = shutil.which("nginx")
    if found:
        return found
    for candidate in ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def render_site(listen_port: int, upstream_ports: list[int], expose_upstream: bool = False) -> str:
    """deploy/nginx.conf with loopback upstreams and listen port; everything else as deployed.

    `expose_upstream` adds an `X-Upstream` answer header naming the replica that served the
    request (tests check the routing with it).
    """
    if not upstream_ports:
        raise ValueError("at least one upstream port")
    text = SITE.read_text()
    block = _UPSTREAM.search(text)
    if block is None:
        raise ValueError(f"{SITE}: no `upstream stolik {{...}}` block")
    body = block.group("body")
    servers = list(_SERVER.finditer(body))
    if not servers:
        raise ValueError(f"{SITE}: no `server appN:8000` line in the upstream block")
    first = servers[0]
    lines = "".join(
        f"{first.group('indent')}server 127.0.0.1:{port}{first.group('params')};\n"
        for port in upstream_ports
    )
    body = body[: first.start()] + lines + _SERVER.sub("", body[first.start() :])
    text = text[: block.start("body")] + body + text[block.end("body") :]
    listen = rf"\g<indent>listen 127.0.0.1:{listen_port};"
    if expose_upstream:
        listen += r"\n\g<indent>add_header X-Upstream $upstream_addr always;"
    text, listens = _LISTEN.subn(listen, text)
    if listens != 1:
        raise ValueError(f"{SITE}: expected one `listen 80;`, found {listens}")
    return text


def render_config(
    listen_port: int, upstream_ports: list[int], workdir: Path, expose_upstream: bool = False
) -> Path:
    """Write `workdir/nginx.conf` (main config) and `workdir/stolik.conf` (the site)."""
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    site = workdir / "stolik.conf"
    site.write_text(render_site(listen_port, upstream_ports, expose_upstream))
    temp = workdir / "temp"
    for name in _TEMP_PATHS:
        (temp / name).mkdir(parents=True, exist_ok=True)
    temp_lines = "\n".join(f'    {name}_temp_path "{temp / name}";' for name in _TEMP_PATHS)
    # As root nginx would hand its workers to `nobody`, who cannot enter a private workdir.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = workdir / "nginx.conf"
    conf.write_text(
        f"{user}"
        "worker_processes 1;\n"
        f'pid "{workdir / "nginx.pid"}";\n'
        f'error_log "{workdir / "error.log"}" warn;\n'
        "events {\n    worker_connections 256;\n}\n"
        "http {\n"
        "    access_log off;\n"
        f"{temp_lines}\n"
        f'    include "{site}";\n'
        "}\n"
    )
    return conf


def nginx_command(conf: Path, *args: str) -> list[str]:
    """nginx run with `conf`, its prefix and startup error log in the conf's folder."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed")
    workdir = conf.parent
    return [binary, "-p", f"{workdir}/", "-e", str(workdir / "error.log"), "-c", str(conf), *args]


def check_config(conf: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on a rendered config."""
    return subprocess.run(
        nginx_command(conf, "-t", "-q"), capture_output=True, text=True, timeout=30, check=False
    )


def start_nginx(
    listen_port: int,
    upstream_ports: list[int],
    workdir: Path,
    *,
    expose_upstream: bool = False,
    timeout: float = 10.0,
) -> subprocess.Popen[bytes]:
    """nginx in the foreground with deploy/nginx.conf on 127.0.0.1:`listen_port`, forwarding
    to 127.0.0.1:`upstream_ports`; returns once the port accepts connections."""
    conf = render_config(listen_port, upstream_ports, workdir, expose_upstream)
    proc = subprocess.Popen(
        nginx_command(conf, "-g", "daemon off;"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited ({proc.returncode}): {_log_tail(conf.parent)}")
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", listen_port), timeout=0.5),
        ):
            return proc
        if time.monotonic() > deadline:
            stop_nginx(proc)
            raise RuntimeError(f"nginx did not listen on {listen_port}: {_log_tail(conf.parent)}")
        time.sleep(0.05)


def stop_nginx(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Fast shutdown (SIGTERM: the master stops its workers), then reap it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)


def _log_tail(workdir: Path) -> str:
    log = workdir / "error.log"
    return log.read_text(errors="replace")[-2000:] if log.exists() else "(no error log)"
