"""HTML rendering of lobby and table fragments from engine views (Jinja2 templates)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.templating import Jinja2Templates

from app.core.config import ROOT
from app.db.repo import LobbyRow
from app.realtime.hub import Connection, RoomHub
from app.realtime.protocol import (
    chat_message,
    error_message,
    presence_message,
    state_message,
)
from engines import ENGINES, REGISTRY

templates = Jinja2Templates(directory=str(ROOT / "templates"))
templates.env.globals["games"] = REGISTRY
templates.env.globals["engines"] = ENGINES
templates.env.filters["tojson_attr"] = lambda v: json.dumps(v, separators=(",", ":"))


def act_vals(version: int, action: dict[str, Any]) -> str:
    """The `hx-vals` of a button that sends `act` for `action` at `version`."""
    return json.dumps({"type": "act", "version": version, "action": action}, separators=(",", ":"))


templates.env.globals["act_vals"] = act_vals


def game_assets(game_id: str) -> list[tuple[str, str]]:
    """The game's own stylesheet and script, those of static/{css,js}/games/<id>.* that exist."""
    found = []
    for kind in ("css", "js"):
        if (ROOT / "static" / kind / "games" / f"{game_id}.{kind}").is_file():
            found.append((kind, f"/static/{kind}/games/{game_id}.{kind}"))
    return found


templates.env.globals["game_assets"] = game_assets


def room_info(hub: RoomHub, viewer_seat: int | None) -> dict[str, Any]:
    """Public facts about a room (JSON form, shared by both formats)."""
    online = set(hub.online_seats())
    game = hub.game
    info: dict[str, Any] = {
        "slug": hub.slug,
        "game": hub.game_id,
        "title": hub.engine.spec.title,
        "status": hub.status,
        "private": hub.private,
        "num_seats": hub.num_seats,
        "min_players": hub.engine.spec.min_players,
        "host_seat": hub.seat_of(hub.host_id),
        "your_seat": viewer_seat,
        "options": hub.options,
        "seats": [
            {
                "seat": s,
                "name": hub.seats[s].name if s in hub.seats else None,
                "online": s in online,
            }
            for s in range(hub.num_seats)
        ],
        "to_act": sorted(game.engine.to_act(game.state)) if game else [],
        "seed_commitment": game.seed_commitment if game else None,
        "seed": game.seed if game and game.over else None,
    }
    return info


def state_json(hub: RoomHub, conn: Connection) -> dict[str, Any]:
    """The JSON state message for one connection (log lines since its last message)."""
    seat = hub.seat_of(conn.user_id)
    game = hub.game
    version = game.version if game else 0
    view = game.engine.view(game.state, seat) if game else None
    log = hub.log_for(seat, conn.log_version)
    conn.log_version = version
    msg = state_message(version, view or {}, log)
    msg["room"] = room_info(hub, seat)
    return msg


def state_html(hub: RoomHub, conn: Connection, settings_log_tail: int) -> str:
    """Every fragment of the table page, each swapped by id (hx-swap-oob)."""
    seat = hub.seat_of(conn.user_id)
    game = hub.game
    view = game.engine.view(game.state, seat) if game else None
    ctx = {
        "hub": hub,
        "room": room_info(hub, seat),
        "seat": seat,
        "user_id": conn.user_id,
        "is_host": conn.user_id == hub.host_id,
        "version": game.version if game else 0,
        "view": view,
        "log": hub.log_for(seat)[-settings_log_tail:],
        "names": hub.names(),
    }
    return templates.env.get_template("partials/table_state.html").render(ctx)


def presence_html(hub: RoomHub, conn: Connection) -> str:
    """Just the seats bar (presence dots changed)."""
    seat = hub.seat_of(conn.user_id)
    game = hub.game
    ctx = {
        "hub": hub,
        "room": room_info(hub, seat),
        "seat": seat,
        "view": game.engine.view(game.state, seat) if game else None,
        "oob": True,
    }
    return templates.env.get_template("partials/seats.html").render(ctx)


def presence_json(hub: RoomHub) -> dict[str, Any]:
    """The JSON presence message."""
    return presence_message(hub.online_seats())


def error_html(code: str, message: str) -> str:
    """A toast with the refusal."""
    ctx = {"code": code, "message": message}
    return templates.env.get_template("partials/toast.html").render(ctx)


def error_json(code: str, message: str) -> dict[str, Any]:
    """The JSON error message."""
    return error_message(code, message)


def lobby_html(rows: list[LobbyRow]) -> str:
    """The lobby's table list as an out-of-band fragment."""
    return templates.env.get_template("partials/lobby_tables.html").render(
        {"rows": rows, "oob": True}
    )


def chat_json(lines: list[dict[str, Any]], history: bool) -> dict[str, Any]:
    """The JSON chat message."""
    return chat_message(lines, history)


def chat_html(lines: list[dict[str, Any]], history: bool) -> str:
    """Chat lines: the whole list replaced (history) or new lines appended. Chat is the same
    for everyone at the table, so this depends on nothing about the viewer."""
    return templates.env.get_template("partials/chat.html").render(
        {"lines": lines, "history": history}
    )
