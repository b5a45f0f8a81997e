"""Giving memory back to the operating system after many connections closed.

CPython frees a closed socket's objects, but glibc's allocator keeps the freed pages in the
process (its arenas), so the server's memory stayed at its peak after 2,000 sockets closed.
`malloc_trim(0)` asks glibc to return them. It is called by the clock ticker when at least
`TRIM_AFTER_CLOSED` connections have closed since the last call; elsewhere than glibc it is a
no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

logger = logging.getLogger("stolik.memory")

TRIM_AFTER_CLOSED = 200
"""Connections closed since the last trim that make the next one worth its few milliseconds."""


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
