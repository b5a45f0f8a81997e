"""A database with people, a table and push subscriptions at the local push service, for the
sender's tests (no server: the outbox written as the move path writes it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text

from app.push import outbox, subscriptions
from app.push.keys import load_or_create
from app.push.notices import KINDS, Notice
from app.push.sender import Sender
from app.store import people, tables
from app.store.engine import SessionFactory, make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.rows import insert_row
from tests.push_service import PushService, Subscription


@dataclass
class Kit:
    sessions: SessionFactory
    room_id: int
    slug: str
    users: list[int]
    subs: list[Subscription]
    data_dir: Path

    def sender(self, now: float = 1000.0, **kw: object) -> Sender:
        key = load_or_create(self.data_dir)
        return Sender(self.sessions, key, "mailto:test@example.org", now=lambda: now, **kw)  # type: ignore[arg-type]

    async def notify(self, *notices: Notice) -> None:
        """Write notices as a committed change does."""
        async with self.sessions.begin() as session:
            await outbox.enqueue(session, notices)

    async def rows(self) -> int:
        async with self.sessions() as session:
            return int(
                (await session.execute(text("SELECT count(*) FROM push_outbox"))).scalar_one()
            )

    async def subscriptions(self) -> int:
        async with self.sessions() as session:
            got = await session.execute(text("SELECT count(*) FROM push_subscriptions"))
            return int(got.scalar_one())


@asynccontextmanager
async def kit(
    url: str, data_dir: Path, push: PushService, people_count: int = 2
) -> AsyncIterator[Kit]:
    """People each subscribed once (every event), and a High Card table of theirs."""
    await upgrade_database(url)
    engine = make_engine(url, 5, 5)
    try:
        yield await _made(make_session_factory(engine), data_dir, push, people_count)
    finally:
        await engine.dispose()


async def _made(
    sessions: SessionFactory, data_dir: Path, push: PushService, people_count: int
) -> Kit:
    users: list[int] = []
    subs: list[Subscription] = []
    async with sessions.begin() as session:
        for i in range(people_count):
            user = await people.create_user(session, f"Person {i}")
            users.append(user.id)
            sub = push.subscribe()
            subs.append(sub)
            await subscriptions.subscribe(
                session,
                user.id,
                None,
                sub.endpoint,
                sub.p256dh,
                sub.as_json()["keys"]["auth"],
                KINDS,
                0.0,
            )
        room = await insert_row(
            session,
            tables.new_table(
                host_id=users[0],
                game_id="high_card",
                options={},
                num_seats=2,
                private=False,
                clock="slow",
                bot_level="easy",
            ),
        )
    return Kit(sessions, room.id, room.slug, users, subs, data_dir)
