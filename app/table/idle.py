"""Waiting tables that nobody else uses close by themselves: a table still waiting for
players, at which only its host and bots sit, with nobody at its page and nothing changed for
`IDLE_CLOSE_AFTER` seconds (by the server's clock, `Runtime.now`), is closed. Every "play again"
makes such a table; one nobody joined so leaves everyone's list."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.table.table import Table

IDLE_CLOSE_AFTER = 600.0
"""Seconds a waiting table of its host and bots stays unused before it closes."""


def created_at(room: Any) -> float:
    """A room's creation time in epoch seconds (SQLite gives it back without a time zone)."""
    when: datetime | None = getattr(room, "created_at", None)
    if when is None:
        return 0.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def host_and_bots_only(table: Table) -> bool:
    """Whether only the host and bots sit at the table."""
    return all(info.is_bot or info.user_id == table.host_id for info in table.seats.values())


def due(table: Table, now: float) -> bool:
    """Whether the table should close now: waiting, its host and bots only, nobody at its
    page (here or through another process), unused for `IDLE_CLOSE_AFTER` seconds."""
    return (
        table.status == "open"
        and host_and_bots_only(table)
        and not table.presence.connections
        and not any(table.presence.remote_online.values())
        and now - table.used_at >= IDLE_CLOSE_AFTER
    )
