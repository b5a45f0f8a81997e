"""How much a games night's live standings cost: a night of many finished tables (30 by
default, four seats each, one a bot) in a scratch database, then the time of one standings
read — what every open night page asks every five seconds (`service.night_page`: adopting
new "Play again" tables, the tables, their seats and results, the standings).

    python -m bench.nights [--tables 30] [--reads 200] [--database-url URL]

Default database: a SQLite file in a temporary directory (migrated with Alembic first).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.nights import service
from app.nights import store as nights
from app.store import games, people, tables
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import User
from app.store.rows import insert_row


async def run(url: str, count: int, reads: int) -> None:
    """Fill a night with `count` finished tables, then time `reads` standings reads."""
    await upgrade_database(url)
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    rng = random.Random(7)
    async with sessions.begin() as session:
        ids = [(await people.create_user(session, f"P{i}")).id for i in range(6)]
        host = await session.get(User, ids[0])
        assert host is not None
        night = await nights.create_night(session, host.id, "Bench")
        for _ in range(count):
            seated = rng.sample(ids, 3)
            room = tables.new_table(
                host_id=seated[0],
                game_id="incan_gold",
                options={},
                num_seats=4,
                private=True,
                clock="none",
                bot_level="normal",
            )
            room.status = "finished"
            await insert_row(session, room)
            for seat, uid in enumerate(seated):
                await tables.add_seat(session, room.id, seat, uid)
            await tables.add_bot(session, room.id, 3, "easy")
            game = games.new_game(
                room_id=room.id,
                engine="incan_gold",
                options={},
                num_players=4,
                seed=1,
                seed_commitment="x",
                snapshot={},
            )
            game.status = "finished"
            ranks = [1, 2, 2, 4]
            rng.shuffle(ranks)
            game.result = {"ranks": {str(s): r for s, r in enumerate(ranks)}, "scores": {}}
            await games.create_game(session, game)
            await nights.link_table(session, night.id, room.id)
    times = []
    for _ in range(reads):
        start = time.perf_counter()
        async with sessions() as session:
            got = await nights.get_night(session, night.slug)
            assert got is not None
            page = await service.night_page(session, got, ids[1])
        times.append((time.perf_counter() - start) * 1000)
    await engine.dispose()
    assert len(page.tables) == count and len(page.lines) == 7
    times.sort()
    print(
        f"{url.split(':')[0]}: {count} tables, standings read median "
        f"{statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f} ms"
    )


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(run(url, args.tables, args.reads))


if __name__ == "__main__":
    main()
