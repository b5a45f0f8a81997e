"""The move path: check the seat and the version, let the engine apply the action, store the
move (move + snapshot + clock in one transaction), and only then make it the table's new
version and tell every connection. Bots and expired clocks take the same path (`commit`)."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from app import clocks
from app.errors import Refusal
from app.i18n import N_
from app.push import notices
from app.ratings.model import RatedGame, rated_game
from app.realtime.protocol import Act
from app.store.base import Conflict, MoveWrite
from app.store.moves import MoveRecord
from app.store.outage import refused_while_down
from app.table.collaborator import Collaborator
from app.table.live import Committed, GameLive
from engines.core import Event, GameError, Seat, Step, who

if TYPE_CHECKING:
    from app.table.table import Table

logger = logging.getLogger("stolik.table")


class Moves(Collaborator):
    """One table's move path."""

    __slots__ = ()

    def __init__(self, table: Table) -> None:
        super().__init__(table)

    async def act(self, user_id: int | None, msg: Act) -> int:
        """Apply one action for the user's seat; returns the new version. Raises on refusal."""
        table = self.table
        async with table.lock:
            game = table.game
            if game is None:
                raise Refusal("not_started", N_("The game has not started yet."))
            if msg.version > game.version and table.runtime.bus.enabled:
                # The client saw a version this process has not heard of yet: catch up.
                await table.reload_game()
                game = table.game
                assert game is not None
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("spectator", N_("Spectators cannot play; take a seat first."))
            if table.seats[seat].control == "resigned":
                raise Refusal(
                    "resigned",
                    N_("You resigned; a bot finishes your game."),
                    gender=table.seats[seat].grammar,
                )
            if not game.prompt_version.get(seat, 0) <= msg.version <= game.version:
                raise Refusal(
                    "stale",
                    N_(
                        "The table has moved on (you saw version %(seen)s, it is at %(now)s); "
                        "here is the current state."
                    ),
                    gender=table.seats[seat].grammar,
                    seen=msg.version,
                    now=game.version,
                )
            engine = game.engine
            try:
                action = engine.parse_action(msg.action)
                step = engine.apply(game.state, seat, action)
            except GameError as exc:
                raise Refusal(exc.code, exc.template, 409, **exc.params) from None
            if table.seats[seat].control is not None:
                # Playing yourself takes the seat back from the bot.
                await table.control.set(seat, None, N_("%(who)s is back and plays again."))
            return await self.commit(seat, action, step)

    async def commit(
        self, seat: Seat, action: Any, step: Step[Any], *, timed_out: bool = False
    ) -> int:
        """Store one applied action (move, snapshot, clock: one transaction), then announce it.

        Called under the lock. When another process got there first, reload and refuse.
        """
        table = self.table
        game = table.game
        assert game is not None
        move = self._committed(game, seat, action, step, timed_out)
        result = move.outcome.to_json() if move.outcome else None
        record = MoveRecord(
            game_id=game.db_id,
            from_version=game.version,
            seat=seat,
            action=move.action,
            events=[e.to_json() for e in step.events],
            snapshot=game.engine.dump(step.state),
            clock=move.clock,
            chain=move.chain,
        )
        pushes = self._pushes(game, move) if table.runtime.push.enabled else ()
        started = time.perf_counter()
        try:
            with refused_while_down():  # nothing written: the move is refused, "try again"
                await table.store.record_move(
                    MoveWrite(
                        table.id,
                        record,
                        result,
                        move.notes,
                        move.away,
                        pushes=pushes,
                        rating=self._rated(move),
                    )
                )
            ok = True
        except Conflict:
            ok = False
        table.runtime.metrics.db_time.observe(time.perf_counter() - started)
        if not ok:
            await table.reload_game()
            raise Refusal("conflict", N_("Another server changed this game; retry."))
        new_version = game.version + 1
        table.runtime.metrics.moves.labels(game.engine.spec.id).inc()
        if logger.isEnabledFor(logging.DEBUG):  # a line per move: for debugging, not operation
            logger.debug(
                "move",
                extra={
                    "room": table.slug,
                    "version": new_version,
                    "seat": seat,
                    "action": game.engine.action_text(action),
                    "timed_out": timed_out,
                },
            )
        if pushes:
            table.runtime.push.wake()
        # Committed: only now does the new version become visible to anyone.
        table.leading = True
        table.follower.publish_move(move, game.db_id, new_version)
        self.advance(move)
        return game.version

    def _pushes(self, game: GameLive, move: Committed) -> tuple[notices.Notice, ...]:
        """The Web Push notices of a move about to be stored (written in its transaction):
        whose turn starts, the places when the game ends. (A bank running low is told by the
        clock's tick, while the person decides: `Bots.tick`.)"""
        table = self.table
        humans = {s: i.user_id for s, i in table.seats.items() if i.user_id is not None}
        playing = {s: u for s, u in humans.items() if table.seats[s].control is None}
        fresh = (move.changed & move.acting) - {move.seat}  # the actor's own page shows it
        return tuple(
            notices.after_move(
                room_id=table.id,
                version=game.version + 1,
                people=humans if move.outcome is not None else playing,
                acting_now=fresh,
                slow=clocks.is_slow(table.clock_spec),
                offline_for={s: table.presence.offline_for(s) for s in fresh},
                now=table.runtime.now(),
                ranks=move.outcome.ranks if move.outcome is not None else None,
            )
        )

    def _rated(self, move: Committed) -> RatedGame | None:
        """The ratings' view of a rated table's last move: each seat's side, place, person or
        bot, and whether a bot was finishing the game for its person (resigned, away after
        running out of time or going offline, autopilot — then it counts as last)."""
        table = self.table
        game = table.game
        if move.outcome is None or not table.rated or game is None:
            return None
        sitters = {
            seat: (
                info.user_id,
                info.bot_level,
                info.bot_level is None
                and (info.control is not None or (move.away and seat == move.seat)),
            )
            for seat, info in table.seats.items()
        }
        teams = game.engine.teams(move.step.state, len(table.seats))
        return rated_game(game.engine.spec.id, game.db_id, teams, move.outcome.ranks, sitters)

    def _committed(
        self, game: GameLive, seat: Seat, action: Any, step: Step[Any], timed_out: bool
    ) -> Committed:
        """The record of an applied move: what the engine says of the new state (asked once
        here), every seat's prompt, the clock, and the table's notes (a timed-out seat)."""
        table = self.table
        engine = game.engine
        after, changed = game.prompts_after(seat, step, len(table.seats))
        acting = engine.to_act(step.state)
        clock = clocks.advance(
            game.clock,
            now=table.runtime.now(),
            acting=acting,
            new_decision=changed & acting,
            actor=seat,
            timed_out=timed_out,
        )
        notes: list[Event] = []
        if timed_out:
            notes.append(
                Event.public(N_("%(who)s ran out of time; a bot chose for them."), who=who(seat))
            )
        away = (
            timed_out
            and table.seats[seat].control is None
            and clocks.timeouts_in_a_row(clock, seat) >= clocks.TIMEOUTS_BEFORE_AWAY
        )
        if away:
            notes.append(
                Event.public(
                    N_(
                        "%(who)s ran out of time %(count)s times in a row; "
                        "a bot plays for them until they return."
                    ),
                    who=who(seat),
                    count=clocks.TIMEOUTS_BEFORE_AWAY,
                )
            )
        dumped = engine.dump_action(action)
        return Committed(
            seat=seat,
            action=dumped,
            step=step,
            outcome=engine.outcome(step.state),
            acting=acting,
            prompts=after,
            changed=changed,
            clock=clock,
            notes=notes,
            away=away,
            chain=game.next_chain(seat, dumped),
        )

    def advance(self, move: Committed) -> None:
        """Make a committed move the table's new version and tell every connection (the move
        path's tail, also for a move another process committed)."""
        table = self.table
        game = table.game
        assert game is not None
        game.advance(move)
        if move.away:
            table.seats[move.seat] = replace(table.seats[move.seat], control="away")
            table.revision += 1
        if game.over:
            table.status = "finished"
            table.on_lobby_change()
            if table.rated:  # the ratings just written (here or by another process)
                table.bots.background(table.refresh_ratings())
        elif game.clock is not None:
            table.on_lobby_change()
        table.broadcast("state")
        table.bots.kick()
