"""Your games and profiles (issue 17), on SQLite and PostgreSQL: a finished game is listed for
each person who played it (players, place, a replay link), filtered by game, a page at a time;
a profile shows games at public tables only, with per-game statistics."""

from __future__ import annotations

import re

from app.store import history
from tests.clients import Player, drive, make_table
from tests.conftest import Server
from tests.tables import app_of


async def finish(server: Server, seats: list[Player], slug: str) -> None:
    for s in seats:
        await s.connect(slug)
    await seats[0].wait_version(0)
    await drive(app_of(server), slug, dict(enumerate(seats)), [], moves=400, seed=5)
    await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")


async def test_your_games_and_profiles(server: Server) -> None:
    names = ["Ala", "Bartek", "Celina"]
    seats, public = await make_table(server.url, server.ws_url, names)
    await finish(server, seats, public["slug"])
    # The same three people at a private table.
    r = await seats[0].http.post(
        "/api/tables", json={"game": "incan_gold", "seats": 3, "private": True}
    )
    private = r.json()
    for p in seats[1:]:
        await p.http.post(
            f"/api/tables/{private['slug']}/join", params={"code": private["invite_code"]}
        )
    await seats[0].http.post(f"/api/tables/{private['slug']}/start")
    for s in seats:
        await s.close()
    fresh = []
    for s in seats:
        p = Player(server.url, server.ws_url)
        p.http.cookies.set("stolik", s.http.cookies.get("stolik") or "")
        fresh.append(p)
    await finish(server, fresh, private["slug"])

    page = (await fresh[0].http.get("/history")).text
    rows = re.findall(r'<a href="/t/([^/"]+)/replay[^"]*seat=0">', page)
    assert rows == [private["slug"], public["slug"]]  # newest first
    assert "Ala, Bartek, Celina" in page and "2 games" in page
    assert f"code={private['invite_code']}" in page
    assert (await fresh[1].http.get(f"/t/{public['slug']}/replay?seat=1")).status_code == 200

    none = (await fresh[0].http.get("/history?game=karmaka")).text
    assert "No finished games yet." in none

    me = (await fresh[0].http.get("/api/tables")).status_code
    assert me == 200
    uid = (await fresh[0].http.post("/api/guest", json={"name": "Ala"})).json()["id"]
    profile = (await fresh[1].http.get(f"/u/{uid}")).text
    assert public["slug"] in profile and private["slug"] not in profile
    assert re.search(r"Incan Gold</th><td>1</td>", profile)

    async with app_of(server).state.sessions() as session:
        first, total = await history.played_games(session, uid, limit=1)
        second, _ = await history.played_games(session, uid, limit=1, offset=1)
        assert total == 2 and [first[0].slug, second[0].slug] == [private["slug"], public["slug"]]
        stats = await history.game_stats(session, uid, public_only=False)
        assert stats[0]["game"] == "incan_gold" and stats[0]["played"] == 2
    for p in fresh:
        await p.close()
