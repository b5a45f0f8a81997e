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
from app.table import Tables, idle
from engines import ENGINES, REGISTRY
from engines.core import Engine, GameError, Term


def playable_engines() -> list[Engine[Any, Any, Any]]:
    """Registered engines that have a game screen, in registry order."""
    return [e for e in ENGINES if has_screen(e.spec.id)]


async def create_table(
    session: AsyncSession,
    *,
    host_id: int,
    game_id: str,
    num_seats: int,
    options: dict[str, Any],
    private: bool,
    clock: str = "none",
    bot_level: str = "normal",
    rated: bool = False,
    store: Store,
) -> Room:
    """Validate and create a room; the host takes seat 0. Stored by `store`: in `session`,
    which the caller commits, or at once (one statement on PostgreSQL, committed)."""
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
        "rated": rated,
    }
    room = tables.new_table(**fields)
    return await store.create_table(
        session, room, tables.SeatInfo(0, host_id, "")
    )  # (the name is the user's)


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
    """The lobby's rows: the user's own tables first — where it is their turn, then the
    running ones, then those waiting for players — then the other tables. A waiting table of
    its host and bots that nobody used for long closes here and leaves the list
    (app/table/idle)."""
    rows = await lobby.lobby_rows(session, user_id)
    kept: list[LobbyRow] = []
    for row in rows:
        if row.status == "open" and row.seated - row.bots <= 1:
            table = await tables.get(row.slug)
            due = table is not None and idle.due(table, tables.runtime.now())
            if due and table is not None and await table.seating.close_idle():
                continue
        kept.append(row)
        if not row.mine or row.status != "playing":
            continue
        table = await tables.get(row.slug)
        game = table.game if table else None
        seat = table.seat_of(user_id) if table else None
        if table is None or game is None or seat is None or game.over:
            continue
        row.your_turn = seat in game.engine.to_act(game.state) and not table.bot_plays(seat)
        clock = clocks.seat_clock(game.clock, seat)
        row.deadline = clock["deadline"] if clock and row.your_turn else None
    return sorted(kept, key=_rank)


def _rank(row: LobbyRow) -> int:
    """Where a row goes (a stable sort keeps the newest first within each group)."""
    if not row.mine:
        return 3
    if row.your_turn:
        return 0
    return 1 if row.status == "playing" else 2
