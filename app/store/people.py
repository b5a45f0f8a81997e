"""People and their devices: guests, names, languages, signed-in browsers, one-time links."""

from __future__ import annotations

import secrets
from typing import NamedTuple

import asyncpg
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store import bots
from app.store.models import (
    Device,
    DeviceLink,
    PushSubscription,
    User,
    utcnow,
)
from app.store.rows import insert_row


class SignedIn(NamedTuple):
    """A device in use by its person (`signed_in`)."""

    last_seen: float
    """When the device was last noted as used (epoch seconds)."""
    user: User | None
    """The person's row (None: no such person)."""


BOT_DEVICE = "bot:"
"""The device id of a bot's sockets is this and the bot's user id."""


async def create_user(session: AsyncSession, name: str) -> User:
    """A new guest."""
    return await insert_row(session, User(name=name))


async def get_user(session: AsyncSession, user_id: int) -> User | None:
    """A user by id."""
    return await session.get(User, user_id)


async def rename_user(session: AsyncSession, user_id: int, name: str) -> None:
    """Change a guest's display name."""
    await session.execute(update(User).where(User.id == user_id).values(name=name))


async def set_language(session: AsyncSession, user_id: int, lang: str) -> None:
    """Keep the language a person chose."""
    await session.execute(update(User).where(User.id == user_id).values(language=lang))


async def set_gender(session: AsyncSession, user_id: int, gender: str | None) -> None:
    """Keep how a person wants the site to speak of them (she, he, neutral; None: unsaid)."""
    await session.execute(update(User).where(User.id == user_id).values(gender=gender))


def new_device_id() -> str:
    """A new device's id (what its cookie carries, signed)."""
    return secrets.token_urlsafe(18)


async def create_device(session: AsyncSession, user_id: int, agent: str, now: float) -> Device:
    """Register a newly signed-in browser."""
    device = Device(
        id=new_device_id(), user_id=user_id, agent=agent[:160], created=now, last_seen=now
    )
    return await insert_row(session, device)


async def get_device(session: AsyncSession, device_id: str) -> Device | None:
    """A device by its id."""
    return await session.get(Device, device_id)


async def touch_device(session: AsyncSession, device_id: str, now: float) -> None:
    """Note that a device was just used."""
    await session.execute(update(Device).where(Device.id == device_id).values(last_seen=now))


async def touch_many(session: AsyncSession, device_ids: list[str], now: float) -> None:
    """Note that these devices are in use now (each process notes those with a socket open
    every `TOUCH_EVERY`, so a person on a page that only listens still counts as online)."""
    for start in range(0, len(device_ids), 500):
        chunk = device_ids[start : start + 500]
        await session.execute(
            update(Device)
            .where(Device.id.in_(chunk), Device.revoked.is_(None))
            .values(last_seen=now)
        )


async def list_devices(session: AsyncSession, user_id: int) -> list[Device]:
    """A person's signed-in devices, most recently used first."""
    rows = await session.execute(
        select(Device)
        .where(Device.user_id == user_id, Device.revoked.is_(None))
        .order_by(Device.last_seen.desc())
    )
    return list(rows.scalars())


async def revoke_devices(
    session: AsyncSession,
    user_id: int,
    now: float,
    *,
    only: str | None = None,
    keep: str | None = None,
) -> list[str]:
    """Sign out one of a person's devices (`only`) or all but one (`keep`); the ids signed
    out (their open sockets are closed: `Tables.signed_out`)."""
    query = update(Device).where(Device.user_id == user_id, Device.revoked.is_(None))
    if only is not None:
        query = query.where(Device.id == only)
    if keep is not None:
        query = query.where(Device.id != keep)
    result = await session.execute(query.values(revoked=now).returning(Device.id))
    gone = sorted(result.scalars())
    if gone:  # a signed-out browser gets no more pushes for the person (nor their rows)
        await session.execute(delete(PushSubscription).where(PushSubscription.device_id.in_(gone)))
    return gone


async def revoked_among(session: AsyncSession, device_ids: list[str]) -> list[str]:
    """Which of these devices are signed out (or no longer exist). A bot's sockets count as
    device `bot:<id>` (app/bot_accounts.py), signed out when its token is revoked."""
    bot_devices = [d for d in device_ids if d.startswith(BOT_DEVICE)]
    if bot_devices:
        ids = {int(d.removeprefix(BOT_DEVICE)): d for d in bot_devices}
        gone = await bots.revoked_bots(session, sorted(ids))
        people = [d for d in device_ids if not d.startswith(BOT_DEVICE)]
        return [ids[b] for b in gone] + (await revoked_among(session, people) if people else [])
    found: dict[str, float | None] = {}
    for start in range(0, len(device_ids), 500):
        chunk = device_ids[start : start + 500]
        rows = await session.execute(select(Device.id, Device.revoked).where(Device.id.in_(chunk)))
        found.update({row.id: row.revoked for row in rows})
    return [d for d in device_ids if d not in found or found[d] is not None]


