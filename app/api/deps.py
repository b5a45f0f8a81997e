"""Dependencies shared by the routes: settings, database sessions, tables, the current user, and
the table a route is about (`TableDep` and its kin: the table at the path's slug that the
caller may see)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app import bot_accounts, i18n, identity
from app.api.error_page import NameFirst
from app.core.config import Settings
from app.errors import Refusal
from app.i18n import N_
from app.store import people
from app.store.models import User
from app.table import Table, Tables

# Dependencies are `async def` even when they await nothing: FastAPI runs a plain `def`
# dependency in its thread pool, a thread hop per request (~5 % of a join's CPU).


async def get_settings(request: Request) -> Settings:
    """The app's settings."""
    settings: Settings = request.app.state.settings
    return settings


async def get_tables(request: Request) -> Tables:
    """The process's live tables."""
    tables: Tables = request.app.state.tables
    return tables


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A database session for one request."""
    async with request.app.state.sessions() as session:
        yield session


async def get_user(request: Request) -> User | None:
    """The guest behind the signed session cookie, if any (on a device not signed out); a
    device checked moments ago costs no database session (`identity.person`)."""
    tables: Tables = request.app.state.tables
    user = await identity.person(
        request.session,
        request.app.state.sessions,
        tables.runtime.now(),
        agent_of(request),
        upgrade=True,
        known=tables.known,
        store=tables.store,
    )
    if user is not None and user.language:
        i18n.set_current(user.language)
    return user


async def require_user(user: Annotated[User | None, Depends(get_user)]) -> User:
    """The guest, or a 401 asking for a display name first."""
    if user is None:
        raise Refusal("no_name", N_("Choose a display name first."), 401)
    return user


async def named_user(user: Annotated[User | None, Depends(get_user)]) -> User:
    """The guest, for a page: nobody yet goes to the name page first, then back."""
    if user is None:
        raise NameFirst
    return user


async def get_bot(request: Request) -> User:
    """The bot account of the request's `Authorization: Bearer` token (docs/bot-api.md), or a
    401: `no_token` without one, `bad_token` for an unknown or revoked one."""
    token = bot_accounts.bearer(request.headers)
    if token is None:
        raise Refusal("no_token", bot_accounts.NO_TOKEN, 401)
    return await bot_accounts.bot_of_token(request.app.state.sessions, token)


SettingsDep = Annotated[Settings, Depends(get_settings)]
TablesDep = Annotated[Tables, Depends(get_tables)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
UserDep = Annotated[User | None, Depends(get_user)]
RequiredUser = Annotated[User, Depends(require_user)]
NamedUser = Annotated[User, Depends(named_user)]
BotUser = Annotated[User, Depends(get_bot)]


async def find_table(tables: Tables, slug: str, user_id: int | None, code: str | None) -> Table:
    """The table at `slug` if it exists and `user_id` may see it (a private one: its players,
    its host, or with its invite `code`); else `unknown_room` (404)."""
    table = await tables.get(slug)
    # A private table without its invite code answers exactly like a missing one, so a prober
    # cannot tell that it exists.
    if table is None or not table.may_watch(user_id, code):
        raise Refusal("unknown_room", N_("There is no table at this address."), 404)
    return table


# The table dependencies read the process's tables from the request rather than through
# `TablesDep`: each dependency FastAPI solves costs ~12 µs a request, and these are on every
# table's route.


async def get_table(slug: str, request: Request, user: UserDep, code: str | None = None) -> Table:
    """The path's table as the caller (anyone, signed in or not) may see it; a private one
    with the query's `code`."""
    return await find_table(request.app.state.tables, slug, user.id if user else None, code)


async def get_table_invited(
    slug: str, request: Request, user: RequiredUser, code: str | None = None
) -> Table:
    """The path's table for a signed-in person (401 first); a private one with the query's
    `code` (joining through an invitation)."""
    return await find_table(request.app.state.tables, slug, user.id, code)


async def get_table_of_member(slug: str, request: Request, user: RequiredUser) -> Table:
    """The path's table for a signed-in person (401 first); a private one only to its players
    and host (no code is read: acting at a table takes being part of it)."""
    return await find_table(request.app.state.tables, slug, user.id, None)


TableDep = Annotated[Table, Depends(get_table)]
InvitedTable = Annotated[Table, Depends(get_table_invited)]
MemberTable = Annotated[Table, Depends(get_table_of_member)]


def spend_creation(request: Request, kind: str) -> None:
    """Count one new guest or table (`kind`) against the caller's address; refuse with 429
    (`rate_limited`) past the budget (CREATE_RATE_COUNT per CREATE_RATE_WINDOW)."""
    budgets = request.app.state.create_budgets[kind]
    address = request.client.host if request.client else "?"
    if budgets.over(address):
        raise Refusal(
            "rate_limited",
            N_("Too many new guests or tables from your address; try again in a few minutes."),
            429,
        )


def agent_of(request: Request) -> str:
    """A short description of the caller's browser (its User-Agent), for "Your devices"."""
    return request.headers.get("user-agent", "")[:160]


async def new_guest(request: Request, session: AsyncSession, name: str) -> int:
    """A new guest named `name`, signed in on this browser as a new device; its user id.

    For a browser that brings no earlier device the store writes both rows: on PostgreSQL in
    one statement, committed at once (this process then knows the device without reading it
    back), on SQLite in `session`. Otherwise, and whatever is in `session`, the caller
    commits."""
    tables: Tables = request.app.state.tables
    cookie = request.session
    if "sid" not in cookie and "uid" not in cookie:
        now = tables.runtime.now()
        guest = await tables.store.new_guest(session, name, agent_of(request), now)
        identity.remember(cookie, guest.user.id, guest.device_id)
        if guest.committed:
            # Checked, as it were, this instant: the guest's next requests need no database read.
            tables.known.put(guest.device_id, guest.user, now, now)
        return guest.user.id
    user = await people.create_user(session, name)
    await sign_in(request, session, user.id)
    return user.id


async def sign_in(request: Request, session: AsyncSession, user_id: int) -> None:
    """Sign this browser in as `user_id` on a new device (session rotation)."""
    tables: Tables = request.app.state.tables
    old_uid = request.session.get("uid")
    old_sid = request.session.get("sid")
    await identity.sign_in(
        request.session, session, user_id, tables.runtime.now(), agent_of(request)
    )
    if isinstance(old_uid, int):  # its old device was signed out (and its sockets closed)
        tables.signed_out(old_uid, [old_sid] if isinstance(old_sid, str) else [])
