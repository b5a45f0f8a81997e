"""The JSON API: guests, games, tables. Thin handlers over app.lobby and the tables."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app import i18n
from app.api.deps import (
    InvitedTable,
    MemberTable,
    RequiredUser,
    SessionDep,
    TableDep,
    TablesDep,
    UserDep,
    spend_creation,
)
from app.api.guests import NAME_MAX_CHARS, clean_name, name_guest
from app.history import export_game, import_game, parse_export
from app.lobby import create_table, lobby_listing, playable_engines
from app.presentation.messages import table_info
from app.store.tables import SeatInfo, away_of
from app.table import Tables
from engines import get_engine

router = APIRouter(prefix="/api", tags=["api"])


class GuestIn(BaseModel):
    """A display name."""

    name: str = Field(min_length=1, max_length=NAME_MAX_CHARS)


class TableIn(BaseModel):
    """A new table."""

    game: str
    seats: int
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    clock: str = "none"
    bot_level: str = "normal"
    away_days: int = 0
    outside_bots: bool = Field(
        default=False, description="Whether bot accounts (docs/bot-api.md) may take a seat."
    )
    friends_only: bool = False
    """Only the host's friends may sit (anyone who may see the table may watch)."""
    rated: bool = False
    """Whether the game's end changes its persons' ratings."""


@router.post("/guest")
async def guest(
    body: GuestIn, request: Request, session: SessionDep, user: UserDep
) -> dict[str, Any]:
    """Become (or rename) a guest; the identity is kept in a signed cookie."""
    # The set-up routes read the tables from the request, not through `TablesDep` (one
    # dependency fewer to solve: ~12 µs a request).
    tables: Tables = request.app.state.tables
    name = clean_name(body.name)
    return {"id": await name_guest(request, session, user, tables, name), "name": name}


@functools.cache
def _options_schema(game_id: str) -> dict[str, Any]:
    """A game's options as JSON schema (pydantic builds it anew on every call: ~3 ms)."""
    return get_engine(game_id).spec.options.model_json_schema()


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    """Every game the server offers, with its options schema."""
    return [
        {
            "id": e.spec.id,
            "title": i18n.gettext(e.spec.title),
            "min_players": e.spec.min_players,
            "max_players": e.spec.max_players,
            "options": _options_schema(e.spec.id),
        }
        for e in playable_engines()
    ]


@router.get("/tables")
async def tables(session: SessionDep, user: UserDep, tables: TablesDep) -> list[dict[str, Any]]:
    """The caller's own tables first (with `your_turn`), then public ones."""
    rows = await lobby_listing(session, tables, user.id if user else None)
    return [row.__dict__ for row in rows]


@router.post("/tables", status_code=201)
async def new_table(
    body: TableIn, request: Request, session: SessionDep, user: RequiredUser
) -> dict[str, Any]:
    """Create a table; the creator is its host and sits in seat 0."""
    tables: Tables = request.app.state.tables
    spend_creation(request, "tables")
    room = await create_table(
        session,
        host_id=user.id,
        game_id=body.game,
        num_seats=body.seats,
        options=body.options,
        private=body.private,
        clock=body.clock,
        bot_level=body.bot_level,
        away_days=body.away_days,
        outside_bots=body.outside_bots,
        friends_only=body.friends_only,
        rated=body.rated,
        store=tables.store,
    )
    await session.commit()
    tables.adopt(room, [SeatInfo(0, user.id, user.name, gender=user.gender, away=away_of(user))])
    tables.lobby_changed()
    url = f"/t/{room.slug}" + (f"?code={room.invite_code}" if room.private else "")
    return {"slug": room.slug, "invite_code": room.invite_code, "url": url}


@router.get("/tables/{slug}")
async def table(table: TableDep, user: UserDep) -> dict[str, Any]:
    """A table's public facts."""
    return table_info(table.snapshot(), table.seat_of(user.id if user else None))


@router.post("/tables/{slug}/join")
async def join(table: InvitedTable, user: RequiredUser, seat: int | None = None) -> dict[str, Any]:
    """Take a seat (the first free one unless `seat` is given)."""
    return {"seat": await table.join(user.id, user.name, seat, user.gender)}


@router.post("/tables/{slug}/leave")
async def leave(table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """Give up your seat before the start."""
    await table.leave(user.id)
    return {"ok": True}


@router.post("/tables/{slug}/start")
async def start(table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """The host starts the game."""
    await table.start(user.id)
    return {"ok": True, "players": table.num_seats}


@router.post("/tables/{slug}/close")
async def close(table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """The host closes a table before it starts."""
    await table.close(user.id)
    return {"ok": True}


@router.post("/tables/{slug}/bots")
async def add_bot(
    table: MemberTable,
    request: Request,
    user: RequiredUser,
    level: str | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """The host seats a bot (before the start); `level` from the query or a form field."""
    if level is None:
        form = await request.form()
        level = str(form.get("level", "normal"))
    return {"seat": await table.add_bot(user.id, seat, level)}


@router.delete("/tables/{slug}/bots/{seat}")
async def remove_bot(seat: int, table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """The host takes a bot out of its seat (before the start)."""
    await table.remove_bot(user.id, seat)
    return {"ok": True}


@router.post("/tables/{slug}/autopilot")
async def autopilot(table: MemberTable, user: RequiredUser, on: bool = True) -> dict[str, Any]:
    """ "Let a bot play for me" (on=true) or "I'm back" (on=false)."""
    await table.set_autopilot(user.id, on)
    return {"ok": True}


@router.post("/tables/{slug}/resign")
async def resign(table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """Resign: a bot finishes your seat's game."""
    await table.resign(user.id)
    return {"ok": True}


@router.post("/tables/{slug}/handover")
async def handover(seat: int, table: MemberTable, user: RequiredUser) -> dict[str, Any]:
    """The host hands a long-disconnected player's seat to a bot."""
    await table.hand_to_bot(user.id, seat)
    return {"ok": True}


@router.post("/tables/{slug}/rematch")
async def rematch(table: MemberTable, tables: TablesDep, user: RequiredUser) -> dict[str, Any]:
    """ "Play again": the rematch table (created by the first player who asks)."""
    new_slug, code = await table.rematch(user.id)
    tables.lobby_changed()
    url = f"/t/{new_slug}" + (f"?code={code}" if table.private else "")
    return {"slug": new_slug, "invite_code": code, "url": url}


@router.get("/tables/{slug}/export")
async def export(slug: str, table: TableDep, session: SessionDep) -> JSONResponse:
    """A finished game as a JSON file: every action with its seat and its link of the move
    chain, the revealed secret and its commitment — `python -m engines.verify` checks it
    without a server."""
    data = await export_game(session, table)
    filename = f"stolik-{table.game_id}-{slug}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/games/import", status_code=201)
async def import_export(
    request: Request, session: SessionDep, user: RequiredUser
) -> dict[str, Any]:
    """Bring a finished game exported from any Stolik here to replay it: it must verify
    (engines/verify.py); it becomes a private finished table hosted by the importer."""
    export = parse_export(await request.body())
    room = await import_game(session, user.id, export)
    await session.commit()
    url = f"/t/{room.slug}/replay?code={room.invite_code}"
    return {"slug": room.slug, "invite_code": room.invite_code, "url": url}
