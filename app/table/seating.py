"""Seats and the table's own writes: joining and leaving, bots in seats before the start,
closing, and the start itself (the provably fair seed, the opening, the first clock). Each
write first claims the table's row at the status this process knows, so with several
processes a change judged on a stale table cannot land (`Seating._write`)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from app import bots, clocks
from app.errors import Refusal
from app.i18n import N_
from app.push.notices import Notice
from app.store import friends, games, tables
from app.store.base import Conflict, NotFound
from app.table import idle
from app.table.collaborator import Collaborator
from app.table.live import GameLive
from engines import verify
from engines.chain import chain_start
from engines.core import Event, Seat, Term

if TYPE_CHECKING:
    from app.table.table import Table

P = ParamSpec("P")
T = TypeVar("T")


class _OfTable(Protocol):
    table: Table


OwnerT = TypeVar("OwnerT", bound=_OfTable)


def judged_again(
    change: Callable[Concatenate[OwnerT, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[OwnerT, P], Coroutine[Any, Any, T]]:
    """A table change (join, start, …) that, with several processes, is judged on what this
    table holds without reading the table first: its write is conditional in the database
    (`Seating._write`), so a change judged on a stale table cannot land. If it is refused, by the
    table or by the database, the table catches up with the database (`Seating.catch_up`) and the
    change is judged once more: a refusal is never decided from memory alone, and a change
    that lost only to a stale table (a seat another process filled a moment ago, when any
    free seat would do) goes through. With one process, the table is the truth: no retry."""

    @functools.wraps(change)
    async def judged(owner: OwnerT, /, *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await change(owner, *args, **kwargs)
        except Refusal as refusal:
            if not owner.table.runtime.bus.enabled or refusal.status != 409:
                raise
        async with owner.table.lock:
            await owner.table.seating.catch_up()
        return await change(owner, *args, **kwargs)

    return judged


class Seating(Collaborator):
    """Who sits where at one table, and the table's writes before and at the start."""

    __slots__ = ()

    def __init__(self, table: Table) -> None:
        super().__init__(table)

    @judged_again
    async def join(
        self,
        user_id: int,
        name: str,
        seat: Seat | None = None,
        gender: str | None = None,
        *,
        bot: bool = False,
    ) -> Seat:
        """Take a free seat (the first one if none is named); `bot`: a bot account, only at
        a table whose host lets outside bots sit; at a friends-only table, only the host's
        friends may."""
        table = self.table
        if bot and not table.outside_bots:
            raise Refusal(
                "no_outside_bots", N_("The host of this table does not let outside bots sit."), 403
            )
        if table.friends_only and user_id != table.host_id:
            async with table.sessions() as session:
                if not await friends.are_friends(session, table.host_id, user_id):
                    raise Refusal(
                        "friends_only",
                        N_("Only the host's friends can take a seat at this table."),
                        403,
                    )
        async with table.lock:
            if table.status != "open":
                raise Refusal("already_started", N_("This table has already started."))
            if table.seat_of(user_id) is not None:
                raise Refusal("already_seated", N_("You already have a seat at this table."))
            seat = self._free_seat(seat)
            wanted = seat

            def recheck() -> None:
                if table.status != "open":
                    raise Refusal("already_started", N_("This table has already started."))
                if table.seat_of(user_id) is not None:
                    raise Refusal("already_seated", N_("You already have a seat at this table."))
                if wanted in table.seats:
                    raise Refusal("seat_taken", N_("That seat is taken or does not exist."))

            rated = await self._write(
                table.store.take_seat(table.id, table.status, wanted, user_id, None), recheck
            )
            table.seats[seat] = tables.SeatInfo(seat, user_id, name, gender=gender, program=bot)
            if rated is None:  # not read with the seat (PostgreSQL reads it in the same statement)
                rated = await table.store.ratings_of(table.game_id, [user_id])
            table.ratings.update(rated)
            table.changed("join")
            return seat

    @judged_again
    async def leave(self, user_id: int) -> None:
        """Give up a seat before the start (the host stays: a host closes the table instead)."""
        table = self.table
        async with table.lock:
            if table.status != "open":
                raise Refusal("already_started", N_("You cannot leave a game in progress."))
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("You do not have a seat at this table."))
            if user_id == table.host_id:
                raise Refusal("host_cannot_leave", N_("The host cannot leave; close the table."))

            await self._write(
                table.store.leave_seat(table.id, table.status, user_id), self._still_open
            )
            del table.seats[seat]
            table.changed("leave")

    def _host_before_start(self, user_id: int, message: str) -> None:
        """Refuse anyone but the host (403, with `message`), and any change once started."""
        self.table.require_host(user_id, message)
        if self.table.status != "open":
            raise Refusal("already_started", N_("The game has already started."))

    async def close(self, user_id: int) -> None:
        """The host closes a table that has not started."""
        table = self.table
        async with table.lock:
            self._host_before_start(user_id, N_("Only the host can close the table."))

            await self._write(table.store.close_table(table.id, table.status), self._still_open)
            table.status = "closed"
            table.changed("close")

    async def close_idle(self) -> bool:
        """Close a waiting table that only its host and bots used for long (app/table/idle);
        whether it was closed."""
        table = self.table
        async with table.lock:
            if not idle.due(table, table.runtime.now()):
                return False
            try:
                await self._write(table.store.close_table(table.id, table.status), self._still_open)
            except Refusal:
                return False
            table.status = "closed"
            table.closed_idle = True
            table.changed("close_idle")
            return True

    @judged_again
    async def start(self, user_id: int) -> None:
        """The host starts: all seats filled, or at least the game's minimum (seats shrink)."""
        table = self.table
        async with table.lock:
            self._host_before_start(user_id, N_("Only the host can start the game."))
            spec = table.engine.spec
            players = len(table.seats)
            if players < spec.min_players:
                raise Refusal(
                    "not_enough_players",
                    N_("%(title)s needs at least %(low)s players; %(seated)s seated."),
                    title=Term(spec.title),
                    low=spec.min_players,
                    seated=players,
                )
            order = [table.seats[s] for s in sorted(table.seats)]
            # Provably fair: 128 secret bits, committed to (with a public salt from the table)
            # before the first move; the seed derives from the secret (engines/verify.py).
            secret = secrets.token_hex(16)
            salt = f"{table.slug}:{table.id}"
            seed = verify.seed_from_secret(secret)
            commitment = verify.commitment(secret, salt)
            options = table.engine.parse_options(table.options)
            opening_step = table.engine.setup(players, options, seed)
            state = opening_step.state
            acting = table.engine.to_act(state)
            now = table.runtime.now()
            clock = clocks.advance(
                clocks.new_clock(table.clock_spec, players),
                now=now,
                acting=acting,
                new_decision=acting,
            )
            opening = Event.public(
                N_("The game begins. Good luck! The shuffle is committed: %(commitment)s"),
                commitment=commitment,
            )
            seated = {s: (info.user_id, info.bot_level) for s, info in table.seats.items()}
            record: dict[str, Any] = {
                "room_id": table.id,
                "engine": table.game_id,
                "options": options.model_dump(mode="json"),
                "num_players": players,
                "seed": seed,
                "seed_commitment": commitment,
                "snapshot": table.engine.dump(state),
                "clock": clock,
                "opening": [e.to_json() for e in opening_step.events],
                "seed_secret": secret,
                "seed_salt": salt,
                "rules_version": table.engine.spec.rules_version,
                "chain_head": chain_start(commitment),
            }
            # Seats 0..k-1 already (the usual case): nothing to renumber or read again.
            compact = [info.seat for info in order] != list(range(len(order)))

            # Pushes, written with the start: "started" to the others; at a slow table also
            # "your turn" to whoever of them acts first (seats as numbered once started).
            others = {
                s: i.user_id
                for s, i in enumerate(order)
                if i.user_id is not None and i.user_id != user_id
            }
            first = [s for s in acting if s in others] if clocks.is_slow(table.clock_spec) else []
            pushes = (
                (
                    *(Notice(u, "start", table.id, 0, now) for u in others.values()),
                    *(Notice(others[s], "turn", table.id, 0, now) for s in first),
                )
                if table.runtime.push.enabled
                else ()
            )
            game = games.new_game(**record)
            stored, pushed = await self._write(
                table.store.start(game, seated, opening, order if compact else None, pushes),
                self._still_open,
            )
            if stored is not None:
                table.seats = {s.seat: s for s in stored}
            table.status = "playing"
            table.num_seats = players
            table.presence.offline_since = {
                s: table.presence.offline_since.get(s, now)
                for s, info in table.seats.items()
                if not info.is_bot
            }
            table.game = GameLive(
                db_id=game.id,
                engine=table.engine,
                state=state,
                version=0,
                seed=seed,
                seed_commitment=commitment,
                seed_secret=secret,
                seed_salt=salt,
                chain_head=record["chain_head"],
                log=[(0, opening), *((0, e) for e in opening_step.events)],
                prompt_version=dict.fromkeys(range(players), 0),
                clock=clock,
            )
            table.changed("start")
            table.bots.kick()
        if pushed:  # none of the others subscribed: the outbox has nothing new
            table.runtime.push.wake()

    @judged_again
    async def add_bot(self, user_id: int, seat: Seat | None, level: str) -> Seat:
        """The host seats a bot before the start (the first free seat unless one is named)."""
        table = self.table
        if level not in bots.LEVELS:
            raise Refusal(
                "bad_level", N_("Bot levels are %(levels)s."), 400, levels=", ".join(bots.LEVELS)
            )
        async with table.lock:
            self._host_before_start(user_id, N_("Only the host can add bots."))
            seat = self._free_seat(seat)
            wanted = seat

            def recheck() -> None:
                self._still_open()
                if wanted in table.seats:
                    raise Refusal("seat_taken", N_("That seat is taken or does not exist."))

            await self._write(
                table.store.take_seat(table.id, table.status, wanted, None, level), recheck
            )
            table.seats[seat] = tables.SeatInfo(seat, None, tables.bot_name(seat, level), level)
            table.changed("add_bot")
            return seat

    @judged_again
    async def remove_bot(self, user_id: int, seat: Seat) -> None:
        """The host takes a bot (a built-in one, or a bot account) out of its seat before the
        start."""
        table = self.table
        async with table.lock:
            self._host_before_start(user_id, N_("Only the host can remove bots."))
            info = table.seats.get(seat)
            if info is None or not (info.is_bot or info.program):
                raise Refusal("not_a_bot", N_("There is no bot in that seat."))

            await self._write(table.store.free_seat(table.id, table.status, seat), self._still_open)
            del table.seats[seat]
            table.changed("remove_bot")

    def _free_seat(self, seat: Seat | None) -> Seat:
        """The named seat if it is free, else the first free one; refused when none is."""
        table = self.table
        free = [s for s in range(table.num_seats) if s not in table.seats]
        if not free:
            raise Refusal("table_full", N_("This table is full."))
        if seat is None:
            return free[0]
        if seat not in free:
            raise Refusal("seat_taken", N_("That seat is taken or does not exist."))
        return seat

    async def catch_up(self) -> None:
        """With several processes, after a room change was refused (`judged_again`):
        re-read the room's seats (all of it if its status moved on), since another process
        may have changed them a moment ago."""
        table = self.table
        if not table.runtime.bus.enabled:
            return
        try:
            status, seats = await table.store.table_now(table.id)
        except NotFound:
            return
        if status != table.status:
            await table.reload_game()
        elif seats != table.seats:
            table.seats = seats
            table.revision += 1

    def _still_open(self) -> None:
        table = self.table
        if table.status != "open":
            raise Refusal("already_started", N_("The game has already started."))

    async def _write(self, change: Awaitable[Any], recheck: Callable[[], None]) -> Any:
        """One table change (a `Store` write at the status this table knows). If another
        process changed the table first (`Conflict`), reload it and refuse: with `recheck`'s
        reason when the change now makes no sense, else as a conflict (the client gets the
        current state)."""
        table = self.table
        try:
            return await change
        except Conflict:
            await table.reload_game()
            recheck()
            raise Refusal(
                "conflict", N_("Another server changed this table first; try again.")
            ) from None
