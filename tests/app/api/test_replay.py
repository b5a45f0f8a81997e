"""Replays of finished games (issue 17), on SQLite and PostgreSQL: for a game of every title
played over websockets, every replay step's view equals the view each seat and a spectator
received live at that version; a running game's replay is refused for everyone; the page
shows a step from a seat, a spectator's seat, or every hand."""

from __future__ import annotations

from typing import Any

import pytest

from app.history import Replays
from tests.clients import Player, drive, make_table, table_of
from tests.conftest import Server
from tests.tables import app_of, every_game, players

NAMES = ["Ala", "Bartek", "Celina", "Darek"]


@pytest.mark.parametrize("game", sorted(every_game()))
async def test_replay_equals_the_live_game(server: Server, game: str) -> None:
    n = players(game)
    seats, table = await make_table(server.url, server.ws_url, NAMES[:n], game=game)
    slug = table["slug"]
    watcher = await Player(server.url, server.ws_url).login("Widz")
    try:
        for p in [*seats, watcher]:
            await p.connect(slug)
        await seats[0].wait_version(0)
        assert (await watcher.http.get(f"/t/{slug}/replay")).status_code == 409
        assert (await seats[0].http.get(f"/t/{slug}/replay?seat=0")).status_code == 409
        app = app_of(server)
        await drive(app, slug, dict(enumerate(seats)), [watcher], moves=5000, seed=7)
        await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
        hub = table_of(app, slug)
        async with app.state.sessions() as session:
            states = await Replays().states(session, hub)
        assert len(states) == hub.game.version + 1 if hub.game else False
        live: dict[int | None, dict[int, Any]] = {}
        for seat, p in [*enumerate(seats), (None, watcher)]:
            live[seat] = {s["version"]: s["view"] for s in p.states}
        for seat, views in live.items():
            for version, view in views.items():
                assert hub.engine.view(states[version], seat) == view, (seat, version)
        assert sum(len(v) for v in live.values()) >= len(states)

        mid = len(states) // 2
        page = await watcher.http.get(f"/t/{slug}/replay?at={mid}")
        assert page.status_code == 200 and f"Move {mid} of {len(states) - 1}" in page.text
        page = await watcher.http.get(f"/t/{slug}/replay?at={mid}&seat=all")
        assert page.status_code == 200 and page.text.count('class="game-me"') == n
        page = await seats[0].http.get(f"/t/{slug}/replay?at=0&seat=0&lang=pl")
        assert page.status_code == 200 and "Ruch 0 z" in page.text
    finally:
        for p in [*seats, watcher]:
            await p.close()
