"""Who plays a seat: its person, a bot on the person's behalf (autopilot, a resigned seat, a
seat handed over while its player is away), and the log lines that say so."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from app.errors import Refusal
from app.i18n import N_
from app.store import games, tables
from app.store.notes import add_table_event
from app.table.collaborator import Collaborator
from engines.core import Event, Seat, who

if TYPE_CHECKING:
    from app.table.table import Table


class Control(Collaborator):
    """Hands a table's seats between their people and bots."""

    __slots__ = ()

    def __init__(self, table: Table) -> None:
        super().__init__(table)

    async def set_autopilot(self, user_id: int, on: bool) -> None:
        """ "Let a bot play for me" (on) or "I'm back" (off) for the user's own seat."""
        table = self.table
        async with table.lock:
            seat = self._playing_seat(user_id)
            control = table.seats[seat].control
            if control == "resigned":
                raise Refusal(
                    "resigned",
                    N_("You resigned from this game."),
                    gender=table.seats[seat].grammar,
                )
            if on and control is None:
                await self.set(seat, "autopilot", N_("%(who)s lets a bot play for them."))
            elif not on and control in ("autopilot", "away"):
                await self.set(seat, None, N_("%(who)s is back and plays again."))
            table.bots.kick()

    async def resign(self, user_id: int) -> None:
        """Give up: a bot finishes the seat's game; the standings mark the seat as resigned."""
        table = self.table
        async with table.lock:
            seat = self._playing_seat(user_id)
            if table.seats[seat].control == "resigned":
                raise Refusal(
                    "resigned", N_("You have already resigned."), gender=table.seats[seat].grammar
                )
            await self.set(seat, "resigned", N_("%(who)s resigned; a bot finishes their game."))
            table.bots.kick()

    async def hand_to_bot(self, user_id: int, seat: Seat) -> None:
        """The host hands a seat whose player has been disconnected long enough to a bot."""
        table = self.table
        async with table.lock:
            table.require_host(user_id, N_("Only the host can hand a seat to a bot."))
            if table.status != "playing" or table.game is None or table.game.over:
                raise Refusal("not_playing", N_("There is no game in progress."))
            info = table.seats.get(seat)
            if info is None or info.is_bot or info.control is not None:
                raise Refusal("not_a_person", N_("A bot already plays that seat."))
            away = table.presence.offline_for(seat)
            needed = table.runtime.takeover_after
            if away is None or away < needed:
                if away is None:
                    raise Refusal(
                        "still_connected",
                        N_(
                            "A seat can be handed to a bot once its player has been disconnected "
                            "for %(limit)s s."
                        ),
                        limit=round(needed),
                    )
                raise Refusal(
                    "still_connected",
                    N_(
                        "A seat can be handed to a bot once its player has been disconnected "
                        "for %(limit)s s (another %(wait)s s)."
                    ),
                    limit=round(needed),
                    wait=max(1, round(needed - away)),
                )
            await self.set(
                seat, "away", N_("%(who)s is away; a bot plays for them until they return.")
            )
            table.bots.kick()

    def _playing_seat(self, user_id: int) -> Seat:
        table = self.table
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated", N_("You do not have a seat at this table."))
        if table.status != "playing" or table.game is None or table.game.over:
            raise Refusal("not_playing", N_("There is no game in progress."))
        return seat

    async def set(self, seat: Seat, control: str | None, message: str) -> None:
        """Store who plays a seat now, with its log line (under the lock); `message` names
        the seat as `%(who)s`."""
        table = self.table
        line = Event.public(message, who=who(seat))
        async with table.sessions.begin() as session:
            await tables.set_control(session, table.id, seat, control)
            if table.game is not None:
                await add_table_event(session, table.id, table.game.version, line)
            if control is None and table.game is not None and table.game.clock is not None:
                clock = dict(table.game.clock)
                clock["timeouts"] = {**clock["timeouts"], str(seat): 0}
                if await games.set_game_clock(session, table.game.db_id, table.game.version, clock):
                    table.game.clock = clock
        table.seats[seat] = replace(table.seats[seat], control=control)
        if table.game is not None:
            table.game.log.append((table.game.version, line))
        table.changed("control")

    async def returned(self, seat: Seat) -> None:
        """A player whose seat was handed to a bot while away came back: they play again."""
        table = self.table
        async with table.lock:
            if table.seats.get(seat) and table.seats[seat].control == "away":
                await self.set(seat, None, N_("%(who)s is back and plays again."))
