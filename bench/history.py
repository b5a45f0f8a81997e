"""How fast "Your games" stays with many stored games: generates finished games in a scratch
database (100,000 by default, a quarter of them with the person measured), then prints the
time of the first page, a deep page, a filtered page and the per-game statistics.

    python -m bench.history [--games 100000] [--database-url URL]

Default database: a SQLite file in a temporary directory (migrated with Alembic first).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from app.store import history
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import Game, Room, SeatRow, User

GAMES = ("incan_gold", "racing_hedgehogs", "karmaka", "ganges", "dreadful_circus")


async def generate(url: str, count: int) -> int:
    """Fill the database; returns the measured person's id."""
    await upgrade_database(url)
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    rng = random.Random(1)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    async with sessions.begin() as session:
        await session.execute(insert(User), [{"name": f"P{i}"} for i in range(200)])
    batch = 5_000
    for first in range(0, count, batch):
        n = min(batch, count - first)
        async with sessions.begin() as session:
            rooms: list[dict[str, Any]] = [
                {
                    "id": first + i + 1,
                    "slug": f"g{first + i:09d}",
                    "game_id": rng.choice(GAMES),
                    "options": {},
                    "num_seats": 3,
                    "private": rng.random() < 0.2,
                    "invite_code": "x",
                    "host_id": 1,
                    "status": "finished",
                }
                for i in range(n)
            ]
            await session.execute(insert(Room), rooms)
            await session.execute(
                insert(Game),
                [
                    {
                        "room_id": r["id"],
                        "engine": r["game_id"],
                        "options": {},
                        "num_players": 3,
                        "seed": 1,
                        "seed_commitment": "0" * 64,
                        "version": 30,
                        "snapshot": {},
                        "status": "finished",
                        "result": {"ranks": {"0": 1, "1": 2, "2": 3}, "winners": [0]},
                        "updated_at": start + timedelta(minutes=r["id"]),
                    }
                    for r in rooms
                ],
            )
            seats = []
            for r in rooms:
                people = rng.sample(range(2, 201), 3)
                if r["id"] % 4 == 0:
                    people[rng.randrange(3)] = 1
                seats += [
                    {"room_id": r["id"], "seat": s, "user_id": u} for s, u in enumerate(people)
                ]
            await session.execute(insert(SeatRow), seats)
    await engine.dispose()
    return 1


async def measure(url: str) -> None:
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    async with sessions() as session:
        for label, kwargs in (
            ("first page", {}),
            ("page 200", {"offset": 199 * 20}),
            ("karmaka, first page", {"game_id": "karmaka"}),
            ("profile (public only)", {"public_only": True}),
        ):
            t = time.perf_counter()
            games, total = await history.played_games(session, 1, limit=20, **kwargs)
            ms = (time.perf_counter() - t) * 1000
            print(f"{label:24} {ms:7.1f} ms  ({len(games)} rows of {total})")
        t = time.perf_counter()
        stats = await history.game_stats(session, 1, public_only=False)
        ms = (time.perf_counter() - t) * 1000
        print(f"{'per-game statistics':24} {ms:7.1f} ms  ({sum(s['played'] for s in stats)} games)")
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'history.db'}"
        t = time.perf_counter()
        asyncio.run(generate(url, args.games))
        print(f"generated {args.games} finished games in {time.perf_counter() - t:.1f} s")
        asyncio.run(measure(url))


if __name__ == "__main__":
    main()
