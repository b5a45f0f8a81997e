"""The game log in words: each line's text made once per language and names, and the lines
each audience may read (the engine's events carry their audience; the table judges each line
once per audience, `GameFrame.readable_lines`)."""

from __future__ import annotations

import bisect
import re
from typing import Any
from weakref import WeakKeyDictionary

from app import i18n
from app.presentation import cache
from app.table.live import LogKey
from app.table.snapshot import GameFrame, Snapshot
from engines.core import Seat

_SEAT_REF = re.compile(r"\{p(\d+)\}")

Lines = tuple[list[str], list[dict[str, Any]]]
_words: WeakKeyDictionary[LogKey, dict[tuple[Any, ...], Lines]] = WeakKeyDictionary()
"""By game log: its lines' texts and JSON entries by (language, names), in log order,
extended as the log grows (a new move adds its own lines only)."""


Names = tuple[dict[Seat, str], tuple[tuple[Seat, str, str], ...]]


def _names_now(snapshot: Snapshot) -> Names:
    """(names by seat, (seat, name, grammar) sorted by seat) in the current language: what
    the log's texts are made from besides the language (`grammar`: how each seat's person
    is spoken of, "she", "he" or "neutral")."""
    kept = cache.for_snapshot(snapshot)
    key = ("names", i18n.current())
    names: Names | None = kept.get(key)
    if names is None:
        by_seat = {seat: info.shown_name for seat, info in snapshot.seats.items()}
        names = kept[key] = (
            by_seat,
            tuple(
                (seat, by_seat[seat], info.grammar) for seat, info in sorted(snapshot.seats.items())
            ),
        )
    return names


def names(snapshot: Snapshot) -> dict[Seat, str]:
    """Display names by seat, in the current language (a bot's name is translated); not to
    be changed by the caller."""
    return _names_now(snapshot)[0]


def fill_names(snapshot: Snapshot, text: str) -> str:
    """Replace `{pN}` seat references by display names."""
    by_seat = names(snapshot)
    return _SEAT_REF.sub(
        lambda m: (
            by_seat.get(int(m.group(1))) or i18n.gettext("Seat %(n)s") % {"n": int(m.group(1)) + 1}
        ),
        text,
    )


def basis(snapshot: Snapshot) -> tuple[Any, ...] | None:
    """What the log's texts are made from: the game, the language and the names (and how
    each person is spoken of). A client that was sent lines on the same basis may be sent
    only the newer ones; on another (a seat renamed, a bot sat down, another language) it
    needs them all again."""
    game = snapshot.game
    if game is None:
        return None
    return (game.db_id, i18n.current(), _names_now(snapshot)[1])


def lines_for(
    snapshot: Snapshot, seat: Seat | None, after_version: int = -1, last: int | None = None
) -> list[str]:
    """The log lines `seat` may read, for versions after `after_version` (only the `last`
    ones if given)."""
    game = snapshot.game
    if game is None:
        return []
    texts = _lines(snapshot, game)[0]
    picked = _readable_after(game, seat, after_version)
    if last is not None:
        picked = picked[max(0, len(picked) - last) :]
    return [texts[i] for i in picked]


def entries_for(
    snapshot: Snapshot, seat: Seat | None, after_version: int = -1
) -> list[dict[str, Any]]:
    """The same lines as `lines_for`, for JSON clients: the English message id, its plural
    form, the parameters (seats as `{pN}`), the version, and the text as `lines_for` has it."""
    game = snapshot.game
    if game is None:
        return []
    texts, entries = _lines(snapshot, game)
    for i in range(len(entries), len(texts)):
        v, e = game.log[i]
        data = e.to_json()
        entries.append(
            {
                "version": v,
                "key": data["text"],
                "plural": data.get("plural"),
                "params": data.get("params", {}),
                "text": texts[i],
            }
        )
    return [entries[i] for i in _readable_after(game, seat, after_version)]


def texts(snapshot: Snapshot) -> list[str]:
    """Every log line's text in the current language with the snapshot's names."""
    game = snapshot.game
    return [] if game is None else _lines(snapshot, game)[0]


def _readable_after(game: GameFrame, seat: Seat | None, after_version: int) -> list[int]:
    """Indices of the lines `seat` may read, of the versions after `after_version`."""
    indices = game.readable_lines(seat)
    if after_version < 0:
        return indices
    # The log is in version order, so a socket one move behind reads one move's lines.
    start = bisect.bisect_right(game.log, after_version, 0, game.log_len, key=lambda item: item[0])
    return indices[bisect.bisect_left(indices, start) :]


def _lines(snapshot: Snapshot, game: GameFrame) -> Lines:
    """The texts of the game's lines (and their JSON entries, made only once some JSON client
    asks), kept per (language, names) and shared by every reader (never changed once made)."""
    by_basis = _words.get(game.log_key)
    if by_basis is None:
        by_basis = _words[game.log_key] = {}
    key = (i18n.current(), _names_now(snapshot)[1])
    lines = by_basis.get(key)
    if lines is None:
        if len(by_basis) > 8:
            by_basis.clear()
        lines = by_basis[key] = ([], [])
    made = lines[0]
    if len(made) < game.log_len:
        seats = snapshot.seats

        def gender_of(seat: Seat) -> str:
            info = seats.get(seat)
            return info.grammar if info is not None else "neutral"

        for _, event in game.log[len(made) : game.log_len]:
            made.append(fill_names(snapshot, i18n.event_text(event, gender_of)))
    return lines
