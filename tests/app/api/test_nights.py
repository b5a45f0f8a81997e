"""Games nights over HTTP on SQLite and PostgreSQL: a night of three tables — the host's
first, a "Play again" that joins the night by itself, a next table with everyone carried
over — played by bots for the people (autopilot) and by a bot of its own, with the standings
after each, refusals that change nothing, the end and its podium."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.table import Table
from tests.conftest import Server
from tests.nights import bots_play_it, login, next_table, night_json, start_night
from tests.tables import app_of


def expected_points(ranks: dict[int, int]) -> dict[int, float]:
    """The documented rule, written out here for games without ties:
    10 × (n − place) / (n − 1)."""
    n = len(ranks)
    return {seat: 10 * (n - rank) / (n - 1) for seat, rank in ranks.items()}


async def test_a_night_of_three_tables(server: Server) -> None:
    """Three tables (two High Card games of three and one of four), a bot of the night in
    every game; standings after each, only from finished games; the end and the podium."""
    ala, bartek = await login(server, "Ala"), await login(server, "Bartek")
    spectator = httpx.AsyncClient(base_url=server.url, timeout=10)
    try:
        night = await start_night(ala)
        empty = await night_json(spectator, night)
        assert (empty["name"], empty["host"], empty["status"]) == ("Friday", "Ala", "open")
        assert empty["tables"] == [] and empty["standings"] == []

        # Table 1: Ala (seated by the night), Bartek joins, a bot of the night in seat 2.
        first, code = await next_table(ala, night, "high_card", 3)
        r = await bartek.http.post(f"/api/tables/{first}/join", params={"code": code})
        r.raise_for_status()
        r = await ala.http.post(f"/api/tables/{first}/bots", params={"seat": 2, "level": "easy"})
        r.raise_for_status()
        waiting = await night_json(bartek, night)
        assert [t["status"] for t in waiting["tables"]] == ["open"]
        assert {s["name"]: s["points"] for s in waiting["standings"]} == {
            "Ala": 0,
            "Bartek": 0,
            "Bot 3 (easy)": 0,
        }
        page = await bartek.http.get(f"/t/{first}")
        assert f'href="/n/{night}"' in page.text, "a night's table links to its night"
        hub1 = await bots_play_it(server, first, [ala, bartek])
        totals: dict[str, float] = {}
        names = {0: "Ala", 1: "Bartek", 2: "Bot 3 (easy)"}

        def add(hub: Table, names: dict[int, str]) -> None:
            assert hub.game is not None
            outcome = hub.game.engine.outcome(hub.game.state)
            assert outcome is not None
            for seat, pts in expected_points(dict(outcome.ranks)).items():
                totals[names[seat]] = totals.get(names[seat], 0) + pts

        add(hub1, names)
        after1 = await night_json(spectator, night)
        assert {s["name"]: s["points"] for s in after1["standings"]} == pytest_approx(totals)
        assert [s["played"] for s in after1["standings"]] == [1, 1, 1]

        # Table 2: Bartek's "Play again" (him and the bot); it joins the night by itself.
        r = await bartek.http.post(f"/api/tables/{first}/rematch")
        r.raise_for_status()
        second = r.json()
        r = await ala.http.post(
            f"/api/tables/{second['slug']}/join", params={"code": second["invite_code"], "seat": 0}
        )
        r.raise_for_status()
        joined = await night_json(ala, night)
        assert [t["slug"] for t in joined["tables"]] == [first, second["slug"]]
        hub2 = await bots_play_it(server, second["slug"], [bartek, ala])
        add(hub2, {s: i.name for s, i in hub2.seats.items()})
        after2 = await night_json(spectator, night)
        assert {s["name"]: s["points"] for s in after2["standings"]} == pytest_approx(totals)

        # Table 3: the host's next table, four seats: Ala, Bartek and the bot carried over in
        # their seats, a second bot added at the table.
        third, _ = await next_table(ala, night, "high_card", 4)
        hub3 = app_of(server).state.tables.held(third)
        assert hub3 is not None
        carried = {s: (i.name if not i.is_bot else i.bot_level) for s, i in hub3.seats.items()}
        assert sorted(carried.values()) == ["Ala", "Bartek", "easy"]
        r = await ala.http.post(f"/api/tables/{third}/bots", params={"seat": 3, "level": "normal"})
        r.raise_for_status()
        hub3 = await bots_play_it(server, third, [ala, bartek], finish=False)
        # While it is played, nothing of it counts yet (the new bot is there, at 0).
        playing = {s["name"]: s for s in (await night_json(spectator, night))["standings"]}
        assert playing.pop("Bot 4 (normal)")["points"] == 0
        assert {n: s["points"] for n, s in playing.items()} == pytest_approx(totals)
        hub3 = await bots_play_it(server, third, [ala, bartek])
        add(hub3, {s: i.name for s, i in hub3.seats.items()})
        final = await night_json(bartek, night)
        assert [t["status"] for t in final["tables"]] == ["finished"] * 3
        standings = {s["name"]: s for s in final["standings"]}
        assert {n: s["points"] for n, s in standings.items()} == pytest_approx(totals)
        assert standings["Bot 3 (easy)"]["played"] == 3
        assert standings["Bot 4 (normal)"]["played"] == 1
        # A game's points add up to 5 × its players: 15 + 15 + 20.
        assert sum(s["points"] for s in final["standings"]) == pytest.approx(50, abs=0.05)

        # Only the host ends the night; then the podium is final and nothing joins it.
        r = await bartek.http.post(f"/n/{night}/end")
        assert r.status_code == 403
        assert (await night_json(spectator, night))["status"] == "open"
        r = await ala.http.post(f"/n/{night}/end")
        assert r.status_code == 303
        over = await night_json(spectator, night)
        assert over["status"] == "finished"
        ordered = sorted(final["standings"], key=lambda s: (-s["points"], -s["wins"]))
        assert over["podium"][0] == [s["name"] for s in ordered if s["place"] == 1], (
            "the podium's first step is the standings' first place"
        )
        assert over["podium"] == [
            [s["name"] for s in final["standings"] if s["place"] == place] for place in (1, 2, 3)
        ]
        r = await ala.http.post(f"/n/{night}/tables", data={"game": "high_card", "seats": "3"})
        assert r.status_code == 409 and "over" in r.text
        r = await ala.http.post(f"/api/tables/{third}/rematch")
        r.raise_for_status()
        assert len((await night_json(spectator, night))["tables"]) == 3, "the night is over"

        page = await spectator.get(f"/n/{night}")
        assert page.status_code == 200
        assert "Podium" in page.text and "Final standings" in page.text
        assert "hx-trigger" not in page.text, "a finished night's page stops polling"
        polish = await spectator.get(f"/n/{night}", headers={"Accept-Language": "pl"})
        assert "Podium" in polish.text and "Klasyfikacja końcowa" in polish.text
    finally:
        await spectator.aclose()
        for p in (ala, bartek):
            await p.close()


def pytest_approx(values: dict[str, float]) -> Any:
    """`values` with each number compared to the standings' two decimals."""
    return pytest.approx({k: round(v, 2) for k, v in values.items()}, abs=0.011)


