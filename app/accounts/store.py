"""The rows of accounts, on SQLite and PostgreSQL alike (plain SQLAlchemy on a session):
claiming a name, passkeys, the confirmed e-mail, one-time e-mail links, and deletion.

A person is an account once their name is claimed (`users.name_key` set), which happens when
they add their first way back (a passkey or a confirmed address). Every refusal raises
`Refusal` and leaves the session's writes to be rolled back by the caller."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import DELETED_NAME, name_key
from app.errors import Refusal
from app.i18n import N_
from app.store.models import (
    ChatMessage,
    Device,
    DeviceLink,
    EmailLink,
    Passkey,
    Room,
    SeatRow,
    User,
)

EMAIL_LINK_LIFETIME = 900.0
"""An e-mail sign-in link is good for 15 minutes."""

NAME_TAKEN = N_(
    "Another account is already called “%(name)s” (names of accounts differ in more than "
    "capitals and accents). Choose another name first."
)
LAST_WAY = N_(
    "This is your last way to sign in. Add a passkey or an e-mail address first, or delete "
    "the account."
)
EMAIL_TAKEN = N_("That address already belongs to another account.")


def is_account(user: User) -> bool:
    """Whether `user` claimed their identity (has a way back besides this browser)."""
    return user.name_key is not None


async def fresh(session: AsyncSession, user_id: int) -> User | None:
    """The person's row as stored now (not a remembered copy)."""
    return (await session.execute(select(User).where(User.id == user_id))).scalar_one_or_none()


async def _name_free(session: AsyncSession, key: str, user_id: int) -> bool:
    taken = await session.execute(
        select(User.id).where(User.name_key == key, User.id != user_id).limit(1)
    )
    return taken.scalar_one_or_none() is None


async def check_name(session: AsyncSession, user: User) -> None:
    """`name_taken` (409) if `user` could not claim their name now (another account has it);
    nothing is written."""
    if user.name_key is None and not await _name_free(session, name_key(user.name), user.id):
        raise Refusal("name_taken", NAME_TAKEN, 409, name=user.name)


async def claim_name(session: AsyncSession, user: User) -> None:
    """Make `user` an account: their name becomes theirs alone (no-op for an account);
    `name_taken` (409) if another account has it (accents and capitals aside)."""
    if user.name_key is not None:
        return
    key = name_key(user.name)
    if not await _name_free(session, key, user.id):
        raise Refusal("name_taken", NAME_TAKEN, 409, name=user.name)
    try:
        async with session.begin_nested():
            await session.execute(update(User).where(User.id == user.id).values(name_key=key))
    except IntegrityError as exc:  # claimed by another request meanwhile
        raise Refusal("name_taken", NAME_TAKEN, 409, name=user.name) from exc
    user.name_key = key


async def rename(session: AsyncSession, user_id: int, name: str) -> None:
    """A new display name; an account's stays unique (`name_taken`, nothing changed)."""
    row = await fresh(session, user_id)
    if row is None or row.name_key is None:
        await session.execute(update(User).where(User.id == user_id).values(name=name))
        return
    key = name_key(name)
    if not await _name_free(session, key, user_id):
        raise Refusal("name_taken", NAME_TAKEN, 409, name=name)
    try:
        async with session.begin_nested():
            await session.execute(
                update(User).where(User.id == user_id).values(name=name, name_key=key)
            )
    except IntegrityError as exc:
        raise Refusal("name_taken", NAME_TAKEN, 409, name=name) from exc


async def _lock(session: AsyncSession, user_id: int) -> User:
    """The person's row, locked for this transaction on PostgreSQL (two removals of two
    ways back cannot both pass the "not the last one" check); SQLite writes one at a time."""
    row = (
        await session.execute(select(User).where(User.id == user_id).with_for_update())
    ).scalar_one_or_none()
    if row is None:
        raise Refusal("unknown_person", N_("There is no such person."), 404)
    return row


async def passkeys(session: AsyncSession, user_id: int) -> list[Passkey]:
    """A person's passkeys, oldest first."""
    rows = await session.execute(
        select(Passkey).where(Passkey.user_id == user_id).order_by(Passkey.created)
    )
    return list(rows.scalars())


async def add_passkey(
    session: AsyncSession,
    user: User,
    credential_id: str,
    public_key: bytes,
    sign_count: int,
    label: str,
    now: float,
) -> None:
    """Keep a newly registered passkey, claiming the name if this is the first way back."""
    await claim_name(session, user)
    session.add(
        Passkey(
            id=credential_id,
            user_id=user.id,
            public_key=public_key,
            sign_count=sign_count,
            label=label[:160],
            created=now,
        )
    )
    try:
        await session.flush()
    except IntegrityError as exc:
        raise Refusal("passkey_known", N_("That passkey is already registered."), 409) from exc


async def find_passkey(session: AsyncSession, credential_id: str) -> Passkey | None:
    """A passkey by its credential id."""
    return await session.get(Passkey, credential_id)


async def used_passkey(
    session: AsyncSession, credential_id: str, sign_count: int, now: float
) -> None:
    """Note a passkey's sign-in and the authenticator's new counter."""
    await session.execute(
        update(Passkey)
        .where(Passkey.id == credential_id)
        .values(sign_count=sign_count, last_used=now)
    )


async def _ways(session: AsyncSession, user: User) -> int:
    count = await session.execute(
        select(func.count()).select_from(Passkey).where(Passkey.user_id == user.id)
    )
    return int(count.scalar_one()) + (1 if user.email else 0)


