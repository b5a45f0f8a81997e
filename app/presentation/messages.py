"""The JSON messages the server sends: room facts and per-connection state messages.

Pure builders over a table's snapshot (its public facts and engine views); HTML fragments are
`app.presentation.table`'s.
"""

from __future__ import annotations

from typing import Any

import orjson

from app import clocks, i18n
from app.presentation import cache, log
from app.ratings import bots as bot_ratings
from app.realtime.protocol import state_message
from app.store.tables import SeatInfo
from app.table.snapshot import Snapshot


def _seat_rating(snap: Snapshot, info: SeatInfo | None) -> tuple[int | None, bool]:
    """The shown rating beside a seat's name and whether it is provisional: a person's in the
    table's game (None: not rated in it yet), a bot's fixed one for its level."""
    if info is None:
        return None, False
    if info.bot_level is not None:
        return bot_ratings.rating(snap.game_id, info.bot_level).shown, False
    standing = snap.ratings.get(info.user_id or -1)
    if standing is None:
        return None, False
    return standing.rating.shown, standing.provisional


def _seat_info(snap: Snapshot, s: int, online: set[int]) -> dict[str, Any]:
    info = snap.seats.get(s)
    game = snap.game
    rating, provisional = _seat_rating(snap, info)
    return {
        "seat": s,
        "name": info.shown_name if info else None,
        "online": s in online,
        "bot": info.bot_level if info else None,
        "program": info.program if info else False,
        "control": info.control if info else None,
        # How the site speaks of the seat's person: "she", "he" or "neutral" (bots too).
        "grammar": info.grammar if info else "neutral",
        "offline_for": snap.offline_for(s) if info and not info.is_bot else None,
        "clock": clocks.seat_clock(game.clock, s) if game and not game.over else None,
        "rating": rating,
        "provisional": provisional,
    }


def table_info(snap: Snapshot, viewer_seat: int | None) -> dict[str, Any]:
    """Public facts about a room (JSON form, shared by both formats).

    Times (`now`, clock deadlines) are the server's seconds since the epoch; `offline_for`
    is how long a person's seat has had no connection. What is the same for every viewer is
    built once per moment (`cache.for_moment`: version, table revision, who is online,
    half second) and language, and shared by every socket of the table; only the viewer's own
    facts are added per socket.
    """
    return {**_table_shared(snap), **_viewer_facts(snap, viewer_seat)}


def table_json(snap: Snapshot, viewer_seat: int | None) -> orjson.Fragment:
    """`table_info` as JSON, the same bytes as encoding it: the shared part is encoded once per
    moment and language, and only the viewer's own facts per audience, joined to its end."""
    moment = cache.for_moment(snap)
    key = ("room-json", i18n.current())
    shared: bytes | None = moment.get(key)
    if shared is None:
        shared = moment[key] = orjson.dumps(_table_shared(snap), option=orjson.OPT_NON_STR_KEYS)
    own = orjson.dumps(_viewer_facts(snap, viewer_seat), option=orjson.OPT_NON_STR_KEYS)
    return orjson.Fragment(shared[:-1] + b"," + own[1:])


def _table_shared(snap: Snapshot) -> dict[str, Any]:
    """The part of `table_info` every viewer shares, made once per moment and language."""
    moment = cache.for_moment(snap)
    key = ("room", i18n.current())
    shared: dict[str, Any] | None = moment.get(key)
    if shared is None:
        shared = moment[key] = _shared_table_info(snap, set(snap.online), snap.now())
    return shared


