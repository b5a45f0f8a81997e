"""Tables that never get stuck (issue 11), on SQLite and PostgreSQL over real websockets:
bots in seats for every game, autopilot, resign, the host's take-over of a disconnected seat,
turn clocks (expiry, three timeouts, a restart, two processes racing) and "Play again"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.presentation import log as game_log
from app.store.models import Move
from tests.clients import Player, table_of
from tests.conftest import FakeClock, Server, start_server
from tests.tables import (
    app_of,
    assert_kept_as_stored,
    bot_game,
    bot_table,
    every_game,
    play_until_over,
    players,
    post,
    replayed_matches,
    room_of,
    stored_game,
)


async def close_all(*players: Player) -> None:
    for p in players:
        await p.close()


@pytest.mark.parametrize("game", every_game())
async def test_one_person_and_bots_finish_every_game(server: Server, game: str) -> None:
    """A person plays over the socket; bots fill every other seat and the game ends."""
    async with bot_game(server, game) as ((me,), slug):
        seats = room_of_first(await first_state(me))["seats"]
        assert [s["bot"] for s in seats] == [None] + ["easy"] * (players(game) - 1)
        assert all(s["online"] for s in seats[1:]), "bots are always present"
        assert seats[1]["name"] == "Bot 2 (easy)"
        moves = await play_until_over(server, slug, me, 0, seed=3)
        assert moves > 0
        room, stored, count = await stored_game(server, slug)
        assert room.status == "finished" and stored.status == "finished"
        assert stored.result is not None and count == stored.version
        async with app_of(server).state.sessions() as session:
            rows = (
                (await session.execute(select(Move).where(Move.game_id == stored.id)))
                .scalars()
                .all()
            )
        assert {m.seat for m in rows} == set(range(players(game))), "every seat moved"
        assert replayed_matches(stored, sorted(rows, key=lambda m: m.seq))


async def first_state(player: Player) -> dict[str, Any]:
    await player.wait_for(lambda p: bool(p.states))
    return player.states[-1]


def room_of_first(msg: dict[str, Any]) -> dict[str, Any]:
    room: dict[str, Any] = msg["room"]
    return room


async def test_bots_only_before_the_start_and_only_by_the_host(server: Server) -> None:
    """Bots take free seats, leave them again, and refuse everything else clearly."""
    (host, guest), table = await bot_table(server, "incan_gold", humans=2, start=False)
    slug = table["slug"]
    try:
        r = await post(guest, f"/api/tables/{slug}/bots", seat=2)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
        r = await post(host, f"/api/tables/{slug}/bots")
        assert r.json()["error"]["code"] == "table_full"
        r = await host.http.delete(f"/api/tables/{slug}/bots/1")
        assert r.json()["error"]["code"] == "not_a_bot"
        r = await host.http.delete(f"/api/tables/{slug}/bots/2")
        assert r.status_code == 200
        r = await post(host, f"/api/tables/{slug}/bots", seat=0)
        assert r.json()["error"]["code"] == "seat_taken"
        r = await post(host, f"/api/tables/{slug}/bots", level="genius")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_level"
        info = (await host.http.get(f"/api/tables/{slug}")).json()
        assert [s["bot"] for s in info["seats"]] == [None, None, None]
        r = await post(host, f"/api/tables/{slug}/bots", level="hard")
        assert r.json() == {"seat": 2}
        lobby = (await guest.http.get("/api/tables")).json()
        assert lobby[0]["slug"] == slug and lobby[0]["bots"] == 1 and lobby[0]["mine"]
        assert (await post(host, f"/api/tables/{slug}/start")).status_code == 200
        r = await post(host, f"/api/tables/{slug}/bots")
        assert r.json()["error"]["code"] == "already_started"
    finally:
        await close_all(host, guest)


async def test_autopilot_plays_for_you_until_you_are_back(server: Server) -> None:
    """ "Let a bot play for me" finishes turns without the person; "I'm back" stops it."""
    async with bot_game(server, "karmaka", humans=2) as ((me, other), slug):
        hub = table_of(app_of(server), slug)
        assert (await post(me, f"/api/tables/{slug}/autopilot", on=True)).status_code == 200
        assert hub.seats[0].control == "autopilot"
        # Only seat 1 (a person) now stops the game; play it and watch seat 0 being played.
        await other.wait_for(lambda p: bool(p.states) and 1 in room_of(p)["to_act"], 30)
        game = hub.game
        assert game is not None
        moves_of_0 = await seat_moves(server, slug, 0)
        for _ in range(3):
            await other.wait_for(
                lambda p: room_of(p)["status"] == "finished" or 1 in room_of(p)["to_act"], 30
            )
            if room_of(other)["status"] == "finished":
                break
            v = other.version
            action = game.engine.legal_actions(hub.game.state, 1)[0]  # type: ignore[union-attr]
            await other.act(game.engine.dump_action(action), v)
            await other.wait_for(lambda p, v=v: p.version > v, 30)
        await hub.bots.settle()
        assert await seat_moves(server, slug, 0) > moves_of_0, "the bot played seat 0"
        assert any(
            "lets a bot play for them" in line for line in game_log.lines_for(hub.snapshot(), None)
        )
        assert (await post(me, f"/api/tables/{slug}/autopilot", on=False)).status_code == 200
        assert hub.seats[0].control is None
        assert any("is back" in line for line in game_log.lines_for(hub.snapshot(), 1))
        await hub.bots.settle()
        assert not hub.bots.thinking, "no bot thinks for a person who is back"


async def seat_moves(server: Server, slug: str, seat: int) -> int:
    _, game, _ = await stored_game(server, slug)
    async with app_of(server).state.sessions() as session:
        rows = await session.execute(select(Move).where(Move.game_id == game.id, Move.seat == seat))
        return len(rows.scalars().all())


async def test_resign_lets_a_bot_finish_and_marks_the_seat(server: Server) -> None:
    """A resigned seat is played to the end by a bot; its person can no longer act."""
    async with bot_game(server, "incan_gold") as ((me,), slug):
        hub = table_of(app_of(server), slug)
        await first_state(me)
        assert (await post(me, f"/api/tables/{slug}/resign")).status_code == 200
        r = await post(me, f"/api/tables/{slug}/resign")
        assert r.json()["error"]["code"] == "resigned"
        r = await post(me, f"/api/tables/{slug}/autopilot", on=False)
        assert r.json()["error"]["code"] == "resigned"
        await me.wait_for(lambda p: room_of(p)["status"] == "finished", 120)
        assert room_of(me)["seats"][0]["control"] == "resigned"
        errors = len(me.errors)
        await me.act({"type": "torch"})
        err = await me.wait_error(errors + 1)
        assert err["code"] in ("resigned", "game_over")
        assert any(
            "resigned; a bot finishes" in line for line in game_log.lines_for(hub.snapshot(), None)
        )


async def test_host_hands_a_disconnected_seat_to_a_bot(clocked: Server, clock: FakeClock) -> None:
    """Only after 60 s without a connection; the player takes the seat back by returning."""
    async with bot_game(clocked, "incan_gold", humans=2) as ((host, gone), slug):
        hub = table_of(app_of(clocked), slug)
        await gone.wait_for(lambda p: bool(p.states))
        r = await post(host, f"/api/tables/{slug}/handover", seat=1)
        assert r.json()["error"]["code"] == "still_connected"
        assert gone.ws is not None
        await gone.ws.close()
        await host.wait_for(lambda p: "presence" in p.frames[-1] or True)
        for _ in range(50):
            if 1 not in hub.presence.online_seats():
                break
            await asyncio.sleep(0.02)
        clock.advance(30)
        r = await post(host, f"/api/tables/{slug}/handover", seat=1)
        assert r.json()["error"]["code"] == "still_connected"
        assert "another 30 s" in r.json()["error"]["message"]
        r = await post(gone, f"/api/tables/{slug}/handover", seat=0)
        assert r.status_code == 403
        clock.advance(31)
        info = (await host.http.get(f"/api/tables/{slug}")).json()
        assert info["seats"][1]["offline_for"] == pytest.approx(61)
        r = await post(host, f"/api/tables/{slug}/handover", seat=1)
        assert r.status_code == 200, r.text
        assert hub.seats[1].control == "away"
        await hub.bots.settle()
        assert 1 not in hub.game.engine.to_act(hub.game.state) or hub.game.over  # type: ignore[union-attr]
        # The player comes back: the seat is theirs again.
        back = Player(clocked.url, clocked.ws_url)
        back.http.cookies = gone.http.cookies
        await back.connect(slug)
        await back.wait_for(lambda p: bool(p.states) and room_of(p)["seats"][1]["control"] is None)
        assert any("is back" in line for line in game_log.lines_for(hub.snapshot(), None))
        await back.close()


async def test_clock_expiry_becomes_a_bot_move_and_three_mean_autopilot(
    clocked: Server, clock: FakeClock
) -> None:
    """Out of time: a bot decides for the seat, the log says so; after three in a row the
    seat stays with the bot until its player is back."""
    async with bot_game(clocked, "karmaka", humans=2, clock="fast") as ((me, other), slug):
        app = app_of(clocked)
        hub = table_of(app, slug)
        game = hub.game
        assert game is not None and game.clock is not None
        msg = await first_state(me)
        first = min(game.engine.to_act(game.state))
        mine = msg["room"]["seats"][first]["clock"]
        assert mine["deadline"] == pytest.approx(clock() + 30 + 180)
        assert await app.state.tables.tick() == 0, "nothing fires before the deadline"
        timeouts = 0
        while timeouts < 3:
            seat = min(game.engine.to_act(game.state))
            deadline = game.clock["deadlines"][str(seat)]
            clock.t = deadline + 0.5
            version = game.version
            assert await app.state.tables.tick() == 1
            assert game.version == version + 1
            timeouts += 1
            if timeouts < 3:
                assert hub.seats[seat].control is None
                # The other person moves in time, and the timed-out seat must act again.
                while not game.over and seat not in game.engine.to_act(game.state):
                    s = min(game.engine.to_act(game.state))
                    clock.advance(1)
                    action = game.engine.legal_actions(game.state, s)[0]
                    player = me if s == 0 else other
                    v = game.version
                    await player.act(game.engine.dump_action(action), v)
                    await player.wait_for(lambda p, v=v: p.version > v, 10)
            assert not game.over
        assert game.clock["banks"][str(seat)] == 0
        assert hub.seats[seat].control == "away"
        log = game_log.lines_for(hub.snapshot(), None)
        assert sum("ran out of time; a bot chose" in line for line in log) == 3
        assert any("3 times in a row" in line for line in log)
        player = me if seat == 0 else other
        assert (await post(player, f"/api/tables/{slug}/autopilot", on=False)).status_code == 200
        assert hub.seats[seat].control is None
        assert game.clock["timeouts"][str(seat)] == 0


async def test_restart_keeps_deadlines_and_forgives_downtime(
    db_url: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Deadlines are stored: after a restart they still fire, moved by the server's downtime."""
    srv = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    (me, other), table = await bot_table(srv, "karmaka", humans=2, clock="fast")
    slug = table["slug"]
    game = table_of(app_of(srv), slug).game
    assert game is not None and game.clock is not None
    seat = min(game.engine.to_act(game.state))
    deadline = game.clock["deadlines"][str(seat)]
    version = game.version
    clock.advance(100)
    await app_of(srv).state.tables.beat()
    await close_all(me, other)
    await srv.stop()

    clock.advance(1000)  # the server is down for 1000 s
    srv = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    try:
        hubs = app_of(srv).state.tables
        hub = table_of(app_of(srv), slug)  # loaded at start: a game in progress
        assert hub.game is not None and hub.game.version == version
        assert hub.game.clock is not None
        shifted = hub.game.clock["deadlines"][str(seat)]
        assert shifted == pytest.approx(deadline + 1000)
        clock.t = deadline + 1  # the old deadline has passed, but only by downtime
        assert await hubs.tick() == 0
        clock.t = shifted + 1
        assert await hubs.tick() == 1
        assert hub.game.version == version + 1
    finally:
        await srv.stop()


