"""Rated games written straight into a test server's database through the server's own
game-end write (`app.ratings.store.record_result`): for pages that need a history."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, update

from app.accounts.names import name_key
from app.ratings import store
from app.ratings.model import rated_game
from app.store.models import Game, RatingChange, Room, User
from tests.conftest import Server
from tests.tables import app_of

NAMES = [
    "Ala", "Bartek", "Celina", "Darek", "Ewa", "Filip", "Gosia", "Henryk", "Iga", "Jurek",
    "Kasia", "Leszek", "Marta", "Norbert", "Ola", "Piotr", "Renata", "Staszek", "Tosia",
    "Urszula", "Wiktor", "Zosia", "Żaneta", "Łukasz",
]  # fmt: skip


async def seed_rated_games(
    server: Server, games: int, people: int, *, star: str = "Ala", seed: int = 1
) -> dict[str, int]:
    """`games` rated games among `people` persons (named from `NAMES`, then numbered), the
    first of them (`star`) at every game and winning more often than not, spread over the last
    days. Returns the persons' ids by name."""
    rng = random.Random(seed)
    sessions = app_of(server).state.sessions
    names = [star] + [n for n in NAMES if n != star]
    names += [f"Gracz {i}" for i in range(len(names), people)]
    async with sessions.begin() as session:
        ids = {}
        for name in names[:people]:
            user = User(name=name, name_key=name_key(name))  # accounts: on the leaderboard
            session.add(user)
            await session.flush()
            ids[name] = user.id
    start = datetime.now(UTC) - timedelta(days=games)
    everyone = list(ids.values())
    for g in range(games):
        engine = "incan_gold" if g % 4 else "karmaka"
        n = rng.randint(3, 6) if engine == "incan_gold" else 2
        seated = [ids[star], *rng.sample(everyone[1:], n - 1)]
        places = list(range(1, n + 1))
        rng.shuffle(places)
        if rng.random() < 0.6:  # the star does well
            best = places.index(1)
            places[0], places[best] = places[best], places[0]
        async with sessions.begin() as session:
            room_id = (
                await session.execute(
                    insert(Room).returning(Room.id),
                    {
                        "slug": f"seed{seed}x{g}",
                        "game_id": engine,
                        "options": {},
                        "num_seats": n,
                        "private": False,
                        "invite_code": "x",
                        "host_id": seated[0],
                        "status": "finished",
                        "rated": True,
                    },
                )
            ).scalar_one()
            game_id = (
                await session.execute(
                    insert(Game).returning(Game.id),
                    {
                        "room_id": room_id,
                        "engine": engine,
                        "options": {},
                        "num_players": n,
                        "seed": 1,
                        "seed_commitment": "0" * 64,
                        "version": 1,
                        "snapshot": {},
                        "status": "finished",
                        "result": {},
                    },
                )
            ).scalar_one()
            game = rated_game(
                engine,
                game_id,
                [[s] for s in range(n)],
                dict(enumerate(places)),
                {s: (u, None, False) for s, u in enumerate(seated)},
            )
            await store.record_result(session, game)
            await session.execute(
                update(RatingChange)
                .where(RatingChange.game_id == game_id)
                .values(created_at=start + timedelta(days=g))
            )
    return ids
