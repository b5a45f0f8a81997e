"""Friends: friendships and friend requests (one row per pair of people), who of them is
online, at which public tables they sit, and invitations to a table. The same SQL on SQLite
and PostgreSQL; the caller owns the transaction."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import and_, delete, func, select, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import name_key
from app.store.models import Device, Friendship, Invitation, Room, SeatRow, User
from app.store.rows import insert_row

ONLINE_WITHIN = 360.0
"""A person counts as online when one of their devices was seen in the last six minutes: a
request notes it at most every five (app/identity.py `TOUCH_EVERY`), and each process notes
the devices with an open socket as often (`Tables.touch_devices`)."""


def pair(a: int, b: int) -> tuple[int, int]:
    """Two people's ids in the order their friendship row keeps them."""
    return (a, b) if a < b else (b, a)


@dataclass
class TableSeat:
    """A public table a friend sits at."""

    slug: str
    game_id: str
    status: str


@dataclass
class FriendRow:
    """A friend as the friends page lists them."""

    id: int
    name: str
    online: bool
    tables: list[TableSeat] = field(default_factory=list)


@dataclass
class RequestRow:
    """A pending friend request: the other person and when it was sent."""

    id: int
    name: str
    created: float


@dataclass
class InvitationRow:
    """An invitation to a table, as its invitee sees it."""

    id: int
    from_name: str
    game_id: str
    slug: str
    code: str | None
    """The private table's invite code (the invitation carries it), None for a public one."""
    status: str
    created: float

    @property
    def href(self) -> str:
        """Where the invitation leads."""
        return f"/t/{self.slug}" + (f"?code={self.code}" if self.code else "")


async def link_between(session: AsyncSession, a: int, b: int) -> Friendship | None:
    """The friendship or pending request between two people, if any."""
    low, high = pair(a, b)
    result = await session.execute(
        select(Friendship).where(Friendship.low_id == low, Friendship.high_id == high)
    )
    return result.scalar_one_or_none()


async def are_friends(session: AsyncSession, a: int, b: int) -> bool:
    """Whether two people are friends (a request not yet accepted is not a friendship)."""
    link = await link_between(session, a, b)
    return link is not None and link.accepted is not None


async def add_request(session: AsyncSession, requester: int, other: int, now: float) -> None:
    """Write `requester`'s request to `other` (IntegrityError: the pair has a row already, or
    it is one person twice)."""
    low, high = pair(requester, other)
    await insert_row(
        session, Friendship(low_id=low, high_id=high, requester_id=requester, created=now)
    )


async def accept_request(session: AsyncSession, me: int, requester: int, now: float) -> bool:
    """Accept `requester`'s pending request to `me`; False if there is none (one conditional
    update: two clicks, or two processes, accept it once)."""
    low, high = pair(me, requester)
    result = await session.execute(
        update(Friendship)
        .where(
            Friendship.low_id == low,
            Friendship.high_id == high,
            Friendship.requester_id == requester,
            Friendship.accepted.is_(None),
        )
        .values(accepted=now)
        .returning(Friendship.id)
    )
    return result.scalar_one_or_none() is not None


async def remove_link(
    session: AsyncSession, a: int, b: int, *, pending: bool, requester: int | None = None
) -> bool:
    """Delete the row between two people: a pending request (`pending`, sent by `requester`
    if given) or a friendship; whether there was one."""
    low, high = pair(a, b)
    query = delete(Friendship).where(Friendship.low_id == low, Friendship.high_id == high)
    query = query.where(
        Friendship.accepted.is_(None) if pending else Friendship.accepted.is_not(None)
    )
    if requester is not None:
        query = query.where(Friendship.requester_id == requester)
    result = await session.execute(query.returning(Friendship.id))
    return result.scalar_one_or_none() is not None


async def friend_ids(session: AsyncSession, user_id: int) -> list[int]:
    """The ids of a person's friends: two index lookups (the person as either of the pair)."""
    accepted = Friendship.accepted.is_not(None)
    rows = await session.execute(
        union_all(
            select(Friendship.high_id).where(Friendship.low_id == user_id, accepted),
            select(Friendship.low_id).where(Friendship.high_id == user_id, accepted),
        )
    )
    return list(rows.scalars())


