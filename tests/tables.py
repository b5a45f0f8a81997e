"""Helpers for tests of tables that never get stuck: bots in seats, a person playing until the
end over the real socket, and reading the stored game straight from the database."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from sqlalchemy import func, select

from app.presentation.messages import table_info
from app.store import tables
from app.store.models import Game, Move, Room
from app.table import Table
from engines import ENGINES, get_engine, is_shipped
from tests.clients import Player, table_of
from tests.conftest import Server


def every_game() -> list[str]:
    """Every registered game, in the lobby's order: the shipped ones and High Card, the game of
    the tests (tests/high_card). Suites parametrized by it run a newly registered game unasked."""
    return [engine.spec.id for engine in ENGINES]


def shipped_games() -> list[str]:
    """The games the server ships (not the tests' own): for the browser suites that check each
    shipped screen at length; High Card has its own browser game (tests/browser)."""
    return [game for game in every_game() if is_shipped(game)]


def players(game: str) -> int:
    """The fewest players `game` allows (keeps whole games short), from its spec."""
    return get_engine(game).spec.min_players


def app_of(server: Server) -> Any:
    """The in-process app behind a test server."""
    return server.server.config.app


async def assert_kept_as_stored(server: Server, slug: str) -> Table:
    """The live hub of a room this process just created holds what the database holds: the
    same seats and room facts as a hub loaded afresh from the database (as `Tables.get` would
    after an eviction or on another process), for every seat and a spectator."""
    app = app_of(server)
    hubs = app.state.tables
    kept = table_of(app, slug)
    async with hubs.sessions() as session:
        room = await tables.get_table(session, slug)
        assert room is not None
        loaded = Table(hubs.sessions, room, hubs.runtime)
        await loaded.load(session)
    assert kept.seats == loaded.seats
    assert (kept.game, loaded.game) == (None, None)
    assert list(kept.chat.lines) == list(loaded.chat.lines)

    def stored_facts(hub: Table, audience: int | None) -> dict[str, Any]:
        # Not stored, so not compared: the time now, and since when a seat has been offline
        # (each process's own presence).
        info = {k: v for k, v in table_info(hub.snapshot(), audience).items() if k != "now"}
        info["seats"] = [{k: v for k, v in s.items() if k != "offline_for"} for s in info["seats"]]
        return info

    for audience in [*kept.seats, None]:
        kept_info, loaded_info = stored_facts(kept, audience), stored_facts(loaded, audience)
        assert kept_info == loaded_info, {
            k: (v, loaded_info.get(k)) for k, v in kept_info.items() if loaded_info.get(k) != v
        }
    return kept


async def seat_bots(host: Player, slug: str, seats: list[int], level: str = "easy") -> None:
    """The host puts a bot into each of `seats`."""
    for seat in seats:
        r = await host.http.post(f"/api/tables/{slug}/bots", params={"seat": seat, "level": level})
        r.raise_for_status()
        assert r.json() == {"seat": seat}


async def bot_table(
    server: Server,
    game: str,
    *,
    clock: str = "none",
    humans: int = 1,
    start: bool = True,
    rated: bool = False,
    options: dict[str, Any] | None = None,
    seats: int | None = None,
) -> tuple[list[Player], dict[str, Any]]:
    """A `game` table of `humans` people (the first hosts) and bots in every other seat."""
    n = seats or players(game)
    people = [await Player(server.url, server.ws_url).login(f"Person {i}") for i in range(humans)]
    r = await people[0].http.post(
        "/api/tables",
        json={
            "game": game,
            "seats": n,
            "clock": clock,
            "bot_level": "easy",
            "rated": rated,
            "options": options or {},
        },
    )
    r.raise_for_status()
    table: dict[str, Any] = r.json()
    for i, p in enumerate(people[1:], start=1):
        r = await p.http.post(f"/api/tables/{table['slug']}/join", params={"seat": i})
        r.raise_for_status()
    await seat_bots(people[0], table["slug"], list(range(humans, n)))
    if start:
        r = await people[0].http.post(f"/api/tables/{table['slug']}/start")
        r.raise_for_status()
    return people, table


@asynccontextmanager
async def bot_game(
    server: Server, game: str, **table: Any
) -> AsyncIterator[tuple[list[Player], str]]:
    """A `bot_table` (`table`: its keywords): yields its people, each connected, and the
    slug; the people are closed at the end."""
    people, made = await bot_table(server, game, **table)
    try:
        for person in people:
            await person.connect(made["slug"])
        yield people, made["slug"]
    finally:
        for person in people:
            await person.close()


async def random_move(
    server: Server, slug: str, me: Player, version: int, rng: random.Random
) -> None:
    """Seat 0 (`me`), alone to act at `version`, sends a legal action picked by `rng` and
    waits for the next state."""
    live = table_of(app_of(server), slug).game
    assert live is not None and live.version == version
    action = rng.choice(live.engine.legal_actions(live.state, 0))
    await me.act(live.engine.dump_action(action), version)
    await me.wait_for(lambda p, v=version: p.version > v, timeout=30)


def room_of(player: Player) -> dict[str, Any]:
    """The room facts of the latest state message a client received."""
    room: dict[str, Any] = player.states[-1]["room"]
    return room


async def my_turn_alone(player: Player) -> None:
    """Wait until only seat 0 (the person) must act, or the game is over."""
    await player.wait_for(
        lambda p: (
            bool(p.states) and (room_of(p)["status"] == "finished" or room_of(p)["to_act"] == [0])
        ),
        timeout=60,
    )


async def play_until_over(
    server: Server, slug: str, player: Player, seat: int, *, seed: int = 0, limit: int = 3000
) -> int:
    """The person in `seat` plays (seeded random legal actions, sent over the socket) whenever
    it is their turn, while the bots play theirs, until the game ends. Returns their moves."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(limit):
        await player.wait_for(
            lambda p: (
                bool(p.states)
                and (room_of(p)["status"] == "finished" or seat in room_of(p)["to_act"])
            ),
            timeout=60,
        )
        msg = player.states[-1]
        if msg["room"]["status"] == "finished":
            return moves
        game = table_of(app_of(server), slug).game
        assert game is not None
        if game.version != msg["version"]:
            await player.wait_for(lambda p, v=msg["version"]: p.version > v, timeout=60)
            continue
        actions = game.engine.legal_actions(game.state, seat)
        if not actions:
            # This helper reads the server's live state while the socket's frames are in
            # flight, so the two can disagree for a moment (seen once in CI on PostgreSQL,
            # never reproduced): wait for the next version rather than fail the run.
            await player.wait_for(lambda p, v=msg["version"]: p.version > v, timeout=60)
            continue
        action = game.engine.dump_action(rng.choice(actions))
        errors = len(player.errors)
        await player.act(action, msg["version"])
        await player.wait_for(
            lambda p, v=msg["version"], e=errors: p.version > v or len(p.errors) > e, timeout=60
        )
        moves += 1
    raise AssertionError("the game did not end")


async def stored_game(server: Server, slug: str) -> tuple[Room, Game, int]:
    """The room, its game row and the number of stored moves, read from the database."""
    app = app_of(server)
    async with app.state.sessions() as session:
        room = (await session.execute(select(Room).where(Room.slug == slug))).scalar_one()
        game = (await session.execute(select(Game).where(Game.room_id == room.id))).scalar_one()
        count = (
            await session.execute(select(func.count()).where(Move.game_id == game.id))
        ).scalar_one()
    return room, game, int(count)


def replayed_matches(game: Game, moves: list[Move]) -> bool:
    """`setup(seed)` plus the stored actions gives the stored snapshot."""
    engine = get_engine(game.engine)
    state = engine.setup(game.num_players, engine.parse_options(game.options), game.seed).state
    for move in moves:
        state = engine.apply(state, move.seat, engine.parse_action(move.action)).state
    return bool(engine.dump(state) == game.snapshot)


async def post(player: Player, path: str, **params: Any) -> httpx.Response:
    """POST to the API with query parameters."""
    return await player.http.post(path, params=params)
