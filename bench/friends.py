"""How fast the friends page's reads stay on a busy server: generates people (20,000 by default,
two devices each), friendships (the person measured has 200 friends), tables (50,000, of which
2,000 wait or play; four seats each, so the friends' seats include many finished games) and 50
invitations in a scratch database, then prints the median time of each read the friends page
and the lobby's friends box make.

    python -m bench.friends [--people 20000] [--friends 200] [--database-url URL]

Default database: a SQLite file in a temporary directory (migrated with Alembic first).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.store import friends
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import Device, Friendship, Invitation, Room, SeatRow, User, utcnow

NOW = 1_800_000_000.0
TABLES = 50_000
LIVE_TABLES = 2_000


async def generate(url: str, people: int, friend_count: int) -> None:
    """Fill the database; the person measured is id 1."""
    await upgrade_database(url)
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    rng = random.Random(1)
    async with sessions.begin() as s:
        await s.execute(
            insert(User), [{"name": f"P{i}", "created_at": utcnow()} for i in range(people)]
        )
        await s.execute(
            insert(Device),
            [
                {
                    "id": f"d{i}",
                    "user_id": 1 + i // 2,
                    "agent": "",
                    "created": NOW,
                    "last_seen": NOW - rng.uniform(0, 3600),
                }
                for i in range(2 * people)
            ],
        )
        pairs = {(1, 2 + i) for i in range(friend_count)}
        while len(pairs) < friend_count + people // 3:
            a, b = sorted(rng.sample(range(2, people + 1), 2))
            pairs.add((a, b))
        await s.execute(
            insert(Friendship),
            [
                {"low_id": a, "high_id": b, "requester_id": a, "created": NOW, "accepted": NOW}
                for a, b in sorted(pairs)
            ],
        )
        rooms: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        for i in range(TABLES):
            live = i >= TABLES - LIVE_TABLES
            rooms.append(
                {
                    "slug": f"s{i}",
                    "game_id": "incan_gold",
                    "options": {},
                    "num_seats": 4,
                    "private": i % 4 == 0,
                    "invite_code": "x",
                    "host_id": 2 + i % (people - 1),
                    "status": ("open" if i % 2 else "playing") if live else "finished",
                    "clock": "none",
                    "bot_level": "normal",
                    "created_at": utcnow(),
                    "friends_only": False,
                }
            )
            for seat, uid in enumerate(rng.sample(range(2, people + 1), 4)):
                seats.append({"room_id": i + 1, "seat": seat, "user_id": uid})
        for start in range(0, TABLES, 5_000):
            await s.execute(insert(Room), rooms[start : start + 5_000])
        for start in range(0, len(seats), 20_000):
            await s.execute(insert(SeatRow), seats[start : start + 20_000])
        await s.execute(
            insert(Invitation),
            [
                {"room_id": TABLES - i, "from_id": 2 + i, "to_id": 1, "created": NOW + i}
                for i in range(50)
            ],
        )
    if url.startswith("postgresql"):
        async with engine.begin() as conn:  # as autovacuum would have by now
            await conn.execute(text("ANALYZE"))
    await engine.dispose()


async def measure(url: str, rounds: int = 30) -> dict[str, float]:
    """Median milliseconds of each read, for the person with id 1."""
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    reads: dict[str, Callable[[AsyncSession], Awaitable[object]]] = {
        "friends_of (200 friends, online, public tables)": lambda s: friends.friends_of(s, 1, NOW),
        "invitations_for": lambda s: friends.invitations_for(s, 1),
        "pending_requests": lambda s: friends.pending_requests(s, 1, incoming=True),
        "people_named": lambda s: friends.people_named(s, "p19999"),
    }
    out: dict[str, float] = {}
    try:
        for label, read in reads.items():
            times = []
            for _ in range(rounds):
                async with sessions() as session:
                    started = time.perf_counter()
                    await read(session)
                    times.append(time.perf_counter() - started)
            out[label] = statistics.median(times) * 1000
    finally:
        await engine.dispose()
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=20_000)
    parser.add_argument("--friends", type=int, default=200)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        await generate(url, args.people, args.friends)
        for label, ms in (await measure(url)).items():
            print(f"{label:50} {ms:7.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
