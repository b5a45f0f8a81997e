"""A table's chat: lines from named people (players and spectators), limited in length and
rate, stored, kept in memory (the last `CHAT_KEPT`) and sent to every connection."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import shown
from app.errors import Refusal
from app.i18n import N_
from app.store import people
from app.store.notes import add_chat, recent_chat
from app.table.collaborator import Collaborator

if TYPE_CHECKING:
    from app.table.table import Table


CHAT_KEPT = 100
"""Chat lines a table keeps in memory and sends to each new connection."""


@dataclass(frozen=True)
class ChatLimits:
    """How long a chat line may be and how many a person may send per window."""

    max_chars: int = 300
    count: int = 5
    window: float = 10.0


def clean_chat(text: str) -> str:
    """Trim a chat line and drop control and format characters (no newlines, no bidi tricks)."""
    kept = "".join(
        " " if ch in "\t\n\r" else ch
        for ch in text
        if ch in "\t\n\r" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    return " ".join(kept.split())


def chat_line(row: Any) -> dict[str, Any]:
    """A stored chat message as clients receive it (times in UTC; SQLite drops the zone)."""
    at = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    return {
        "id": row.id,
        "name": shown(row.name),
        "seat": row.seat,
        "text": row.text,
        "at": at.isoformat(timespec="seconds"),
    }


class Chat(Collaborator):
    """The chat of one table."""

    __slots__ = ("_sent", "lines")

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self._sent: dict[int, deque[float]] = {}

    async def load(self, session: AsyncSession) -> None:
        """Read the table's latest lines from the database."""
        self.lines.clear()
        self.lines.extend(
            chat_line(m) for m in await recent_chat(session, self.table.id, CHAT_KEPT)
        )

    def follow(self, line: dict[str, Any]) -> None:
        """A line sent through another process."""
        if all(known["id"] != line["id"] for known in self.lines):
            self.lines.append(line)
            for conn in self.table.presence.connections:
                conn.notify("chat", line)

    async def send(self, user_id: int | None, text: str, limits: ChatLimits) -> dict[str, Any]:
        """Store a chat line from a named person (player or spectator) and send it to all.

        Refused, changing nothing: no name, a closed table, an empty or too long line, or
        more than `limits.count` lines in `limits.window` seconds from the same person.
        """
        if user_id is None:
            raise Refusal("no_name", N_("Choose a name before you chat."))
        table = self.table
        if table.status == "closed":
            raise Refusal("table_closed", N_("This table is closed."))
        text = clean_chat(text)
        if not text:
            raise Refusal("chat_empty", N_("Type something to send."))
        if len(text) > limits.max_chars:
            raise Refusal(
                "chat_too_long",
                N_("Chat lines are limited to %(limit)s characters."),
                limit=limits.max_chars,
            )
        now = time.monotonic()
        sent = self._sent.setdefault(user_id, deque())
        while sent and now - sent[0] >= limits.window:
            sent.popleft()
        if len(sent) >= limits.count:
            wait = max(1, round(limits.window - (now - sent[0])))
            raise Refusal(
                "chat_rate_limited",
                N_("You are sending messages too fast; wait %(wait)s s."),
                wait=wait,
            )
        sent.append(now)
        async with table.sessions() as session, session.begin():
            user = await people.get_user(session, user_id)
            if user is None:
                raise Refusal("no_name", N_("Choose a name before you chat."))
            row = await add_chat(
                session,
                room_id=table.id,
                user_id=user_id,
                name=user.name,
                seat=table.seat_of(user_id),
                text=text,
            )
            line = chat_line(row)
        self.lines.append(line)
        for conn in table.presence.connections:
            conn.notify("chat", line)
        table.follower.publish("chat", line=line)
        return line
