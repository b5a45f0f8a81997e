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

from typing import Any
from weakref import WeakKeyDictionary

from app.table.snapshot import GameFrame, Snapshot

Cache = dict[tuple[Any, ...], Any]

_frames: WeakKeyDictionary[GameFrame, Cache] = WeakKeyDictionary()
_snapshots: WeakKeyDictionary[Snapshot, Cache] = WeakKeyDictionary()
_moments: WeakKeyDictionary[Snapshot, tuple[int, Cache]] = WeakKeyDictionary()


def for_frame(frame: GameFrame | None) -> Cache:
    """What is drawn once per game version and table revision."""
    if frame is None:
        return {}  # nothing of a game to keep
    cache = _frames.get(frame)
    if cache is None:
        cache = _frames[frame] = {}
    return cache


def for_snapshot(snapshot: Snapshot) -> Cache:
    """What is made once per snapshot."""
    cache = _snapshots.get(snapshot)
    if cache is None:
        cache = _snapshots[snapshot] = {}
    return cache


def for_moment(snapshot: Snapshot) -> Cache:
    """What shows the moment: made once per snapshot and half second, the previous half
    second's dropped."""
    half = int(snapshot.now() * 2)
    kept = _moments.get(snapshot)
    if kept is None or kept[0] != half:
        kept = _moments[snapshot] = (half, {})
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
