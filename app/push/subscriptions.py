"""Devices' push subscriptions: kept per endpoint (a browser's subscription is one endpoint),
owned by the person and device that made it, each with the events it wants and an on/off
switch. Reads and writes on the caller's session (the caller commits)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.push.notices import KINDS
from app.store.models import Device, PushSubscription


def events_text(events: Iterable[str]) -> str:
    """The stored form of chosen events: ",turn,over," (unknown names dropped)."""
    chosen = [k for k in KINDS if k in set(events)]
    return "," + ",".join(chosen) + "," if chosen else ","


def events_of(stored: str) -> list[str]:
    """The chosen events of a stored form."""
    return [k for k in KINDS if f",{k}," in stored]


def key_bytes(value: str) -> bytes | None:
    """A base64url key as bytes (padding optional); None if it is not base64url."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def valid_keys(p256dh: str, auth: str) -> bool:
    """A browser's subscription keys: an uncompressed P-256 point and a 16-byte secret."""
    point, secret = key_bytes(p256dh), key_bytes(auth)
    return (
        point is not None
        and len(point) == 65
        and point[0] == 4
        and secret is not None
        and len(secret) == 16
    )


async def subscribe(
    session: AsyncSession,
    user_id: int,
    device_id: str | None,
    endpoint: str,
    p256dh: str,
    auth: str,
    events: Iterable[str],
    now: float,
) -> PushSubscription:
    """Store a subscription (one endpoint is one row: subscribing again, even as another
    person on the same browser, replaces it)."""
    await session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
    row = PushSubscription(
        user_id=user_id,
        device_id=device_id,
        endpoint=endpoint,
        p256dh=p256dh,
        auth=auth,
        events=events_text(events),
        enabled=True,
        created=now,
    )
    session.add(row)
    await session.flush()
    return row


async def of_person(session: AsyncSession, user_id: int) -> list[PushSubscription]:
    """A person's subscriptions, oldest first."""
    rows = await session.execute(
        select(PushSubscription)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.id)
    )
    return list(rows.scalars())


@dataclass(frozen=True)
class Listed:
    """A subscription as the devices page shows it."""

    id: int
    agent: str
    this: bool
    enabled: bool
    chosen: list[str]


async def listed(session: AsyncSession, user_id: int, this: object) -> list[Listed]:
    """The person's devices that get pushes (this one first), named by their browser."""
    rows = await session.execute(
        select(PushSubscription, Device.agent)
        .outerjoin(Device, Device.id == PushSubscription.device_id)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.id)
    )
    found = [
        Listed(s.id, agent or "", s.device_id == this, s.enabled, events_of(s.events))
        for s, agent in rows.all()
    ]
    return sorted(found, key=lambda x: not x.this)


async def choose(
    session: AsyncSession, user_id: int, sub_id: int, events: Iterable[str], enabled: bool
) -> bool:
    """Set a subscription's events and switch (only the person's own); False if none."""
    done = await session.execute(
        update(PushSubscription)
        .where(PushSubscription.id == sub_id, PushSubscription.user_id == user_id)
        .values(events=events_text(events), enabled=enabled)
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def remove(
    session: AsyncSession, user_id: int, *, sub_id: int | None = None, endpoint: str | None = None
) -> bool:
    """Remove one of the person's subscriptions (by id or endpoint); False if none."""
    where = [PushSubscription.user_id == user_id]
    if sub_id is not None:
        where.append(PushSubscription.id == sub_id)
    if endpoint is not None:
        where.append(PushSubscription.endpoint == endpoint)
    done = await session.execute(delete(PushSubscription).where(*where))
    return bool(done.rowcount)  # type: ignore[attr-defined]
