"""Correspondence clocks (app/clocks.py): the 1, 2, 3 and 7 day clocks, a vacation's pause
(its start, its end, the table's limit) and the dashboard's order (app/lobby.py). Pure: no
server, times are plain numbers."""

from __future__ import annotations

from typing import Any

import pytest

from app import clocks
from app.lobby import _rank
from app.store.lobby import LobbyRow

DAY = clocks.DAY
T0 = 1_800_000_000.0


@pytest.mark.parametrize(("spec", "days"), [("slow", 1), ("slow2", 2), ("slow3", 3), ("slow7", 7)])
def test_slow_clocks_give_days_per_decision(spec: str, days: int) -> None:
    """Each correspondence clock's first deadline is its days after the decision starts."""
    clock = clocks.advance(clocks.new_clock(spec, 2), now=T0, acting=[0], new_decision=[0])
    assert clock is not None
    assert clock["deadlines"]["0"] == T0 + days * DAY
    assert clocks.is_slow(spec)
    assert spec in dict(clocks.CLOCK_CHOICES)


def test_live_clocks_are_not_correspondence() -> None:
    assert not clocks.is_slow("fast") and not clocks.is_slow("normal")
    assert not clocks.is_slow("none") and not clocks.is_slow("nonsense")


def started_at(spec: str = "slow", at: float = T0) -> dict[str, Any]:
    clock = clocks.advance(clocks.new_clock(spec, 2), now=at, acting=[0], new_decision=[0])
    assert clock is not None
    return clock


def test_away_pauses_the_clock_until_the_day_back() -> None:
    """Away from 6 h into the decision for two days: the deadline moves two days later."""
    clock = started_at()
    counted = clocks.with_away(clock, {0: (T0 + 6 * 3600, T0 + 6 * 3600 + 2 * DAY)}, 7 * DAY)
    assert counted is not None
    assert counted["deadlines"]["0"] == T0 + DAY + 2 * DAY
    assert counted["away"] == {"0": T0 + 6 * 3600 + 2 * DAY}
    assert clock["deadlines"]["0"] == T0 + DAY, "the stored clock is not changed"


def test_the_tables_limit_caps_the_pause() -> None:
    """Away for ten days at a table that allows three: the clock waits three days."""
    counted = clocks.with_away(started_at(), {0: (T0, T0 + 10 * DAY)}, 3 * DAY)
    assert counted is not None and counted["deadlines"]["0"] == T0 + 4 * DAY


def test_no_limit_means_no_pause() -> None:
    """A table that allows no pause: the clock runs on, and the vacation is still shown."""
    counted = clocks.with_away(started_at(), {0: (T0, T0 + 10 * DAY)}, 0)
    assert counted is not None and counted["deadlines"]["0"] == T0 + DAY
    assert counted["away"] == {"0": T0 + 10 * DAY}


def test_a_vacation_over_before_the_decision_does_nothing() -> None:
    counted = clocks.with_away(started_at(at=T0 + 5 * DAY), {0: (T0, T0 + 2 * DAY)}, 7 * DAY)
    assert counted is not None and counted["deadlines"]["0"] == T0 + 6 * DAY


def test_a_decision_starting_while_away_waits_for_the_return() -> None:
    """Away since before the decision began: the clock starts when the person is back."""
    counted = clocks.with_away(started_at(at=T0 + DAY), {0: (T0, T0 + 3 * DAY)}, 7 * DAY)
    assert counted is not None and counted["deadlines"]["0"] == T0 + 3 * DAY + DAY


def test_going_away_after_the_time_ran_out_saves_nothing() -> None:
    assert clocks.away_pause(T0, T0 + DAY, T0 + 2 * DAY, T0 + 5 * DAY, 7 * DAY) == 0


def test_back_early_gives_the_time_back() -> None:
    """Said away for five days, back after one: only the day away counts."""
    back = T0 + 3600 + DAY
    counted = clocks.with_away(started_at(), {0: (T0 + 3600, back)}, 7 * DAY)
    assert counted is not None and counted["deadlines"]["0"] == T0 + 2 * DAY


def test_only_the_away_persons_seat_is_paused() -> None:
    clock = clocks.advance(clocks.new_clock("slow", 3), now=T0, acting=[0, 1], new_decision=[0, 1])
    counted = clocks.with_away(clock, {1: (T0, T0 + 2 * DAY), 2: (T0, T0 + 2 * DAY)}, 7 * DAY)
    assert counted is not None
    assert counted["deadlines"] == {"0": T0 + DAY, "1": T0 + 3 * DAY}
    assert clocks.expired(counted, T0 + DAY) == [0]


@pytest.mark.parametrize("down", [3600.0, DAY, 5 * DAY])
@pytest.mark.parametrize("since", [T0 - DAY, T0 + 3600, T0 + 20 * 3600])
def test_server_downtime_never_costs_time_with_a_vacation(down: float, since: float) -> None:
    """A slow clock moved past the server's downtime (as at a restart) never runs out sooner
    than it would have, whatever the person's vacation."""
    clock = started_at("slow2")
    away = {0: (since, since + 3 * DAY)}
    before = clocks.with_away(clock, away, 3 * DAY)
    after = clocks.with_away(clocks.shifted(clock, down), away, 3 * DAY)
    assert before is not None and after is not None
    assert after["deadlines"]["0"] >= before["deadlines"]["0"]


def row(slug: str, **kw: object) -> LobbyRow:
    fields: dict[str, object] = {"mine": True, "status": "playing"} | kw
    return LobbyRow(slug, "karmaka", "Host", 2, 2, private=False, **fields)  # type: ignore[arg-type]


def test_dashboard_order_your_turn_then_nearest_deadline() -> None:
    """Your turn first (the deadline due first leading), then your running tables by their
    deadline (none last), then your waiting tables, then everybody else's."""
    rows = [
        row("other", mine=False),
        row("waiting", status="open"),
        row("theirs-no-clock"),
        row("theirs-late", deadline=T0 + 5 * DAY),
        row("mine-late", your_turn=True, deadline=T0 + 3 * DAY),
        row("theirs-soon", deadline=T0 + DAY),
        row("mine-no-clock", your_turn=True),
        row("mine-soon", your_turn=True, deadline=T0 + 3600),
    ]
    order = [r.slug for r in sorted(rows, key=_rank)]
    assert order == [
        "mine-soon",
        "mine-late",
        "mine-no-clock",
        "theirs-soon",
        "theirs-late",
        "theirs-no-clock",
        "waiting",
        "other",
    ]
