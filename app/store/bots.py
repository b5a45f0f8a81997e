"""Bot accounts: programs that play as their own person with a token (docs/bot-api.md).

A bot account is a `users` row (its name at the table) plus a `bot_accounts` row naming its
owner and the SHA-256 of its token. The token itself is never stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import BotAccount, Room, SeatRow, User
from app.store.rows import insert_row


@dataclass(frozen=True)
class BotRow:
    """One of a person's bots, as "Your bots" lists it."""

    user_id: int
    name: str
    created: float
    revoked: float | None


async def create_bot(
    session: AsyncSession, owner_id: int, name: str, token_hash: str, now: float
) -> User:
    """A new bot account of `owner_id` named `name`, its token kept as `token_hash`."""
    user = await insert_row(session, User(name=name))
    account = BotAccount(user_id=user.id, owner_id=owner_id, token_hash=token_hash, created=now)
    await insert_row(session, account)
    return user


async def bot_by_token(session: AsyncSession, token_hash: str) -> User | None:
    """The bot whose token hashes to `token_hash`, unless it was revoked."""
    row = await session.execute(
        select(User)
        .join(BotAccount, BotAccount.user_id == User.id)
        .where(BotAccount.token_hash == token_hash, BotAccount.revoked.is_(None))
    )
    return row.scalar_one_or_none()


async def is_bot(session: AsyncSession, user_id: int) -> bool:
    """Whether `user_id` is a bot account (revoked or not)."""
    return await session.get(BotAccount, user_id) is not None


async def list_bots(session: AsyncSession, owner_id: int) -> list[BotRow]:
    """The bots of `owner_id`, newest first, revoked ones too."""
    rows = await session.execute(
        select(User.id, User.name, BotAccount.created, BotAccount.revoked)
        .join(BotAccount, BotAccount.user_id == User.id)
        .where(BotAccount.owner_id == owner_id)
        .order_by(BotAccount.created.desc(), User.id.desc())
    )
    return [BotRow(r.id, r.name, r.created, r.revoked) for r in rows]


async def revoke_bot(session: AsyncSession, owner_id: int, bot_id: int, now: float) -> bool:
    """Revoke the token of `owner_id`'s bot `bot_id` (once); False if there is no such bot of
    theirs or it was revoked already."""
    result = await session.execute(
        update(BotAccount)
        .where(
            BotAccount.user_id == bot_id,
            BotAccount.owner_id == owner_id,
            BotAccount.revoked.is_(None),
        )
        .values(revoked=now)
        .returning(BotAccount.user_id)
    )
    return result.scalar_one_or_none() is not None


async def revoked_bots(session: AsyncSession, bot_ids: list[int]) -> list[int]:
    """Those of `bot_ids` whose token is revoked or gone."""
    if not bot_ids:
        return []
    rows = await session.execute(
        select(BotAccount.user_id).where(
            BotAccount.user_id.in_(bot_ids), BotAccount.revoked.is_(None)
        )
    )
    alive = set(rows.scalars().all())
    return [b for b in bot_ids if b not in alive]


@dataclass(frozen=True)
class OpenTable:
    """A public table waiting for players whose host lets bot accounts sit."""

    slug: str
    game: str
    host: str
    seated: int
    num_seats: int
    options: dict[str, Any]
    clock: str


async def open_tables(session: AsyncSession, limit: int = 100) -> list[OpenTable]:
    """Public tables still seating, with a free seat, that take outside bots, newest first."""
    seated = select(SeatRow.room_id, func.count().label("n")).group_by(SeatRow.room_id).subquery()
    taken = func.coalesce(seated.c.n, 0)
    rows = await session.execute(
        select(Room, User.name, taken)
        .join(User, User.id == Room.host_id)
        .outerjoin(seated, seated.c.room_id == Room.id)
        .where(
            Room.status == "open",
            Room.outside_bots.is_(True),
            Room.private.is_(False),
            taken < Room.num_seats,
        )
        .order_by(Room.created_at.desc(), Room.id.desc())
        .limit(limit)
    )
    return [
        OpenTable(r.slug, r.game_id, host, int(n), r.num_seats, dict(r.options), r.clock)
        for r, host, n in rows.all()
    ]
