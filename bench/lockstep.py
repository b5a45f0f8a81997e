"""Issue 37's side-by-side method: N Incan Gold tables played in lockstep by an independent client.

Start one server process with the creation and act budgets off (this client creates every
guest from one address and acts as fast as the tables allow), then point this at it (it waits
for the server to answer):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/stolik_bench_lockstep PORT=8350 \\
        CREATE_RATE_COUNT=0 ACT_RATE_COUNT=0 ACT_RATE_ADDRESS_COUNT=0 scripts/run.sh &
    SERVER_PID=$!   # scripts/run.sh execs uvicorn: this is the server process
    .venv/bin/python bench/lockstep.py --url http://127.0.0.1:8350 --tables 100 \\
        --server-pid $SERVER_PID

What it does (written from the protocol, docs/bot-api.md; nothing of bench/load.py's play):

1. Set-up, timed: every table at once (`--concurrency`, default all): 4 guests
   (`POST /api/guest`), a 4-seat table by the first, 3 joins, the start, then 5 sockets per
   table: the 4 seats (`?format=json&legal=1`) and 1 spectator (`?format=json`); a table is set
   up when all 5 hold the started game's first state.
2. Play, lockstep: a table moves on only when all 5 of its clients hold the same version V.
   Then every seat whose `legal` is not empty sends a uniformly random legal action at V (in
   Incan Gold's simultaneous decisions several seats do, each one a move); the step is done
   when all 5 clients hold V + the acts accepted. A table stops at `--moves` moves (default
   60): if fewer remain than seats want to act, a random subset of them acts, so every table
   makes exactly `--moves`. A game that ends before is counted and followed by its rematch
   (the host asks "Play again", the 3 others join, the host starts, 5 sockets reopen), inside
   the measured window, as at a real table; the rematches are printed (an Incan Gold game of
   random moves lasts some 30-40 moves, so most tables make one).
3. Figures: the window runs from the end of set-up until the last table has made its moves.
   moves/s = all moves / window; server CPU per move = utime+stime of `--server-pid` (from
   /proc, its threads included) over the window / moves; set-up seconds (and the server's and
   this client's CPU per table set up); p50/p99 of act -> all clients (from sending an act
   to the moment the last of the table's 5 clients holds the step's final version); this
   client's own CPU (near 100 % of a core: the client, not the server, limits the figures),
   the state messages the clients received in the window (per move: how many pushes a move
   costs the server) and the load average.

Every wait is bounded (`--timeout` seconds: a request, a socket, a step; a lagging step asks
every client for a `sync` once before its table is given up), and so is the whole play
(`--max-seconds`); a table that fails is counted with its reason and the others go on.

A script that prints figures, not a test (tests/bench/test_lockstep.py runs it small).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import ssl
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

GAME = "incan_gold"
SEATS = 4
SPECTATORS = 1
COOKIE = "stolik"


class Failed(Exception):
    """A table cannot go on; the message says why (the same words for the same reason)."""


def cpu_seconds(pid: int) -> float:
    """utime + stime of process `pid` (all its threads) so far, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted `values` (nan when empty)."""
    if not values:
        return math.nan
    return values[max(0, math.ceil(p * len(values)) - 1)]


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


@dataclass
class Run:
    """Settings and the figures every table adds to."""

    url: str
    moves_per_table: int
    timeout: float
    seed: int
    legal: bool = True
    keep_alive: float = 2.0
    """Seconds a guest's idle connection is kept: under the server's own idle timeout, else a
    POST sent as the server closes the connection fails (uvicorn's and Node's default is 5 s;
    Stolik keeps 75 s since stop 46, so 60 against it)."""
    tls: ssl.SSLContext = field(default_factory=ssl.create_default_context)
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games_finished: int = 0
    rematches: int = 0
    states: int = 0
    """State messages received by every client so far (pushes: how many a move costs)."""
    refused: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    stopping: bool = False


class Client:
    """One socket of a table: a seat's (which acts) or the spectator's."""

    def __init__(self, table: Table, seat: int | None, ws: ClientConnection) -> None:
        self.table = table
        self.seat = seat
        self.ws = ws
        self.version = -1
        self.status = ""
        self.legal: list[dict[str, Any]] = []
        self.errors = 0  # refusals received on this socket so far
        self.reached: float | None = None  # when it first held the table's target version
        self.closed: str | None = None
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.receive(orjson.loads(raw))
        except ConnectionClosed:
            pass
        except Exception as exc:  # a malformed frame: the table cannot trust this socket
            self.closed = f"reader failed: {type(exc).__name__}"
        finally:
            if self.closed is None:
                self.closed = f"socket closed ({self.ws.close_code})"
            self.table.changed.set()

    def receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "state":
            self.table.run.states += 1
            self.version = msg["version"]
            self.status = msg["room"]["status"]
            header = (msg.get("view") or {}).get("header") or {}
            if "legal" in msg:
                self.legal = msg["legal"] or []
            elif self.seat in header.get("to_act", ()) and self.seat not in header["chosen"]:
                self.legal = [{"type": "torch"}, {"type": "camp"}]  # Incan Gold's two choices
            else:
                self.legal = []
            if self.reached is None and self.version >= self.table.target:
                self.reached = time.perf_counter()
        elif kind == "error":
            self.errors += 1
            self.table.run.refused[msg.get("code", "?")] += 1
        self.table.changed.set()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2)
        self.reader.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)


class Table:
    """4 guests (the first hosts), their table and its 5 clients."""

    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        self.index = index
        self.rng = random.Random(run.seed * 1_000_003 + index)
        self.guests: list[httpx.AsyncClient] = []
        self.slug = ""
        self.slugs: list[str] = []  # every game this table played, in order
        self.clients: list[Client] = []
        self.changed = asyncio.Event()
        self.target = 1 << 62
        self.moves = 0  # accepted acts so far

    async def post(self, guest: httpx.AsyncClient, path: str, body: Any = None) -> Any:
        try:
            answer = await guest.post(self.run.url + path, json=body)
        except httpx.HTTPError as exc:
            raise Failed(
                f"POST {path.replace(self.slug, '…') if self.slug else path}: {type(exc).__name__}"
            ) from None
        if answer.status_code >= 400:
            where = path.replace(self.slug, "…") if self.slug else path
            raise Failed(f"POST {where} -> {answer.status_code} {answer.text[:80]}")
        return answer.json()

    async def set_up(self) -> None:
        limits = httpx.Limits(keepalive_expiry=self.run.keep_alive)
        self.guests = [
            httpx.AsyncClient(timeout=self.run.timeout, verify=self.run.tls, limits=limits)
            for _ in range(SEATS)
        ]
        for i, guest in enumerate(self.guests):
            await self.post(guest, "/api/guest", {"name": f"L{self.index}-{i}"})
        created = await self.post(self.guests[0], "/api/tables", {"game": GAME, "seats": SEATS})
        self.slug = created["slug"]
        await self.seat_start_connect()

    async def seat_start_connect(self) -> None:
        self.slugs.append(self.slug)
        for seat in range(1, SEATS):
            await self.post(self.guests[seat], f"/api/tables/{self.slug}/join?seat={seat}")
        await self.post(self.guests[0], f"/api/tables/{self.slug}/start")
        base = self.run.url.replace("http", "ws", 1) + f"/ws/t/{self.slug}?format=json"
        for seat in [*range(SEATS), *[None] * SPECTATORS]:
            headers = {}
            url = base
            if seat is not None:
                headers["Cookie"] = f"{COOKIE}={self.guests[seat].cookies.get(COOKIE)}"
                url += "&legal=1" if self.run.legal else ""
            try:
                ws = await connect(url, additional_headers=headers, open_timeout=self.run.timeout)
            except Exception as exc:
                raise Failed(f"socket open: {type(exc).__name__}") from None
            self.clients.append(Client(self, seat, ws))
        await self.until(
            lambda: all(c.status == "playing" for c in self.clients), "no started game's state"
        )

    async def until(self, done: Any, why: str) -> None:
        """Wait until `done()`; a closed socket or `--timeout` seconds fail the table."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.run.timeout
        while True:
            self.changed.clear()
            for c in self.clients:
                if c.closed:
                    raise Failed(c.closed)
            if done():
                return
            left = deadline - loop.time()
            if left <= 0:
                raise Failed(why)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    def in_step(self) -> bool:
        """Every client holds the same version."""
        return len({c.version for c in self.clients}) == 1

    async def play(self) -> None:
        """Lockstep steps until the table has made its moves."""
        run = self.run
        while self.moves < run.moves_per_table and not run.stopping:
            await self.until(self.in_step, "clients at different versions")
            if self.clients[0].status == "finished":
                await self.rematch()
                continue
            deciding = [c for c in self.clients[:SEATS] if c.legal]
            if not deciding:
                raise Failed("no seat may act and the game is not over")
            left = run.moves_per_table - self.moves
            if len(deciding) > left:
                deciding = self.rng.sample(deciding, left)
            await self.step(deciding)

    async def step(self, deciding: list[Client]) -> None:
        """The deciding seats each send a random legal act at the current version; done when
        every client holds the version those accepted reached."""
        version = self.clients[0].version
        self.target = version + len(deciding)
        for c in self.clients:
            c.reached = None
        errors = [c.errors for c in deciding]

        def accepted() -> int:
            return len(deciding) - sum(c.errors - e for c, e in zip(deciding, errors, strict=True))

        def done() -> bool:
            return self.in_step() and self.clients[0].version >= version + accepted()

        sent = []
        for c in deciding:
            act = {"type": "act", "version": version, "action": self.rng.choice(c.legal)}
            sent.append(time.perf_counter())
            try:
                await c.ws.send(orjson.dumps(act).decode())
            except ConnectionClosed as exc:
                raise Failed(f"socket closed ({exc.rcvd.code if exc.rcvd else '?'})") from None
        try:
            await self.until(done, "no new state everywhere")
        except Failed as exc:
            if "socket closed" in str(exc):
                raise
            for c in self.clients:  # once: ask for the full state, as a page does after a gap
                with contextlib.suppress(ConnectionClosed):
                    await c.ws.send('{"type": "sync"}')
            await self.until(done, "no new state everywhere, even after a sync")
        made = accepted()
        self.moves += made
        run = self.run
        run.moves += made
        if made == len(deciding):  # every act's latency: until the last client holds it all
            last = max(c.reached or time.perf_counter() for c in self.clients)
            run.latencies.extend(last - at for at in sent)
        self.target = 1 << 62

    async def rematch(self) -> None:
        """ "Play again": the host asks, the others join, the host starts, sockets reopen."""
        run = self.run
        run.games_finished += 1
        answer = await self.post(self.guests[0], f"/api/tables/{self.slug}/rematch")
        await self.close_sockets()
        self.slug = answer["slug"]
        await self.seat_start_connect()
        run.rematches += 1

    async def close_sockets(self) -> None:
        clients, self.clients = self.clients, []
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

    async def close(self) -> None:
        await self.close_sockets()
        await asyncio.gather(*(g.aclose() for g in self.guests), return_exceptions=True)