async def test_two_processes_racing_an_expiry_make_one_move(
    db_url: str, tmp_path: Path, clock: FakeClock
) -> None:
    """Two servers on one database both see the deadline pass; one move is stored, and the
    process that lost the race reloads the winner's state."""
    one = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    two = await start_server(db_url, tmp_path, now=clock, clock_tick=3600)
    try:
        (me, other), table = await bot_table(one, "karmaka", humans=2, clock="fast")
        slug = table["slug"]
        hub1 = table_of(app_of(one), slug)
        hub2 = await app_of(two).state.tables.get(slug)
        assert hub1.game is not None and hub2 is not None and hub2.game is not None
        version = hub1.game.version
        assert hub2.game.version == version
        clock.advance(30 + 180 + 1)
        fired = await asyncio.gather(
            app_of(one).state.tables.tick(), app_of(two).state.tables.tick()
        )
        assert sum(fired) == 1
        _, stored, count = await stored_game(one, slug)
        assert stored.version == version + 1 and count == version + 1
        assert hub1.game.version == hub2.game.version == version + 1
        assert app_of(one).state.tables is not app_of(two).state.tables
        assert hub1.engine.dump(hub1.game.state) == hub2.engine.dump(hub2.game.state)
        await close_all(me, other)
    finally:
        await one.stop()
        await two.stop()


