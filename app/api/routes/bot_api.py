"""The bot API (docs/bot-api.md): bot accounts made by people, and what a bot does with its
token — list the tables that take outside bots, sit down, leave — before it plays over the
table socket like a browser. `/api/schema/ws` publishes the socket's messages as JSON Schema.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from app import bot_accounts
from app.api.deps import BotUser, RequiredUser, SessionDep, TablesDep, find_table
from app.errors import Refusal
from app.i18n import N_
from app.names import NAME_MAX_CHARS, clean_name
from app.presentation.messages import table_info
from app.realtime.schema import ws_schema
from app.store import bots

router = APIRouter(prefix="/api", tags=["bots"])

_REFUSED: dict[str, Any] = {
    "description": "Refused; nothing changed.",
    "content": {
        "application/json": {
            "example": {
                "error": {
                    "code": "bad_token",
                    "message": "This bot token is unknown or was revoked.",
                    "key": "This bot token is unknown or was revoked.",
                    "params": {},
                }
            }
        }
    },
}
BEARER: dict[int | str, dict[str, Any]] = {401: _REFUSED}
"""The answer every route that needs a bot token documents besides its own."""


def _socket(slug: str, code: str | None = None) -> str:
    """The table socket's path for a bot (JSON, with its legal actions)."""
    return f"/ws/t/{slug}?format=json&legal=1" + (f"&code={code}" if code else "")


class BotIn(BaseModel):
    """A new bot account."""

    name: str = Field(min_length=1, max_length=NAME_MAX_CHARS, examples=["Rysiek"])


class BotOut(BaseModel):
    """A bot account; `token` only in the answer that created it (it is never shown again)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 42,
                    "name": "Rysiek",
                    "created": 1795000000.0,
                    "revoked": None,
                    "token": "stolik_bot_4nB0…",
                }
            ]
        }
    )

    id: int
    name: str
    created: float | None = None
    revoked: float | None = None
    token: str | None = None


class OpenTableOut(BaseModel):
    """A table a bot may join: public, waiting for players, a free seat, outside bots let in."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "slug": "Xk3f9QaZ",
                    "game": "incan_gold",
                    "host": "Ala",
                    "seated": 1,
                    "num_seats": 3,
                    "options": {"rounds": 5},
                    "clock": "none",
                    "socket": "/ws/t/Xk3f9QaZ?format=json&legal=1",
                }
            ]
        }
    )

    slug: str
    game: str
    host: str
    seated: int
    num_seats: int
    options: dict[str, Any]
    clock: str
    socket: str = Field(description="The table socket's path for this bot.")


class JoinedOut(BaseModel):
    """The seat a bot took, and the socket to play on."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"seat": 1, "socket": "/ws/t/Xk3f9QaZ?format=json&legal=1"}]
        }
    )

    seat: int
    socket: str


class OkOut(BaseModel):
    """Done."""

    ok: bool = True


# ---- a person's bots (cookie) -------------------------------------------------------------------


@router.post("/bots", status_code=201, response_model=BotOut, responses={401: _REFUSED})
async def create_bot(
    body: BotIn, session: SessionDep, user: RequiredUser, tables: TablesDep
) -> BotOut:
    """Make a bot account. The answer holds its token: the only time it is shown (only its
    hash is kept)."""
    bot, token = await bot_accounts.create(
        session, user.id, clean_name(body.name), tables.runtime.now()
    )
    await session.commit()
    return BotOut(id=bot.id, name=bot.name, created=tables.runtime.now(), token=token)


@router.get("/bots", response_model=list[BotOut], responses={401: _REFUSED})
async def list_bots(session: SessionDep, user: RequiredUser) -> list[BotOut]:
    """Your bot accounts, revoked ones too (never their tokens)."""
    return [
        BotOut(id=b.user_id, name=b.name, created=b.created, revoked=b.revoked)
        for b in await bots.list_bots(session, user.id)
    ]


@router.delete("/bots/{bot_id}", response_model=OkOut, responses={401: _REFUSED, 404: _REFUSED})
async def revoke_bot(
    bot_id: int, session: SessionDep, user: RequiredUser, tables: TablesDep
) -> OkOut:
    """Revoke a bot's token: refused from now on, its open sockets closed at once."""
    await revoke(session, user.id, bot_id, tables)
    return OkOut()


async def revoke(session: SessionDep, owner_id: int, bot_id: int, tables: TablesDep) -> None:
    """Revoke `owner_id`'s bot `bot_id` (committed) and close its sockets everywhere."""
    if not await bots.revoke_bot(session, owner_id, bot_id, tables.runtime.now()):
        raise Refusal("unknown_bot", N_("You have no such bot."), 404)
    await session.commit()
    tables.signed_out(bot_id, [bot_accounts.device_of(bot_id)])


# ---- what a bot does (Authorization: Bearer) ---------------------------------------------------


@router.get("/bot/account", response_model=BotOut, responses=BEARER)
async def bot_account(bot: BotUser) -> BotOut:
    """Who this token plays as."""
    return BotOut(id=bot.id, name=bot.name)


@router.get("/bot/tables", response_model=list[OpenTableOut], responses=BEARER)
async def bot_tables(bot: BotUser, session: SessionDep) -> list[OpenTableOut]:
    """Public tables waiting for players, with a free seat, whose host lets outside bots sit
    (newest first)."""
    return [
        OpenTableOut(**row.__dict__, socket=_socket(row.slug))
        for row in await bots.open_tables(session)
    ]


@router.get("/bot/tables/{slug}", responses={**BEARER, 404: _REFUSED})
async def bot_table(
    slug: str, bot: BotUser, tables: TablesDep, code: str | None = None
) -> dict[str, Any]:
    """A table's public facts (as in the `room` of a state message)."""
    table = await find_table(tables, slug, bot.id, code)
    return table_info(table.snapshot(), table.seat_of(bot.id))


@router.post(
    "/bot/tables/{slug}/join",
    response_model=JoinedOut,
    responses={**BEARER, 403: _REFUSED, 404: _REFUSED, 409: _REFUSED},
)
async def bot_join(
    slug: str,
    bot: BotUser,
    tables: TablesDep,
    seat: int | None = Query(default=None, description="The seat to take; any free one if none."),
    code: str | None = Query(default=None, description="A private table's invite code."),
) -> JoinedOut:
    """Take a seat at a table that lets outside bots sit (403 `no_outside_bots` otherwise)."""
    table = await find_table(tables, slug, bot.id, code)
    taken = await table.join(bot.id, bot.name, seat, None, bot=True)
    tables.lobby_changed()
    return JoinedOut(seat=taken, socket=_socket(slug, code if table.private else None))


@router.post("/bot/tables/{slug}/leave", response_model=OkOut, responses=BEARER)
async def bot_leave(slug: str, bot: BotUser, tables: TablesDep) -> OkOut:
    """Give up the seat before the game starts."""
    table = await find_table(tables, slug, bot.id, None)
    await table.leave(bot.id)
    tables.lobby_changed()
    return OkOut()


@router.get("/schema/ws")
async def websocket_schema() -> dict[str, Any]:
    """Every websocket message as JSON Schema (draft 2020-12): `client` (what you send),
    `server` (what you receive), `actions` (each game's `action` objects)."""
    return ws_schema()
