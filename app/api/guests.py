"""A guest's display name: becoming (or renaming) a guest — one path for the name page and the
JSON API; the name is cleaned by `app.names.clean_name`."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import store as accounts
from app.api.deps import new_guest, spend_creation
from app.names import NAME_MAX_CHARS, clean_name
from app.store.models import User
from app.table import Tables

__all__ = ["NAME_MAX_CHARS", "clean_name", "name_guest"]


async def name_guest(
    request: Request, session: AsyncSession, user: User | None, tables: Tables, name: str
) -> int:
    """Make this browser a new guest called `name` (counted against its address's budget:
    `rate_limited` past it), or rename `user`; committed, and the tables the person sits at
    are told. The person's id. An account's new name must be free among accounts
    (`name_taken`, nothing changed)."""
    if user is None:
        spend_creation(request, "guests")
        uid = await new_guest(request, session, name)
        await session.commit()  # a new guest sits nowhere yet: no table to tell
        return uid
    await accounts.rename(session, user.id, name)
    await session.commit()
    tables.renamed(user.id, name)
    return user.id
