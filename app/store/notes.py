"""A table's chat lines and its log lines about the table (room events)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import (
    ChatMessage,
    RoomEvent,
)
from app.store.rows import insert_row
from engines.core import Event


async def add_table_event(session: AsyncSession, room_id: int, version: int, event: Event) -> None:
    """Store a log line about the table (its English message and parameters)."""
    data = event.to_json()
    await insert_row(
        session,
        RoomEvent(room_id=room_id, version=version, text=data["text"], params=data.get("params")),
    )


async def table_events(session: AsyncSession, room_id: int) -> list[RoomEvent]:
    """The table's log lines, in order."""
    result = await session.execute(
        select(RoomEvent).where(RoomEvent.room_id == room_id).order_by(RoomEvent.id)
    )
    return list(result.scalars().all())


async def add_chat(
    session: AsyncSession, *, room_id: int, user_id: int, name: str, seat: int | None, text: str
) -> ChatMessage:
    """Store one chat line."""
    row = ChatMessage(room_id=room_id, user_id=user_id, name=name, seat=seat, text=text)
    return await insert_row(session, row)


async def recent_chat(session: AsyncSession, room_id: int, limit: int) -> list[ChatMessage]:
    """The room's last `limit` chat lines, oldest first."""
    result = await session.execute(
        select(ChatMessage)
        .where(ChatMessage.room_id == room_id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(result.scalars().all()))
