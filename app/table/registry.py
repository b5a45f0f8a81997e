"""The live tables of one process (`Tables`): loaded lazily by slug, kept while used,
evicted when idle; the ticker (clocks, eviction, heartbeat); the bus's messages routed to
their table; and what concerns a person at every table (a new name, changed devices).

A table is kept here exactly while this process is subscribed to its channel on the bus
(`bus.watch` before it is read, `bus.unwatch` when it is forgotten): a process hears about the
tables it serves or follows, nothing else."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import clocks, identity
from app.i18n import GENDERS
from app.metrics import Live
from app.realtime.connection import Connection
from app.realtime.devices import DeviceSockets
from app.store import games, people, tables
from app.store.base import Store
from app.store.sql import SqlStore
from app.table import idle
from app.table.runtime import Runtime
from app.table.table import Table

logger = logging.getLogger("stolik.table")


class Tables:
    """Every live table of this process, loaded lazily by slug."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], runtime: Runtime | None = None
    ) -> None:
        self.sessions = sessions
        self.runtime = runtime or Runtime()
        self._tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self.evict_after = 600.0
        self.store: Store = SqlStore(sessions)
        """Where table changes and moves are written (`app.store.pg.open_store` on
        PostgreSQL), handed to every table."""
        self.lobby: set[Connection] = set()
        self.sockets = DeviceSockets()
        """Every open socket of this process (tables and lobby), by device."""
        self.known = identity.Known()
        """Devices checked lately (app.identity): a burst of requests reads them once."""
        self.heard: dict[str, float] = {}
        """Other processes (bus origins) and when (monotonic) each was last heard from."""
        self._gone: set[str] = set()
        self._arriving: dict[str, list[dict[str, Any]]] = {}
        """Bus messages for tables being read from the database (subscribed, not yet kept):
        applied once the table is kept, so none is lost at the subscription's boundary."""
        self.runtime.metrics.watch(self.sample)

    def loaded(self, slug: str) -> Table | None:
        """The table of a room if this process has it in memory now (nothing loaded)."""
        return self._tables.get(slug)

    async def get(self, slug: str) -> Table | None:
        """The table of a room, or None if no such room exists."""
        table = self._tables.get(slug)
        if table is not None:
            table.touched = time.monotonic()
            return table
        async with self._loading:
            table = self._tables.get(slug)
            if table is not None:
                table.touched = time.monotonic()
                return table
            # Subscribed first, read second: a change committed after the read is heard (and
            # held in `_arriving` until the table is kept), one committed before is read.
            self._arriving[slug] = []
            try:
                await self.runtime.bus.watch(slug)
                async with self.sessions() as session:
                    room = await tables.get_table(session, slug)
                    if room is None:
                        self.runtime.bus.unwatch(slug)
                        return None
                    table = Table(self.sessions, room, self.runtime)
                    table.store = self.store
                    await table.load(session)
            except BaseException:
                self._arriving.pop(slug, None)
                self.runtime.bus.unwatch(slug)
                raise
            arrived = self._arriving.pop(slug, [])
            self._keep(table)
            for msg in arrived:  # followed, not forgotten: it is being asked for
                await table.follow(msg)
            table.bots.kick()
            table.follower.publish("hello")  # the other processes answer with their connected seats
            return table

    def _keep(self, table: Table) -> None:
        table.on_lobby_change = self._lobby_here
        table.on_table_created = self.adopt
        self._tables[table.slug] = table

    def adopt(self, room: Any, seats: list[tables.SeatInfo]) -> Table:
        """Keep a room this process has just created (and committed) in memory as it was
        written — open, these `seats`, no game, no chat — so its first join or page does not
        read back what was just stored (4 queries). Nobody else can have changed it yet; if
        another process does later, the room's changes are judged by the database as ever
        (claim_table) and this table catches up."""
        table = self._tables.get(room.slug)
        if table is not None:
            return table
        table = Table(self.sessions, room, self.runtime)
        table.store = self.store
        table.seats = {info.seat: info for info in seats}
        table.used_at = self.runtime.now()
        table.presence.all_offline()
        self._keep(table)
        self.runtime.bus.watch_soon(table.slug)
        table.bots.background(table.refresh_ratings())
        return table

    def _forget(self, table: Table) -> None:
        """Drop `table` from this process (and its channel from the bus)."""
        if self._tables.get(table.slug) is table:
            del self._tables[table.slug]
            self.runtime.bus.unwatch(table.slug)

    def evict_idle(self, idle_for: float = 600.0) -> int:
        """Forget tables nobody has used for `idle_for` seconds (no connection, not asked for,
        no bot thinking, no turn clock running): their memory is given back, and the next
        `get` loads them again from the database. Returns how many were evicted."""
        now = time.monotonic()
        evicted = 0
        for table in list(self._tables.values()):
            game = table.game
            clocked = game is not None and not game.over and game.clock is not None
            if (
                table.presence.connections
                or table.presence.idle_since is None
                or now - table.presence.idle_since < idle_for
                or now - table.touched < idle_for
                or table.bots.busy
                or clocked
            ):
                continue
            self._forget(table)
            evicted += 1
        if evicted:
            logger.info("evicted idle tables", extra={"count": evicted, "live": len(self._tables)})
        return evicted

    async def follow(self, msg: dict[str, Any]) -> None:
        """A change committed by another process (from the bus): update the live table of its
        room, if this process has one, and this process's lobby."""
        origin = msg.get("o")
        if isinstance(origin, str):
            if origin in self._gone:
                # Back after we counted it gone: ask again who is connected through it.
                self._gone.discard(origin)
                for live in self.live():
                    live.follower.publish("hello", seats=sorted(live.presence.local_seats()))
            self.heard[origin] = time.monotonic()
        kind = msg.get("k")
        if kind == "alive":
            return
        if kind == "rename":
            self._renamed_here(int(msg["u"]), str(msg["n"]))
            return
        if kind == "gender":
            gender = msg.get("g")
            self._seats_changed_here(int(msg["u"]), gender=gender if gender in GENDERS else None)
            return
        if kind == "away":
            window = msg.get("w")
            away = (float(window[0]), float(window[1])) if isinstance(window, list) else None
            self._seats_changed_here(int(msg["u"]), away=away)
            self._lobby_here()
            return
        if kind == "person":
            self.known.forget(int(msg["u"]))
            return
        if kind == "signout":
            self._signed_out_here(int(msg["u"]), [str(d) for d in msg["d"]])
            return
        if kind == "notice":
            self._notified_here(int(msg["u"]), str(msg["n"]))
            return
        if kind == "resubscribed" or kind == "resync":
            # Our bus lost Redis for a while, or another process could not publish for a
            # while: changes were missed. A person or a device may have changed, and so may
            # any table.
            self.known.clear()
            await self.recheck_devices()
            await self.catch_up()
            return
        if kind == "lobby":
            self._lobby_here()
            return
        slug = str(msg.get("s"))
        table = self._tables.get(slug)
        if table is None:
            arriving = self._arriving.get(slug)
            if arriving is not None:
                arriving.append(msg)
            return
        await self._follow_table(table, msg)

    async def _follow_table(self, table: Table, msg: dict[str, Any]) -> None:
        if msg["k"] not in ("presence", "hello") and self._forget_unwatched(table):
            return
        await table.follow(msg)

    async def catch_up(self) -> int:
        """After bus messages were lost (Redis was away): re-read every table this process
        holds from the database, reload those that changed (their sockets get the new state),
        and tell the other processes which seats are connected here (they answer with
        theirs). Returns how many tables were reloaded."""
        held = self.live()
        if not held:
            return 0
        async with self.sessions() as session:
            now = await games.tables_now(session, [table.id for table in held])
        reloaded = 0
        for table in held:
            status, version = now.get(table.id, (table.status, None))
            known = table.game.version if table.game is not None else None
            if status != table.status or version != known or status == "open":
                async with table.lock:
                    await table.reload_game()
                reloaded += 1
            table.follower.publish("hello", seats=sorted(table.presence.local_seats()))
        logger.info("caught up after the bus lost messages", extra={"count": reloaded})
        return reloaded

    def _forget_unwatched(self, table: Table) -> bool:
        """Another process changed a table that nobody here watches: forget it (and stop
        hearing of it) instead of keeping it current. With tables routed to processes, most
        tables a process once read (a page, the lobby, the start-up) are another's; following
        them all made every process hear every move of the cluster. The next request or
        socket for it loads it again, current. A table whose bot thinks here, or that is being
        changed here, is kept. Its clocks and bots do not need this process: the process that
        made the change runs them, and if it dies the others take its tables in play over
        (`take_over`). A request that got the table just before keeps its copy: what it writes
        is decided by the database, and a socket takes the room's table again once accepted
        (`table_socket`)."""
        if table.presence.connections or table.bots.busy or table.lock.locked():
            return False
        self._forget(table)
        return True

    def sample(self) -> Live:
        """What this process holds now, for the metrics."""
        seats = spectators = 0
        for table in self._tables.values():
            for conn in list(table.presence.connections):
                if table.seat_of(conn.user_id) is None:
                    spectators += 1
                else:
                    seats += 1
        return Live(len(self._tables), seats, spectators, len(self.lobby))

    def held(self, slug: str) -> Table | None:
        """The table of `slug` if this process holds it in memory now (never loads it)."""
        return self._tables.get(slug)

    def live(self) -> list[Table]:
        """The tables loaded in this process."""
        return list(self._tables.values())

    async def resume(self, downtime_grace: float = 15.0) -> None:
        """At start: move running deadlines past the server's downtime, then load every game
        in progress so its bots and clocks carry on.

        Downtime is measured from the last heartbeat of any process: while another process
        kept serving, nothing is shifted.
        """
        now = self.runtime.now()
        async with self.sessions.begin() as session:
            last = await games.last_heartbeat(session)
            if last is not None and now - last > downtime_grace:
                for game in await games.running_clock_games(session):
                    shifted = clocks.shifted(game.clock, now - last)
                    await games.set_game_clock(session, game.id, game.version, shifted)
            await games.beat(session, now)
            slugs = await tables.playing_table_slugs(session)
        for slug in slugs:
            await self.get(slug)

    async def take_over(self) -> int:
        """Another process went silent: load every game in play that this process does not
        hold, so their bots and clocks carry on here (after the follower's grace: every
        survivor does the same, and the database lets one of them move; the others then hear
        that move and forget the table). Returns how many tables were loaded."""
        async with self.sessions() as session:
            slugs = await tables.playing_table_slugs(session)
        loaded = 0
        for slug in slugs:
            if slug in self._tables:
                continue
            table = await self.get(slug)
            if table is not None:
                table.leading = False
                loaded += 1
        if loaded:
            logger.info("took over the tables of a silent process", extra={"count": loaded})
        return loaded

    async def tick(self) -> int:
        """One round of clock enforcement over every live table (the ticker calls this), the
        eviction of idle ones, and forgetting the seats of processes gone silent (and taking
        their games in play over)."""
        if self.drop_silent():
            await self.take_over()
        fired = 0
        for table in self.live():
            fired += await table.bots.tick()
            if idle.due(table, self.runtime.now()):
                await table.seating.close_idle()
        self.evict_idle(self.evict_after)
        return fired

    def drop_silent(self, now: float | None = None) -> list[str]:
        """Processes not heard from for `Runtime.gone_after` seconds are gone: the seats
        connected through them are offline here from now (their takeover clock starts).
        Every process says "alive" every `Runtime.alive_every` seconds, so only a dead or
        cut-off one goes silent. Returns the origins dropped."""
        now = time.monotonic() if now is None else now
        limit = self.runtime.gone_after
        gone = [o for o, heard in self.heard.items() if now - heard > limit]
        for origin in gone:
            del self.heard[origin]
            self._gone.add(origin)
            for table in self.live():
                if origin in table.presence.remote_online:
                    table.presence.remote(origin, set())
            logger.warning("a process went silent; its seats are offline", extra={"origin": origin})
        return gone

    async def beat(self) -> None:
        """Record that this process is alive (for downtime measurement)."""
        async with self.sessions.begin() as session:
            await games.beat(session, self.runtime.now())

    async def run_ticker(self, interval: float, beat_every: float = 5.0) -> None:
        """Forever: enforce clocks every `interval` s and beat every `beat_every` s."""
        last_beat = last_alive = last_touch = 0.0
        while True:
            await asyncio.sleep(interval)
            try:
                self.runtime.sends.sweep()  # first: a slow clock round must not delay it
                await self.tick()
                self.runtime.trimmer.maybe_trim()
                now = time.monotonic()
                self.runtime.refreezer.maybe_freeze(now)
                bus = self.runtime.bus
                if bus.enabled and now - last_alive >= self.runtime.alive_every:
                    last_alive = now
                    bus.send({"k": "alive"})
                if now - last_beat >= beat_every:
                    last_beat = now
                    await self.beat()
                if now - last_touch >= identity.TOUCH_EVERY:
                    last_touch = now
                    await self.touch_devices()
            except Exception:
                logger.exception("clock tick failed")

    async def settle(self) -> None:
        """Wait until no bot in this process is thinking."""
        for table in self.live():
            await table.bots.settle()

    async def shutdown(self) -> None:
        """Stop every bot and background task of every live table."""
        for table in self.live():
            await table.bots.stop()

    def renamed(self, user_id: int, name: str) -> None:
        """A person changed their name: every live table they sit at shows the new one, in
        every process."""
        self._renamed_here(user_id, name)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "rename", "u": user_id, "n": name})

    def person_changed(self, user_id: int) -> None:
        """A person's devices or language changed (committed): every process checks their
        devices in the database again at their next request."""
        self.known.forget(user_id)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "person", "u": user_id})

    def signed_out(self, user_id: int, devices: list[str]) -> None:
        """Devices of `user_id` were signed out (committed): their open sockets close at once,
        in every process, and every process checks the person's devices again."""
        self._signed_out_here(user_id, devices)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "signout", "u": user_id, "d": sorted(devices)})

    def _signed_out_here(self, user_id: int, devices: list[str]) -> None:
        self.known.forget(user_id)
        closed = self.sockets.sign_out(devices)
        if closed:
            logger.info("signed-out devices' sockets closed", extra={"count": closed})

    async def recheck_devices(self) -> None:
        """Close the sockets of every device signed out while this process may not have heard
        of it (its bus lost Redis): one query over the devices with an open socket here."""
        open_devices = self.sockets.devices()
        if not open_devices:
            return
        async with self.sessions() as session:
            gone = await people.revoked_among(session, open_devices)
        self.sockets.sign_out(gone)

    def regendered(self, user_id: int, gender: str | None) -> None:
        """A person changed how the site speaks of them (she, he, neutral): every live table
        they sit at draws its pages and log again (a new revision), in every process."""
        self._seats_changed_here(user_id, gender=gender)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "gender", "u": user_id, "g": gender})

    def away_changed(self, user_id: int, away: tuple[float, float] | None) -> None:
        """A person set or ended a vacation (committed): their clocks at correspondence
        tables count it, and the others see it, in every process."""
        self._seats_changed_here(user_id, away=away)
        self._lobby_here()
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "away", "u": user_id, "w": list(away) if away else None})

    def _renamed_here(self, user_id: int, name: str) -> None:
        self._seats_changed_here(user_id, name=name)
        self._lobby_here()

    def _seats_changed_here(self, user_id: int, **changes: Any) -> None:
        """The person's seats at this process's live tables take `changes` (name, gender);
        each such table has a new revision, so its cached pages are drawn again."""
        self.known.forget(user_id)
        for table in self.live():
            seat = table.seat_of(user_id)
            if seat is not None:
                table.seats[seat] = replace(table.seats[seat], **changes)
                table.revision += 1
                table.broadcast("state")

    def lobby_changed(self) -> None:
        """The table list changed (a table was created): tell every lobby connection, in
        every process."""
        self._lobby_here()
        self.runtime.bus.lobby_changed()

    def person_notified(self, user_id: int, kind: str) -> None:
        """Something new for a person (`kind`: "invite", "request"): their open lobby pages,
        in every process, are told to fetch it."""
        self._notified_here(user_id, kind)
        if self.runtime.bus.enabled:
            self.runtime.bus.send({"k": "notice", "u": user_id, "n": kind})

    def _notified_here(self, user_id: int, kind: str) -> None:
        for conn in self.lobby:
            if conn.user_id == user_id:
                conn.notify(kind)

    async def touch_devices(self) -> None:
        """Note in the database that the devices with a socket open here are in use (who is
        online: app/store/friends.py `ONLINE_WITHIN`)."""
        open_devices = self.sockets.devices()
        if open_devices:
            async with self.sessions.begin() as session:
                await people.touch_many(session, open_devices, self.runtime.now())

    def _lobby_here(self) -> None:
        """Tell this process's lobby connections that the table list changed."""
        for conn in self.lobby:
            conn.notify("lobby")
