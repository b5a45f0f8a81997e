"""The push side of a table: whether pushes are on in this process, and how a table that
just committed outbox rows wakes this process's sender. The table decides its notices
(`app.push.notices`); the store writes them with the change."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from app.push import outbox
from app.push.notices import Notice
from app.store.engine import SessionFactory

log = logging.getLogger("stolik.push")


class PushOutlet:
    """Off until the server turns it on (setting PUSH) and hands it its sender's `wake`."""

    def __init__(self) -> None:
        self.enabled = False
        self.wake: Callable[[], None] = lambda: None

    def turn_on(self, wake: Callable[[], None]) -> None:
        """Pushes are on; `wake` makes the sender look at the outbox now."""
        self.enabled = True
        self.wake = wake

    async def write(self, sessions: SessionFactory, notices: Iterable[Notice], now: float) -> None:
        """Write notices of a change already committed (a start, an invitation) in a
        transaction of their own; a failure is logged and loses only these pushes."""
        notices = list(notices)
        if not self.enabled or not notices:
            return
        try:
            async with sessions.begin() as session:
                await outbox.enqueue(session, notices, now)
        except Exception:
            log.warning("push notices not written", exc_info=True)
            return
        self.wake()
