"""A guest's display name: how a typed name is cleaned, and becoming (or renaming) a guest —
one path for the name page and the JSON API."""

from __future__ import annotations

import unicodedata

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import new_guest, spend_creation
from app.errors import Refusal
from app.i18n import N_
from app.store import people
from app.store.models import User
from app.table import Tables, clean_chat

NAME_MAX_CHARS = 24
"""The longest display name (characters); the name page's input says the same (`maxlength`)."""


def clean_name(raw: str) -> str:
    """A display name as people will read it: NFC, whitespace collapsed, without control,
    format (bidi overrides, zero-width) or private-use characters; `NAME_MAX_CHARS` at most.
    A name that is not valid Unicode text (a lone surrogate) is refused."""
    if any(unicodedata.category(ch) == "Cs" for ch in raw):
        raise Refusal("bad_name", N_("That name holds characters that are not text."), 422)
    name = clean_chat(unicodedata.normalize("NFC", raw))[:NAME_MAX_CHARS].strip()
    if not name:
        raise Refusal("bad_name", N_("Please enter a display name."), 400)
    return name


async def name_guest(
    request: Request, session: AsyncSession, user: User | None, tables: Tables, name: str
) -> int:
    """Make this browser a new guest called `name` (counted against its address's budget:
    `rate_limited` past it), or rename `user`; committed, and the tables the person sits at
    are told. The person's id."""
    if user is None:
        spend_creation(request, "guests")
        uid = await new_guest(request, session, name)
        await session.commit()  # a new guest sits nowhere yet: no table to tell
        return uid
    await people.rename_user(session, user.id, name)
    await session.commit()
    tables.renamed(user.id, name)
    return user.id
