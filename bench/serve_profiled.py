"""Start the server as scripts/run.sh does, with the collector measured (and optionally profiled).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/stolik_bench \\
        CREATE_RATE_COUNT=0 ACT_RATE_COUNT=0 \\
        .venv/bin/python -m bench.serve_profiled --port 8000 [--profile out.prof] &
    SERVER_PID=$!
    ... bench/load.py --server-pid $SERVER_PID ...
    curl -s http://127.0.0.1:8000/...   # any traffic
    kill -USR1 $SERVER_PID   # print the collector figures so far and reset them
    kill -INT $SERVER_PID    # stop: print the figures (and write the profile)

The collector figures come from `gc.callbacks`: how many collections of each generation ran,
the process CPU time spent in them (`time.thread_time` between the "start" and "stop" calls,
so other processes on a loaded machine do not count), its share of the process CPU time since
the last reset, the objects each collection examined (the young ones for a generation 0
collection) and the young objects alive at the last one. With `--profile` the whole run is
under cProfile (which slows it: use it for where, not for how much). A tool that prints
figures, not a test; it changes nothing in the app.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import signal
import sys
import time
from typing import Any

import uvicorn


class GcMeter:
    """Sums the collector's CPU time and work, from `gc.callbacks`."""

    def __init__(self) -> None:
        self._t0 = 0.0  # not reset: a signal handler may reset between "start" and "stop"
        self.reset()

    def reset(self) -> None:
        self.runs = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.collected = 0
        self.young_alive_max = 0
        self.young_alive_sum = 0
        self.started_cpu = time.process_time()

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if info["generation"] == 0:
                young = gc.get_count()[0]
                self.young_alive_sum += young
                self.young_alive_max = max(self.young_alive_max, young)
            self._t0 = time.thread_time()
            return
        gen = info["generation"]
        self.runs[gen] += 1
        self.seconds[gen] += time.thread_time() - self._t0
        self.collected += info["collected"]

    def report(self, census: bool = False) -> str:
        cpu = time.process_time() - self.started_cpu
        spent = sum(self.seconds)
        share = spent / cpu if cpu else 0.0
        runs = "/".join(str(n) for n in self.runs)
        ms = "/".join(f"{s * 1000:.0f}" for s in self.seconds)
        young_mean = self.young_alive_sum / self.runs[0] if self.runs[0] else 0
        return (
            f"gc: process cpu {cpu:.2f} s, collector {spent * 1000:.0f} ms ({share:.1%}); "
            f"runs gen0/1/2 {runs}, ms {ms}; collected {self.collected}; "
            f"young pending at a gen-0 run mean {young_mean:.0f} max {self.young_alive_max}; "
            f"by generation now {gc.get_count()} frozen {gc.get_freeze_count()} "
            f"thresholds {gc.get_threshold()}"
            # counting every tracked object takes ~1 s at 500 tables: at the end only
            + (f"; tracked (not frozen) {len(gc.get_objects())}" if census else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--profile", help="write a cProfile of the whole run to this file")
    parser.add_argument(
        "--profile-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="the profile's clock: wall time, or the main thread's CPU time (time spent "
        "waiting, e.g. in a C-level coroutine awaiting the database, then counts nothing)",
    )
    args = parser.parse_args()
    meter = GcMeter()
    gc.callbacks.append(meter)

    def usr1(signum: int, frame: Any) -> None:
        print(meter.report(), file=sys.stderr, flush=True)
        meter.reset()

    signal.signal(signal.SIGUSR1, usr1)
    config = uvicorn.Config(
        "app.main:app",
        host=args.host,
        port=args.port,
        ws="app.realtime.transport:StolikWebSockets",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        proxy_headers=True,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    clock = time.thread_time if args.profile_clock == "cpu" else time.perf_counter
    profiler = cProfile.Profile(clock) if args.profile else None
    if profiler:
        profiler.enable()
    try:
        server.run()
    finally:
        if profiler:
            profiler.disable()
            profiler.dump_stats(args.profile)
        print(meter.report(census=True), file=sys.stderr, flush=True)
        # What one full round of app.memory.Refreezer costs with this heap (thaw, collect).
        gc.unfreeze()
        t0 = time.thread_time()
        gc.collect()
        spent = time.thread_time() - t0
        print(
            f"full collection of the whole heap: {spent * 1000:.0f} ms CPU, "
            f"{len(gc.get_objects())} tracked objects",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
