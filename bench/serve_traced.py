"""Start the server as scripts/run.sh does, with its memory traced (tracemalloc) on demand.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/stolik_bench \\
        CREATE_RATE_COUNT=0 .venv/bin/python -m bench.serve_traced --port 8000 \\
        --dir /tmp/stolik-trace &
    SERVER_PID=$!
    .venv/bin/python bench/sockets.py --server-pid $SERVER_PID --trace-dir /tmp/stolik-trace ...

Each SIGUSR1 is a mark. The first one starts tracemalloc (what was allocated before is not
traced, so start-up and warm-up do not weigh on the tracer); every mark then writes to
`--dir`, named by the mark's number N:

- `N.raw`: a tracemalloc snapshot of what is allocated now, unreachable reference cycles
  included (the app freezes what is alive every second, so such garbage waits for the next
  full collection: up to `app.memory.FULL_EVERY` seconds);
- `N.live`: a snapshot after a full collection (the permanent generation thawed, collected,
  frozen again): what is really reachable;
- `N.types`: JSON, the count of live objects tracked by the collector by type name;
- `N.done`: written last (the snapshots are complete).

`bench/sockets.py --trace-dir` sends the marks and prints the difference per socket. The
tracer slows the server several fold: read memory per socket from it, never CPU or time.
A tool that prints figures, not a test; it changes nothing in the app.
"""

from __future__ import annotations

import argparse
import gc
import json
import signal
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import uvicorn


class Marks:
    """The SIGUSR1 handler: start tracing, then write snapshots."""

    def __init__(self, where: Path, frames: int) -> None:
        self.where = where
        self.frames = frames
        self.count = 0

    def __call__(self, signum: int, frame: Any) -> None:
        n = self.count
        self.count += 1
        if not tracemalloc.is_tracing():
            tracemalloc.start(self.frames)
        tracemalloc.take_snapshot().dump(str(self.where / f"{n}.raw"))
        gc.unfreeze()
        gc.collect()
        census = Counter(type(o).__qualname__ for o in gc.get_objects())
        gc.freeze()
        tracemalloc.take_snapshot().dump(str(self.where / f"{n}.live"))
        (self.where / f"{n}.types").write_text(json.dumps(census))
        (self.where / f"{n}.done").write_text("")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, required=True, help="where the snapshots go")
    parser.add_argument("--frames", type=int, default=8, help="frames kept per allocation")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    for old in args.dir.iterdir():
        if old.suffix in (".raw", ".live", ".types", ".done"):
            old.unlink()
    signal.signal(signal.SIGUSR1, Marks(args.dir, args.frames))
    config = uvicorn.Config(
        "app.main:app",
        host=args.host,
        port=args.port,
        ws="app.realtime.transport:StolikWebSockets",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        proxy_headers=True,
    )
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
