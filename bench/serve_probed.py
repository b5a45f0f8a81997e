"""Start the server as scripts/run.sh does, with probes on where a move's time goes.

    CREATE_RATE_COUNT=0 ACT_RATE_COUNT=0 ACT_RATE_ADDRESS_COUNT=0 \\
        .venv/bin/python -m bench.serve_probed --port 8340 &
    SERVER_PID=$!
    .venv/bin/python bench/load.py --url http://127.0.0.1:8340 --tables 10 --format json \\
        --warmup 10 --seconds 30 --server-pid $SERVER_PID --signal-server
    kill -INT $SERVER_PID

At each SIGUSR1 (`bench/load.py --signal-server` sends one as the measured window starts and
one as it ends) it prints the figures since the last one and starts again:

- the event loop's lag: a task asks to wake every 5 ms and records how late it wakes
  (p50/p99/max, ms): what any callback, a state sent or an act read, waits for its turn;
  and the same lateness counted in the loop thread's CPU (the CPU it spent meanwhile, less
  the 5 ms): about what the lag would be with a core of its own, without the kernel's waits;
- callbacks that took 10 ms or more of the loop's CPU (count, the worst and where it came
  from): whatever blocks the loop (`--loop asyncio` only: under uvloop, which uvicorn takes
  when it is installed, callbacks cannot be timed), the SQLite write gate's holds of 10 ms or
  more (and who held it), statements that took 5 ms or more of the loop's CPU, and the
  cyclic garbage collector's collections of 10 ms or more (all of them timed by generation);
- the store's calls (every coroutine method of the `Store` the app made, wrapped): count and
  p50/p99/max of each, ms, from the call to its return (a move's write, a rematch's reads);
  every statement on the app's engine, reads and writes apart (wall time, and the loop
  thread's CPU time in it); how long the SQLite write gate was held (wall, loop CPU);
- where the holder of the SQLite write gate was suspended, if it was, when the lag probe
  ran (its task's coroutines, innermost first): a holder that waits for a turn of the loop
  keeps every other writer waiting that long;
- the loop thread's time on a CPU and its time runnable but waiting for a CPU (the kernel's
  run queue, /proc schedstat): what a loaded machine takes from the server;
- the CPU time of each of the process's threads since the last signal (from /proc): the loop's
  thread against the database connections' threads and the checkpointer.

The probes cost some CPU themselves (two clock reads per callback): compare runs with probes
against runs with probes, and take CPU per move from runs of `scripts/run.sh`'s server if it
matters. A tool that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import os
import signal
import sys
import threading
import time
from collections import defaultdict
from typing import Any

import uvicorn

SLOW = 0.010


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


class Probes:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.lags: list[float] = []
        self.cpu_lags: list[float] = []
        self.slow: list[tuple[float, str]] = []
        self.suspended: dict[str, int] = defaultdict(int)
        self.calls: dict[str, list[float]] = defaultdict(list)
        self.threads = thread_cpu()
        self.sched = loop_schedstat()
        self.cpu = time.process_time()
        self.t0 = time.perf_counter()

    def report(self) -> str:
        wall = time.perf_counter() - self.t0
        cpu = time.process_time() - self.cpu
        lines = [
            f"probes over {wall:.1f} s: process cpu {cpu:.2f} s ({cpu / wall:.0%} of a core), "
            f"load average {os.getloadavg()[0]:.1f}"
        ]
        lag = [x * 1000 for x in self.lags]
        lines.append(
            f"  loop lag ms: n {len(lag)} p50 {pct(lag, 0.5):.1f} p95 {pct(lag, 0.95):.1f} "
            f"p99 {pct(lag, 0.99):.1f} max {max(lag, default=0):.1f}"
        )
        lag = [x * 1000 for x in self.cpu_lags]
        lines.append(
            f"  loop lag in the loop's CPU (what it would be with a core of its own) ms: "
            f"p50 {pct(lag, 0.5):.1f} p95 {pct(lag, 0.95):.1f} p99 {pct(lag, 0.99):.1f} "
            f"max {max(lag, default=0):.1f}"
        )
        slow = sorted(self.slow, reverse=True)
        total = sum(s for s, _ in slow)
        lines.append(
            f"  slow (callbacks >= {SLOW * 1000:.0f} ms cpu, not under uvloop; gate holds; gc; "
            f"statements >= 5 ms cpu): {len(slow)} ({total * 1000:.0f} ms in all)"
        )
        for seconds, where in slow[:8]:
            lines.append(f"    {seconds * 1000:6.1f} ms  {where[:150]}")
        if self.suspended:
            lines.append(
                "  where a holder of the gate was suspended (seen by the lag probe, samples):"
            )
            for where, n in sorted(self.suspended.items(), key=lambda kv: -kv[1])[:6]:
                lines.append(f"    {n:5d}  {where[:300]}")
        from app.store import sqlite

        lines.append(
            "  reads over budget, sent to the thread (since start): "
            f"{getattr(sqlite.WritingConnection, 'reads_in_thread', '-')}"
        )
        for name, values in sorted(self.calls.items(), key=lambda kv: -len(kv[1])):
            ms = [v * 1000 for v in values]
            lines.append(
                f"  store.{name}: n {len(ms)} p50 {pct(ms, 0.5):.2f} p99 {pct(ms, 0.99):.1f} "
                f"max {max(ms):.1f} ms"
            )
        on_cpu, waiting, slices = (b - a for a, b in zip(self.sched, loop_schedstat(), strict=True))
        lines.append(
            f"  loop thread: on a CPU {on_cpu / 1e9:.2f} s, runnable but waiting for a CPU "
            f"{waiting / 1e9:.2f} s ({waiting / 1e9 / wall:.0%} of the time), {slices} slices"
        )
        now = thread_cpu()
        for name, seconds in sorted(now.items()):
            spent = seconds - self.threads.get(name, 0.0)
            if spent > 0.005:
                lines.append(f"  thread {name}: cpu {spent:.2f} s")
        return "\n".join(lines)


def loop_schedstat() -> tuple[int, int, int]:
    """The main thread's nanoseconds on a CPU, nanoseconds runnable but waiting for one (in
    the run queue) and time slices so far (/proc/self/task/PID/schedstat)."""
    with open(f"/proc/self/task/{os.getpid()}/schedstat") as f:
        on_cpu, waiting, slices = (int(x) for x in f.read().split())
    return on_cpu, waiting, slices


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process, by name (threads of one name summed)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = defaultdict(float)
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        name = "loop (main)" if int(tid) == os.getpid() else "others (database, checkpoint)"
        fields = raw[raw.rindex(")") + 2 :].split()
        out[name] += (int(fields[11]) + int(fields[12])) / tick
    return out


PROBES = Probes()


def probe_callbacks() -> None:
    """Time every callback the loop runs (asyncio.Handle._run); keep the slow ones."""
    original = asyncio.events.Handle._run
    clock = time.thread_time

    def _run(self: asyncio.Handle) -> None:
        t0 = clock()
        original(self)
        spent = clock() - t0
        if spent >= SLOW:
            PROBES.slow.append((spent, f"callback with {spent * 1000:.1f} ms cpu: {self!r}"))

    asyncio.events.Handle._run = _run  # type: ignore[method-assign]


GATE_HOLDER: dict[str, Any] = {}


async def lag_probe(every: float = 0.005) -> None:
    clock, cpu = time.perf_counter, time.thread_time
    while True:
        t0, c0 = clock(), cpu()
        await asyncio.sleep(every)
        PROBES.lags.append(clock() - t0 - every)
        PROBES.cpu_lags.append(max(0.0, cpu() - c0 - every))
        holder = GATE_HOLDER.get("task")
        gate = GATE_HOLDER.get("gate")
        if holder is not None and gate is not None and gate.locked and not holder.done():
            frames: list[Any] = []
            coro = holder.get_coro()
            while coro is not None and len(frames) < 60:
                frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
                if frame is not None:
                    frames.append(frame)
                coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            where = " < ".join(
                f"{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno} {f.f_code.co_name}"
                for f in reversed(frames[-8:])
            )
            PROBES.suspended[where] += 1


def probe_store(store: Any) -> None:
    """Wrap every coroutine method of `store` to time it."""
    for name in dir(type(store)):
        if name.startswith("_"):
            continue
        method = getattr(store, name, None)
        if not inspect.iscoroutinefunction(method):
            continue

        def wrap(fn: Any, label: str) -> Any:
            @functools.wraps(fn)
            async def timed(*args: Any, **kwargs: Any) -> Any:
                t0 = time.perf_counter()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    PROBES.calls[label].append(time.perf_counter() - t0)

            return timed

        setattr(store, name, wrap(method, name))


def probe_gc() -> None:
    """Time the cyclic collector's collections (wall), by generation."""
    import gc

    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            spent = time.perf_counter() - started.pop()
            PROBES.calls[f"(gc) generation {info['generation']}"].append(spent)
            if spent >= SLOW:
                PROBES.slow.append((spent, f"gc generation {info['generation']}"))

    gc.callbacks.append(callback)


