"""Who is behind a cookie: a person (a guest with a display name) on one of their devices.

The signed session cookie holds `uid` (the person) and `sid` (this browser's row in
`devices`). A device signed out from "Your devices" stops being anyone at its next request.
Signing in — a new guest, or a one-time link from another device — always starts a new device
id (session rotation: a cookie captured before sign-in is worth nothing after). Cookies from
before devices existed carry only `uid`; their first page request registers the device.

Each process remembers a checked device for a few seconds (`Known`), so the requests and
sockets of a burst (a table being set up, a rematch) do not each read the device and the
person again. A change to a person (signed-out device, new name, language) forgets them at
once in this process and, over the bus, in the others. A process whose bus lost Redis may
have missed such a message: it forgets every check when it subscribes again, and
`Known.SECONDS` bounds how long it can trust what it saw in any case (a message dropped by an
overfull publish queue).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.names import DELETED_NAME
from app.store import people
from app.store.models import User

if TYPE_CHECKING:
    from app.store.base import Store

TOUCH_EVERY = 300.0
"""Seconds between two notes of a device's last use (not a write per request)."""
LINK_LIFETIME = 600.0
"""A one-time device link is good for 10 minutes."""


@dataclass(frozen=True, slots=True)
class _Seen:
    user_id: int
    name: str
    language: str | None
    created_at: datetime
    last_seen: float
    until: float


class Known:
    """Devices this process checked lately, by device id, with their person's row."""

    SECONDS = 30.0
    """How long a check is trusted without a word from the bus. With tables spread over
    processes, a player's next game is often on another process (a rematch is a new table):
    at 10 s each process checked the same devices again every game or two."""
    LIMIT = 50_000

    def __init__(self) -> None:
        self._devices: dict[str, _Seen] = {}
        self._of: dict[int, set[str]] = {}
        """Device ids remembered, by person."""

    def get(self, sid: str, uid: int, now: float) -> User | None:
        """The person of device `sid` (cookie person `uid`) if checked less than `SECONDS`
        ago and not due for a `last_seen` note; else None (check the database)."""
        seen = self._devices.get(sid)
        if seen is None or seen.user_id != uid:
            return None
        if now >= seen.until or now - seen.last_seen > TOUCH_EVERY:
            self._drop(sid, uid)
            return None
        # A new row object each time: requests never share (or attach) one instance.
        return User(
            id=seen.user_id, name=seen.name, language=seen.language, created_at=seen.created_at
        )

    def put(self, sid: str, user: User, last_seen: float, now: float) -> None:
        """Remember that device `sid` is `user`'s and in use."""
        if len(self._devices) >= self.LIMIT:
            self._devices.clear()
            self._of.clear()
        old = self._devices.get(sid)
        if old is not None:
            self._drop(sid, old.user_id)
        self._of.setdefault(user.id, set()).add(sid)
        self._devices[sid] = _Seen(
            user.id, user.name, user.language, user.created_at, last_seen, now + self.SECONDS
        )

    def clear(self) -> None:
        """Check every device in the database again (the bus may have missed a change)."""
        self._devices.clear()
        self._of.clear()

    def forget(self, user_id: int) -> None:
        """Check every device of `user_id` in the database again (something changed)."""
        for sid in self._of.pop(user_id, ()):
            self._devices.pop(sid, None)

    def _drop(self, sid: str, user_id: int) -> None:
        self._devices.pop(sid, None)
        sids = self._of.get(user_id)
        if sids is not None:
            sids.discard(sid)
            if not sids:
                del self._of[user_id]


def recent(cookie: Mapping[str, Any], now: float, known: Known) -> User | None:
    """The person behind `cookie` if this process checked its device recently (`Known`):
    what `resolve` answers without the database; None means ask `resolve`."""
    uid = cookie.get("uid")
    sid = cookie.get("sid")
    if not isinstance(uid, int) or not isinstance(sid, str):
        return None
    return known.get(sid, uid, now)


