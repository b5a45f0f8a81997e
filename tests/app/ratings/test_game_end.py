"""A rated table's end rates every person's seat exactly once, in the transaction of the
game's last move: played out with bots, ended by timeouts, and with two server processes on
one database racing every expiry. An unrated table changes nobody's rating."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import select

from app.ratings import bots
from app.ratings.model import Rating, rate, rated_game
from app.store.models import Game, RatingChange, RatingRow, Room
from tests.clients import table_of
from tests.conftest import FakeClock, Server, start_server
from tests.tables import app_of, bot_game, bot_table, play_until_over


async def ratings_after(server: Server, slug: str) -> tuple[Game, list[Any], list[Any]]:
    """The stored game, its rating changes and the ratings of the game's engine."""
    async with app_of(server).state.sessions() as session:
        room = (await session.execute(select(Room).where(Room.slug == slug))).scalar_one()
        game = (await session.execute(select(Game).where(Game.room_id == room.id))).scalar_one()
        changes = (
            (await session.execute(select(RatingChange).where(RatingChange.game_id == game.id)))
            .scalars()
            .all()
        )
        rows = (
            (await session.execute(select(RatingRow).where(RatingRow.game == game.engine)))
            .scalars()
            .all()
        )
    return game, list(changes), list(rows)


def expected(game: Game, sitters: dict[int, tuple[int | None, str | None, bool]]) -> Any:
    """What the model gives for the stored result (everyone new before it)."""
    from engines import get_engine

    engine = get_engine(game.engine)
    state = engine.load(game.snapshot)
    assert game.result is not None
    ranks = {int(s): r for s, r in game.result["ranks"].items()}
    rated = rated_game(game.engine, game.id, engine.teams(state, len(ranks)), ranks, sitters)
    return rate(rated, {}, bots.ratings(game.engine))


async def test_a_rated_game_against_bots_rates_the_person_once(server: Server) -> None:
    people, made = await bot_table(server, "karmaka", rated=True)
    slug = made["slug"]
    me = people[0]
    try:
        await me.connect(slug)
        await play_until_over(server, slug, me, 0, seed=5)
        await asyncio.sleep(0.1)
        game, changes, rows = await ratings_after(server, slug)
        assert game.status == "finished"
        hub = table_of(app_of(server), slug)
        user = hub.seats[0].user_id
        assert [(c.seat, c.user_id) for c in changes] == [(0, user)]
        assert [(r.user_id, r.games) for r in rows] == [(user, 1)]
        want = expected(game, {0: (user, None, False), 1: (None, "easy", False)})
        assert Rating(rows[0].mu, rows[0].sigma) == want[user]
        assert (changes[0].mu_before, changes[0].mu) == (25.0, rows[0].mu)
        assert rows[0].mu != 25.0
    finally:
        await me.close()


async def test_an_unrated_table_changes_no_rating(server: Server) -> None:
    async with bot_game(server, "karmaka") as ((me,), slug):
        await play_until_over(server, slug, me, 0, seed=5)
        await asyncio.sleep(0.1)
        game, changes, rows = await ratings_after(server, slug)
        assert game.status == "finished" and changes == [] and rows == []


