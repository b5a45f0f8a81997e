"""Ratings at scale: 100,000 rated games in a scratch database, then the leaderboard's pages
(first, deep, last), a profile's ratings and chart, and ratings beside names, timed.

    python -m bench.leaderboard [--games 100000] [--people 20000] [--database-url URL]

The games (2–8 seats, a random engine, a random order of places, now and then a tie or a
Karmaka 2 on 2) are rated one after the other with the server's model (`app.ratings.model`),
written in bulk (games, rating changes, ratings); then `--write-path` more games go through the
server's own game-end write (`app.ratings.store.record_result`, one transaction each). Default
database: a SQLite file in a temporary directory (migrated with Alembic first).
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

from sqlalchemy import insert, select, text

from app.ratings import pages, store
from app.ratings.model import RatedGame, Rating, rate, rated_game, side_places
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import Game, RatingChange, RatingRow, Room, User

GAMES = ("incan_gold", "racing_hedgehogs", "karmaka", "ganges", "dreadful_circus")
BATCH = 5_000


def random_game(rng: random.Random, game_id: int, people: int) -> RatedGame:
    """A finished game of random persons with random places (ties now and then)."""
    engine = rng.choice(GAMES)
    n = rng.randint(2, 8)
    teams: list[list[int]] = [[s] for s in range(n)]
    if engine == "karmaka" and n >= 4 and rng.random() < 0.3:
        n, teams = 4, [[0, 2], [1, 3]]
    places = list(range(1, n + 1))
    rng.shuffle(places)
    if rng.random() < 0.1:
        places[places.index(2)] = 1  # a tie for first
    users = rng.sample(range(1, people + 1), n)
    return rated_game(
        engine,
        game_id,
        teams,
        dict(enumerate(places)),
        {s: (users[s], None, False) for s in range(n)},
    )


async def generate(url: str, count: int, people: int) -> tuple[float, dict[tuple[int, str], Any]]:
    """Fill the database; returns the seconds spent rating and the final ratings."""
    await upgrade_database(url)
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    rng = random.Random(35)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    async with sessions.begin() as session:
        for first in range(0, people, BATCH):
            await session.execute(
                insert(User),
                [
                    {"id": i + 1, "name": f"Gracz {i + 1}", "name_key": f"gracz {i + 1}"}
                    for i in range(first, min(people, first + BATCH))
                ],
            )
    current: dict[tuple[int, str], tuple[Rating, int]] = {}
    rating_time = 0.0
    for first in range(0, count, BATCH):
        n = min(BATCH, count - first)
        played = [random_game(rng, first + i + 1, people) for i in range(n)]
        changes: list[dict[str, Any]] = []
        t = time.perf_counter()
        for g in played:
            before = {u: current.get((u, g.engine), (Rating(), 0))[0] for u in g.people}
            after = rate(g, before, {})
            places = side_places(g)
            at = start + timedelta(minutes=g.game_id)
            for s in g.seats:
                assert s.user_id is not None
                key = (s.user_id, g.engine)
                current[key] = (after[s.user_id], current.get(key, (Rating(), 0))[1] + 1)
                changes.append(
                    {
                        "game_id": g.game_id,
                        "seat": s.seat,
                        "user_id": s.user_id,
                        "game": g.engine,
                        "place": places[s.side],
                        "mu_before": before[s.user_id].mu,
                        "sigma_before": before[s.user_id].sigma,
                        "mu": after[s.user_id].mu,
                        "sigma": after[s.user_id].sigma,
                        "created_at": at,
                    }
                )
        rating_time += time.perf_counter() - t
        async with sessions.begin() as session:
            await session.execute(
                insert(Room),
                [
                    {
                        "id": g.game_id,
                        "slug": f"r{g.game_id:09d}",
                        "game_id": g.engine,
                        "options": {},
                        "num_seats": len(g.seats),
                        "private": False,
                        "invite_code": "x",
                        "host_id": g.seats[0].user_id,
                        "status": "finished",
                        "rated": True,
                    }
                    for g in played
                ],
            )
            await session.execute(
                insert(Game),
                [
                    {
                        "id": g.game_id,
                        "room_id": g.game_id,
                        "engine": g.engine,
                        "options": {},
                        "num_players": len(g.seats),
                        "seed": 1,
                        "seed_commitment": "0" * 64,
                        "version": 30,
                        "snapshot": {},
                        "status": "finished",
                        "result": {},
                        "updated_at": start + timedelta(minutes=g.game_id),
                    }
                    for g in played
                ],
            )
            await session.execute(insert(RatingChange), changes)
    now = datetime.now(UTC)
    rows = [
        {"user_id": u, "game": game, "mu": r.mu, "sigma": r.sigma, "games": n, "updated_at": now}
        for (u, game), (r, n) in current.items()
    ]
    for first in range(0, len(rows), BATCH):
        async with sessions.begin() as session:
            await session.execute(insert(RatingRow), rows[first : first + BATCH])
    async with sessions.begin() as session:
        await session.execute(text("ANALYZE"))  # as a live database's statistics would be
    await engine.dispose()
    return rating_time, current


def timed(label: str, ms: float, what: str) -> None:
    print(f"{label:34} {ms:8.2f} ms  {what}")


async def best_of(runs: int, work: Any) -> tuple[float, Any]:
    """The median time of `runs` calls of `work` (milliseconds) and its last result."""
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = await work()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[len(times) // 2], result


async def measure(url: str, count: int, people: int, write_path: int) -> None:
    """Time the reads the pages make, and the game-end write."""
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    async with sessions() as session:
        ms, page = await best_of(7, lambda: store.leaderboard(session, "karmaka", None, 50))
        sql = str(
            store.leaderboard_query("karmaka", page.next_key, 50).compile(
                dialect=engine.dialect, compile_kwargs={"literal_binds": True}
            )
        )
        explain = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
        plan = (await session.execute(text(explain + sql))).all()
        print("plan of a next page:", " / ".join(str(row[-1]).strip() for row in plan))
        timed("leaderboard, first page", ms, f"{len(page.rows)} rows (median of 7)")
        key, pages_read, walked = page.next_key, 1, time.perf_counter()
        slowest = 0.0
        while key is not None:
            t = time.perf_counter()
            page = await store.leaderboard(session, "karmaka", key, 50)
            slowest = max(slowest, time.perf_counter() - t)
            pages_read += 1
            key = page.next_key
        total = time.perf_counter() - walked
        last_place = page.rows[-1].place if page.rows else 0
        timed(
            "leaderboard, every page in turn",
            total * 1000 / max(1, pages_read - 1),
            f"per page on average, {pages_read} pages, {last_place} people; slowest "
            f"{slowest * 1000:.2f} ms",
        )
        busiest = (
            await session.execute(
                select(RatingRow.user_id, RatingRow.game).order_by(RatingRow.games.desc()).limit(1)
            )
        ).one()
        ms, panels = await best_of(7, lambda: pages.rating_panels(session, busiest[0]))
        timed(
            "profile: every rating and its chart",
            ms,
            f"{len(panels)} games, {sum(p.standing.games for p in panels)} rated games",
        )
        people_at_table = list(range(1, 9))
        ms, found = await best_of(
            7, lambda: store.ratings_of(session, "incan_gold", people_at_table)
        )
        timed("ratings beside 8 names", ms, f"{len(found)} found")
    rng = random.Random(7)
    async with sessions.begin() as session:
        await session.execute(
            insert(Room),
            [
                {
                    "id": count + i + 1,
                    "slug": f"w{i:09d}",
                    "game_id": "karmaka",
                    "options": {},
                    "num_seats": 4,
                    "private": False,
                    "invite_code": "x",
                    "host_id": 1,
                    "status": "finished",
                }
                for i in range(write_path)
            ],
        )
        await session.execute(
            insert(Game),
            [
                {
                    "id": count + i + 1,
                    "room_id": count + i + 1,
                    "engine": "karmaka",
                    "options": {},
                    "num_players": 4,
                    "seed": 1,
                    "seed_commitment": "0" * 64,
                    "version": 30,
                    "snapshot": {},
                    "status": "finished",
                    "result": {},
                }
                for i in range(write_path)
            ],
        )
    times = []
    for i in range(write_path):
        g = random_game(rng, count + i + 1, people)
        t = time.perf_counter()
        async with sessions.begin() as session:
            await store.record_result(session, g)
        times.append(time.perf_counter() - t)
    times.sort()
    if times:
        timed(
            "game-end write (one transaction)",
            times[len(times) // 2] * 1000,
            f"median of {write_path}; p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms",
        )
    await engine.dispose()


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=20_000)
    parser.add_argument("--write-path", type=int, default=500)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'ratings.db'}"
        t = time.perf_counter()
        rating_time, current = asyncio.run(generate(url, args.games, args.people))
        seats = sum(n for _, n in current.values())
        print(
            f"generated {args.games} rated games ({seats} rated seats, {len(current)} ratings) "
            f"in {time.perf_counter() - t:.1f} s; the model rated them in {rating_time:.1f} s "
            f"({rating_time / args.games * 1e6:.0f} µs a game)"
        )
        asyncio.run(measure(url, args.games, args.people, args.write_path))


if __name__ == "__main__":
    main()