async def person(
    cookie: MutableMapping[str, Any],
    sessions: async_sessionmaker[AsyncSession],
    now: float,
    agent: str,
    *,
    upgrade: bool,
    known: Known,
    store: Store | None = None,
) -> User | None:
    """`resolve` for a request or socket: a device this process checked recently needs no
    database at all (most requests and sockets); otherwise, given the `store`, a cookie with
    a device is checked by the store (`Store.signed_in`: one statement on PostgreSQL), and
    any other in a session of its own. Either way the connection is back in the pool before
    the caller goes on (before a handler waits on a room's lock, which takes its own)."""
    user = recent(cookie, now, known)
    if user is not None or "uid" not in cookie:
        return user
    uid, sid = cookie.get("uid"), cookie.get("sid")
    if store is not None and isinstance(uid, int) and isinstance(sid, str):
        # What `resolve` does for such a cookie, through the store.
        found = await store.signed_in(sid, uid)
        if found is None:
            cookie.clear()
            return None
        last_seen, user = found
        if now - last_seen > TOUCH_EVERY:
            await store.touch_device(sid, now)
            last_seen = now
        if user is not None:
            known.put(sid, user, last_seen, now)
        return user
    async with sessions() as db:
        return await resolve(cookie, db, now, agent, upgrade=upgrade, known=known)


async def resolve(
    cookie: MutableMapping[str, Any],
    db: AsyncSession,
    now: float,
    agent: str,
    *,
    upgrade: bool,
    known: Known | None = None,
) -> User | None:
    """The person behind `cookie`, or None (then a stale cookie is emptied). `upgrade`: a
    cookie without a device gets one (HTTP requests only, where the cookie can be re-set).
    `known`: this process's recent checks, used and kept up to date."""
    uid = cookie.get("uid")
    if not isinstance(uid, int):
        return None
    sid = cookie.get("sid")
    if known is not None:
        user = recent(cookie, now, known)
        if user is not None:
            return user
    if not isinstance(sid, str):
        user = await people.get_user(db, uid)
        if user is None or user.name == DELETED_NAME:  # a deleted account stays deleted
            cookie.clear()
            return None
        if upgrade:
            created = await people.create_device(db, uid, agent, now)
            await db.commit()
            cookie["sid"] = created.id
        return user
    device = await people.get_device(db, sid)
    if device is None or device.user_id != uid or device.revoked is not None:
        cookie.clear()
        return None
    last_seen = device.last_seen
    if now - last_seen > TOUCH_EVERY:
        await people.touch_device(db, sid, now)
        await db.commit()
        last_seen = now
    user = await people.get_user(db, uid)
    if user is not None and known is not None:
        known.put(sid, user, last_seen, now)
    return user


async def sign_in(
    cookie: MutableMapping[str, Any], db: AsyncSession, user_id: int, now: float, agent: str
) -> str:
    """Start a new device for `user_id` (the cookie's old device, if any, is signed out)."""
    old = cookie.get("sid")
    old_uid = cookie.get("uid")
    if isinstance(old, str) and isinstance(old_uid, int):
        await people.revoke_devices(db, old_uid, now, only=old)
    device = await people.create_device(db, user_id, agent, now)
    remember(cookie, user_id, device.id)
    return device.id


def remember(cookie: MutableMapping[str, Any], user_id: int, device_id: str) -> None:
    """The signed cookie now names `user_id` on device `device_id`, and nothing else."""
    cookie.clear()
    cookie["uid"] = user_id
    cookie["sid"] = device_id


def token_hash(token: str) -> str:
    """What is stored of a one-time link's token."""
    return hashlib.sha256(token.encode()).hexdigest()


async def new_link(db: AsyncSession, user_id: int, now: float) -> str:
    """A fresh one-time link token for `user_id` (kept hashed)."""
    token = secrets.token_urlsafe(24)
    await people.create_device_link(db, user_id, token_hash(token), now + LINK_LIFETIME)
    return token


def describe_agent(agent: str) -> str:
    """A browser's User-Agent as a person names it: "Firefox on Windows"; "" if unknown."""
    browsers = (
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chromium/", "Chromium"),
        ("HeadlessChrome/", "Chromium"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    )
    systems = (
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    )
    browser = next((name for key, name in browsers if key in agent), "")
    system = next((name for key, name in systems if key in agent), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system
