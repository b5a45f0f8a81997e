"""What causes a push: a `Notice` for one person about one table (kinds below), decided from
facts the table already holds when it commits a change. No hidden game information is in a
notice: the table, its version, the kind, and for a finished game the person's place."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.i18n import N_

KINDS: tuple[str, ...] = ("turn", "invite", "start", "over", "bank")
"""Every event a device may choose: your turn; an invitation to a table (a friend's, or a
rematch); a table you sit at has started; a game over with your place; your clock's bank
below a quarter."""

CHOICES: tuple[tuple[str, str], ...] = (
    (
        "turn",
        N_("My turn (slow tables: always; others: after a minute with no tab open)"),
    ),
    ("invite", N_("An invitation to a table (from a friend, or to play again)")),
    ("start", N_("A game I sit at has started")),
    ("over", N_("A game has ended, with my place")),
    ("bank", N_("My extra time has fallen below a quarter")),
)
"""Each event with what the settings page calls it."""

SHOWN_RECENTLY = 60.0
"""At a live table (not the slow clock), "your turn" is pushed only to a person whose seat has
had no open tab of the table for this many seconds."""


@dataclass(frozen=True)
class Notice:
    """One push to a person's devices (those that chose `kind`), due at `due` (epoch s)."""

    user_id: int
    kind: str
    room_id: int
    version: int
    due: float
    params: dict[str, Any] = field(default_factory=dict)


def after_move(
    *,
    room_id: int,
    version: int,
    people: Mapping[int, int],
    acting_now: Iterable[int],
    slow: bool,
    offline_for: Mapping[int, float | None],
    now: float,
    ranks: Mapping[int, int] | None,
) -> list[Notice]:
    """The notices of a committed move that made `version`.

    `people`: seat → person id of the seats a person plays (not bots, not handed to a bot);
    `acting_now`: seats whose new decision starts with this version; `slow`: the table is on
    the slow clock (every turn is pushed); `offline_for`: seconds since a seat last had an
    open tab of the table (None: one is open now); `ranks`: the places when the game ended.
    (A bank running low is noticed by the clock's tick: `Bots.tick`.)"""
    if ranks is not None:
        return [
            Notice(user, "over", room_id, version, now, {"place": ranks.get(seat, 0)})
            for seat, user in people.items()
        ]
    notices: list[Notice] = []
    for seat in acting_now:
        user = people.get(seat)
        if user is None:
            continue
        if slow:
            notices.append(Notice(user, "turn", room_id, version, now))
            continue
        away = offline_for.get(seat)
        if away is None:
            continue  # a tab of the table is open: the page itself tells them
        due = now + max(0.0, SHOWN_RECENTLY - away)
        notices.append(Notice(user, "turn", room_id, version, due))
    return notices
