"""Games nights in the database, on SQLite and PostgreSQL: standings from stored results with
ties (two people tied for first share 8.33 each; equal totals share a place and a podium
step), a bot of the night, "Play again" tables joining the night (once, however many readers
look), and the podium frozen when the host ends the night."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from app.errors import Refusal
from app.nights import service
from app.nights import store as nights
from app.nights.models import Night
from app.store import games, people, tables
from app.store.engine import SessionFactory, make_engine, make_session_factory
from app.store.migrate import upgrade_database
from app.store.models import Game, Room, User, utcnow
from app.store.rows import insert_row


@pytest.fixture
async def sessions(db_url: str) -> AsyncIterator[SessionFactory]:
    """Sessions on a freshly migrated database (SQLite, then PostgreSQL)."""
    await upgrade_database(db_url)
    engine = make_engine(db_url)
    try:
        yield make_session_factory(engine)
    finally:
        await engine.dispose()


async def finished_table(
    sessions: SessionFactory,
    night: Night | None,
    seats: list[int | str],
    ranks: list[int],
    *,
    rematch_of: Room | None = None,
    finished: bool = True,
) -> Room:
    """A table of `seats` (a person's id, or a bot's level) whose game ended with `ranks`
    (by seat), linked to `night` (or made the "Play again" of `rematch_of`)."""
    async with sessions.begin() as session:
        host = next(s for s in seats if isinstance(s, int))
        room = tables.new_table(
            host_id=host,
            game_id="high_card",
            options={},
            num_seats=len(seats),
            private=True,
            clock="none",
            bot_level="normal",
        )
        room.status = "finished" if finished else "playing"
        await insert_row(session, room)
        for seat, who in enumerate(seats):
            if isinstance(who, int):
                await tables.add_seat(session, room.id, seat, who)
            else:
                await tables.add_bot(session, room.id, seat, who)
        game = games.new_game(
            room_id=room.id,
            engine="high_card",
            options={},
            num_players=len(seats),
            seed=1,
            seed_commitment="x",
            snapshot={},
        )
        if finished:
            game.status = "finished"
            game.result = {
                "scores": {str(s): 0 for s in range(len(seats))},
                "ranks": {str(s): r for s, r in enumerate(ranks)},
                "winners": [s for s, r in enumerate(ranks) if r == 1],
                "reason": "test",
            }
        await games.create_game(session, game)
        if night is not None:
            await nights.link_table(session, night.id, room.id)
        if rematch_of is not None:
            assert await tables.set_rematch(session, rematch_of.id, room.slug)
    return room


async def finish(sessions: SessionFactory, room: Room, ranks: list[int]) -> None:
    """The game at `room` ends now with `ranks`."""
    async with sessions.begin() as session:
        await session.execute(
            update(Game)
            .where(Game.room_id == room.id)
            .values(
                status="finished",
                updated_at=utcnow() + timedelta(seconds=1),
                result={"ranks": {str(s): r for s, r in enumerate(ranks)}, "scores": {}},
            )
        )
        await tables.set_table(session, room.id, status="finished")


async def page_of(sessions: SessionFactory, slug: str, reader: int | None) -> service.NightPage:
    """The night's page as `reader` sees it."""
    async with sessions() as session:
        night = await nights.get_night(session, slug)
        assert night is not None
        return await service.night_page(session, night, reader)


def table_of(page: service.NightPage) -> dict[str, Any]:
    """name → (place, points, wins, played)."""
    return {line.name: (line.place, line.points, line.wins, line.played) for line in page.lines}