async def test_play_again_makes_one_table_with_the_same_seats(server: Server) -> None:
    """After the end, "Play again" creates the rematch (same game, options, clock, bots in
    their seats); a second press, by anyone, leads to the same table; others sit in one click."""
    (host, friend), table = await bot_table(server, "incan_gold", humans=2, clock="slow")
    slug = table["slug"]
    hub = table_of(app_of(server), slug)
    try:
        r = await post(friend, f"/api/tables/{slug}/rematch")
        assert r.json()["error"]["code"] == "not_finished"
        for p in (host, friend):
            assert (await post(p, f"/api/tables/{slug}/autopilot", on=True)).status_code == 200
        await host.connect(slug)
        await host.wait_for(lambda p: bool(p.states) and room_of(p)["status"] == "finished", 120)
        stranger = await Player(server.url, server.ws_url).login("Stranger")
        r = await post(stranger, f"/api/tables/{slug}/rematch")
        assert r.status_code == 403
        r = await post(friend, f"/api/tables/{slug}/rematch")
        assert r.status_code == 200
        new = r.json()
        # Kept in memory as written (host in their old seat, the bot in its own), not re-read.
        await assert_kept_as_stored(server, new["slug"])
        again = await post(host, f"/api/tables/{slug}/rematch")
        assert again.json()["slug"] == new["slug"]
        info = (await friend.http.get(f"/api/tables/{new['slug']}")).json()
        assert info["game"] == "incan_gold" and info["status"] == "open"
        assert info["num_seats"] == 3 and info["clock"] == "slow"
        assert [s["bot"] for s in info["seats"]] == [None, None, "easy"]
        assert info["seats"][1]["name"] == "Person 1", "the asker sits in their own seat"
        assert info["host_seat"] == 1
        await host.wait_for(lambda p: room_of(p)["rematch_join"] is not None)
        join = room_of(host)["rematch_join"]
        assert join == f"/t/{new['slug']}/sit?seat=0"
        r = await host.http.post(join)
        assert r.status_code == 303 and r.headers["location"] == f"/t/{new['slug']}"
        info = (await host.http.get(f"/api/tables/{new['slug']}")).json()
        assert info["seats"][0]["name"] == "Person 0"
        assert hub.rematch_slug == new["slug"]
        await stranger.close()
    finally:
        await close_all(host, friend)


