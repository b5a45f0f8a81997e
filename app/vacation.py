"""A person's vacation ("away until" a day): read from the lobby's form, kept with the person,
and told to every table they sit at. What it does to clocks is app/clocks.py `with_away`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.store import people
from app.store.models import User
from app.store.tables import away_of
from app.table import Tables

MAX_AHEAD_DAYS = 60
"""The furthest day a person may say they are away until."""


def until_end_of(day: str, tz_offset: str, now: float) -> float:
    """The end of `day` (YYYY-MM-DD) where the person is (`tz_offset`: the browser's
    `getTimezoneOffset()`, minutes behind UTC), in server seconds; refused unless the day is
    today or later, and at most `MAX_AHEAD_DAYS` ahead."""
    try:
        chosen = date.fromisoformat(day)
        offset = int(tz_offset or "0")
    except ValueError:
        raise Refusal("bad_away_day", N_("Choose the day you will be back."), 400) from None
    if not -14 * 60 <= offset <= 14 * 60:
        offset = 0
    midnight = datetime(chosen.year, chosen.month, chosen.day, tzinfo=UTC) + timedelta(days=1)
    until = (midnight + timedelta(minutes=offset)).timestamp()
    if until <= now:
        raise Refusal("bad_away_day", N_("That day is already over."), 400)
    if until - now > (MAX_AHEAD_DAYS + 1) * 86400:
        raise Refusal(
            "bad_away_day",
            N_("You can be away for at most %(days)s days."),
            400,
            days=MAX_AHEAD_DAYS,
        )
    return until


async def go_away(session: AsyncSession, tables: Tables, user: User, until: float) -> None:
    """`user` is away from now until `until`: kept (committed) and told to their tables.
    A vacation already running keeps its start (its pauses so far stay as they were)."""
    now = tables.runtime.now()
    current = away_of(user)
    since = current[0] if current is not None and current[0] <= now < current[1] else now
    await people.set_away(session, user.id, since, until)
    await session.commit()
    tables.away_changed(user.id, (since, until))


async def come_back(session: AsyncSession, tables: Tables, user: User) -> None:
    """`user` is back early: their vacation ends now (committed, told to their tables)."""
    now = tables.runtime.now()
    current = away_of(user)
    if current is None or current[1] <= now:
        return
    since = min(current[0], now)
    await people.set_away(session, user.id, since, now)
    await session.commit()
    tables.away_changed(user.id, (since, now))