async def test_ties_bots_rematches_and_the_frozen_podium(sessions: SessionFactory) -> None:
    """Three finished tables with ties, a bot in each; a rematch joins by itself; after the
    end, a game that finishes later no longer counts."""
    async with sessions.begin() as session:
        ala, bartek, celina = [
            (await people.create_user(session, name)).id for name in ("Ala", "Bartek", "Celina")
        ]
    async with sessions.begin() as session:
        host = await session.get(User, ala)
        assert host is not None
        night = await service.start_night(session, host, "  Piątek  ")
        slug = night.slug
    assert night.name == "Piątek"

    # 1: Ala and Bartek tie for first of four (8.33 each), Celina third, the bot last.
    one = await finished_table(sessions, night, [ala, bartek, celina, "easy"], [1, 1, 3, 4])
    page = await page_of(sessions, slug, bartek)
    assert table_of(page) == {
        "Ala": (1, 8.33, 1, 1),
        "Bartek": (1, 8.33, 1, 1),
        "Celina": (3, 3.33, 0, 1),
        "Bot 4 (easy)": (4, 0.0, 0, 1),
    }
    assert [line.is_you for line in page.lines] == [False, True, False, False]
    assert [line.is_bot for line in page.lines] == [False, False, False, True]

    # 2: "Play again" of table 1 joins the night by itself, once, however many look at once.
    two = await finished_table(
        sessions, None, [celina, bartek, ala, "easy"], [1, 4, 3, 2], rematch_of=one
    )
    pages = await asyncio.gather(*(page_of(sessions, slug, None) for _ in range(4)))
    assert all(len(p.tables) == 2 for p in pages)
    assert [t.slug for t in pages[0].tables] == [one.slug, two.slug]
    # Celina 3.33 + 10, Ala 8.33 + 3.33, Bartek 8.33 + 0, the bot 0 + 6.67.
    # 3: Ala first, Bartek second, Celina and the bot tied third (1.67 each).
    await finished_table(sessions, night, [ala, bartek, celina, "easy"], [1, 2, 3, 3])
    page = await page_of(sessions, slug, None)
    points = {line.name: line.points for line in page.lines}
    assert points == {"Ala": 21.67, "Bartek": 15.0, "Celina": 15.0, "Bot 4 (easy)": 8.33}
    # Bartek and Celina are level on points and on wins (one each): they share second.
    assert {line.name: line.place for line in page.lines} == {
        "Ala": 1,
        "Bartek": 2,
        "Celina": 2,
        "Bot 4 (easy)": 4,
    }
    assert [line.played for line in page.lines] == [3, 3, 3, 3]

    # A fourth table still playing when the host ends the night.
    late = await finished_table(sessions, night, [ala, celina], [], finished=False)
    async with sessions() as session:
        stored = await nights.get_night(session, slug)
        assert stored is not None
        with pytest.raises(Refusal, match="Only the host"):
            other = await session.get(User, bartek)
            assert other is not None
            await service.end_night(session, stored, other)
        owner = await session.get(User, ala)
        assert owner is not None
        await service.end_night(session, stored, owner)
    await finish(sessions, late, [1, 2])  # Celina would have gained 0, Ala 10
    final = await page_of(sessions, slug, None)
    assert final.night.status == "finished"
    assert {line.name: line.points for line in final.lines} == points, "frozen at the end"
    assert final.tables[-1].ranks is None and final.tables[-1].status == "finished"
    steps = [sorted(line.name for line in step) for step in final.podium]
    assert steps == [["Ala"], ["Bartek", "Celina"], []], "a shared second; no third step"
    # Nothing joins an ended night, not even a "Play again".
    await finished_table(sessions, None, [ala, bartek], [1, 2], rematch_of=late)
    assert len((await page_of(sessions, slug, None)).tables) == 4


async def test_equal_totals_share_a_place_and_a_step(sessions: SessionFactory) -> None:
    """Two people exactly level (points and wins) share first place and the first step; the
    second step stays empty, the bot is third."""
    async with sessions.begin() as session:
        ala, bartek = [(await people.create_user(session, n)).id for n in ("Ala", "Bartek")]
        host = await session.get(User, ala)
        assert host is not None
        night = await service.start_night(session, host, "Remis")
    await finished_table(sessions, night, [ala, bartek, "hard"], [1, 2, 3])
    await finished_table(sessions, night, [ala, bartek, "hard"], [2, 1, 3])
    page = await page_of(sessions, night.slug, None)
    assert [(line.name, line.place) for line in page.lines][2] == ("Bot 3 (hard)", 3)
    assert {line.name: line.place for line in page.lines[:2]} == {"Ala": 1, "Bartek": 1}
    assert [[line.name for line in step] for step in page.podium] == [
        sorted(["Ala", "Bartek"], key=[line.name for line in page.lines].index),
        [],
        ["Bot 3 (hard)"],
    ]
