"""Stop the server mid-game on PostgreSQL, start a new one on the same database, finish.

The result must equal an uninterrupted replay of the same seed and moves.
"""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg

from engines import get_engine
from engines.core import Rng
from tests.app.table.test_full_game import play_to_end, seeded_move
from tests.clients import Player, make_table
from tests.conftest import start_server


async def play_some(seats: list[Player], rng: Rng, moves: int) -> list[tuple[int, str]]:
    """A fixed number of seeded moves."""
    return [await seeded_move(seats, seats, rng) for _ in range(moves)]


async def test_restart_mid_game_continues_where_it_was(pg_url: str, tmp_path: Path) -> None:
    """Half a game, restart, the rest: the stored result equals a straight replay."""
    first = await start_server(pg_url, tmp_path)
    seats, table = await make_table(first.url, first.ws_url, ["Ala", "Bartek", "Celina"])
    for p in seats:
        await p.connect(table["slug"])
        await p.wait_version(0)
    rng = Rng.from_seed(5)
    moves = await play_some(seats, rng, 15)
    view_before = seats[0].view
    cookies = [p.http.cookies.get("stolik") or "" for p in seats]
    for p in seats:
        await p.close()
    await first.stop()

    second = await start_server(pg_url, tmp_path)
    again = []
    for cookie in cookies:
        p = Player(second.url, second.ws_url)
        p.http.cookies.set("stolik", cookie)
        await p.connect(table["slug"])
        await p.wait_version(15)
        again.append(p)
    assert again[0].view == view_before
    moves += await play_to_end(again, [], rng)
    final_view = again[0].view
    for p in again:
        await p.close()
    await second.stop()

    conn = await asyncpg.connect(pg_url.replace("+asyncpg", ""))
    game = await conn.fetchrow("SELECT id, seed, version, snapshot, result FROM games")
    stored = await conn.fetch(
        "SELECT seat, action FROM moves WHERE game_id=$1 ORDER BY seq", game["id"]
    )
    await conn.close()
    assert game["version"] == len(moves) == len(stored)
    engine = get_engine("incan_gold")
    state = engine.setup(3, engine.parse_options({}), game["seed"]).state
    for seat, choice in moves:
        state = engine.apply(state, seat, engine.parse_action({"type": choice})).state
    assert engine.dump(state) == json.loads(game["snapshot"])
    outcome = engine.outcome(state)
    assert outcome is not None and json.loads(game["result"]) == outcome.to_json()
    assert [(r["seat"], json.loads(r["action"])["type"]) for r in stored] == moves
    assert final_view == engine.view(state, 0)
