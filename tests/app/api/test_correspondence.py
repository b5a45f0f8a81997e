"""Correspondence play (issue 34, section 3) on SQLite and PostgreSQL over the real server:
the 1-7 day clocks chosen at creation, the dashboard's rows (seats, whose turn, the deadline)
and the count in the title, a vacation that pauses the clock up to the table's limit and is
shown to the others, bad input refused with nothing changed, and a restart that never costs
a slow clock any time. Time is the injected clock (`FakeClock`), never a sleep."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect

from app.clocks import DAY
from app.store.models import Room, User
from tests.clients import Player, table_of
from tests.conftest import FakeClock, Server, start_server
from tests.tables import app_of, post


async def correspondence(
    server: Server, clock: str = "slow", away_days: int = 0, start: bool = True
) -> tuple[Player, Player, str]:
    """Ola hosts a High Card table for two on `clock`, Ewa sits down; started (Ola acts)."""
    ola = await Player(server.url, server.ws_url).login("Ola")
    ewa = await Player(server.url, server.ws_url).login("Ewa")
    r = await ola.http.post(
        "/api/tables",
        json={"game": "high_card", "seats": 2, "clock": clock, "away_days": away_days},
    )
    r.raise_for_status()
    slug = r.json()["slug"]
    (await post(ewa, f"/api/tables/{slug}/join", seat=1)).raise_for_status()
    if start:
        (await post(ola, f"/api/tables/{slug}/start")).raise_for_status()
    return ola, ewa, slug


async def listed(player: Player) -> list[dict[str, Any]]:
    r = await player.http.get("/api/tables")
    r.raise_for_status()
    rows: list[dict[str, Any]] = r.json()
    return rows


async def table_push(server: Server, player: Player, slug: str) -> str:
    """The table page's first push over the HTML socket (what the browser shows)."""
    url = f"{server.ws_url}/ws/t/{slug}"
    async with connect(url, additional_headers={"Cookie": player.cookie}, open_timeout=5) as sock:
        raw = await asyncio.wait_for(sock.recv(), 5)
    return raw if isinstance(raw, str) else raw.decode()


def day_of(moment: float) -> str:
    """The UTC day of a server time, as the date field sends it."""
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


async def away(player: Player, until: float) -> int:
    """Say one is away until the day of `until` (browser in UTC); the response's status."""
    r = await player.http.post("/away", data={"until": day_of(until), "tz": "0"})
    return r.status_code


def midnight_after(moment: float) -> float:
    """The end of the UTC day of `moment`."""
    d = datetime.fromtimestamp(moment, UTC).date() + timedelta(days=1)
    return datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(("spec", "days"), [("slow", 1), ("slow2", 2), ("slow3", 3), ("slow7", 7)])
async def test_the_clock_chosen_at_creation_gives_its_days(
    clocked: Server, clock: FakeClock, spec: str, days: int
) -> None:
    """A table made with each correspondence clock: the first decision has that many days."""
    ola, ewa, slug = await correspondence(clocked, spec)
    try:
        hub = table_of(app_of(clocked), slug)
        assert hub.game is not None and hub.game.clock is not None
        assert hub.game.clock["deadlines"] == {"0": pytest.approx(clock() + days * DAY)}
        rows = await listed(ola)
        assert rows[0]["clock"] == spec and rows[0]["deadline"] == pytest.approx(
            clock() + days * DAY
        )
    finally:
        await ola.close()
        await ewa.close()


async def test_dashboard_rows_say_whose_turn_and_the_count_is_in_the_title(
    clocked: Server, clock: FakeClock
) -> None:
    """Ola's dashboard: her turn, both seats, her deadline; the lobby's title says (1). Ewa's:
    waiting for Ola with Ola's deadline, no count in her title."""
    ola, ewa, slug = await correspondence(clocked, "slow3")
    try:
        deadline = clock() + 3 * DAY
        mine, theirs = (await listed(ola))[0], (await listed(ewa))[0]
        assert mine["slug"] == theirs["slug"] == slug
        assert mine["your_turn"] and not theirs["your_turn"]
        assert [(p["name"], p["turn"], p["me"]) for p in mine["players"]] == [
            ("Ola", True, True),
            ("Ewa", False, False),
        ]
        assert theirs["turn_of"] == ["Ola"] and mine["turn_of"] == []
        assert mine["deadline"] == theirs["deadline"] == pytest.approx(deadline)
        page = (await ola.http.get("/")).text
        assert "<title>(1) Lobby · Stolik</title>" in page
        assert 'data-waiting="1"' in page and "your turn" in page
        assert "3 d " in page, "the time left in days"
        other = (await ewa.http.get("/")).text
        assert "<title>Lobby · Stolik</title>" in other and 'data-waiting="0"' in other
        assert "waiting for Ola" in other
    finally:
        await ola.close()
        await ewa.close()