async def create_device_link(
    session: AsyncSession, user_id: int, token_hash: str, expires: float
) -> None:
    """Keep a one-time link's hash."""
    session.add(DeviceLink(token_hash=token_hash, user_id=user_id, expires=expires))
    await session.flush()


async def claim_device_link(session: AsyncSession, token_hash: str, now: float) -> int | None:
    """Use a one-time link: its person, or None when it is unknown, used or expired. One
    conditional update, so two processes (or two clicks) can never both use it."""
    result = await session.execute(
        update(DeviceLink)
        .where(
            DeviceLink.token_hash == token_hash,
            DeviceLink.used.is_(None),
            DeviceLink.expires > now,
        )
        .values(used=now)
        .returning(DeviceLink.user_id)
    )
    return result.scalar_one_or_none()


_NEW_GUEST_AT_ONCE = """
WITH new_user AS (
    INSERT INTO users (name, language, created_at) VALUES ($1, NULL, $2) RETURNING users.id
)
INSERT INTO devices (id, user_id, agent, created, last_seen, revoked)
SELECT $3, new_user.id, $4, $5, $5, NULL FROM new_user
RETURNING devices.user_id
"""
"""PostgreSQL: `create_user` and `create_device` for a new guest as ONE statement."""


async def new_guest_at_once(
    conn: asyncpg.Connection, name: str, device_id: str, agent: str, now: float
) -> User:
    """A new guest signed in on a new device, in one autocommit statement; the guest's row
    as stored (a detached object)."""
    user = User(name=name, language=None, gender=None, created_at=utcnow())
    user.id = await conn.fetchval(
        _NEW_GUEST_AT_ONCE, name, user.created_at, device_id, agent[:160], now
    )
    return user


async def set_away(session: AsyncSession, user_id: int, since: float, until: float) -> None:
    """Keep a person's vacation: away from `since` until `until` (server seconds)."""
    await session.execute(
        update(User).where(User.id == user_id).values(away_since=since, away_until=until)
    )


async def away_of(session: AsyncSession, user_id: int) -> tuple[float, float] | None:
    """A person's last vacation (since, until) as the database has it now, if any."""
    row = (
        await session.execute(select(User.away_since, User.away_until).where(User.id == user_id))
    ).first()
    if row is None or row[0] is None or row[1] is None:
        return None
    return (float(row[0]), float(row[1]))


async def signed_in(session: AsyncSession, device_id: str, user_id: int) -> SignedIn | None:
    """Device `device_id` if it is `user_id`'s and not signed out: when it was last seen and
    the person's row (None: no such person); None for a missing, other or signed-out device."""
    device = await get_device(session, device_id)
    if device is None or device.user_id != user_id or device.revoked is not None:
        return None
    return SignedIn(device.last_seen, await get_user(session, user_id))


_SIGNED_IN_AT_ONCE = """
SELECT d.last_seen, u.id, u.name, u.language, u.gender, u.away_since, u.away_until,
       u.created_at, u.name_key, u.email
FROM devices AS d LEFT JOIN users AS u ON u.id = d.user_id
WHERE d.id = $1 AND d.user_id = $2 AND d.revoked IS NULL
"""
"""PostgreSQL: `signed_in`'s two reads as ONE statement."""


async def signed_in_at_once(
    conn: asyncpg.Connection, device_id: str, user_id: int
) -> SignedIn | None:
    """`signed_in` on an asyncpg connection: one autocommit read (the person's row a detached
    object), where a session takes BEGIN, two reads and ROLLBACK."""
    row = await conn.fetchrow(_SIGNED_IN_AT_ONCE, device_id, user_id)
    if row is None:
        return None
    user = None
    if row["id"] is not None:
        user = User(
            id=row["id"],
            name=row["name"],
            language=row["language"],
            gender=row["gender"],
            away_since=row["away_since"],
            away_until=row["away_until"],
            created_at=row["created_at"],
            name_key=row["name_key"],
            email=row["email"],
        )
    return SignedIn(row["last_seen"], user)


async def touch_device_at_once(conn: asyncpg.Connection, device_id: str, now: float) -> None:
    """`touch_device` as one autocommit statement."""
    await conn.execute("UPDATE devices SET last_seen = $2 WHERE id = $1", device_id, now)
