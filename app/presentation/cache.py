"""The presentation's caches, keyed by what the table hands out (app/table/snapshot.py), so
that a drawing is made once however many sockets read it, and dropped with the snapshot it
was made from. The table holds none of them.

Three lifetimes:
- `for_frame`: a game's version and table revision (`GameFrame`) — the board, cut at its
  markers, and the log's fragments: what does not change when people come and go or time
  passes.
- `for_snapshot`: one snapshot (also who is online) — names.
- `for_moment`: one snapshot and half second (the clocks in the table info are shown to the
  half second) — pages, JSON messages, the table info, the seats bar. A watched table where
  nobody moves keeps one moment's drawings, not one per half second.
"""

from __future__ import annotations

import weakref
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from app.table.snapshot import GameFrame, Snapshot

Cache = dict[tuple[Any, ...], Any]
K = TypeVar("K", GameFrame, Snapshot)
V = TypeVar("V")


class _Kept(Generic[K, V]):
    """Values by weak key (they go with their key), the last key's value at hand: the sockets
    of one table are written one after another, and a weak dictionary's lookup makes a weak
    reference each time (a tenth of a page's cost at Incan Gold)."""

    __slots__ = ("_by_key", "_last_key", "_last_value")

    def __init__(self) -> None:
        self._by_key: WeakKeyDictionary[K, V] = WeakKeyDictionary()
        self._last_key: weakref.ref[K] | None = None
        self._last_value: V | None = None

    def get(self, key: K) -> V | None:
        last = self._last_key
        if last is not None and last() is key:
            return self._last_value
        value = self._by_key.get(key)
        if value is not None:
            self._last_key, self._last_value = weakref.ref(key), value
        return value

    def put(self, key: K, value: V) -> V:
        self._by_key[key] = value
        self._last_key, self._last_value = weakref.ref(key), value
        return value


_frames: _Kept[GameFrame, Cache] = _Kept()
_snapshots: _Kept[Snapshot, Cache] = _Kept()
_moments: _Kept[Snapshot, tuple[int, Cache]] = _Kept()


def for_frame(frame: GameFrame | None) -> Cache:
    """What is drawn once per game version and table revision."""
    if frame is None:
        return {}  # nothing of a game to keep
    cache = _frames.get(frame)
    return _frames.put(frame, {}) if cache is None else cache


def for_snapshot(snapshot: Snapshot) -> Cache:
    """What is made once per snapshot."""
    cache = _snapshots.get(snapshot)
    return _snapshots.put(snapshot, {}) if cache is None else cache


def for_moment(snapshot: Snapshot) -> Cache:
    """What shows the moment: made once per snapshot and half second, the previous half
    second's dropped."""
    half = int(snapshot.now() * 2)
    kept = _moments.get(snapshot)
    if kept is None or kept[0] != half:
        kept = _moments.put(snapshot, (half, {}))
    return kept[1]


def held(snapshot: Snapshot) -> int:
    """How many drawings are kept for `snapshot` (its frame's, its own and its moment's)."""
    moment = _moments.get(snapshot)
    frame = _frames.get(snapshot.game) if snapshot.game is not None else None
    return (
        len(frame or ())
        + len(_snapshots.get(snapshot) or ())
        + (len(moment[1]) if moment is not None else 0)
    )
