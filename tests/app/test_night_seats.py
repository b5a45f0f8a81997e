"""Who sits at a games night's next table (app/nights/service.py `carried_seats`)."""

from __future__ import annotations

import pytest

from app.errors import Refusal
from app.nights.service import carried_seats
from app.nights.store import NightTableRow
from app.store.models import User
from app.store.tables import SeatInfo

HOST = User(id=1, name="Ala", gender="she")


def latest(*seats: SeatInfo) -> NightTableRow:
    """A night's latest table with `seats`."""
    return NightTableRow(1, "abc", "high_card", "finished", True, "code", list(seats), None)


def test_everyone_keeps_their_seat_when_it_fits() -> None:
    """People and bots of the latest table sit in the same seats; who played for them does
    not carry over."""
    last = latest(
        SeatInfo(0, 1, "Ala", gender="she"),
        SeatInfo(1, 2, "Bartek", control="autopilot"),
        SeatInfo(2, None, "Bot 3 (easy)", "easy"),
    )
    seats = carried_seats(last, HOST, 4)
    assert [(s.seat, s.user_id, s.bot_level, s.control) for s in seats] == [
        (0, 1, None, None),
        (1, 2, None, None),
        (2, None, "easy", None),
    ]


def test_first_table_seats_the_host_alone() -> None:
    """The night's first table: only the host."""
    assert [(s.seat, s.user_id) for s in carried_seats(None, HOST, 3)] == [(0, 1)]


def test_the_host_is_always_seated_in_a_free_seat() -> None:
    """A host who left the latest table is seated again, in the first free seat."""
    last = latest(SeatInfo(1, 2, "Bartek"), SeatInfo(2, 3, "Celina"))
    seats = carried_seats(last, HOST, 3)
    assert [(s.seat, s.name) for s in seats] == [(0, "Ala"), (1, "Bartek"), (2, "Celina")]


def test_fewer_seats_bots_give_way_then_seats_close_up() -> None:
    """Fewer seats: the last bots leave first; seats past the end close up in order (a bot's
    name follows its new seat)."""
    last = latest(
        SeatInfo(0, 1, "Ala"),
        SeatInfo(1, None, "Bot 2 (easy)", "easy"),
        SeatInfo(2, None, "Bot 3 (hard)", "hard"),
        SeatInfo(3, 2, "Bartek"),
    )
    seats = carried_seats(last, HOST, 3)
    assert [(s.seat, s.name) for s in seats] == [(0, "Ala"), (1, "Bot 2 (easy)"), (2, "Bartek")]
    two = carried_seats(last, HOST, 2)
    assert [(s.seat, s.name) for s in two] == [(0, "Ala"), (1, "Bartek")]


def test_more_people_than_seats_is_refused() -> None:
    """People never give way: choose a game with seats for all."""
    last = latest(SeatInfo(0, 1, "Ala"), SeatInfo(1, 2, "Bartek"), SeatInfo(2, 3, "Celina"))
    with pytest.raises(Refusal) as refused:
        carried_seats(last, HOST, 2)
    assert refused.value.code == "night_too_many" and refused.value.params == {"count": 3}