async def test_refusals_change_nothing(server: Server) -> None:
    """Only the host adds tables; an unknown game, seats the game does not allow, or more
    people than seats are refused with a clear message and add nothing; an unknown night is
    a 404."""
    ala, bartek, celina = [await login(server, n) for n in ("Ala", "Bartek", "Celina")]
    try:
        night = await start_night(ala)
        first, code = await next_table(ala, night, "high_card", 3)
        for p in (bartek, celina):
            r = await p.http.post(f"/api/tables/{first}/join", params={"code": code})
            r.raise_for_status()
        for who, form, status, words in [
            (bartek, {"game": "high_card", "seats": "3"}, 403, "Only the host"),
            (ala, {"game": "no_such_game", "seats": "3"}, 400, "no playable game"),
            (ala, {"game": "high_card", "seats": "9"}, 400, "2 to 4 players"),
            (ala, {"game": "high_card", "seats": "x"}, 400, "2 to 4 players"),
            (ala, {"game": "high_card", "seats": "2"}, 409, "People at the night: 3."),
        ]:
            r = await who.http.post(f"/n/{night}/tables", data=form)
            assert r.status_code == status, (form, r.status_code)
            assert words in r.text
        assert len((await night_json(ala, night))["tables"]) == 1, "nothing was added"
        r = await ala.http.post("/nights", data={"name": "   "})
        assert r.status_code == 422 and "Give the night a name" in r.text
        r = await ala.http.get("/n/nope")
        assert r.status_code == 404
        r = await ala.http.get("/api/nights/nope")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_night"
    finally:
        for p in (ala, bartek, celina):
            await p.close()
