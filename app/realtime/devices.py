"""The open sockets of one process by device, so that signing a device out closes its
sockets at once (`DeviceSockets.sign_out`), whichever process it was signed out through
(the others hear of it over the bus: `Tables.follow`)."""

from __future__ import annotations

import time
from collections.abc import Iterable

from app.realtime.connection import Connection


class DeviceSockets:
    """Open sockets by device id, and the devices signed out in the last `RECENT` seconds.

    The second closes a race: a socket whose cookie was checked just before its device was
    signed out, but registered here just after (its handshake was still loading the table),
    is signed out as it registers."""

    RECENT = 120.0

    def __init__(self) -> None:
        self._open: dict[str, set[Connection]] = {}
        self._gone: dict[str, float] = {}

    def __len__(self) -> int:
        return sum(len(conns) for conns in self._open.values())

    def devices(self) -> list[str]:
        """The devices with an open socket here."""
        return list(self._open)

    def opened(self, conn: Connection) -> bool:
        """Register an accepted socket; False (and `conn` is signed out) if its device was
        signed out meanwhile."""
        device = conn.device
        if device is None:
            return True
        if device in self._gone:
            conn.sign_out()
            return False
        self._open.setdefault(device, set()).add(conn)
        return True

    def closed(self, conn: Connection) -> None:
        """Forget a socket that ended."""
        device = conn.device
        conns = self._open.get(device) if device is not None else None
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._open[device]  # type: ignore[arg-type]

    def sign_out(self, devices: Iterable[str], now: float | None = None) -> int:
        """These devices were signed out: sign out (close) every socket of theirs here.
        Returns how many sockets."""
        now = time.monotonic() if now is None else now
        self._gone = {d: t for d, t in self._gone.items() if now - t < self.RECENT}
        closed = 0
        for device in devices:
            self._gone[device] = now
            for conn in self._open.pop(device, ()):
                conn.sign_out()
                closed += 1
        return closed