@dataclass
class Figures:
    """What one run measured."""

    tables: int
    ready: int
    setup_seconds: float
    play_seconds: float
    moves: int
    server_cpu: float | None
    setup_cpu: float | None
    setup_client_cpu: float
    """This client's own CPU over the set-up, seconds (all tables at once on a 2-core machine,
    the client may be the slower side)."""
    idle_cpu: float | None
    held_cpu: float | None
    idle_seconds: float
    client_cpu: float
    latencies: list[float]
    games_finished: int
    rematches: int
    states: int
    """State messages the clients received in the window."""
    refused: Counter[str]
    failures: Counter[str]
    loadavg_before: str
    loadavg_after: str

    def lines(self) -> list[str]:
        per = SEATS + SPECTATORS
        play = max(self.play_seconds, 1e-9)
        lat = sorted(self.latencies)
        out = [
            f"tables: {self.ready} of {self.tables} set up ({SEATS} seats + {SPECTATORS} "
            f"spectator, {self.ready * per} sockets)",
            f"set-up: {self.setup_seconds:.2f} s",
            f"moves: {self.moves} in {self.play_seconds:.2f} s  moves/s: {self.moves / play:.1f}",
            f"games finished: {self.games_finished}  rematches: {self.rematches}",
            f"state messages received: {self.states} "
            f"({self.states / max(self.moves, 1):.2f} per move)",
            f"act -> all {per} clients: p50 {percentile(lat, 0.5) * 1000:.1f} ms  "
            f"p99 {percentile(lat, 0.99) * 1000:.1f} ms  ({len(lat)} acts)",
        ]
        if self.setup_cpu is not None and self.ready:
            out.append(
                f"server CPU in set-up: {self.setup_cpu * 1000 / self.ready:.1f} ms per table"
            )
        if self.ready:
            share = self.setup_client_cpu / max(self.setup_seconds, 1e-9)
            warn = "  <- SATURATED: the client limits the set-up's time" if share > 0.85 else ""
            out.append(
                f"client CPU in set-up: {self.setup_client_cpu * 1000 / self.ready:.1f} ms per "
                f"table ({share:.0%} of one core){warn}"
            )
        if self.idle_cpu is not None and self.idle_seconds > 0:
            out.append(
                f"server CPU idle before set-up: {self.idle_cpu / self.idle_seconds * 100:.1f} % "
                f"of one core ({self.idle_seconds:g} s)"
            )
        if self.held_cpu is not None and self.idle_seconds > 0 and self.ready:
            out.append(
                f"server CPU with the tables set up, before the first act: "
                f"{self.held_cpu / self.idle_seconds * 100:.1f} % of one core "
                f"({self.idle_seconds:g} s)"
            )
        if self.server_cpu is not None:
            per_move = self.server_cpu * 1000 / self.moves if self.moves else math.nan
            out.append(
                f"server CPU: {per_move:.3f} ms/move ({self.server_cpu:.2f} s, "
                f"{self.server_cpu / play * 100:.0f} % of one core)"
            )
        own = self.client_cpu / play * 100 if self.play_seconds > 0 else 0.0
        warn = "  <- SATURATED: the client limits these figures" if own > 85 else ""
        out.append(f"client CPU: {own:.0f} % of one core{warn}")
        out.append(f"load average: {self.loadavg_before} before, {self.loadavg_after} after")
        if self.refused:
            out.append(
                "refused acts: " + ", ".join(f"{k} {v}" for k, v in self.refused.most_common())
            )
        out.append(f"failed tables: {sum(self.failures.values())}")
        out.extend(f"  {n} x {reason}" for reason, n in self.failures.most_common())
        return out