@pytest.mark.parametrize(
    ("clock_id", "away_days", "code"),
    [("slow5", 0, "bad_clock"), ("slow", 5, "bad_away"), ("fast", 3, "bad_away")],
)
async def test_bad_clock_options_are_refused_and_nothing_is_made(
    clocked: Server, clock_id: str, away_days: int, code: str
) -> None:
    ola = await Player(clocked.url, clocked.ws_url).login("Ola")
    try:
        r = await ola.http.post(
            "/api/tables",
            json={"game": "high_card", "seats": 2, "clock": clock_id, "away_days": away_days},
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == code
        form = await ola.http.post(
            "/tables",
            data={"game": "high_card", "seats": "2", "clock": clock_id, "away_days": "x"},
        )
        assert form.status_code == 400
        async with app_of(clocked).state.sessions() as session:
            assert (await session.execute(select(func.count()).select_from(Room))).scalar() == 0
    finally:
        await ola.close()


async def test_away_pauses_the_clock_up_to_the_tables_limit(
    clocked: Server, clock: FakeClock
) -> None:
    """Ola goes away for longer than the host allows (3 days): her clock waits three days
    more, no longer; Ewa sees until when she is away, in the dashboard and at the table."""
    ola, ewa, slug = await correspondence(clocked, "slow", away_days=3)
    try:
        app = app_of(clocked)
        hub = table_of(app, slug)
        deadline = clock() + DAY
        assert await away(ola, clock() + 5 * DAY) == 303
        async with app.state.sessions() as session:
            user = (await session.execute(select(User).where(User.name == "Ola"))).scalar_one()
            assert user.away_since == pytest.approx(clock())
            assert user.away_until == pytest.approx(midnight_after(clock() + 5 * DAY))
        async with app.state.sessions() as session:
            room = (await session.execute(select(Room).where(Room.slug == slug))).scalar_one()
            assert room.clock == "slow" and room.away_days == 3
        counted = hub.clock_now()
        assert counted is not None
        assert counted["deadlines"]["0"] == pytest.approx(deadline + 3 * DAY)
        seen = (await listed(ewa))[0]
        assert seen["deadline"] == pytest.approx(deadline + 3 * DAY)
        assert seen["players"][0]["away_until"] == pytest.approx(user.away_until)
        await ewa.connect(slug)
        await ewa.wait_for(lambda p: bool(p.states))
        assert ewa.states[-1]["room"]["seats"][0]["clock"]["away_until"] == pytest.approx(
            user.away_until
        )
        assert "away until" in await table_push(clocked, ewa, slug)

        clock.t = deadline + 1
        assert await app.state.tables.tick() == 0, "paused: the day has passed while away"
        clock.t = deadline + 3 * DAY - 1
        assert await app.state.tables.tick() == 0
        clock.t = deadline + 3 * DAY + 1
        version = hub.game.version if hub.game else -1
        assert await app.state.tables.tick() == 1, "the host's limit is reached"
        assert hub.game is not None and hub.game.version == version + 1
    finally:
        await ola.close()
        await ewa.close()


async def test_back_early_only_the_time_away_counts(clocked: Server, clock: FakeClock) -> None:
    """Away for five days at a table that allows seven, back after one: one day of pause."""
    ola, ewa, slug = await correspondence(clocked, "slow2", away_days=7)
    try:
        hub = table_of(app_of(clocked), slug)
        deadline = clock() + 2 * DAY
        clock.advance(3600)
        assert await away(ola, clock() + 5 * DAY) == 303
        clock.advance(DAY)
        r = await ola.http.post("/away", data={"back": "1"})
        assert r.status_code == 303
        counted = hub.clock_now()
        assert counted is not None
        assert counted["deadlines"]["0"] == pytest.approx(deadline + DAY)
        assert "away until" not in await table_push(clocked, ewa, slug)
    finally:
        await ola.close()
        await ewa.close()


async def test_without_the_hosts_leave_a_vacation_pauses_nothing(
    clocked: Server, clock: FakeClock
) -> None:
    ola, ewa, slug = await correspondence(clocked, "slow")
    try:
        deadline = clock() + DAY
        assert await away(ola, clock() + 5 * DAY) == 303
        assert "away until" in await table_push(clocked, ewa, slug), "shown all the same"
        clock.t = deadline + 1
        assert await app_of(clocked).state.tables.tick() == 1
    finally:
        await ola.close()
        await ewa.close()


async def test_a_vacation_this_process_missed_is_read_before_the_time_runs_out(
    clocked: Server, clock: FakeClock
) -> None:
    """Ola's vacation written to the database without this process hearing of it (another
    process took it and its bus was down): the expiry reads it first and waits."""
    ola, ewa, slug = await correspondence(clocked, "slow", away_days=3)
    try:
        app = app_of(clocked)
        deadline = clock() + DAY
        async with app.state.sessions.begin() as session:
            user = (await session.execute(select(User).where(User.name == "Ola"))).scalar_one()
            user.away_since, user.away_until = clock(), clock() + 2 * DAY
        clock.t = deadline + 1
        assert await app.state.tables.tick() == 0
        assert table_of(app, slug).seats[0].away == pytest.approx((deadline - DAY, deadline + DAY))
        clock.t = deadline + 2 * DAY + 1
        assert await app.state.tables.tick() == 1
    finally:
        await ola.close()
        await ewa.close()


@pytest.mark.parametrize("until", ["", "someday", "PAST", "FAR"])
async def test_bad_vacation_days_are_refused_and_change_nothing(
    clocked: Server, clock: FakeClock, until: str
) -> None:
    ola = await Player(clocked.url, clocked.ws_url).login("Ola")
    try:
        day = {"PAST": day_of(clock() - DAY), "FAR": day_of(clock() + 90 * DAY)}.get(until, until)
        r = await ola.http.post("/away", data={"until": day, "tz": "0"})
        assert r.status_code == 400
        assert 'role="alert"' in r.text
        async with app_of(clocked).state.sessions() as session:
            user = (await session.execute(select(User).where(User.name == "Ola"))).scalar_one()
            assert user.away_since is None and user.away_until is None
    finally:
        await ola.close()


async def test_restart_never_costs_a_slow_clock_time(
    db_url: str, tmp_path: Path, clock: FakeClock
) -> None:
    """The server is down for two days during a 2-day decision: after the restart the
    deadline has moved by the downtime, and fires only then."""
    srv = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    ola, ewa, slug = await correspondence(srv, "slow2")
    game = table_of(app_of(srv), slug).game
    assert game is not None and game.clock is not None
    deadline = game.clock["deadlines"]["0"]
    version = game.version
    clock.advance(3600)
    await app_of(srv).state.tables.beat()
    await ola.close()
    await ewa.close()
    await srv.stop()

    clock.advance(2 * DAY)  # down for two days: the 2-day decision's time would be over
    srv = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    try:
        tables = app_of(srv).state.tables
        hub = table_of(app_of(srv), slug)
        assert hub.game is not None and hub.game.clock is not None
        shifted = hub.game.clock["deadlines"]["0"]
        assert shifted == pytest.approx(deadline + 2 * DAY)
        clock.t = deadline + 1
        assert await tables.tick() == 0
        clock.t = shifted + 1
        assert await tables.tick() == 1 and hub.game.version == version + 1
    finally:
        await srv.stop()


async def test_the_waiting_table_says_how_long_it_waits_for_someone_away(
    clocked: Server,
) -> None:
    ola, ewa, slug = await correspondence(clocked, "slow7", away_days=7, start=False)
    try:
        assert "paused for up to 7 days per move" in await table_push(clocked, ewa, slug)
        assert (await listed(ewa))[0]["players"][0]["name"] == "Ola"
    finally:
        await ola.close()
        await ewa.close()


async def test_play_again_keeps_the_clock_and_the_pause(clocked: Server) -> None:
    """Both keep their cards (the game ends); "Play again" makes a table with the same
    correspondence clock and the same pause for vacations."""
    ola, ewa, slug = await correspondence(clocked, "slow3", away_days=14)
    try:
        for seat, player in enumerate((ola, ewa)):
            await player.connect(slug)
            await player.wait_for(lambda p: bool(p.states))
            await player.act({"type": "keep"}, seat)
            await player.wait_for(lambda p, v=seat: p.version > v, 10)
        r = await post(ola, f"/api/tables/{slug}/rematch")
        r.raise_for_status()
        again = r.json()["slug"]
        async with app_of(clocked).state.sessions() as session:
            room = (await session.execute(select(Room).where(Room.slug == again))).scalar_one()
            assert room.clock == "slow3" and room.away_days == 14
    finally:
        await ola.close()
        await ewa.close()
