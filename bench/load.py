"""Load benchmark: concurrent Incan Gold tables played over websockets, in steady state.

Start a server first (ideally on PostgreSQL) with the per-address and per-socket budgets off
(this client creates hundreds of guests from one address and acts as fast as it can):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/stolik_bench \\
        CREATE_RATE_COUNT=0 ACT_RATE_COUNT=0 scripts/run.sh &
    SERVER_PID=$!   # scripts/run.sh execs uvicorn, so this is the server process
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --tables 50 \\
        --spectators 1 --format json --warmup 10 --seconds 60 --server-pid $SERVER_PID

Each table has 4 seated guests and `--spectators` anonymous watchers, one websocket each, all
in `--format`: `json` sockets (`?format=json`) receive state messages; `html` sockets are what
a browser opens and receive the rendered fragments. An HTML client reads the version from the
board's `data-version`, the table's status from `data-status`, its legal actions from the
`ws-send` buttons of its own area (their `hx-vals`), and acts by sending those values as
htmx's websocket extension does; nothing is taken from a JSON socket.

Setup creates and seats every table (`--concurrency` at a time) and opens its sockets. Then
every table plays seeded random legal moves, one at a time: a seat that may act sends an act,
and the move is done when EVERY client of the table (seats and spectators) has a state at the
new version; its latency is from the act to the last of them. When a game ends the host asks
for the rematch ("Play again"), the other three join it, the host starts it and every client
reconnects to it, so tables keep playing. The first `--warmup` seconds are not counted;
`--seconds` is the measured play time (setup and warm-up excluded), and moves completed in
it are the figures.

Every wait is bounded (a request, a socket opening, a state: `--move-timeout` seconds each;
a table's setup: three times that). A move without its state everywhere in time is counted
as slow and the lagging clients ask for a sync (as a page does after a gap); a table
that still gets nowhere, whose socket is closed or whose requests fail is counted as failed
with its reason and left behind, and the others play on.

With `--think S` every act waits first, as a person does: a random think time of 0.5 to 1.5
times S (seeded), not counted in its latency. Without it (the default) every seat acts the
moment it may, which keeps the server saturated: then at least one act of every table is
always waiting, so a latency percentile is bounded below by tables / moves per second
whatever the server does. With think time the same run measures latency under a load below
saturation (N tables offer about N / S moves per second).

With `--hold-finished` a table whose game ends inside the measured window does not rematch
until the window is over (it waits), so the window's server CPU is spent on moves only, not on
new tables, joins, starts and reconnects: with a window short enough that few games end there
(a game of 4 random seats is ~50 moves, at least ~28), the CPU per move of 100 and 500 tables
compares like for like. It prints how many tables held and when the first did. With
`--idle S` it first measures the server's CPU for S seconds after setup with every socket open
and nobody acting (its clocks' round, keepalive pings: what it spends whatever the moves) and
prints the CPU per move less that rate too.

It prints setup time, moves and moves/s, the latency p50/p95/p99/max, server CPU ms per move
(`--server-pid`, repeatable: utime+stime from /proc of each pid and its child processes,
e.g. a second server process or uvicorn workers) and this client's own CPU, so a saturated
client (near 100 % of one core) is visible. With several `--url`s (repeated or comma-
separated) each socket and request goes to a random one (`--route random`), or to one chosen
by the table's slug (`--route hash`), or always the first (`--route first`).

A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import html
import json
import math
import os
import random
import re
import signal
import ssl
import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

GAME = "incan_gold"
SEATS = 4
COOKIE = "stolik"
NO_TARGET = 1 << 62
BOARD_TAG = re.compile(r'<main id="board"[^>]*>')
VERSION_ATTR = re.compile(r'data-version="(\d+)"')
STATUS_ATTR = re.compile(r'data-status="(\w+)"')
ACT_VALS = re.compile(r"ws-send hx-vals='([^']*)'")
TOAST_CODE = re.compile(r'id="toast"[^>]*data-code="([^"]*)"')


class TableFailed(Exception):
    """The table cannot go on; the message says why (without the slug, so reasons add up)."""


def subscription(endpoint: str) -> dict[str, Any]:
    """A browser's push subscription at `endpoint` (its keys made as a browser makes them)."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    return {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))}}