def _viewer_facts(snap: Snapshot, viewer_seat: int | None) -> dict[str, Any]:
    """The part of `table_info` that is the viewer's own (never empty)."""
    game = snap.game
    rematch = rematch_join = None
    if snap.rematch_slug:
        code = snap.rematch_code if snap.private and viewer_seat is not None else None
        if code or not snap.private:
            rematch = f"/t/{snap.rematch_slug}" + (f"?code={code}" if code else "")
        if viewer_seat is not None:
            rematch_join = f"/t/{snap.rematch_slug}/sit?seat={viewer_seat}" + (
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


def _shared_table_info(snap: Snapshot, online: set[int], now: float) -> dict[str, Any]:
    """The part of `table_info` every viewer shares."""
    game = snap.game
    return {
        "slug": snap.slug,
        "game": snap.game_id,
        "title": i18n.gettext(snap.engine.spec.title),
        "status": snap.status,
        "closed_idle": snap.closed_idle,
        "private": snap.private,
        "friends_only": snap.friends_only,
        "num_seats": snap.num_seats,
        "min_players": snap.engine.spec.min_players,
        "simultaneous": snap.engine.spec.simultaneous,
        "invite_code": snap.invite_code if snap.private else None,
        "host_seat": snap.seat_of(snap.host_id),
        "options": dict(snap.options),
        "seats": [_seat_info(snap, s, online) for s in range(snap.num_seats)],
        "now": now,
        "clock": snap.clock_spec,
        "away_days": snap.away_days,
        "bot_level": snap.bot_level,
        "outside_bots": snap.outside_bots,
        "rated": snap.rated,
        "takeover_after": snap.takeover_after,
        "to_act": sorted(game.acting) if game else [],
        "seed_commitment": game.seed_commitment if game else None,
        # The head of the move chain, new after every move (engines/chain.py): compare it
        # with an export's `move_chain`.
        "move_chain": game.chain_head if game else None,
        "seed": game.seed if game and game.over else None,
        # Revealed at the end only: with them anyone can check the shuffle (engines/verify.py).
        "seed_secret": game.seed_secret if game and game.over else None,
        "seed_salt": game.seed_salt if game else None,
    }


def standing_names(snap: Snapshot) -> dict[int, str]:
    """Names as the boards show them: a resigned player's marked so, in the words the
    person chose (bots are named "Bot")."""
    names = {}
    for seat, info in snap.seats.items():
        if info.control == "resigned":
            said = i18n.gendered(info.grammar, "%(name)s (resigned)")
            names[seat] = said % {"name": info.shown_name}
        else:
            names[seat] = info.shown_name
    return names


def state_json(
    snap: Snapshot, seat: int | None, after_version: int, *, encoded_table: bool = False
) -> dict[str, Any]:
    """The JSON state message for `seat` (None = spectator), with the log lines of the
    versions after `after_version`; `encoded_table`: its room facts as `table_json` (for
    encoding with orjson), else as a dict."""
    game = snap.game
    version = game.version if game else 0
    view = game.view(seat) if game else None
    entries = log.entries_for(snap, seat, after_version)
    lines = [e["text"] for e in entries]
    msg = state_message(version, view or {}, lines, entries)
    msg["room"] = table_json(snap, seat) if encoded_table else table_info(snap, seat)
    return msg


def encode_json(data: Any) -> str:
    """A message as JSON text (orjson: ~5x faster than the standard library's encoder; the same
    compact text frames `send_json` sends)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def state_json_text(
    snap: Snapshot, seat: int | None, after_version: int, *, legal: bool = False
) -> str:
    """`state_json`, encoded, made once per moment (`cache.for_moment`: version, table
    revision, who is online, half second), audience, log start, language and `legal`, and
    shared by every socket of that audience (ten spectators at the same place receive one
    encoding)."""
    moment = cache.for_moment(snap)
    key = ("json", seat, after_version, i18n.current(), legal)
    text = moment.get(key)
    if text is None:
        if len(moment) > 64:
            moment.clear()
        msg = state_json(snap, seat, after_version, encoded_table=True)
        if legal:
            msg["legal"] = legal_actions(snap, seat)
        text = moment[key] = encode_json(msg)
    return text


def legal_actions(snap: Snapshot, seat: int | None) -> list[dict[str, Any]]:
    """`seat`'s legal actions now as `act` messages carry them (none: a spectator, a seat
    that need not act, or a seat a bot plays now)."""
    game = snap.game
    if game is None or seat is None or seat not in game.acting:
        return []
    info = snap.seats.get(seat)
    if info is not None and info.bot_plays:
        return []
    engine = game.engine
    return [engine.dump_action(a) for a in engine.legal_actions(game.state, seat)]
