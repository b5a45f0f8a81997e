"""Inviting a friend to your table in one click, and telling them.

`notify_invitation` is the one place an invitation reaches its invitee: today the live lobby
page of every process (the lobby socket shows it with its link at once); a notification
service (web push, e-mail) hooks in there too."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.store import friends
from app.store.models import User
from app.table import Table, Tables

log = logging.getLogger("stolik.friends")

Hook = Callable[[int, int], Awaitable[None]]
"""A further way to tell someone of an invitation: called with (invitee's id, invitation
id) after it is committed."""

HOOKS: list[Hook] = []
"""Notification services (web push, e-mail) add themselves here."""


async def invite(session: AsyncSession, table: Table, me: User, friend: User, now: float) -> int:
    """Invite `friend` to `table`, where `me` has a seat; the invitation's id (written in
    `session`: the caller commits, then calls `notify_invitation`)."""
    if table.seat_of(me.id) is None:
        raise Refusal(
            "not_seated", N_("You can invite friends only to a table where you have a seat."), 403
        )
    if table.status not in ("open", "playing"):
        raise Refusal("table_over", N_("This table has finished or closed."), 409)
    if friend.id == me.id or not await friends.are_friends(session, me.id, friend.id):
        raise Refusal("not_friends", N_("You can invite only your friends."), 403)
    if table.seat_of(friend.id) is not None:
        raise Refusal(
            "already_seated", N_("%(name)s already sits at this table."), 409, name=friend.name
        )
    return await friends.invite(session, table.id, me.id, friend.id, now)


async def notify_invitation(tables: Tables, to_id: int, invitation_id: int) -> None:
    """Tell `to_id` of a committed invitation: their open lobby pages (in every process) show
    it at once, then each hook in `HOOKS` is called (a failing hook is logged, and the others
    still run)."""
    tables.person_notified(to_id, "invite")
    for hook in HOOKS:
        try:
            await hook(to_id, invitation_id)
        except Exception:
            log.exception("invitation hook failed", extra={"user": to_id})