async def measure(
    url: str,
    tables: int,
    *,
    moves: int = 60,
    server_pid: int | None = None,
    concurrency: int = 0,
    timeout: float = 60.0,
    max_seconds: float = 900.0,
    seed: int = 1,
    legal: bool = True,
    idle_seconds: float = 5.0,
    keep_alive: float = 2.0,
) -> Figures:
    """Set up `tables` tables, play each to `moves` moves in lockstep; the figures."""
    run = Run(url.rstrip("/"), moves, timeout, seed, legal, keep_alive)
    every = [Table(run, i) for i in range(tables)]
    slots = asyncio.Semaphore(concurrency if concurrency > 0 else tables)
    load_before = load_average()
    idle0 = cpu_seconds(server_pid) if server_pid else 0.0
    await asyncio.sleep(idle_seconds)
    idle1 = cpu_seconds(server_pid) if server_pid else 0.0

    async def set_up(table: Table) -> bool:
        async with slots:
            try:
                await table.set_up()
                return True
            except Exception as exc:
                run.failures[f"set-up: {reason(exc)}"] += 1
                return False

    t0, setup_own0 = time.perf_counter(), time.process_time()
    ok = await asyncio.gather(*(set_up(t) for t in every))
    setup = time.perf_counter() - t0
    setup_own = time.process_time() - setup_own0
    setup_cpu = cpu_seconds(server_pid) - idle1 if server_pid else None
    ready = [t for t, good in zip(every, ok, strict=True) if good]
    held0 = cpu_seconds(server_pid) if server_pid else 0.0
    if ready:
        await asyncio.sleep(idle_seconds)
    held1 = cpu_seconds(server_pid) if server_pid else 0.0

    async def play(table: Table) -> None:
        try:
            await table.play()
        except Exception as exc:
            run.failures[f"play: {reason(exc)}"] += 1

    cpu0 = cpu_seconds(server_pid) if server_pid else 0.0
    own0 = time.process_time()
    states0 = run.states
    start = time.perf_counter()
    tasks = [asyncio.create_task(play(t)) for t in ready]
    _, late = await asyncio.wait(tasks, timeout=max_seconds) if tasks else (set(), set())
    end = time.perf_counter()
    cpu1 = cpu_seconds(server_pid) if server_pid else 0.0
    own1 = time.process_time()
    states = run.states - states0
    run.stopping = True
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    if late:
        run.failures[f"play: not done in {max_seconds:g} s"] += len(late)
    await asyncio.gather(*(t.close() for t in every), return_exceptions=True)
    return Figures(
        tables=tables,
        ready=len(ready),
        setup_seconds=setup,
        play_seconds=end - start,
        moves=run.moves,
        server_cpu=(cpu1 - cpu0) if server_pid else None,
        setup_cpu=setup_cpu,
        setup_client_cpu=setup_own,
        idle_cpu=(idle1 - idle0) if server_pid else None,
        held_cpu=(held1 - held0) if server_pid else None,
        idle_seconds=idle_seconds,
        client_cpu=own1 - own0,
        latencies=run.latencies,
        games_finished=run.games_finished,
        rematches=run.rematches,
        states=states,
        refused=run.refused,
        failures=run.failures,
        loadavg_before=load_before,
        loadavg_after=load_average(),
    )