async def test_lobby_lists_your_tables_first_and_hides_finished_and_closed(
    server: Server,
) -> None:
    """Your running game says it is your turn; finished and closed tables leave the list."""
    (me,), table = await bot_table(server, "karmaka")
    slug = table["slug"]
    visitor = await Player(server.url, server.ws_url).login("Visitor")
    try:
        r = await me.http.post("/api/tables", json={"game": "incan_gold", "seats": 3})
        closed = r.json()["slug"]
        assert (await post(me, f"/api/tables/{closed}/close")).status_code == 200
        hub = table_of(app_of(server), slug)
        await hub.bots.settle()
        rows = (await me.http.get("/api/tables")).json()
        assert rows[0]["slug"] == slug and rows[0]["mine"]
        game = hub.game
        assert game is not None
        assert rows[0]["your_turn"] == (0 in game.engine.to_act(game.state))
        assert closed not in [row["slug"] for row in rows]
        page = await me.http.get("/")
        assert "Your tables" in page.text
        assert ("Play" if rows[0]["your_turn"] else "Resume") in page.text
        assert closed not in [row["slug"] for row in (await visitor.http.get("/api/tables")).json()]
        assert (await post(me, f"/api/tables/{slug}/resign")).status_code == 200
        await me.connect(slug)
        await me.wait_for(lambda p: bool(p.states) and room_of(p)["status"] == "finished", 120)
        assert slug not in [row["slug"] for row in (await visitor.http.get("/api/tables")).json()]
        assert (await visitor.http.get(f"/t/{slug}")).status_code == 200, "still reachable"
    finally:
        await close_all(me, visitor)
