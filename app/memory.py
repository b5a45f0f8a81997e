"""Memory: giving it back to the operating system, and a garbage collector tuned for a server.

Giving back: CPython frees a closed socket's objects, but glibc's allocator keeps the freed
pages in the process (its arenas), so the server's memory stayed at its peak after 2,000
sockets closed. `malloc_trim(0)` asks glibc to return them. It is called by the clock ticker
when at least `TRIM_AFTER_CLOSED` connections have closed since the last call; elsewhere than
glibc it is a no-op.

The cyclic garbage collector. CPython runs a young-generation collection every 700 net
container allocations and a full one, which walks every live object, every few hundred young
ones once the long-lived set has grown by a quarter. A server holds a few hundred thousand
long-lived objects (modules, templates, catalogues, compiled statements, tables), so on the
load benchmark (IG, 10 tables, JSON) collections took 13 % of the server's CPU, a full one
~160 ms, and their cost grew with the number of tables. `tune_gc()`, called once the app has
started, moves everything alive at that point into the permanent generation (`gc.freeze()`:
never walked again; still freed by reference counting) and makes young collections rarer
(`GC_THRESHOLDS`). Reference cycles still get collected, a little later: at most ~100,000
young container objects wait, some MB (and see `Refreezer`).

What the server builds after start-up (live tables, their games' logs, sockets, the
presentation's caches) is long-lived too, and grows with the number of tables and moves (the
log of a game in progress only grows): young collections found almost nothing to collect
(a few hundred objects in 30 s of play), only walked survivors and promoted them, and the
full collections then walked everything the tables hold, so the collector's cost per move
grew with the table count. `Refreezer` (called by the clock ticker, every second) therefore
freezes again whatever is alive, every `REFREEZE_EVERY` seconds: `gc.freeze()` only moves
lists (no walk), resets the young count, and at a few hundred moves per second the young
generation then rarely fills up between two ticks. Reference cycles that become garbage
once frozen are not collected by the cycle collector: every `FULL_EVERY` seconds the
permanent generation is thawed, fully collected and frozen again (one walk of the heap,
~0.1–1 s of CPU at 100–500 tables), which bounds what such cycles can hold. The server makes
few cycles (table collaborators hold their table weakly): ~200 collectable objects in 30 s of
play at 100 tables.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable

logger = logging.getLogger("stolik.memory")

TRIM_AFTER_CLOSED = 200
"""Connections closed since the last trim that make the next one worth its few milliseconds."""


GC_THRESHOLDS = (100_000, 10, 10)
"""`gc.set_threshold`: young collections every 100,000 net allocations instead of 700; the
older generations keep their ratios to it (10, 10). With 20,000, at 500 saturated tables
(~15,000 net allocations a second) a young collection still ran every second or so between
two freezes (`Refreezer`), walked ~20,000 objects (~28 ms of CPU on a loaded machine) and
collected nothing; 100,000 is not reached between two freezes a second apart."""

_tuned = False


def tune_gc() -> bool:
    """Freeze what is alive now and raise the collector's thresholds; once per process.

    Call it after start-up work (imports, templates, catalogues) so that those objects are
    frozen. True if it did (the first call), False afterwards.
    """
    global _tuned
    if _tuned:
        return False
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    logger.info("gc tuned frozen=%d thresholds=%s", gc.get_freeze_count(), GC_THRESHOLDS)
    return True


REFREEZE_EVERY = 1.0
"""Seconds between two freezes of what is alive (the ticker calls at most once a second)."""

FULL_EVERY = 600.0
"""Seconds between two full collections (thaw, collect every generation, freeze again)."""


class Refreezer:
    """Freezes what survived since the last time, now and then (see the module's note)."""

    __slots__ = ("_last", "_last_full", "every", "freezes", "full_every", "fulls")

    def __init__(
        self,
        every: float = REFREEZE_EVERY,
        full_every: float = FULL_EVERY,
        now: float | None = None,
    ) -> None:
        now = time.monotonic() if now is None else now
        self.every = every
        self.full_every = full_every
        self.freezes = 0
        self.fulls = 0
        self._last = now
        self._last_full = now

    def maybe_freeze(self, now: float) -> bool:
        """If `every` seconds have passed (and the collector was tuned): freeze what is
        alive; every `full_every` seconds thaw and collect everything first. True if it
        froze."""
        if not _tuned or now - self._last < self.every:
            return False
        self._last = now
        if now - self._last_full >= self.full_every:
            self._last_full = now
            self.fulls += 1
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        self.freezes += 1
        return True


def _load_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _load_trim()


class Trimmer:
    """Counts closed connections and trims the heap once enough have closed."""

    def __init__(self, threshold: int = TRIM_AFTER_CLOSED) -> None:
        self.threshold = threshold
        self.closed = 0
        self.trims = 0

    def closed_one(self) -> None:
        """A connection closed."""
        self.closed += 1

    def maybe_trim(self) -> bool:
        """Trim if enough connections closed since the last time; True if it trimmed."""
        if self.closed < self.threshold or _TRIM is None:
            return False
        self.closed = 0
        self.trims += 1
        _TRIM(0)
        return True
