"""The pages of the bot API: "Your bots" (make a bot account and see its token once, revoke
one) and the bot API's documentation in the reader's language (docs/bot-api.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import bot_accounts
from app.api.deps import NamedUser, SessionDep, TablesDep, UserDep
from app.api.routes.bot_api import revoke
from app.errors import Refusal
from app.names import clean_name
from app.presentation.environment import templates
from app.store import bots
from app.store.models import User

router = APIRouter()


async def _bots_page(
    request: Request, session: SessionDep, user: User, status: int = 200, **shown: Any
) -> Response:
    """The person's bots; `shown`: a new bot's token (once), or an error."""
    ctx = {
        "user": user,
        "bots": await bots.list_bots(session, user.id),
        "base": str(request.base_url).rstrip("/"),
        "made": None,
        "token": None,
        "error": None,
        **shown,
    }
    return templates.TemplateResponse(request, "bots.html", ctx, status_code=status)


@router.get("/bots", response_class=HTMLResponse)
async def your_bots(request: Request, session: SessionDep, user: NamedUser) -> Response:
    """Your bot accounts: make one, revoke one."""
    return await _bots_page(request, session, user)


@router.post("/bots", response_class=HTMLResponse)
async def make_bot(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Make a bot account; the page shows its token this once."""
    form = await request.form()
    try:
        name = clean_name(str(form.get("name", "")))
        bot, token = await bot_accounts.create(session, user.id, name, tables.runtime.now())
    except Refusal as exc:
        await session.rollback()
        return await _bots_page(request, session, user, 400, error=exc.message)
    await session.commit()
    return await _bots_page(request, session, user, made=bot.name, token=token)


@router.post("/bots/{bot_id}/revoke")
async def revoke_page(
    bot_id: int, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Revoke a bot's token (its sockets close at once), back to "Your bots"."""
    try:
        await revoke(session, user.id, bot_id, tables)
    except Refusal:
        await session.rollback()
    return RedirectResponse("/bots", status_code=303)


@router.get("/bots/api", response_class=HTMLResponse)
async def bot_api_page(request: Request, user: UserDep) -> Response:
    """How to write a bot, in the reader's language (templates/bot_api/<lang>.html)."""
    return templates.TemplateResponse(request, "bot_api.html", {"user": user})