async def test_two_processes_and_timeouts_rate_every_seat_once(
    db_url: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Two people at a rated, clocked table; nobody moves. Both servers race every expiry
    (one move each time), after three timeouts a seat is handed to a bot, and the bots
    finish. Each person is rated once, as last (both forfeited: a tie)."""
    one = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    two = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    try:
        (me, other), table = await bot_table(one, "karmaka", humans=2, clock="fast", rated=True)
        slug = table["slug"]
        hub1 = table_of(app_of(one), slug)
        hub2 = await app_of(two).state.tables.get(slug)
        assert hub1.game is not None and hub2 is not None and hub2.game is not None
        for _ in range(400):
            game, _, _ = await ratings_after(one, slug)
            if game.status == "finished":
                break
            clock.advance(30 + 180 + 1)
            await asyncio.gather(app_of(one).state.tables.tick(), app_of(two).state.tables.tick())
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        game, changes, rows = await ratings_after(one, slug)
        assert game.status == "finished"
        users = sorted(s.user_id for s in hub1.seats.values() if s.user_id is not None)
        assert len(users) == 2
        assert sorted((c.user_id, c.seat) for c in changes) == sorted(
            (s.user_id, s.seat) for s in hub1.seats.values()
        ), "one change per seat"
        assert {c.place for c in changes} == {1}, "both forfeited: tied"
        assert sorted((r.user_id, r.games) for r in rows) == [(u, 1) for u in users]
        want = expected(
            game, {s: (u, None, True) for s, u in ((c.seat, c.user_id) for c in changes)}
        )
        for r in rows:
            assert Rating(r.mu, r.sigma) == want[r.user_id]
        await me.close()
        await other.close()
    finally:
        await one.stop()
        await two.stop()


async def test_two_games_ending_at_once_for_one_person_both_count(
    db_url: str, tmp_path: Path
) -> None:
    """Two rated games with the same person end at the same moment (two transactions): the
    second waits for the first's rows and starts from its result — no update is lost."""
    from sqlalchemy import insert

    from app.ratings import store
    from app.store.engine import make_engine, make_session_factory
    from app.store.migrate import upgrade_database
    from app.store.models import User

    await upgrade_database(db_url)
    engine = make_engine(db_url)
    sessions = make_session_factory(engine)
    try:
        async with sessions.begin() as session:
            users = []
            for name in ("Ala", "Bartek", "Celina"):
                user = User(name=name)
                session.add(user)
                await session.flush()
                users.append(user.id)
            game_ids = []
            for i in range(2):
                room = (
                    await session.execute(
                        insert(Room).returning(Room.id),
                        {
                            "slug": f"both{i}",
                            "game_id": "karmaka",
                            "options": {},
                            "num_seats": 2,
                            "private": False,
                            "invite_code": "x",
                            "host_id": users[0],
                            "status": "finished",
                            "rated": True,
                        },
                    )
                ).scalar_one()
                game_ids.append(
                    (
                        await session.execute(
                            insert(Game).returning(Game.id),
                            {
                                "room_id": room,
                                "engine": "karmaka",
                                "options": {},
                                "num_players": 2,
                                "seed": 1,
                                "seed_commitment": "0" * 64,
                                "version": 1,
                                "snapshot": {},
                                "status": "finished",
                                "result": {},
                            },
                        )
                    ).scalar_one()
                )
        games = [
            rated_game(
                "karmaka",
                game_ids[i],
                [[0], [1]],
                {0: 1, 1: 2},
                {0: (users[0], None, False), 1: (users[1 + i], None, False)},
            )
            for i in range(2)
        ]

        async def end(game: Any) -> None:
            async with sessions.begin() as session:
                await store.record_result(session, game)

        await asyncio.gather(end(games[0]), end(games[1]))
        async with sessions() as session:
            (ala,) = (
                (await session.execute(select(RatingRow).where(RatingRow.user_id == users[0])))
                .scalars()
                .all()
            )
            changes = (
                (
                    await session.execute(
                        select(RatingChange)
                        .where(RatingChange.user_id == users[0])
                        .order_by(RatingChange.id)
                    )
                )
                .scalars()
                .all()
            )
        assert ala.games == 2
        first, second = changes
        assert (first.mu_before, second.mu_before) == (25.0, first.mu), "the second read the first"
        assert ala.mu == second.mu
        # A second rating of the same game is refused by the unique (game, seat) pair.
        from sqlalchemy.exc import IntegrityError

        try:
            await end(games[0])
        except IntegrityError:
            pass
        else:
            raise AssertionError("a game was rated twice")
        async with sessions() as session:
            again = (
                await session.execute(select(RatingRow.games).where(RatingRow.user_id == users[0]))
            ).scalar_one()
        assert again == 2, "nothing of the refused second rating was written"
    finally:
        await engine.dispose()