def why(exc: BaseException) -> str:
    """A short reason for a failure, the same for every table that fails the same way."""
    if isinstance(exc, TableFailed):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, ConnectionClosed):
        rcvd = exc.rcvd
        return f"socket closed ({rcvd.code} {rcvd.reason})" if rcvd else "socket closed"
    text = str(exc).split("\n")[0]
    return f"{type(exc).__name__}: {re.sub(r'/t/[A-Za-z0-9_-]+', '/t/…', text)[:100]}"


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted `values` (nan when empty)."""
    if not values:
        return math.nan
    return values[max(0, math.ceil(p * len(values)) - 1)]


def signal_servers(args: argparse.Namespace) -> None:
    """SIGUSR1 to each server pid if asked (`--signal-server`)."""
    if args.signal_server:
        for pid in args.server_pid:
            os.kill(pid, signal.SIGUSR1)


# ---- server CPU from /proc ---------------------------------------------------------------------


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd on (state, ppid, …)


def process_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) used so far by `pid` and its child processes (uvicorn
    workers; PostgreSQL's backends when `pid` is the postmaster)."""
    family = {pid}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields and int(fields[1]) == pid:
                family.add(int(entry))
    ticks = 0
    for member in family:
        fields = _stat_fields(member)
        if fields:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def threads_cpu(pid: int) -> float:
    """Seconds on CPU of every thread of `pid` so far, to the nanosecond
    (/proc/PID/task/*/schedstat): for one request, where `process_cpu`'s 10 ms ticks are too
    coarse (children not included)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            continue  # a thread that just ended
    return total / 1e9


# ---- the run ------------------------------------------------------------------------------------


@dataclass
class Run:
    """Settings and figures shared by every table."""

    urls: list[str]
    route: str
    fmt: str
    spectators: int
    move_timeout: float
    seed: int
    think: float = 0.0
    push: str = ""
    """A push service every seated guest subscribes at ("": none)."""
    hold_finished: bool = False
    """A game that ends inside the measured window is not followed by its rematch until the
    window is over (`--hold-finished`)."""
    window_start: float = math.inf
    window_end: float = math.inf
    window_over: asyncio.Event = field(default_factory=asyncio.Event)
    held: int = 0
    """Tables whose game ended inside the window and that waited for its end (no rematch)."""
    held_at: list[float] = field(default_factory=list)
    stopping: bool = False
    latencies: list[float] = field(default_factory=list)
    moves_all: int = 0
    slow: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    new_game_times: list[float] = field(default_factory=list)
    # One TLS context for every guest's HTTP client: httpx builds a new one per client
    # otherwise (~20 ms of the load client's CPU each, which made setup measure the client).
    tls: ssl.SSLContext = field(default_factory=ssl.create_default_context)

    def in_window(self, at: float) -> bool:
        return self.window_start <= at < self.window_end

    def url_for(self, slug: str | None, rng: random.Random) -> str:
        """The server a request or socket of table `slug` goes to."""
        if len(self.urls) == 1 or self.route == "first":
            return self.urls[0]
        if self.route == "hash" and slug is not None:
            return self.urls[zlib.crc32(slug.encode()) % len(self.urls)]
        return rng.choice(self.urls)

    def fail(self, phase: str, exc: BaseException) -> None:
        self.failures[f"{phase}: {why(exc)}"] += 1


class Client:
    """One websocket of a table: a seat (which acts) or a spectator, in JSON or HTML."""

    def __init__(self, table: Table, seat: int | None, ws: ClientConnection, page: str) -> None:
        self.table = table
        self.seat = seat
        self.ws = ws
        self.page = page
        self.html = table.run.fmt == "html"
        self.version = -1
        self.status = ""
        self.acts: list[dict[str, Any]] = []  # the act messages this client may send now
        self.reached: float | None = None  # when it first had the table's target version
        self.error: str | None = None
        self.closed: str | None = None
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.receive(raw, time.perf_counter())
        except ConnectionClosed:
            pass
        except Exception as exc:
            self.closed = f"reader failed: {why(exc)}"
        finally:
            if self.closed is None:
                code, reason = self.ws.close_code, self.ws.close_reason
                self.closed = f"socket closed ({code} {reason})"
            self.table.progress.set()

    def receive(self, raw: str | bytes, at: float) -> None:
        text = raw.decode() if isinstance(raw, bytes) else raw
        if self.html:
            self.receive_html(text)
        else:
            self.receive_json(text)
        if self.reached is None and self.version >= self.table.target:
            self.reached = at
        self.table.progress.set()

    def receive_json(self, text: str) -> None:
        msg = orjson.loads(text)
        kind = msg.get("type")
        if kind == "state":
            self.version = msg["version"]
            self.status = msg.get("room", {}).get("status", "")
            view = msg.get("view") or {}
            mine = self.seat is not None and self.seat in view.get("to_act", ())
            self.acts = [
                {"type": "act", "version": self.version, "action": {"type": choice}}
                for choice in (("torch", "camp") if mine else ())
            ]
        elif kind == "error":
            self.error = msg.get("code", "?")

    def receive_html(self, text: str) -> None:
        board = BOARD_TAG.search(text)
        if board:  # a state push: every fragment of the page
            version = VERSION_ATTR.search(board.group())
            status = STATUS_ATTR.search(board.group())
            self.version = int(version.group(1)) if version else self.version
            self.status = status.group(1) if status else self.status
            self.acts = []
            start = text.find('<section id="me"')
            if self.seat is not None and start >= 0:
                area = text[start : text.find("</section>", start)]
                self.acts = [json.loads(html.unescape(v)) for v in ACT_VALS.findall(area)]
        toast = TOAST_CODE.search(text)
        if toast:
            self.error = toast.group(1)

    async def send(self, values: dict[str, Any]) -> None:
        if self.html:  # what htmx's ws extension sends for a ws-send element
            headers = {
                "HX-Request": "true",
                "HX-Trigger": None,
                "HX-Trigger-Name": None,
                "HX-Target": None,
                "HX-Current-URL": self.page,
            }
            values = {**values, "HEADERS": headers}
        await self.ws.send(json.dumps(values))

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)


KEEP_ALIVE = httpx.Limits(keepalive_expiry=2.0)
"""A guest's idle connection is dropped after 2 s, before the server drops it (uvicorn's
default 5 s, Stolik's 75 s since stop 46; httpx's default is also 5 s): else a POST sent as
the server closes it fails ("RemoteProtocolError") and its table with it."""


class Table:
    """One table: 4 guests (seat 0 hosts) and their sockets plus the spectators'."""

    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        self.index = index
        self.rng = random.Random(run.seed * 1_000_003 + index)
        self.guests: list[httpx.AsyncClient] = []
        self.slug = ""
        self.clients: list[Client] = []
        self.progress = asyncio.Event()
        self.target = NO_TARGET

    async def post(
        self, guest: httpx.AsyncClient, slug: str | None, path: str, body: Any = None
    ) -> Any:
        """POST to the API (`{slug}` in `path` stands for `slug`); a refusal or a network
        error fails the table."""
        url = self.run.url_for(slug, self.rng) + path.replace("{slug}", slug or "")
        try:
            r = await guest.post(url, json=body)
        except httpx.HTTPError as exc:
            raise TableFailed(f"POST {path}: {type(exc).__name__}") from None
        if r.status_code >= 400:
            try:
                code = r.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = r.text[:60]
            raise TableFailed(f"POST {path} -> {r.status_code} {code}")
        return r.json()

    async def set_up(self, http_timeout: float) -> None:
        """Guests, a started table, open sockets."""
        self.guests = [
            httpx.AsyncClient(timeout=http_timeout, verify=self.run.tls, limits=KEEP_ALIVE)
            for _ in range(SEATS)
        ]
        for i, guest in enumerate(self.guests):
            await self.post(guest, None, "/api/guest", {"name": f"b{self.index}-{i}"})
            if self.run.push:
                await self.post(
                    guest,
                    None,
                    "/push/subscriptions",
                    subscription(f"{self.run.push}/p/{self.index}-{i}"),
                )
        table = {"game": GAME, "seats": SEATS}
        self.slug = (await self.post(self.guests[0], None, "/api/tables", table))["slug"]
        await self.seat_and_start()

    async def seat_and_start(self) -> None:
        for seat in range(1, SEATS):
            await self.post(self.guests[seat], self.slug, f"/api/tables/{{slug}}/join?seat={seat}")
        await self.post(self.guests[0], self.slug, "/api/tables/{slug}/start")
        await self.connect()

    async def connect(self) -> None:
        """Open every client's socket and wait for its first state."""
        run = self.run
        query = "?format=json" if run.fmt == "json" else ""
        self.target = NO_TARGET
        for seat in [*range(SEATS), *[None] * run.spectators]:
            base = run.url_for(self.slug, self.rng)
            headers = {}
            if seat is not None:
                headers["Cookie"] = f"{COOKIE}={self.guests[seat].cookies.get(COOKIE)}"
            ws_url = base.replace("http", "ws", 1) + f"/ws/t/{self.slug}{query}"
            try:
                ws = await connect(
                    ws_url,
                    origin=Origin(base) if run.fmt == "html" else None,
                    additional_headers=headers,
                    open_timeout=run.move_timeout,
                    close_timeout=2,
                )
            except Exception as exc:
                raise TableFailed(f"socket open: {why(exc)}") from None
            self.clients.append(Client(self, seat, ws, f"{base}/t/{self.slug}"))
        if not await self.wait(lambda: all(c.version >= 0 for c in self.clients)):
            raise TableFailed("no first state on a new socket")
        # With several processes a socket's first state may be a moment older than the start
        # (the process heard of it over the bus): wait, bounded, for the game to show.
        if not await self.wait(lambda: all(c.status == "playing" for c in self.clients)):
            raise TableFailed(f"a new game's status is {self.clients[0].status!r}")

    async def wait(self, done: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until `done()` (True) or `timeout` (False); a closed socket fails the table."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.run.move_timeout if timeout is None else timeout)
        while True:
            self.progress.clear()
            for c in self.clients:
                if c.closed:
                    raise TableFailed(c.closed)
            if done():
                return True
            left = deadline - loop.time()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.progress.wait(), left)

    async def play(self) -> None:
        """Random legal moves, one at a time, until the run stops; new games as games end."""
        refusals = 0
        run = self.run
        while not run.stopping:
            if self.clients[0].status == "finished":
                now = time.perf_counter()
                if run.hold_finished and run.in_window(now) and not run.window_over.is_set():
                    run.held += 1
                    run.games_finished += 1
                    run.held_at.append(now - run.window_start)
                    await run.window_over.wait()  # no rematch inside the window
                    continue
                await self.new_game()
            elif not any(c.acts for c in self.clients[:SEATS]):
                if not await self.wait(self.may_go_on):
                    raise TableFailed("no seat may act and the game is not over")
            elif await self.move():
                refusals = 0
            else:
                refusals += 1
                if refusals >= 20:
                    raise TableFailed("20 refusals in a row")

    def may_go_on(self) -> bool:
        return any(c.acts for c in self.clients[:SEATS]) or self.clients[0].status == "finished"

    async def move(self) -> bool:
        """One act by a seat that may act (after its think time); False if it was refused."""
        run = self.run
        if run.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * run.think)
        actor = self.rng.choice([c for c in self.clients[:SEATS] if c.acts])
        want = "camp" if self.rng.randrange(3) == 0 else "torch"
        values = next((a for a in actor.acts if a["action"]["type"] == want), actor.acts[0])
        self.target = values["version"] + 1
        for c in self.clients:
            c.reached = None
        actor.error = None

        def everywhere() -> bool:
            return all(c.reached is not None for c in self.clients)

        def done() -> bool:
            return actor.error is not None or everywhere()

        sent = time.perf_counter()
        try:
            await actor.send(values)
        except ConnectionClosed as exc:
            raise TableFailed(why(exc)) from None
        if not await self.wait(done):
            run.slow += 1
            for c in self.clients:  # ask for the full state, as a page does after a gap
                if c.reached is None:
                    with contextlib.suppress(ConnectionClosed):
                        await c.ws.send(json.dumps({"type": "sync"}))
            if not await self.wait(done):
                raise TableFailed("no new state on every client, even after a sync")
        self.target = NO_TARGET
        if everywhere():
            finished = max(c.reached or 0.0 for c in self.clients)
            run.moves_all += 1
            if run.in_window(finished):
                run.latencies.append(finished - sent)
            return True
        run.refused[actor.error or "?"] += 1
        # The server re-sends the state after a stale act; let every client have it.
        await self.wait(lambda: len({c.version for c in self.clients}) == 1)
        return False

    async def new_game(self) -> None:
        """ "Play again": the host creates the rematch, the others join it, the host starts
        it, and every client reconnects to the new table."""
        started = time.perf_counter()
        if self.run.in_window(started):
            self.run.games_finished += 1
        answer = await self.post(self.guests[0], self.slug, "/api/tables/{slug}/rematch")
        await self.close_sockets()
        self.slug = answer["slug"]
        await self.seat_and_start()
        if self.run.in_window(started):
            self.run.new_game_times.append(time.perf_counter() - started)

    async def close_sockets(self) -> None:
        clients, self.clients = self.clients, []
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

    async def close(self) -> None:
        await self.close_sockets()
        await asyncio.gather(*(g.aclose() for g in self.guests), return_exceptions=True)