async def friends_of(session: AsyncSession, user_id: int, now: float) -> list[FriendRow]:
    """A person's friends, online ones first, then by name, each with the public tables
    (waiting or playing) they sit at."""
    ids = await friend_ids(session, user_id)
    if not ids:
        return []
    names = await session.execute(select(User.id, User.name).where(User.id.in_(ids)))
    seen_rows = await session.execute(
        select(Device.user_id, func.max(Device.last_seen))
        .where(Device.user_id.in_(ids), Device.revoked.is_(None))
        .group_by(Device.user_id)
    )
    seen: dict[int, float] = {uid: at for uid, at in seen_rows.all()}
    friends = [
        FriendRow(uid, name, uid in seen and now - seen[uid] <= ONLINE_WITHIN)
        for uid, name in names.all()
    ]
    by_id = {f.id: f for f in friends}
    if by_id:
        seated = SeatRow.user_id.in_(list(by_id))
        if session.get_bind().dialect.name == "sqlite":
            # SQLite's plan starts from the tables that wait or play and probed their seats'
            # (table, person) index once per friend: `+ 0` makes it read each table's few
            # seats instead (226 ms to 26 ms with 200 friends and 5,000 such tables).
            # PostgreSQL starts from the friends' seats (its index on the person) and needs
            # no help: 2 ms there.
            seated = (SeatRow.user_id + 0).in_(list(by_id))
        tables = await session.execute(
            select(SeatRow.user_id, Room.slug, Room.game_id, Room.status)
            .join(Room, Room.id == SeatRow.room_id)
            .where(
                seated,
                Room.private.is_(False),
                Room.status.in_(("open", "playing")),
            )
            .order_by(Room.created_at.desc())
        )
        for uid, slug, game_id, status in tables.all():
            if uid is not None:
                by_id[uid].tables.append(TableSeat(slug, game_id, status))
    return sorted(friends, key=lambda f: (not f.online, f.name.casefold(), f.id))


async def pending_requests(
    session: AsyncSession, user_id: int, *, incoming: bool
) -> list[RequestRow]:
    """Requests sent to a person (`incoming`) or by them, not yet answered, newest first (two
    index lookups: the person as either of the pair)."""
    mine = Friendship.requester_id != user_id if incoming else Friendship.requester_id == user_id
    pending = (Friendship.accepted.is_(None), mine)
    links = union_all(
        select(Friendship.high_id.label("other"), Friendship.created).where(
            Friendship.low_id == user_id, *pending
        ),
        select(Friendship.low_id.label("other"), Friendship.created).where(
            Friendship.high_id == user_id, *pending
        ),
    ).subquery("links")
    rows = await session.execute(
        select(User.id, User.name, links.c.created)
        .join(links, links.c.other == User.id)
        .order_by(links.c.created.desc(), User.id)
    )
    return [RequestRow(uid, name, created) for uid, name, created in rows.all()]


async def people_named(session: AsyncSession, name: str, limit: int = 2) -> list[int]:
    """Up to `limit` people called `name`. An account owns its name ignoring case and accents
    (`users.name_key`, unique): typing "lukasz" finds the account "Łukasz" alone, whatever
    guests share the name. Else guests: called exactly `name`, else ignoring case."""
    owner = await session.execute(select(User.id).where(User.name_key == name_key(name)))
    account = owner.scalar_one_or_none()
    if account is not None:
        return [account]
    exact = await session.execute(select(User.id).where(User.name == name).limit(limit))
    found = list(exact.scalars())
    if found:
        return found
    folded = await session.execute(
        select(User.id).where(func.lower(User.name) == name.lower()).limit(limit)
    )
    return list(folded.scalars())


# ---- invitations


async def invite(session: AsyncSession, room_id: int, from_id: int, to_id: int, now: float) -> int:
    """Invite `to_id` to the table `room_id` (again: the invitation is renewed and comes
    first); its id."""
    renewed = await session.execute(
        update(Invitation)
        .where(Invitation.room_id == room_id, Invitation.to_id == to_id)
        .values(from_id=from_id, created=now)
        .returning(Invitation.id)
    )
    found = renewed.scalar_one_or_none()
    if found is not None:
        return found
    row = await insert_row(
        session, Invitation(room_id=room_id, from_id=from_id, to_id=to_id, created=now)
    )
    return row.id


async def invitations_for(
    session: AsyncSession, user_id: int, limit: int = 10
) -> list[InvitationRow]:
    """A person's invitations to tables still waiting or playing, newest first."""
    rows = await session.execute(
        select(Invitation, User.name, Room)
        .join(Room, Room.id == Invitation.room_id)
        .join(User, User.id == Invitation.from_id)
        .where(Invitation.to_id == user_id, Room.status.in_(("open", "playing")))
        .order_by(Invitation.created.desc(), Invitation.id.desc())
        .limit(limit)
    )
    return [
        InvitationRow(
            inv.id,
            name,
            room.game_id,
            room.slug,
            room.invite_code if room.private else None,
            room.status,
            inv.created,
        )
        for inv, name, room in rows.all()
    ]


async def dismiss_invitation(session: AsyncSession, invitation_id: int, user_id: int) -> bool:
    """Delete one of a person's invitations; whether it was theirs."""
    result = await session.execute(
        delete(Invitation)
        .where(and_(Invitation.id == invitation_id, Invitation.to_id == user_id))
        .returning(Invitation.id)
    )
    return result.scalar_one_or_none() is not None
