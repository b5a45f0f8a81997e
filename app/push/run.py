"""Starting this process's sender: its key, its settings, and what it asks the live tables
(whether a tab of the person shows the table now)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from app.push.keys import server_key
from app.push.sender import Sender
from app.store.engine import SessionFactory

if TYPE_CHECKING:
    from app.core.config import Settings
    from app.table import Runtime, Tables


def start_sender(
    settings: Settings, sessions: SessionFactory, tables: Tables, runtime: Runtime
) -> asyncio.Task[None]:
    """Turn pushes on in this process and start its sender task."""

    def shown(slug: str, user_id: int) -> bool:
        table = tables.loaded(slug)
        if table is None:
            return False
        seat = table.seat_of(user_id)
        return seat is not None and table.presence.offline_for(seat) is None

    sender = Sender(
        sessions,
        server_key(settings.data_dir, settings.push_vapid_key),
        settings.push_subject,
        lease=settings.push_lease,
        poll=settings.push_poll,
        now=runtime.now,
        shown=shown,
        counted=lambda outcome: runtime.metrics.pushes.labels(outcome).inc(),
    )
    runtime.push.turn_on(sender.wake)
    return asyncio.create_task(sender.run(), name="push-sender")