def probe_statements(engine: Any) -> None:
    """Time every statement from before its execution to after it (the hop to the
    connection's thread and back included), reads and writes apart."""
    from sqlalchemy import event

    from app.store.sqlite import is_write

    @event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        conn.info.setdefault("probe_t0", []).append((time.perf_counter(), time.thread_time()))

    @event.listens_for(engine, "after_cursor_execute")
    def _after(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        stack = conn.info.get("probe_t0")
        if stack:
            label = "(statement) write" if is_write(statement) else "(statement) read"
            t0, c0 = stack.pop()
            PROBES.calls[label].append(time.perf_counter() - t0)
            cpu = time.thread_time() - c0
            PROBES.calls[label + " loop cpu"].append(cpu)
            if cpu >= 0.005:
                PROBES.slow.append((cpu, f"statement with {cpu * 1000:.1f} ms cpu: {statement}"))


def probe_gate() -> None:
    """Time how long each holder keeps the SQLite write gate (app/store/sqlite.py), and name
    the task that held it longest."""
    try:
        from app.store.sqlite import WriteGate
    except ImportError:
        return
    clock = time.perf_counter

    def holder() -> str:
        task = asyncio.current_task()
        if task is None:
            return "?"
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}" if frame else ""
        return f"{getattr(coro, '__qualname__', coro)} {where}"

    take, acquire, release = WriteGate.try_acquire, WriteGate.acquire, WriteGate.release

    def try_acquire(self: Any) -> bool:
        ok = take(self)
        if ok:
            self._probe = (clock(), None, time.thread_time())
            GATE_HOLDER["task"] = asyncio.current_task()
            GATE_HOLDER["gate"] = self
        return ok

    async def acquire_(self: Any) -> None:
        await acquire(self)
        self._probe = (self._probe[0], holder(), self._probe[2])

    def release_(self: Any) -> None:
        t0, who, c0 = getattr(self, "_probe", (clock(), None, time.thread_time()))
        held = clock() - t0
        PROBES.calls["(gate) held"].append(held)
        PROBES.calls["(gate) held, loop cpu"].append(time.thread_time() - c0)
        if held >= SLOW:
            PROBES.slow.append((held, f"gate held by {who or holder()}"))
        release(self)
        if self.locked:
            self._probe = (clock(), None, time.thread_time())

    WriteGate.try_acquire = try_acquire  # type: ignore[method-assign]
    WriteGate.acquire = acquire_  # type: ignore[method-assign]
    WriteGate.release = release_  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--loop",
        default="auto",
        help="uvicorn's loop: auto (uvloop when installed, as scripts/run.sh) or asyncio "
        "(slower, but every callback's CPU is timed)",
    )
    args = parser.parse_args()
    threading.current_thread().name = "loop"

    def usr1(signum: int, frame: Any) -> None:
        print(PROBES.report(), file=sys.stderr, flush=True)
        PROBES.reset()

    signal.signal(signal.SIGUSR1, usr1)
    probe_callbacks()
    probe_gate()
    probe_gc()

    from app.main import app

    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        loop=args.loop,
        ws="app.realtime.transport:StolikWebSockets",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        proxy_headers=True,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    started = server.startup

    async def startup(*a: Any, **kw: Any) -> None:
        await started(*a, **kw)
        probe_store(app.state.tables.store)
        probe_statements(app.state.db.sync_engine)
        task = asyncio.create_task(lag_probe())
        PROBES.__dict__["task"] = task  # keep a reference
        PROBES.reset()

    server.startup = startup  # type: ignore[method-assign]
    server.run()
    print(PROBES.report(), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
