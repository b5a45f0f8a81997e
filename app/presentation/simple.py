"""The small fragments outside the table page: an error toast, the lobby's table list and
chat lines (each the same for everyone who receives it)."""

from __future__ import annotations

from typing import Any

from app.presentation.environment import templates
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


def chat_html(lines: list[dict[str, Any]], history: bool) -> str:
    """Chat lines: the whole list replaced (history) or new lines appended. Chat is the same
    for everyone at the table, so this depends on nothing about the viewer."""
    return templates.env.get_template("partials/chat.html").render(
        {"lines": lines, "history": history}
    )
