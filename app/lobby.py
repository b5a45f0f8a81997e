"""Creating tables: validation shared by the HTML form and the JSON API."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app import clocks
from app.bots import LEVELS
from app.clocks import CLOCKS
from app.errors import Refusal
from app.i18n import N_
from app.presentation.environment import has_screen
from app.store import lobby, tables
from app.store.base import Store
from app.store.lobby import LobbyRow
from app.store.models import Room
from app.table import Table, Tables, idle
from engines import ENGINES, REGISTRY
from engines.core import Engine, GameError, Term


def playable_engines() -> list[Engine[Any, Any, Any]]:
    """Registered engines that have a game screen, in registry order."""
    return [e for e in ENGINES if has_screen(e.spec.id)]


async def create_table(session: AsyncSession, *, store: Store, **asked: Any) -> Room:
    """Validate and create a room from what a host `asked` for (`valid_table`'s arguments);
    the host takes seat 0. Stored by `store`: in `session`, which the caller commits, or at
    once (one statement on PostgreSQL, committed)."""
    room = valid_table(**asked)
    return await store.create_table(
        session, room, tables.SeatInfo(0, room.host_id, "")
    )  # (the name is the user's)


def valid_table(
    *,
    host_id: int,
    game_id: str,
    num_seats: int,
    options: dict[str, Any],
    private: bool,
    clock: str = "none",
    bot_level: str = "normal",
    away_days: int = 0,
    outside_bots: bool = False,
    friends_only: bool = False,
    rated: bool = False,
) -> Room:
    """A new open room, not stored yet, from what a host asked for; `Refusal` if the game,
    seats, clock, bot level or options will not do."""
    engine = REGISTRY.get(game_id)
    if engine is None or not has_screen(game_id):
        raise Refusal(
            "unknown_game", N_("There is no playable game called “%(game)s”."), 400, game=game_id
        )
    spec = engine.spec
    if not spec.min_players <= num_seats <= spec.max_players:
        raise Refusal(
            "bad_seats",
            N_("%(title)s is for %(low)s to %(high)s players."),
            400,
            title=Term(spec.title),
            low=spec.min_players,
            high=spec.max_players,
        )
    if clock != "none" and clock not in CLOCKS:
        raise Refusal("bad_clock", N_("Unknown clock “%(clock)s”."), 400, clock=clock)
    if away_days not in clocks.AWAY_LIMITS or (away_days and not clocks.is_slow(clock)):
        raise Refusal(
            "bad_away",
            N_("A pause for players who are away is 3, 7 or 14 days, at correspondence tables."),
            400,
        )
    if bot_level not in LEVELS:
        raise Refusal("bad_level", N_("Bot levels are %(levels)s."), 400, levels=", ".join(LEVELS))
    try:
        parsed = engine.parse_options(options)
    except GameError as exc:
        raise Refusal("bad_options", exc.template, 400, **exc.params) from None
    fields: dict[str, Any] = {
        "host_id": host_id,
        "game_id": game_id,
        "options": parsed.model_dump(mode="json"),
        "num_seats": num_seats,
        "private": private,
        "clock": clock,
        "bot_level": bot_level,
        "away_days": away_days,
        "outside_bots": outside_bots,
        "friends_only": friends_only,
        "rated": rated,
    }
    return tables.new_table(**fields)


def option_fields(game_id: str) -> list[dict[str, Any]]:
    """The options of a game as form fields: name, label, kind, default, choices."""
    model = REGISTRY[game_id].spec.options
    fields = []
    for name, info in model.model_fields.items():
        annotation = info.annotation
        choices = list(getattr(annotation, "__args__", ()))
        if annotation is bool:
            kind = "bool"
        elif choices and all(isinstance(c, str) for c in choices):
            kind = "choice"
        elif annotation is int:
            kind = "int"
        else:
            kind = "text"
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        named: Any = extra.get("choice_names") or {}
        context = extra.get("choice_context")
        fields.append(
            {
                "name": name,
                "label": info.description or name.replace("_", " ").capitalize(),
                "kind": kind,
                "default": info.default,
                "choices": choices if kind == "choice" else [],
                # Each choice's name as a game word (the engine's `choice_names`), else as is.
                "choice_names": {
                    c: Term(str(named[c]), str(context) if context else None)
                    for c in choices
                    if c in named
                },
            }
        )
    return fields


def options_from_form(game_id: str, form: dict[str, str]) -> dict[str, Any]:
    """Read a game's options from submitted form fields (prefixed `opt_`)."""
    out: dict[str, Any] = {}
    for field in option_fields(game_id):
        key = f"opt_{field['name']}"
        if field["kind"] == "bool":
            out[field["name"]] = form.get(key) in ("on", "true", "1")
        elif key in form:
            out[field["name"]] = form[key]
    return out


async def lobby_listing(
    session: AsyncSession, tables: Tables, user_id: int | None
) -> list[LobbyRow]:
    """The lobby's rows: the user's own tables first (the correspondence dashboard: where it
    is their turn, then the running ones, each group by the deadline due first, then those
    waiting for players), then the other tables. A waiting table of its host and bots that
    nobody used for long closes here and leaves the list (app/table/idle)."""
    rows = await lobby.lobby_rows(session, user_id)
    kept: list[LobbyRow] = []
    for row in rows:
        if row.status == "open" and row.seated - row.bots <= 1:
            table = await tables.get(row.slug)
            due = table is not None and idle.due(table, tables.runtime.now())
            if due and table is not None and await table.seating.close_idle():
                continue
        kept.append(row)
        if row.mine:
            table = await tables.get(row.slug)
            if table is not None:
                _dashboard_line(row, table, user_id, tables.runtime.now())
    return sorted(kept, key=_rank)


def _dashboard_line(row: LobbyRow, table: Table, user_id: int | None, now: float) -> None:
    """Fill the row of one of the person's tables from its live table: the seats, whose
    turn it is and the deadline due first (with pauses for people away)."""
    game = table.game
    playing = row.status == "playing" and game is not None and not game.over
    acting = game.acting if playing and game is not None else frozenset()
    clock = table.clock_now() if playing else None
    deadlines = clock["deadlines"] if clock else {}
    away = clock.get("away", {}) if clock else {}
    mine = table.seat_of(user_id)
    row.players = [
        {
            "name": info.shown_name,
            "turn": seat in acting,
            "me": seat == mine,
            "away_until": away.get(str(seat)) if (away.get(str(seat)) or 0) > now else None,
        }
        for seat, info in sorted(table.seats.items())
    ]
    row.your_turn = mine in acting and mine is not None and not table.bot_plays(mine)
    row.turn_of = [p["name"] for p in row.players if p["turn"] and not p["me"]]
    due = [float(deadlines[str(s)]) for s in acting if str(s) in deadlines]
    if row.your_turn:
        due = [float(deadlines[str(mine)])] if str(mine) in deadlines else []
    row.deadline = min(due) if due else None


def _rank(row: LobbyRow) -> tuple[int, float]:
    """Where a row goes: your turn, then your running tables, each by the deadline due first
    (none last), then your waiting tables, then the others (a stable sort keeps the newest
    first where nothing else decides)."""
    if not row.mine:
        return (3, 0.0)
    deadline = row.deadline if row.deadline is not None else float("inf")
    if row.your_turn:
        return (0, deadline)
    return (1, deadline) if row.status == "playing" else (2, 0.0)
