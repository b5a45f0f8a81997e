"""Who is at a table: its open connections in this process, the seats connected through other
processes, and since when a person's seat has had no connection (for take-over)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from app.realtime.connection import Connection
from app.table.collaborator import Collaborator
from engines.core import Seat

if TYPE_CHECKING:
    from app.table.table import Table


class Presence(Collaborator):
    """A table's connections and who is online."""

    __slots__ = (
        "_online",
        "_online_key",
        "connections",
        "idle_since",
        "offline_since",
        "remote_online",
        "rev",
    )

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.connections: set[Connection] = set()
        self.offline_since: dict[Seat, float] = {}
        self.remote_online: dict[str, set[Seat]] = {}
        """Seats with a connection on another process, by that process."""
        self.rev = 0
        """Bumped when a connection comes or goes here or on another process."""
        self._online: list[Seat] = []
        self._online_key: tuple[int, int] = (-1, -1)
        self.idle_since: float | None = time.monotonic()
        """When the last connection closed (None while one is open); for eviction."""

    def all_offline(self) -> None:
        """Every person's seat counts as disconnected from now (a table just loaded)."""
        now = self.table.runtime.now()
        self.offline_since = {s: now for s, info in self.table.seats.items() if not info.is_bot}

    def local_seats(self) -> set[Seat]:
        """Seats with a connection to this process."""
        seat_of = self.table.seat_of
        return {s for c in self.connections if (s := seat_of(c.user_id)) is not None}

    def online_seats(self) -> list[Seat]:
        """Seats with at least one open connection, here or on another process (bots are
        always there). Computed once per presence and table change, not per socket."""
        key = (self.rev, self.table.revision)
        if self._online_key != key:
            online: set[Seat | None] = set(self.local_seats())
            for seats in self.remote_online.values():
                online |= seats
            online |= {s for s, info in self.table.seats.items() if info.is_bot}
            self._online = sorted(s for s in online if s is not None)
            self._online_key = key
        return self._online

    def offline_for(self, seat: Seat) -> float | None:
        """Seconds since a person's seat lost its last connection (None if connected)."""
        since = self.offline_since.get(seat)
        if since is None or seat in self.online_seats():
            return None
        return max(0.0, self.table.runtime.now() - since)

    def attach(self, conn: Connection) -> None:
        """A new connection: it gets the full state and the chat; if it brings a seat online,
        everyone gets the new presence (a spectator changes nobody's seats bar).

        A player whose seat was handed to a bot while away takes it back by coming back.
        """
        table = self.table
        seat = table.seat_of(conn.user_id)
        before = self.online_seats()
        self.connections.add(conn)
        self.rev += 1
        if seat is not None:
            self.offline_since.pop(seat, None)
            if table.seats[seat].control == "away":
                table.bots.background(table.control.returned(seat))
        self.idle_since = None
        table.used_at = table.runtime.now()
        conn.notify("state")
        conn.notify("chat", None)
        self._changed(seat, before)

    def detach(self, conn: Connection) -> None:
        """A connection closed; a seat with no connection left starts its "disconnected" time."""
        before = self.online_seats()
        self.connections.discard(conn)
        self.table.runtime.trimmer.closed_one()
        self.rev += 1
        seat = self.table.seat_of(conn.user_id)
        if seat is not None and seat not in self.online_seats():
            self.offline_since[seat] = self.table.runtime.now()
        if not self.connections:
            self.idle_since = time.monotonic()
        self.table.used_at = self.table.runtime.now()
        self._changed(seat, before)

    def remote(self, origin: str, seats: set[Seat]) -> None:
        """Another process's connected seats for this table changed."""
        was = set(self.online_seats())
        if seats:
            self.remote_online[origin] = seats
        else:
            self.remote_online.pop(origin, None)
        self.rev += 1
        now_online = set(self.online_seats())
        for seat in was - now_online:
            self.offline_since[seat] = self.table.runtime.now()
        for seat in now_online - was:
            self.offline_since.pop(seat, None)
        if was != now_online:
            self.table.broadcast("presence")

    def _changed(self, seat: Seat | None, before: list[Seat]) -> None:
        """After a connection of `seat` came or went: push the seats bar if who is online
        changed, and tell the other processes which seats this one has."""
        if seat is None:
            return  # a spectator: no seat came or went
        if self.online_seats() != before:
            self.table.broadcast("presence")
        self.table.follower.publish("presence", seats=sorted(self.local_seats()))