def reason(exc: BaseException) -> str:
    if isinstance(exc, Failed):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {str(exc)[:80]}"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (bench/lockstep.py) for the method.",
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table")
    parser.add_argument("--server-pid", type=int, help="the server process, for its CPU")
    parser.add_argument("--concurrency", type=int, default=0, help="tables set up at once (0: all)")
    parser.add_argument("--timeout", type=float, default=60, help="bound of every wait, s")
    parser.add_argument("--max-seconds", type=float, default=900, help="bound of the play, s")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=5,
        help="measure the server's CPU this long before set-up (no tables) and after it (the "
        "tables open, no act): its per-second baseline",
    )
    parser.add_argument(
        "--keep-alive",
        type=float,
        default=2.0,
        help="seconds a guest keeps an idle connection: under the server's idle timeout "
        "(uvicorn's and Node's default 5 s; Stolik's 75 s: use 60)",
    )
    parser.add_argument(
        "--no-legal",
        action="store_true",
        help="seats' sockets without ?legal=1 (the client knows Incan Gold's torch/camp)",
    )
    return parser.parse_args(argv)


async def wait_for_server(url: str, seconds: float) -> None:
    """Until the server answers (it may still be starting, e.g. `scripts/run.sh &`)."""
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=5) as http:
        while True:
            try:
                if (await http.get(url.rstrip("/") + "/api/games")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"no server answers at {url} after {seconds:g} s")
            await asyncio.sleep(0.5)


async def main(argv: list[str] | None = None) -> Figures:
    args = parse_args(argv)
    await wait_for_server(args.url, max(args.timeout, 120))
    if args.server_pid:
        cpu_seconds(args.server_pid)  # fails now if there is no such process
    print(
        f"lockstep: {args.tables} tables x ({SEATS} seats + {SPECTATORS} spectator), "
        f"{args.moves} moves each, {args.url}",
        flush=True,
    )
    figures = await measure(
        args.url,
        args.tables,
        moves=args.moves,
        server_pid=args.server_pid,
        concurrency=args.concurrency,
        timeout=args.timeout,
        max_seconds=args.max_seconds,
        seed=args.seed,
        legal=not args.no_legal,
        idle_seconds=args.idle_seconds,
        keep_alive=args.keep_alive,
    )
    print("\n".join(figures.lines()), flush=True)
    return figures


if __name__ == "__main__":
    asyncio.run(main())
