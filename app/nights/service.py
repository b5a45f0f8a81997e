"""Games nights: starting one, its next table with the seats carried over, ending it, and
what its page shows (the tables, the standings, the podium).

Who is who across the night: a person by their account; a bot by its seat and level, the
name the tables show ("Bot 3 (easy)"), which the next table keeps by keeping seat numbers.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.lobby import playable_engines, valid_table
from app.nights import points
from app.nights import store as nights
from app.nights.models import Night
from app.nights.store import NightTableRow
from app.store import tables as rooms
from app.store.models import User
from app.store.rows import insert_row
from app.store.tables import SeatInfo
from app.table import Tables
from engines import REGISTRY


def clean_night_name(raw: str) -> str:
    """A night's name: trimmed and not empty, at most `NAME_MAX` characters."""
    name = " ".join(raw.split())
    if not name:
        raise Refusal("bad_night_name", N_("Give the night a name."), 422)
    if len(name) > nights.NAME_MAX:
        raise Refusal(
            "bad_night_name",
            N_("A night's name is at most %(max)s characters."),
            422,
            max=nights.NAME_MAX,
        )
    return name


async def start_night(session: AsyncSession, host: User, raw_name: str) -> Night:
    """A new open night hosted by `host` (committed)."""
    night = await nights.create_night(session, host.id, clean_night_name(raw_name))
    await session.commit()
    return night


def _host_only(night: Night, user: User) -> None:
    if user.id != night.host_id:
        raise Refusal("not_night_host", N_("Only the host of the night can do that."), 403)
    if night.status != "open":
        raise Refusal("night_over", N_("This night is over."))


def carried_seats(last: NightTableRow | None, host: User, num_seats: int) -> list[SeatInfo]:
    """Who sits at the night's next table: everyone of its latest table (people and bots),
    in their seats if they fit, else in the same order from seat 0; the host always. Bots
    give way when there are more than `num_seats`."""
    carried = list(last.seats) if last is not None else []
    if all(s.user_id != host.id for s in carried):
        free = next(i for i in range(len(carried) + 1) if i not in {s.seat for s in carried})
        carried.append(SeatInfo(free, host.id, host.name, gender=host.gender))
        carried.sort(key=lambda s: s.seat)
    while len(carried) > num_seats and any(s.is_bot for s in carried):
        bot = max((s for s in carried if s.is_bot), key=lambda s: s.seat)
        carried.remove(bot)
    people = len(carried)
    if people > num_seats:
        raise Refusal(
            "night_too_many",
            N_("People at the night: %(count)s. Choose a game and seats for all of them."),
            count=people,
        )
    renumber = any(s.seat >= num_seats for s in carried)
    out = []
    for i, s in enumerate(carried):
        seat = i if renumber else s.seat
        name = s.name if s.bot_level is None else rooms.bot_name(seat, s.bot_level)
        out.append(SeatInfo(seat, s.user_id, name, s.bot_level, None, s.gender))
    return out


async def next_table(
    session: AsyncSession,
    hubs: Tables,
    night: Night,
    host: User,
    game_id: str,
    num_seats: int,
    options: dict[str, Any] | None = None,
) -> NightTableRow:
    """The night's next table: `game_id` with `num_seats` seats, everyone of the latest table
    already seated (`carried_seats`), private (the night's page links it with its invite),
    added to the night in the same transaction; then kept live in this process."""
    _host_only(night, host)
    await nights.adopt_rematches(session, night)
    latest = await nights.night_tables(session, night.id)
    room = valid_table(
        host_id=host.id,
        game_id=game_id,
        num_seats=num_seats,
        options=options or {},
        private=True,
    )
    seats = carried_seats(latest[-1] if latest else None, host, num_seats)
    if not await nights.claim_night(session, night.id):
        await session.rollback()
        raise Refusal("night_over", N_("This night is over."))
    try:
        await insert_row(session, room)
        for s in seats:
            if s.bot_level is None:
                assert s.user_id is not None
                await rooms.add_seat(session, room.id, s.seat, s.user_id)
            else:
                await rooms.add_bot(session, room.id, s.seat, s.bot_level)
        position = await nights.link_table(session, night.id, room.id)
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Refusal("night_busy", N_("The night changed meanwhile; try again.")) from None
    hubs.adopt(room, seats)
    hubs.lobby_changed()
    return NightTableRow(position, room.slug, game_id, "open", True, room.invite_code, seats, None)


async def end_night(session: AsyncSession, night: Night, host: User) -> None:
    """The host ends the night: no more tables join it, the podium is final."""
    _host_only(night, host)
    await nights.adopt_rematches(session, night)
    if await nights.claim_night(session, night.id):
        await nights.finish_night(session, night.id)
    await session.commit()


@dataclass
class Line:
    """A row of the standings as shown: the place, the name, the points and the count."""

    place: int
    name: str
    points: float
    wins: int
    played: int
    is_bot: bool
    is_you: bool


@dataclass
class NightPage:
    """What a night's page and its live standings show."""

    night: Night
    host_name: str
    tables: list[NightTableRow]
    lines: list[Line]
    podium: list[list[Line]]


def participant(seat: SeatInfo) -> Hashable:
    """Who a seat is across the night (see the module's docstring)."""
    return ("person", seat.user_id) if seat.bot_level is None else ("bot", seat.name)


async def night_page(session: AsyncSession, night: Night, reader: int | None) -> NightPage:
    """The night's tables and standings as `reader` sees them (adopting new "Play again"
    tables first). Standings come from finished games only: nothing of a game in progress."""
    await nights.adopt_rematches(session, night)
    rows = await nights.night_tables(session, night.id, night.finished_at)
    names: dict[Hashable, SeatInfo] = {}
    results = []
    for row in rows:
        for seat in row.seats:
            names[participant(seat)] = seat
        if row.ranks is not None:
            who = {s.seat: participant(s) for s in row.seats if s.seat in row.ranks}
            results.append(points.Result(who, row.ranks))
    standings = points.standings(results, present=list(names))
    me = ("person", reader)
    lines = [
        Line(
            r.place,
            names[r.key].shown_name,
            round(r.points, 2),
            r.wins,
            r.played,
            names[r.key].is_bot,
            r.key == me,
        )
        for r in standings
    ]
    by_key = dict(zip([r.key for r in standings], lines, strict=True))
    podium = [[by_key[r.key] for r in step] for step in points.podium(standings)]
    return NightPage(night, await nights.host_name(session, night), rows, lines, podium)


def game_choices() -> list[dict[str, Any]]:
    """The games a night's next table can be: id and the seats they allow."""
    return [
        {"id": e.spec.id, "low": e.spec.min_players, "high": e.spec.max_players}
        for e in playable_engines()
    ]


def default_seats(game_id: str, page: NightPage) -> int:
    """The seats the form proposes: as many as sat at the latest table, within the game's."""
    spec = REGISTRY[game_id].spec
    sat = len(page.tables[-1].seats) if page.tables else spec.min_players
    return max(spec.min_players, min(spec.max_players, sat))
