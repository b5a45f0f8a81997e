"""HTML rendering of lobby and table fragments from engine views (Jinja2 templates)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.templating import Jinja2Templates

from app import bots, clocks
from app.core.config import ROOT
from app.db import repo
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
templates.env.globals["clock_choices"] = clocks.CLOCK_CHOICES
templates.env.globals["bot_levels"] = bots.LEVELS


def mmss(seconds: float | None) -> str:
    """A duration as m:ss (h:mm:ss past an hour)."""
    total = max(0, int(seconds or 0))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


templates.env.filters["mmss"] = mmss


def game_assets(game_id: str) -> list[tuple[str, str]]:
    """The game's own stylesheet and script, those of static/{css,js}/games/<id>.* that exist."""
    found = []
    for kind in ("css", "js"):
        if (ROOT / "static" / kind / "games" / f"{game_id}.{kind}").is_file():
            found.append((kind, f"/static/{kind}/games/{game_id}.{kind}"))
    return found


templates.env.globals["game_assets"] = game_assets


def _seat_info(hub: RoomHub, s: int, online: set[int]) -> dict[str, Any]:
    info = hub.seats.get(s)
    game = hub.game
    return {
        "seat": s,
        "name": info.name if info else None,
        "online": s in online,
        "bot": info.bot_level if info else None,
        "control": info.control if info else None,
        "offline_for": hub.offline_for(s) if info and not info.is_bot else None,
        "clock": clocks.seat_clock(game.clock, s) if game and not game.over else None,
    }


def room_info(hub: RoomHub, viewer_seat: int | None) -> dict[str, Any]:
    """Public facts about a room (JSON form, shared by both formats).

    Times (`now`, clock deadlines) are the server's seconds since the epoch; `offline_for`
    is how long a person's seat has had no connection.
    """
    online = set(hub.online_seats())
    game = hub.game
    rematch = rematch_join = None
    if hub.rematch_slug:
        code = hub.rematch_code if hub.private and viewer_seat is not None else None
        if code or not hub.private:
            rematch = f"/t/{hub.rematch_slug}" + (f"?code={code}" if code else "")
        if viewer_seat is not None:
            rematch_join = f"/t/{hub.rematch_slug}/sit?seat={viewer_seat}" + (
                f"&code={code}" if code else ""
            )
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
        "seats": [_seat_info(hub, s, online) for s in range(hub.num_seats)],
        "now": hub.runtime.now(),
        "clock": hub.clock_spec,
        "bot_level": hub.bot_level,
        "takeover_after": hub.runtime.takeover_after,
        "rematch": rematch,
        "rematch_join": rematch_join,
        "to_act": sorted(game.engine.to_act(game.state)) if game else [],
        "seed_commitment": game.seed_commitment if game else None,
        "seed": game.seed if game and game.over else None,
    }
    return info


def standing_names(hub: RoomHub) -> dict[int, str]:
    """Names as the boards show them: a resigned player's marked so (bots are named "Bot")."""
    names = {}
    for seat, info in hub.seats.items():
        if info.control == "resigned":
            names[seat] = f"{info.name} (resigned)"
        else:
            names[seat] = info.name
    return names


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
        "names": standing_names(hub),
        "bot_levels": bots.LEVELS,
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
        "is_host": conn.user_id == hub.host_id,
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


def lobby_html(rows: list[LobbyRow], now: float) -> str:
    """The lobby's table list as an out-of-band fragment."""
    return templates.env.get_template("partials/lobby_tables.html").render(
        {"rows": rows, "oob": True, "now": now}
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
