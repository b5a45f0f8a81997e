"""Bots in seats and turn clocks. A seat played by a bot (a bot's own seat, a person on
autopilot, a seat handed over while its player is away, a resigned seat) gets a task that
thinks (in a worker thread) and then commits through the move path under the table's lock,
after the same staleness check as a person's act. A turn clock's expiry is a bot's move for
that seat, nothing else."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from app import bots, clocks
from app.errors import Refusal
from app.push.notices import Notice
from app.store import people
from app.store.outage import refused_while_down
from app.table.collaborator import Collaborator
from engines.core import GameError, Seat

if TYPE_CHECKING:
    from app.table.table import Table

RETRY_WHILE_DOWN = 1.0
"""Seconds a bot waits before it tries again when its move could not be stored (the database
is away): play resumes by itself once the database is back."""


class Bots(Collaborator):
    """The thinking tasks of one table, and its clock enforcement."""

    __slots__ = ("_stopping", "others", "thinking", "warned")

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.thinking: dict[Seat, asyncio.Task[None]] = {}
        self.others: set[asyncio.Task[None]] = set()
        """Background tasks of the table (a returning player taking a seat back)."""
        self._stopping = False
        self.warned: set[tuple[Seat, float]] = set()
        """Decisions (seat, when it started) already told their bank is running low."""

    @property
    def busy(self) -> bool:
        """Whether a bot is thinking or a background task runs (the table is not idle)."""
        return bool(self.thinking or self.others)

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as a task of this table (cancelled with the bots at shutdown)."""
        task = asyncio.create_task(work)
        self.others.add(task)
        task.add_done_callback(self.others.discard)

    def kick(self) -> None:
        """Start a thinking task for every seat a bot plays that must act and has none."""
        table = self.table
        game = table.game
        if game is None or game.over or self._stopping:
            return
        for seat in sorted(game.acting):
            if table.bot_plays(seat) and seat not in self.thinking:
                level = table.seats[seat].bot_level or table.bot_level
                task = asyncio.create_task(self._turn(seat, game.version, level))
                self.thinking[seat] = task

    async def _turn(self, seat: Seat, version: int, level: str) -> None:
        """Think for a seat as of `version`, then move through the common path."""
        runtime = self.table.runtime
        try:
            delay = runtime.bot_delay
            if not self.table.leading:
                delay += runtime.follower_grace
            if delay > 0:
                await asyncio.sleep(delay)
            await self.decide_for(seat, version, level)
        except Refusal as exc:
            # Another process moved first (reload_game already re-kicked), or the database is
            # away: then the bot tries again a little later, until it is back.
            if exc.code == "unavailable":
                await asyncio.sleep(RETRY_WHILE_DOWN)
        finally:
            if self.thinking.get(seat) is asyncio.current_task():
                del self.thinking[seat]
            if self.table.bot_plays(seat):
                self.kick()

    async def decide_for(
        self, seat: Seat, version: int, level: str, *, timed_out: bool = False
    ) -> bool:
        """A bot's decision for `seat`, asked at `version`; False if the question went away."""
        table = self.table
        game = table.game
        if game is None or game.over or seat not in game.acting:
            return False
        if game.prompt_version.get(seat, 0) > version:
            return False
        state = game.state
        seed = bots.decision_seed(game.seed_commitment, game.version, seat)
        action = await asyncio.to_thread(
            bots.decide, game.engine, state, seat, level, seed, table.runtime.bot_think_scale
        )
        async with table.lock:
            game = table.game
            if game is None or game.over or seat not in game.acting:
                return False
            if game.prompt_version.get(seat, 0) > version:
                return False  # the question changed while it thought
            if not timed_out and not table.bot_plays(seat):
                return False  # the player took the seat back
            if timed_out:
                deadline = (table.clock_now() or {}).get("deadlines", {}).get(str(seat))
                if deadline is None or deadline > table.runtime.now():
                    return False  # the player moved in time after all
            try:
                step = game.engine.apply(game.state, seat, action)
            except GameError:
                return False  # the position changed under it; think again
            await table.moves.commit(seat, action, step, timed_out=timed_out)
            return True

    async def tick(self) -> int:
        """Enforce the turn clocks: a bot decides for each seat whose time ran out.

        Returns how many decisions were made. Any process may call this; the version check
        of the move path makes each expiry fire once.
        """
        table = self.table
        game = table.game
        if game is None or game.over or game.clock is None:
            return 0
        fired = 0
        now = table.runtime.now()
        if not table.leading:
            now -= table.runtime.follower_grace
        await self._warn_low_banks(now)
        for seat in clocks.expired(table.clock_now(), now):
            try:
                with refused_while_down():
                    if await self._away_changed(seat):
                        continue  # judged again at the next tick, with the vacation as it is
                if await self.decide_for(seat, game.version, table.bot_level, timed_out=True):
                    fired += 1
            except Refusal:
                pass  # lost the race to another process, or the database is away: next tick
        return fired

    async def _away_changed(self, seat: Seat) -> bool:
        """Before a person's time runs out at a table that pauses clocks for vacations: read
        their vacation from the database (it may have been set where this process did not
        hear of it); True if it differed from what the table held (now updated)."""
        table = self.table
        info = table.seats.get(seat)
        if info is None or info.is_bot or info.user_id is None or not table.away_days:
            return False
        async with table.sessions() as session:
            away = await people.away_of(session, info.user_id)
        if away == info.away:
            return False
        table.seats[seat] = replace(info, away=away)
        table.revision += 1
        table.broadcast("state")
        return True

    async def _warn_low_banks(self, now: float) -> None:
        """Web Push: a person deciding whose extra time falls below a quarter hears it once
        per decision (from the process that made the table's last change only)."""
        table = self.table
        game = table.game
        if not table.runtime.push.enabled or not table.leading or game is None:
            return
        notices = []
        for seat, started in clocks.banks_running_low(game.clock, now):
            info = table.seats.get(seat)
            if info is None or info.user_id is None or (seat, started) in self.warned:
                continue
            self.warned.add((seat, started))
            notices.append(Notice(info.user_id, "bank", table.id, game.version, now))
        await table.runtime.push.write(table.sessions, notices, now)

    async def settle(self) -> None:
        """Wait until no bot is thinking (tests and shutdown)."""
        while self.thinking:
            await asyncio.gather(*list(self.thinking.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every thinking and background task and wait until they are gone (shutdown)."""
        self._stopping = True
        tasks = [*self.thinking.values(), *self.others]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.thinking.clear()