async def set_up_table(table: Table, slots: asyncio.Semaphore, timeout: float) -> bool:
    async with slots:
        try:
            await asyncio.wait_for(table.set_up(timeout), timeout * 3)
            return True
        except Exception as exc:
            table.run.fail("setup", exc)
            await table.close()
            return False


async def play_table(table: Table) -> None:
    try:
        await table.play()
    except Exception as exc:
        table.run.fail("play", exc)
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(table.close(), 10)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (bench/load.py) for what is measured.",
    )
    parser.add_argument(
        "--url",
        action="append",
        help="server base URL; repeat or comma-separate for several processes "
        "(default http://127.0.0.1:8000)",
    )
    parser.add_argument("--route", choices=("random", "hash", "first"), default="random")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=1, help="watchers per table")
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of play not counted")
    parser.add_argument("--seconds", type=float, default=60, help="measured play time")
    parser.add_argument("--concurrency", type=int, default=8, help="tables set up at once")
    parser.add_argument(
        "--move-timeout", type=float, default=10, help="bound of every wait, seconds"
    )
    parser.add_argument(
        "--think", type=float, default=0, help="mean seconds a seat thinks before each act"
    )
    parser.add_argument("--server-pid", type=int, action="append", default=[])
    parser.add_argument(
        "--signal-server",
        action="store_true",
        help="send SIGUSR1 to each --server-pid as the measured window starts and ends "
        "(bench/serve_profiled.py prints its collector figures then)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--idle",
        type=float,
        default=0,
        help="after setup, measure the server's CPU for this many seconds with nobody acting "
        "(its idle rate: clocks' round, keepalive pings) and print the CPU per move less it",
    )
    parser.add_argument(
        "--hold-finished",
        action="store_true",
        help="a table whose game ends inside the measured window waits for the window's end "
        "before its rematch, so the window's server CPU is moves only (no new table, joins, "
        "start, reconnects): with a window short enough that few games end, the CPU per move "
        "compares like for like between table counts",
    )
    parser.add_argument(
        "--push",
        default="",
        help="a push service (bench/push_sink.py: http://127.0.0.1:8099) every seated guest "
        "subscribes at, every event (the server needs PUSH_INSECURE_ENDPOINTS=true)",
    )
    return parser.parse_args()


