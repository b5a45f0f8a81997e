"""Rematch ("play again"): a new table with the same game, options, clock and seats (bots
included), created once however many players ask, and linked from the finished one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.errors import Refusal
from app.i18n import N_
from app.push.notices import Notice
from app.store import tables
from app.store.base import Conflict
from app.table.collaborator import Collaborator
from app.table.seating import judged_again
from engines.core import Event, who

if TYPE_CHECKING:
    from app.table.table import Table


class Rematcher(Collaborator):
    """One finished table's rematch."""

    __slots__ = ()

    def __init__(self, table: Table) -> None:
        super().__init__(table)

    @judged_again
    async def rematch(self, user_id: int) -> tuple[str, str]:
        """ "Play again": a new table with the same game, options, clock and seats (bots
        included). The first person to ask creates it and hosts it; later askers get the same
        one. Returns its slug and invite code."""
        table = self.table
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("Only the players can start a rematch."), 403)
            if table.status != "finished":
                raise Refusal("not_finished", N_("The game is not over yet."))
            if table.rematch_slug is None:
                line = Event.public(N_("%(who)s started a rematch."), who=who(seat))
                bots = [
                    tables.SeatInfo(s, None, info.name, info.bot_level)
                    for s, info in table.seats.items()
                    if info.bot_level is not None
                ]
                me = table.seats[seat]
                created = [
                    tables.SeatInfo(seat, user_id, me.name, gender=me.gender, away=me.away),
                    *bots,
                ]
                fields: dict[str, Any] = {
                    "host_id": user_id,
                    "game_id": table.game_id,
                    "options": table.options,
                    "num_seats": table.num_seats,
                    "private": table.private,
                    "clock": table.clock_spec,
                    "bot_level": table.bot_level,
                    "away_days": table.away_days,
                    "outside_bots": table.outside_bots,
                    "rated": table.rated,
                }
                try:
                    room = tables.new_table(**fields)
                    note = (table.game.version, line) if table.game is not None else None
                    await table.store.create_rematch(room, created, table.id, note)
                    if table.game is not None and note is not None:
                        table.game.log.append(note)
                    table.rematch_slug = room.slug
                    table.rematch_code = room.invite_code
                    table.on_table_created(room, created)
                    now = table.runtime.now()
                    invited = [
                        Notice(i.user_id, "invite", room.id, 0, now)
                        for i in table.seats.values()
                        if i.user_id is not None and i.user_id != user_id
                    ]
                    await table.runtime.push.write(table.sessions, invited, now)
                except Conflict:
                    # Another process linked a rematch first: everyone joins that one.
                    async with table.sessions() as session:
                        old = await tables.get_table(session, table.slug)
                    table.rematch_slug = old.rematch_slug if old else None
                    table.rematch_code = (await self._code())[1]
                table.changed("rematch")
            if table.rematch_slug is not None and table.rematch_code is not None:
                return table.rematch_slug, table.rematch_code
            return await self._code()

    async def _code(self) -> tuple[str, str]:
        table = self.table
        assert table.rematch_slug is not None
        async with table.sessions() as session:
            room = await tables.get_table(session, table.rematch_slug)
        assert room is not None
        return room.slug, room.invite_code
