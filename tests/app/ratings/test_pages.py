"""Ratings on the pages, on SQLite and PostgreSQL: the leaderboard lists persons with at least
5 rated games by rating, a page at a time by key (every person exactly once, ties in order,
a key that is not one reads as the first page); a profile shows each rating, "provisional"
below 10 games, and its chart; ratings stand beside names at the table and in the lobby."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import insert

from app.accounts.names import name_key
from app.ratings import store
from app.ratings.chart import rating_chart
from app.ratings.model import SCALE, Rating
from app.store.models import BotAccount, RatingRow, User
from tests.clients import Player
from tests.conftest import Server
from tests.tables import app_of, bot_table, play_until_over


async def seed_board(server: Server, count: int) -> list[tuple[float, int, str]]:
    """`count` persons rated in karmaka (some with ties, some with too few games, some guests
    and one bot account: not listed); returns the expected leaderboard as (μ, id, name), best
    first."""
    sessions = app_of(server).state.sessions
    now = datetime.now(UTC)
    async with sessions.begin() as session:
        ids = []
        for i in range(count):
            account = i % 11 != 3  # every eleventh a guest: rated, but not on the leaderboard
            key = name_key(f"Gracz {i}") if account else None
            user = User(name=f"Gracz {i}", name_key=key, created_at=now)
            session.add(user)
            await session.flush()
            ids.append(user.id)
        owner = ids[0]
        session.add(BotAccount(user_id=ids[1], owner_id=owner, token_hash="x" * 64, created=0.0))
        rows: list[dict[str, Any]] = []
        for i, uid in enumerate(ids):
            mu = 20.0 + (i % 7) * 1.5  # many ties on μ
            games = 3 if i % 5 == 0 else 5 + i % 8
            rows.append(
                {
                    "user_id": uid,
                    "game": "karmaka",
                    "mu": mu,
                    "sigma": 3.0,
                    "games": games,
                    "updated_at": now,
                }
            )
        await session.execute(insert(RatingRow), rows)
    listed = [
        (r["mu"], r["user_id"], f"Gracz {i}")
        for i, r in enumerate(rows)
        if r["games"] >= 5 and i % 11 != 3 and i != 1
    ]
    return sorted(listed, key=lambda t: (t[0], t[1]), reverse=True)


async def test_leaderboard_pages_by_key(server: Server) -> None:
    expected = await seed_board(server, 53)
    seen: list[tuple[float, int, str]] = []
    key = None
    places = []
    async with app_of(server).state.sessions() as session:
        while True:
            page = await store.leaderboard(session, "karmaka", key, size=10)
            seen += [(r.rating.mu, r.user_id, r.name) for r in page.rows]
            places += [r.place for r in page.rows]
            assert len(page.rows) <= 10
            if page.next_key is None:
                break
            key = page.next_key
        assert seen == expected, "every listed person once, by rating then id"
        assert places == list(range(1, len(expected) + 1))
        first = await store.leaderboard(session, "karmaka", "not-a-key", size=10)
        assert [r.user_id for r in first.rows] == [t[1] for t in expected[:10]]
        assert (await store.leaderboard(session, "ganges", None)).rows == []

    async with httpx.AsyncClient(base_url=server.url) as client:
        html = (await client.get("/ratings/karmaka")).text
        assert html.count('<a href="/u/') == min(50, len(expected))
        assert "Gracz" in html and 'rel="next"' not in html  # all fit on one page of 50
        assert (await client.get("/ratings/nope")).status_code == 404
        r = await client.get("/ratings")
        assert r.status_code == 303 and r.headers["location"].startswith("/ratings/")
        empty = (await client.get("/ratings/ganges")).text
        assert "Nobody has enough rated games here yet." in empty


async def test_leaderboard_next_link_over_http(server: Server) -> None:
    expected = await seed_board(server, 140)
    names: list[str] = []
    async with httpx.AsyncClient(base_url=server.url) as client:
        url = "/ratings/karmaka"
        for _ in range(10):
            html = (await client.get(url)).text
            names += re.findall(r'<a href="/u/\d+">([^<]+)</a>', html)
            found = re.search(r'href="(/ratings/karmaka\?after=[^"]+)" rel="next"', html)
            if found is None:
                break
            url = found.group(1).replace("&amp;", "&")
    assert names == [t[2] for t in expected]


async def test_profile_table_and_lobby_show_ratings(server: Server) -> None:
    people, made = await bot_table(server, "karmaka", rated=True)
    me = people[0]
    slug = made["slug"]
    try:
        await me.connect(slug)
        await play_until_over(server, slug, me, 0, seed=5)
        uid = (await me.http.post("/api/guest", json={"name": "Person 0"})).json()["id"]
        # The table shows the new rating beside the name once written.
        for _ in range(100):
            seats = me.states[-1]["room"]["seats"]
            if seats[0]["rating"] is not None:
                break
            await asyncio.sleep(0.05)
        assert me.states[-1]["room"]["rated"] is True
        async with app_of(server).state.sessions() as session:
            (standing,) = await store.standings(session, uid)
        assert seats[0]["rating"] == round(standing.rating.mu * SCALE)
        assert seats[0]["provisional"] is True
        assert seats[1]["bot"] == "easy" and seats[1]["rating"] is not None
        viewer = await Player(server.url, server.ws_url).login("Viewer")
        profile = (await viewer.http.get(f"/u/{uid}")).text
        assert f'<strong class="rating-value">{standing.rating.shown}</strong>' in profile
        assert "provisional" in profile and 'class="rating-chart"' in profile
        assert "<script" not in profile.split("rating-chart")[1].split("</svg>")[0]
        assert profile.count("<polyline") == 1
        # The lobby: the host's rating beside the name at a new table of that game.
        await me.http.post("/api/tables", json={"game": "karmaka", "seats": 2, "rated": True})
        lobby = (await viewer.http.get("/")).text
        assert f"{standing.rating.shown}?</span>" in lobby and ">rated<" in lobby
        await viewer.close()
    finally:
        await me.close()


def test_chart_draws_every_game_and_its_uncertainty() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    points = [(t0 + timedelta(hours=i), Rating(25 + i * 0.7, 8 - i * 0.4)) for i in range(12)]
    svg = str(rating_chart(points, "Karmaka <rating>"))
    line = re.search(r'<polyline class="rating-line" points="([^"]+)"', svg)
    assert line is not None and len(line.group(1).split()) == 12
    band = re.search(r'<polygon class="rating-band" points="([^"]+)"', svg)
    assert band is not None and len(band.group(1).split()) == 24
    assert 'aria-label="Karmaka &lt;rating&gt;"' in svg and "<script" not in svg
    ys = [float(p.split(",")[1]) for p in line.group(1).split()]
    assert ys == sorted(ys, reverse=True), "a rising rating rises on the chart"
    assert str(rating_chart([], "x")) == ""
    assert "<polyline" in str(rating_chart(points[:1], "one game"))
