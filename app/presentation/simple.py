"""The small fragments outside the table page: an error toast, the lobby's table list, a
person's invitations and chat lines."""

from __future__ import annotations

from typing import Any

from app.presentation.environment import templates
from app.store.friends import InvitationRow
from app.store.lobby import LobbyRow


def error_html(code: str, message: str) -> str:
    """A toast with the refusal."""
    ctx = {"code": code, "message": message}
    return templates.env.get_template("partials/toast.html").render(ctx)


def lobby_html(rows: list[LobbyRow], now: float) -> str:
    """The lobby's lists as out-of-band fragments: the person's own tables (the dashboard)
    and the others."""
    ctx = {"rows": rows, "oob": True, "now": now}
    env = templates.env
    return env.get_template("partials/dashboard.html").render(ctx) + env.get_template(
        "partials/lobby_tables.html"
    ).render(ctx)


def invitations_html(rows: list[InvitationRow], friend_requests: int) -> str:
    """A person's invitations to tables and how many friend requests wait for them (the
    lobby's box) as an out-of-band fragment."""
    return templates.env.get_template("partials/invitations.html").render(
        {"invitations": rows, "friend_requests": friend_requests, "oob": True}
    )


def chat_html(lines: list[dict[str, Any]], history: bool) -> str:
    """Chat lines: the whole list replaced (history) or new lines appended. Chat is the same
    for everyone at the table, so this depends on nothing about the viewer."""
    return templates.env.get_template("partials/chat.html").render(
        {"lines": lines, "history": history}
    )