async def main() -> None:
    args = parse_args()
    urls = [u.strip().rstrip("/") for arg in args.url or [] for u in arg.split(",") if u.strip()]
    run = Run(
        urls=urls or ["http://127.0.0.1:8000"],
        route=args.route,
        fmt=args.format,
        spectators=args.spectators,
        move_timeout=args.move_timeout,
        seed=args.seed,
        think=args.think,
        push=args.push.rstrip("/"),
        hold_finished=args.hold_finished,
    )
    for pid in args.server_pid:
        if _stat_fields(pid) is None:
            raise SystemExit(f"no process {pid} (--server-pid)")
    per_table = SEATS + args.spectators
    print(
        f"{args.tables} tables x ({SEATS} seats + {args.spectators} spectators), "
        f"{args.format} sockets, {len(run.urls)} server(s) ({run.route} routing), "
        + (
            f"think {args.think:g} s per act (~{args.tables / args.think:.0f} moves/s offered)"
            if args.think > 0
            else "no think time (saturating)"
        )
    )

    tables = [Table(run, i) for i in range(args.tables)]
    slots = asyncio.Semaphore(args.concurrency)
    t0 = time.perf_counter()
    ok = await asyncio.gather(*(set_up_table(t, slots, args.move_timeout) for t in tables))
    setup = time.perf_counter() - t0
    playing = [t for t, good in zip(tables, ok, strict=True) if good]
    print(
        f"setup: {len(playing)} of {args.tables} tables created, seated and connected "
        f"({len(playing) * per_table} sockets) in {setup:.1f} s, {args.concurrency} at a time"
    )
    for reason, count in run.failures.most_common():
        print(f"  {count} x {reason}")
    if not playing:
        return
    idle_rate = None
    if args.idle > 0 and args.server_pid:
        # Every socket open, nobody acting: what the server spends per second on its own.
        idle0 = sum(process_cpu(p) for p in args.server_pid)
        await asyncio.sleep(args.idle)
        idle_rate = (sum(process_cpu(p) for p in args.server_pid) - idle0) / args.idle
        print(
            f"idle: {idle_rate * 1000:.1f} ms of server CPU per second with every socket open "
            f"and nobody acting ({args.idle:g} s)"
        )
    tasks = [asyncio.create_task(play_table(t)) for t in playing]

    await asyncio.wait(tasks, timeout=args.warmup)  # returns early only if every table failed
    signal_servers(args)
    cpu0, own0 = [process_cpu(p) for p in args.server_pid], time.process_time()
    run.window_start = time.perf_counter()
    await asyncio.wait(tasks, timeout=args.seconds)
    run.window_end = time.perf_counter()
    cpu1, own1 = [process_cpu(p) for p in args.server_pid], time.process_time()
    signal_servers(args)
    run.window_over.set()
    run.stopping = True
    alive = sum(not t.done() for t in tasks)
    _, pending = await asyncio.wait(tasks, timeout=2 * args.move_timeout + 15)
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)

    elapsed = run.window_end - run.window_start
    lat = sorted(run.latencies)
    moves = len(lat)
    print(
        f"play: {elapsed:.1f} s measured after {args.warmup:.0f} s warm-up; "
        f"{alive} tables still playing at the end"
    )
    print(f"moves: {moves}  moves/s: {moves / elapsed:.1f}  games finished: {run.games_finished}")
    if run.hold_finished:
        at = sorted(run.held_at)
        print(
            f"held (game over in the window, no rematch until its end): {run.held} tables"
            + (
                f", the first at {at[0]:.1f} s, the median at {percentile(at, 0.5):.1f} s"
                if at
                else ""
            )
            + f"; {len(playing) - run.held} still playing at the window's end"
        )
    if run.new_game_times:
        ng = sorted(run.new_game_times)
        print(
            f"new game (rematch, 3 joins, start, {per_table} reconnects): "
            f"p50 {percentile(ng, 0.5) * 1000:.0f} ms, max {ng[-1] * 1000:.0f} ms"
        )
    ms = [percentile(lat, p) * 1000 for p in (0.5, 0.95, 0.99, 1.0)]
    print(
        f"latency act -> all {per_table} clients at the new version: "
        f"p50 {ms[0]:.1f}  p95 {ms[1]:.1f}  p99 {ms[2]:.1f}  max {ms[3]:.1f} ms"
    )
    if args.server_pid:
        used = [after - before for before, after in zip(cpu0, cpu1, strict=True)]
        if moves:
            parts = ", ".join(
                f"pid {pid}: {cpu * 1000 / moves:.2f}"
                for pid, cpu in zip(args.server_pid, used, strict=True)
            )
            per_move = f"{sum(used) * 1000 / moves:.2f} ms/move ({parts}; each with its children)"
        else:
            per_move = "no moves"
        print(f"server CPU: {per_move}, {sum(used) / elapsed * 100:.0f} % of one core")
        if idle_rate is not None and moves:
            net = (sum(used) - idle_rate * elapsed) * 1000 / moves
            print(f"server CPU less its idle rate: {net:.2f} ms/move")
    own = (own1 - own0) / elapsed * 100
    warning = "  <- SATURATED: the client, not the server, limits these figures" if own > 85 else ""
    print(f"client CPU: {own:.0f} % of one core{warning}")
    print(f"moves in the whole run (warm-up and overrun included): {run.moves_all}")
    if run.slow:
        print(
            f"slow moves (no state everywhere in {args.move_timeout:g} s, then a sync): {run.slow}"
        )
    if run.refused:
        print(
            "refused acts (whole run): "
            + ", ".join(f"{k} {v}" for k, v in run.refused.most_common())
        )
    failed = sum(run.failures.values())
    print(f"failed tables (whole run): {failed}")
    for reason, count in run.failures.most_common():
        print(f"  {count} x {reason}")


if __name__ == "__main__":
    asyncio.run(main())
