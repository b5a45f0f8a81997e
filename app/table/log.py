"""A table's game log in words: each line's text made once per language and names, and the
lines each audience may read (the engine's events carry their audience)."""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Any

from app import i18n
from app.store import rooms
from engines.core import Seat

if TYPE_CHECKING:
    from app.table.table import Table

_SEAT_REF = re.compile(r"\{p(\d+)\}")

_Names = tuple[
    str, tuple[tuple[Seat, rooms.SeatInfo], ...], dict[Seat, str], tuple[tuple[Seat, str], ...]
]
"""TableLog._names_now: (language, seats, names by seat, the names as a sorted tuple)."""


class TableLog:
    """The names of a table's seats and its log, as words in the current language."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._names: _Names | None = None

    def names(self) -> dict[Seat, str]:
        """Display names by seat, in the current language (a bot's name is translated); not
        to be changed by the caller."""
        return self._names_now()[2]

    def _names_now(self) -> _Names:
        """(language, seats, names, names as a sorted tuple): made again only when the
        language or a seat changed (every audience's log asks on every move)."""
        lang = i18n.current()
        seats = tuple(self.table.seats.items())
        kept = self._names
        if kept is None or kept[0] != lang or kept[1] != seats:
            names = {seat: info.shown_name for seat, info in seats}
            kept = self._names = (lang, seats, names, tuple(sorted(names.items())))
        return kept

    def fill_names(self, text: str) -> str:
        """Replace `{pN}` seat references by display names."""
        names = self.names()
        return _SEAT_REF.sub(
            lambda m: (
                names.get(int(m.group(1)))
                or i18n.gettext("Seat %(n)s") % {"n": int(m.group(1)) + 1}
            ),
            text,
        )

    def lines_for(
        self, seat: Seat | None, after_version: int = -1, last: int | None = None
    ) -> list[str]:
        """The log lines `seat` may read, for versions after `after_version` (only the `last`
        ones if given). Each line's text is made once per language and names, not per socket
        (`texts`)."""
        if self.table.game is None:
            return []
        texts = self.texts()
        picked = self._readable_after(seat, after_version)
        if last is not None:
            picked = picked[max(0, len(picked) - last) :]
        return [texts[i] for i in picked]

    def basis(self) -> tuple[Any, ...] | None:
        """What the log's texts are made from: the game, the language and the names. A client
        that was sent lines on the same basis may be sent only the newer ones; on another
        (a seat renamed, a bot sat down, another language) it needs them all again."""
        game = self.table.game
        if game is None:
            return None
        lang, _, _, names = self._names_now()
        return (game.db_id, lang, names)

    def _readable_after(self, seat: Seat | None, after_version: int) -> list[int]:
        """Indices of the lines `seat` may read, of the versions after `after_version`."""
        game = self.table.game
        assert game is not None
        indices = game.readable_lines(seat)
        if after_version < 0:
            return indices
        # The log is in version order, so a socket one move behind reads one move's lines.
        start = bisect.bisect_right(game.log, after_version, key=lambda item: item[0])
        return indices[bisect.bisect_left(indices, start) :]

    def texts(self) -> list[str]:
        """Every log line's text in the current language with today's names, kept and
        extended as the log grows (a new move adds its own lines only); made again when the
        language, a name or the game changes."""
        return self._lines()[0]

    def _lines(self) -> tuple[list[str], list[dict[str, Any]]]:
        """`texts`, and the same lines as JSON entries (`entries_for`), the entries made only
        once some JSON client asks; both kept per (language, names) and shared by every
        reader (they are never changed once made)."""
        game = self.table.game
        assert game is not None
        lang, _, _, names = self._names_now()
        key = (lang, names)
        lines = game.texts.get(key)
        if lines is None:
            if len(game.texts) > 8:
                game.texts.clear()
            lines = game.texts[key] = ([], [])
        texts = lines[0]
        for _, event in game.log[len(texts) :]:
            texts.append(self.fill_names(i18n.event_text(event)))
        return lines

    def entries_for(self, seat: Seat | None, after_version: int = -1) -> list[dict[str, Any]]:
        """The same lines as `lines_for`, for JSON clients: the English message id, its plural
        form, the parameters (seats as `{pN}`), the version, and the text as `lines_for` has
        it."""
        game = self.table.game
        if game is None:
            return []
        texts, entries = self._lines()
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
        return [entries[i] for i in self._readable_after(seat, after_version)]