async def remove_passkey(session: AsyncSession, user_id: int, credential_id: str) -> None:
    """Forget one of a person's passkeys; refused (`last_way`, 409) if it is their last way
    to sign in, `unknown_passkey` (404) if it is not theirs."""
    user = await _lock(session, user_id)
    found = await session.get(Passkey, credential_id)
    if found is None or found.user_id != user_id:
        raise Refusal("unknown_passkey", N_("There is no such passkey."), 404)
    if await _ways(session, user) <= 1:
        raise Refusal("last_way", LAST_WAY, 409)
    await session.execute(delete(Passkey).where(Passkey.id == credential_id))


async def remove_email(session: AsyncSession, user_id: int) -> None:
    """Forget a person's address; refused (`last_way`, 409) if it is their last way in."""
    user = await _lock(session, user_id)
    if user.email is None:
        return
    if await _ways(session, user) <= 1:
        raise Refusal("last_way", LAST_WAY, 409)
    await session.execute(update(User).where(User.id == user_id).values(email=None))


def normal_email(raw: str) -> str:
    """An address as kept and compared (trimmed, lower case), or `bad_email` (422)."""
    email = raw.strip().lower()
    local, at, domain = email.rpartition("@")
    if (
        not at
        or not local
        or "." not in domain
        or len(email) > 254
        or any(ch.isspace() or ch in "<>,;\"'" for ch in email)
    ):
        raise Refusal("bad_email", N_("That does not look like an e-mail address."), 422)
    return email


async def owner_of(session: AsyncSession, email: str) -> int | None:
    """The account whose confirmed address `email` is."""
    found = await session.execute(select(User.id).where(User.email == email))
    return found.scalar_one_or_none()


def token_hash(token: str) -> str:
    """What is stored of an e-mail link's token."""
    return hashlib.sha256(token.encode()).hexdigest()


async def new_email_link(
    session: AsyncSession, user_id: int, email: str, purpose: str, now: float
) -> str:
    """A fresh one-time token (kept hashed): "add" confirms `email` for `user_id`, "signin"
    signs a browser in as `user_id`."""
    token = secrets.token_urlsafe(24)
    session.add(
        EmailLink(
            token_hash=token_hash(token),
            user_id=user_id,
            email=email,
            purpose=purpose,
            expires=now + EMAIL_LINK_LIFETIME,
        )
    )
    await session.flush()
    return token


async def peek_email_link(session: AsyncSession, token: str, now: float) -> EmailLink | None:
    """The link if it still works (looking uses nothing)."""
    link = await session.get(EmailLink, token_hash(token))
    if link is None or link.used is not None or link.expires <= now:
        return None
    return link


async def claim_email_link(
    session: AsyncSession, token: str, now: float
) -> tuple[int, str, str] | None:
    """Use a link: (person, address, purpose), or None when it is unknown, used or expired.
    One conditional update, so two clicks or two processes can never both use it."""
    result = await session.execute(
        update(EmailLink)
        .where(
            EmailLink.token_hash == token_hash(token),
            EmailLink.used.is_(None),
            EmailLink.expires > now,
        )
        .values(used=now)
        .returning(EmailLink.user_id, EmailLink.email, EmailLink.purpose)
    )
    row = result.one_or_none()
    return None if row is None else (row[0], row[1], row[2])


async def confirm_email(session: AsyncSession, user_id: int, email: str) -> None:
    """`email` is now the account's address (claiming the name if it was a guest's)."""
    user = await _lock(session, user_id)
    if user.name == DELETED_NAME:
        raise Refusal("unknown_person", N_("There is no such person."), 404)
    owner = await owner_of(session, email)
    if owner is not None and owner != user_id:
        raise Refusal("email_taken", EMAIL_TAKEN, 409)
    await claim_name(session, user)
    try:
        async with session.begin_nested():
            await session.execute(update(User).where(User.id == user_id).values(email=email))
    except IntegrityError as exc:
        raise Refusal("email_taken", EMAIL_TAKEN, 409) from exc


async def waiting_tables(session: AsyncSession, user_id: int) -> list[str]:
    """The slugs of the tables not started yet where the person sits or hosts."""
    seated = select(SeatRow.room_id).where(SeatRow.user_id == user_id)
    rows = await session.execute(
        select(Room.slug).where(
            Room.status == "open", (Room.host_id == user_id) | Room.id.in_(seated)
        )
    )
    return sorted(rows.scalars())


async def delete_account(session: AsyncSession, user_id: int, now: float) -> list[str]:
    """Delete a person: name, address, passkeys and links go, every device is signed out;
    their games and tables stay, under the name "deleted player" (`DELETED_NAME`), and so do
    their chat lines. The ids of the devices signed out."""
    await _lock(session, user_id)
    await session.execute(
        update(User)
        .where(User.id == user_id)
        .values(name=DELETED_NAME, name_key=None, email=None, gender=None)
    )
    await session.execute(delete(Passkey).where(Passkey.user_id == user_id))
    await session.execute(
        update(EmailLink)
        .where(EmailLink.user_id == user_id, EmailLink.used.is_(None))
        .values(used=now)
    )
    await session.execute(
        update(DeviceLink)
        .where(DeviceLink.user_id == user_id, DeviceLink.used.is_(None))
        .values(used=now)
    )
    await session.execute(
        update(ChatMessage).where(ChatMessage.user_id == user_id).values(name=DELETED_NAME)
    )
    gone = await session.execute(
        update(Device)
        .where(Device.user_id == user_id, Device.revoked.is_(None))
        .values(revoked=now)
        .returning(Device.id)
    )
    return sorted(gone.scalars())
