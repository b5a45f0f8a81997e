"""A Polish table with a woman, a man, a person who chose neutral words and a bot (issue 33):
the seats bar, the log and the end screen speak of each in their own words."""

from __future__ import annotations

import re
from dataclasses import replace

from app import i18n
from app.presentation.table import state_html
from app.realtime.connection import Connection
from app.store.tables import SeatInfo
from app.table import Table
from bench.pages import offline_table, positions
from engines import REGISTRY
from engines.core import Event, who

PEOPLE = {
    0: SeatInfo(0, 100, "Bożena Wójcik", gender="she"),
    1: SeatInfo(1, 101, "Jan Kowalski", gender="he"),
    2: SeatInfo(2, 102, "Alex Nowak", gender="neutral"),
    3: SeatInfo(3, None, "Bot 4 (normal)", bot_level="normal"),
}


def _table(state_index: int) -> Table:
    engine = REGISTRY["karmaka"]
    states = positions(engine, 4, seed=3, samples=8)
    table = offline_table(engine, states[state_index], 4)
    table.seats = dict(PEOPLE)
    assert table.game is not None
    for s in range(4):
        table.game.log.append(
            (7, Event.public("%(who)s resigned; a bot finishes their game.", who=who(s)))
        )
        table.game.log.append(
            (7, Event.public("%(who)s ran out of time; a bot chose for them.", who=who(s)))
        )
    return table


def _page(table: Table, user_id: int | None) -> str:
    with i18n.use("pl"):
        return state_html(table.snapshot(), Connection(user_id=user_id, fmt="html"), 200)


def _seat(page: str, seat: int) -> str:
    found = re.search(rf'<div class="seat[^"]*" data-seat="{seat}">(.*?)</div>', page, re.S)
    assert found, f"seat {seat} not in the seats bar"
    return found[1]


def _text(html: str) -> str:
    """The words of a piece of HTML, spaced as read."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_seats_bar_speaks_of_each_person_in_their_words() -> None:
    table = _table(2)
    assert table.game is not None
    table.game.acting = frozenset(range(4))  # everyone "to act", to read each form
    table.presence.offline_since = {0: 1_800_000_000.0 - 62, 1: 1_800_000_000.0 - 62}
    table.presence.offline_since[2] = 1_800_000_000.0 - 62
    page = _page(table, None)  # a spectator
    assert "jej ruch" in _seat(page, 0) and "rozłączona 1:02" in _seat(page, 0)
    assert "jego ruch" in _seat(page, 1) and "rozłączony 1:02" in _seat(page, 1)
    assert "na ruchu" in _seat(page, 2) and "bez połączenia 1:02" in _seat(page, 2)
    assert "na ruchu" in _seat(page, 3)
    mine = _page(table, 100)  # Bożena herself
    assert "(ty)" in _text(_seat(mine, 0)) and "▶ twój ruch ↓" in _text(_seat(mine, 0))
    assert "jej ruch" not in _seat(mine, 0) and "jej ruch" not in _seat(page, 1)


def test_log_lines_take_the_form_of_the_person_now() -> None:
    table = _table(2)
    page = _page(table, None)
    assert "Bożena Wójcik poddała się; bot dokończy jej grę." in page
    assert "Jan Kowalski poddał się; bot dokończy jego grę." in page
    assert "Alex Nowak poddaje grę; bot ją dokończy." in page
    assert "Bot 4 (normalny) poddaje grę; bot ją dokończy." in page
    assert "Bożena Wójcik nie zdążyła; wybrał za nią bot." in page
    # The choice is read when the line is shown, not when it was stored: a new revision
    # draws the log again.
    table.seats[1] = replace(table.seats[1], gender="she")
    table.revision += 1
    again = _page(table, None)
    assert "Jan Kowalski poddała się; bot dokończy jej grę." in again


def test_end_screen_names_resigned_people_in_their_words() -> None:
    table = _table(-1)
    for s in range(3):
        table.seats[s] = replace(table.seats[s], control="resigned")
    page = _page(table, 101)
    assert "Bożena Wójcik – poddała się" in page
    assert "Jan Kowalski – poddał się" in page
    assert "Alex Nowak – rezygnacja" in page
    assert "poddał(a)" not in page
    assert "poddała się" in _seat(page, 0) and "poddał się" in _seat(page, 1)
    assert "rezygnacja" in _seat(page, 2)
