"""Friend requests: asking, accepting, declining, cancelling and removing a friend. Each
function writes in the caller's session (the caller commits) and raises a `Refusal`, with
nothing written, when the request does not make sense."""

from __future__ import annotations

import re

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.names import clean_name
from app.store import friends, people
from app.store.models import User

PROFILE_LINK = re.compile(r"(?:^|/)u/(\d{1,12})/?(?:[?#].*)?$")
"""A profile link (`https://host/u/42`, `/u/42`) and the person's id in it."""


async def find_person(session: AsyncSession, text: str) -> User:
    """The person a profile link or a name points at; a name several people share is refused
    (a profile link is unambiguous)."""
    text = text.strip()
    if not text:
        raise Refusal("no_person", N_("Paste a profile link or type a name."), 422)
    link = PROFILE_LINK.search(text)
    if link is not None:
        person = await people.get_user(session, int(link.group(1)))
        if person is None:
            raise Refusal("unknown_person", N_("Nobody has this profile link."), 404)
        return person
    try:
        name = clean_name(text)
    except Refusal:
        raise Refusal("no_person", N_("Paste a profile link or type a name."), 422) from None
    found = await friends.people_named(session, name)
    if not found:
        raise Refusal("unknown_person", N_("Nobody is called “%(name)s”."), 404, name=name)
    if len(found) > 1:
        raise Refusal(
            "ambiguous_name",
            N_("Several people are called “%(name)s”: add yours by their profile link."),
            409,
            name=name,
        )
    person = await people.get_user(session, found[0])
    assert person is not None
    return person


async def ask(session: AsyncSession, me: User, other: User, now: float) -> bool:
    """Ask `other` to be friends. If they had asked `me` already, this accepts their request
    instead: returns True when the two are friends now, False when the request waits."""
    if other.id == me.id:
        raise Refusal("friend_self", N_("You cannot add yourself as a friend."), 422)
    link = await friends.link_between(session, me.id, other.id)
    if link is not None:
        if link.accepted is not None:
            raise Refusal(
                "already_friends",
                N_("You and %(name)s are friends already."),
                409,
                name=other.name,
            )
        if link.requester_id == me.id:
            raise Refusal(
                "already_asked",
                N_("%(name)s already has your friend request."),
                409,
                name=other.name,
            )
        await accept(session, me, other, now)
        return True
    try:
        async with session.begin_nested():
            await friends.add_request(session, me.id, other.id, now)
    except IntegrityError:
        # The other person asked at the same moment (or this one twice): whichever row won
        # stands, and the answer is read from it.
        link = await friends.link_between(session, me.id, other.id)
        if link is not None and link.requester_id != me.id and link.accepted is None:
            await accept(session, me, other, now)
            return True
        raise Refusal(
            "already_asked", N_("%(name)s already has your friend request."), 409, name=other.name
        ) from None
    return False


async def accept(session: AsyncSession, me: User, requester: User, now: float) -> None:
    """Accept `requester`'s request."""
    if not await friends.accept_request(session, me.id, requester.id, now):
        raise Refusal("no_request", N_("There is no friend request from this person."), 409)


async def decline(session: AsyncSession, me: User, requester: User) -> None:
    """Decline `requester`'s request (they are not told; they may ask again later)."""
    removed = await friends.remove_link(
        session, me.id, requester.id, pending=True, requester=requester.id
    )
    if not removed:
        raise Refusal("no_request", N_("There is no friend request from this person."), 409)


async def cancel(session: AsyncSession, me: User, other: User) -> None:
    """Take back the request `me` sent to `other`."""
    if not await friends.remove_link(session, me.id, other.id, pending=True, requester=me.id):
        raise Refusal("no_request", N_("You have no pending request to this person."), 409)


async def unfriend(session: AsyncSession, me: User, other: User) -> None:
    """End a friendship (either of the two may)."""
    if not await friends.remove_link(session, me.id, other.id, pending=False):
        raise Refusal("not_friends", N_("You are not friends with this person."), 409)
