"""The JSON messages the server sends: room facts and per-connection state messages.

Pure builders over a hub's public facts and engine views; HTML fragments are
`app.presentation.table`'s.
"""

from __future__ import annotations

from typing import Any

import orjson

from app import clocks, i18n
from app.realtime.protocol import state_message
from app.table import Table


def _seat_info(hub: Table, s: int, online: set[int]) -> dict[str, Any]:
    info = hub.seats.get(s)
    game = hub.game
    return {
        "seat": s,
        "name": info.shown_name if info else None,
        "online": s in online,
        "bot": info.bot_level if info else None,
        "control": info.control if info else None,
        "offline_for": hub.presence.offline_for(s) if info and not info.is_bot else None,
        "clock": clocks.seat_clock(game.clock, s) if game and not game.over else None,
    }


def room_info(hub: Table, viewer_seat: int | None) -> dict[str, Any]:
    """Public facts about a room (JSON form, shared by both formats).

    Times (`now`, clock deadlines) are the server's seconds since the epoch; `offline_for`
    is how long a person's seat has had no connection. What is the same for every viewer is
    built once per moment (`Table.moment_cache`: version, room revision, who is online,
    half second) and language, and shared by every socket of the table; only the viewer's own
    facts are added per socket.
    """
    return {**_room_shared(hub), **_viewer_facts(hub, viewer_seat)}


def room_json(hub: Table, viewer_seat: int | None) -> orjson.Fragment:
    """`room_info` as JSON, the same bytes as encoding it: the shared part is encoded once per
    moment and language, and only the viewer's own facts per audience, joined to its end."""
    moment = hub.moment_cache()
    key = ("room-json", i18n.current())
    shared: bytes | None = moment.get(key)
    if shared is None:
        shared = moment[key] = orjson.dumps(_room_shared(hub), option=orjson.OPT_NON_STR_KEYS)
    own = orjson.dumps(_viewer_facts(hub, viewer_seat), option=orjson.OPT_NON_STR_KEYS)
    return orjson.Fragment(shared[:-1] + b"," + own[1:])


def _room_shared(hub: Table) -> dict[str, Any]:
    """The part of `room_info` every viewer shares, made once per moment and language."""
    moment = hub.moment_cache()
    key = ("room", i18n.current())
    shared: dict[str, Any] | None = moment.get(key)
    if shared is None:
        shared = moment[key] = _shared_room_info(
            hub, set(hub.presence.online_seats()), hub.runtime.now()
        )
    return shared


def _viewer_facts(hub: Table, viewer_seat: int | None) -> dict[str, Any]:
    """The part of `room_info` that is the viewer's own (never empty)."""
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
    return {
        "your_seat": viewer_seat,
        "rematch": rematch,
        "rematch_join": rematch_join,
        "your_prompt": (
            game.prompt_version.get(viewer_seat, 0) if game and viewer_seat is not None else None
        ),
    }


def _shared_room_info(hub: Table, online: set[int], now: float) -> dict[str, Any]:
    """The part of `room_info` every viewer shares."""
    game = hub.game
    return {
        "slug": hub.slug,
        "game": hub.game_id,
        "title": i18n.gettext(hub.engine.spec.title),
        "status": hub.status,
        "private": hub.private,
        "num_seats": hub.num_seats,
        "min_players": hub.engine.spec.min_players,
        "simultaneous": hub.engine.spec.simultaneous,
        "invite_code": hub.invite_code if hub.private else None,
        "host_seat": hub.seat_of(hub.host_id),
        "options": hub.options,
        "seats": [_seat_info(hub, s, online) for s in range(hub.num_seats)],
        "now": now,
        "clock": hub.clock_spec,
        "bot_level": hub.bot_level,
        "takeover_after": hub.runtime.takeover_after,
        "to_act": sorted(game.engine.to_act(game.state)) if game else [],
        "seed_commitment": game.seed_commitment if game else None,
        "seed": game.seed if game and game.over else None,
        # Revealed at the end only: with them anyone can check the shuffle (engines/verify.py).
        "seed_secret": game.seed_secret if game and game.over else None,
        "seed_salt": game.seed_salt if game else None,
    }


def standing_names(hub: Table) -> dict[int, str]:
    """Names as the boards show them: a resigned player's marked so (bots are named "Bot")."""
    names = {}
    for seat, info in hub.seats.items():
        if info.control == "resigned":
            names[seat] = i18n.gettext("%(name)s (resigned)") % {"name": info.shown_name}
        else:
            names[seat] = info.shown_name
    return names


def state_json(
    hub: Table, seat: int | None, after_version: int, *, encoded_room: bool = False
) -> dict[str, Any]:
    """The JSON state message for `seat` (None = spectator), with the log lines of the
    versions after `after_version`; `encoded_room`: its room facts as `room_json` (for
    encoding with orjson), else as a dict."""
    game = hub.game
    version = game.version if game else 0
    view = game.view(seat) if game else None
    entries = hub.log.entries_for(seat, after_version)
    log = [e["text"] for e in entries]
    msg = state_message(version, view or {}, log, entries)
    msg["room"] = room_json(hub, seat) if encoded_room else room_info(hub, seat)
    return msg


def encode_json(data: Any) -> str:
    """A message as JSON text (orjson: ~5x faster than the standard library's encoder; the same
    compact text frames `send_json` sends)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def state_json_text(hub: Table, seat: int | None, after_version: int) -> str:
    """`state_json`, encoded, made once per moment (`Table.moment_cache`: version, room
    revision, who is online, half second), audience, log start and language, and shared by
    every socket of that audience (ten spectators at the same place receive one encoding)."""
    cache = hub.moment_cache()
    key = ("json", seat, after_version, i18n.current())
    text = cache.get(key)
    if text is None:
        if len(cache) > 64:
            cache.clear()
        text = cache[key] = encode_json(state_json(hub, seat, after_version, encoded_room=True))
    return text
