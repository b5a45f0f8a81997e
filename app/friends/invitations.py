"""Inviting a friend to your table in one click, and telling them.

`notify_invitation` is the one place an invitation reaches its invitee: today the live lobby
page of every process (the lobby socket shows it with its link at once), and the devices where
they chose to hear of invitations (Web Push, `app/push`)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.push.notices import Notice
from app.store import friends
from app.store.models import User
from app.table import Table, Tables


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


async def notify_invitation(tables: Tables, table: Table, me: User, to_id: int) -> None:
    """Tell `to_id` of a committed invitation from `me` to `table`: their open lobby pages (in
    every process) show it at once, and their devices that chose invitations get a push
    (written after the commit; a failure there is logged and loses only that push)."""
    tables.person_notified(to_id, "invite")
    now = tables.runtime.now()
    notice = Notice(to_id, "invite", table.id, 0, now, {"from": me.name})
    await tables.runtime.push.write(table.sessions, [notice], now)
