"""Bot accounts (docs/bot-api.md): a person makes a bot on "Your bots" and gets its token
once; the bot sends it as `Authorization: Bearer <token>` on the bot API (`/api/bot/...`)
and on the table socket. Only the token's SHA-256 is stored; revoking it closes the bot's
open sockets at once (they count as the device `bot:<id>`) and refuses it from then on.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Refusal
from app.i18n import N_
from app.identity import token_hash
from app.store import bots
from app.store.models import User
from app.store.people import BOT_DEVICE

TOKEN_PREFIX = "stolik_bot_"
"""Every token starts so (a secret scanner, or a person, can tell what leaked)."""
MAX_BOTS = 20
"""The most bots (not revoked) one person may have."""

NO_TOKEN = N_("This needs a bot token: send “Authorization: Bearer <token>”.")
BAD_TOKEN = N_("This bot token is unknown or was revoked.")


def new_token() -> str:
    """A fresh bot token (shown once to its owner, stored only hashed)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def device_of(bot_id: int) -> str:
    """The device id a bot's sockets are registered under (revoking closes them)."""
    return f"{BOT_DEVICE}{bot_id}"


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an `Authorization: Bearer` header; "" for another scheme or an empty
    token (refused), None when there is no such header."""
    value = headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def bot_of_token(sessions: async_sessionmaker[AsyncSession], token: str) -> User:
    """The bot account of `token`, or the refusal `bad_token` (401)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        raise Refusal("bad_token", BAD_TOKEN, 401)
    async with sessions() as db:
        user = await bots.bot_by_token(db, token_hash(token))
    if user is None:
        raise Refusal("bad_token", BAD_TOKEN, 401)
    return user


async def create(session: AsyncSession, owner_id: int, name: str, now: float) -> tuple[User, str]:
    """A new bot of `owner_id` named `name`, and its token (the only time it is seen)."""
    kept = [b for b in await bots.list_bots(session, owner_id) if b.revoked is None]
    if len(kept) >= MAX_BOTS:
        raise Refusal(
            "too_many_bots", N_("You have %(count)s bots; revoke one first."), 400, count=len(kept)
        )
    token = new_token()
    user = await bots.create_bot(session, owner_id, name, token_hash(token), now)
    return user, token
