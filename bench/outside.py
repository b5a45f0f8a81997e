"""The arena with an outside bot (docs/bot-api.md): a program with a bot token plays on a
running server against the built-in levels.

    python -m bench.arena --outside http://localhost:8000 stolik_bot_… \\
        --game karmaka --seats outside,normal,normal --games 20

For each game the arena, as a guest, opens a table that lets outside bots sit, seats the
built-in levels, starts the bot program for the free seat (`--bot-cmd`, by default
`examples/bot.py`, given the URL, the token and `--table=SLUG`; `--bot-cmd none` waits for a
bot that looks for tables by itself), starts the game and lets a bot of the table's level play
its own seat. The host always sits in seat 0, so seat 0 is a built-in level; the outside bot's
seat rotates over the others. The tally is `bench.arena`'s (win share, fair share, places).
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench.arena import tally

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BOT = f"{shlex.quote(sys.executable)} {ROOT / 'examples' / 'bot.py'}"
OUTSIDE = "outside"


def seating(seats: list[str], game_no: int) -> list[str]:
    """The kinds by seat for game `game_no`: the outside bot's seat rotates over seats 1..n-1
    (seat 0 is the host's, played by a built-in level)."""
    levels = [k for k in seats if k != OUTSIDE]
    n = len(seats)
    spot = 1 + game_no % (n - 1)
    return [*levels[:spot], OUTSIDE, *levels[spot:]]


async def _wait(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it returns something true; a TimeoutError naming `what` after."""
    for _ in range(int(seconds * 10)):
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise TimeoutError(f"waited {seconds:.0f} s for {what}")


async def play_one(
    host: httpx.AsyncClient,
    token: str,
    game: str,
    kinds: list[str],
    options: dict[str, Any],
    bot_cmd: str | None,
    timeout: float,
) -> dict[str, Any]:
    """One game on the server, hosted by the guest `host`: the result per seat, as
    `bench.arena.play_one` gives it."""
    url = str(host.base_url).rstrip("/")
    auth = {"Authorization": f"Bearer {token}"}
    me = (await host.get("/api/bot/account", headers=auth)).raise_for_status().json()
    spot = kinds.index(OUTSIDE)
    body = {
        "game": game,
        "seats": len(kinds),
        "options": options,
        "outside_bots": True,
        "bot_level": kinds[0],
    }
    slug = (await host.post("/api/tables", json=body)).raise_for_status().json()["slug"]
    for seat, kind in enumerate(kinds):
        if seat not in (0, spot):
            r = await host.post(f"/api/tables/{slug}/bots", params={"level": kind, "seat": seat})
            r.raise_for_status()
    bot = None
    if bot_cmd:
        argv = [*shlex.split(bot_cmd), url, token, f"--table={slug}"]  # a slug may start "-"
        bot = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
    try:

        async def seated() -> bool:
            if bot is not None and bot.returncode is not None:
                assert bot.stderr is not None
                failed = (await bot.stderr.read()).decode()[-2000:]
                raise RuntimeError(f"the bot program ended before it sat down: {failed}")
            facts = (await host.get(f"/api/tables/{slug}")).json()
            return bool(facts["seats"][spot]["name"])

        await _wait(seated, 60, "the outside bot to sit")
        (await host.post(f"/api/tables/{slug}/start")).raise_for_status()
        (await host.post(f"/api/tables/{slug}/autopilot", params={"on": True})).raise_for_status()

        async def finished() -> dict[str, Any] | None:
            facts: dict[str, Any] = (await host.get(f"/api/tables/{slug}")).json()
            return facts if facts["status"] == "finished" else None

        facts = await _wait(finished, timeout, "the end of the game")
    finally:
        if bot is not None and bot.returncode is None:
            try:
                await asyncio.wait_for(bot.wait(), 10)
            except TimeoutError:
                bot.kill()
                await bot.wait()
    seat_of_bot = next(s["seat"] for s in facts["seats"] if s["name"] == me["name"])
    assert seat_of_bot == spot, (seat_of_bot, spot)
    outcome = await _outcome(url, slug)
    return {
        "kinds": kinds,
        "finished": True,
        "winners": outcome["winners"],
        "scores": {int(k): v for k, v in outcome["scores"].items()},
        "ranks": {int(k): v for k, v in outcome["ranks"].items()},
        "times": {},
    }


async def _outcome(url: str, slug: str) -> dict[str, Any]:
    """The finished game's outcome, as a spectator's state carries it."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/t/{slug}?format=json"
    async with connect(ws_url) as ws:
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state":
                outcome: dict[str, Any] = msg["view"]["header"]["outcome"]
                return outcome


def run(
    url: str,
    token: str,
    game: str,
    seats: list[str],
    games: int,
    options: dict[str, Any],
    bot_cmd: str | None,
    timeout: float = 600,
) -> dict[str, Any]:
    """Play `games` games one after another; the tallies `bench.arena.report` prints."""
    return asyncio.run(play_all(url, token, game, seats, games, options, bot_cmd, timeout))


async def play_all(
    url: str,
    token: str,
    game: str,
    seats: list[str],
    games: int,
    options: dict[str, Any],
    bot_cmd: str | None,
    timeout: float,
) -> dict[str, Any]:
    """`run`'s games, hosted by one guest (the server limits new guests and tables per address:
    `CREATE_RATE_COUNT=0` on the server lifts it for long runs)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as host:
        (await host.post("/api/guest", json={"name": "Arena"})).raise_for_status()
        results = [
            await play_one(host, token, game, seating(seats, g), options, bot_cmd, timeout)
            for g in range(games)
        ]
    return tally(seats, results, games)
