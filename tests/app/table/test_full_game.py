"""Three seats and a spectator play a whole seeded Incan Gold game over real websockets."""

from __future__ import annotations

import json
from typing import Any

from engines.core import Rng
from tests.clients import Player, make_table
from tests.conftest import Server


def assert_no_leak(frame: dict[str, Any], viewer: int | None) -> None:
    """A frame for `viewer` never carries another seat's tent total or pending choice."""
    if frame["type"] != "state" or not frame["view"]:
        return
    view = frame["view"]
    for p in view["players"]:
        if p["seat"] == viewer:
            continue
        assert p["choice"] is None, f"seat {p['seat']}'s pending choice leaked to {viewer}"
        if not view["over"]:
            assert p["tent"] is None, f"seat {p['seat']}'s tent leaked to {viewer}"
    if viewer is None:
        for line in frame["log"]:
            assert not line.startswith("You "), f"a private log line reached a spectator: {line}"


async def seeded_move(seats: list[Player], everyone: list[Player], rng: Rng) -> tuple[int, str]:
    """One seat that must act goes deeper or camps (a seeded choice); every client in
    `everyone` sees the new version. Returns (seat, choice)."""
    seat = rng.choice(seats[0].view["to_act"])
    choice = "camp" if rng.randbelow(3) == 0 else "torch"
    before = seats[seat].version
    await seats[seat].act({"type": choice})
    for client in everyone:
        await client.wait_version(before + 1)
    return seat, choice


async def play_to_end(
    seats: list[Player], watchers: list[Player], rng: Rng
) -> list[tuple[int, str]]:
    """Act one seat at a time (seeded choices) until the end; every client sees each version."""
    moves: list[tuple[int, str]] = []
    for _ in range(500):
        if seats[0].view["over"]:
            return moves
        moves.append(await seeded_move(seats, seats + watchers, rng))
    raise AssertionError("game did not end")


async def test_full_game_three_seats_and_a_spectator(server: Server) -> None:
    """Every client receives every version; no frame leaks a tent or a pending choice."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    spectator = Player(server.url, server.ws_url)
    try:
        for p in seats:
            await p.connect(table["slug"])
        await spectator.connect(table["slug"])
        for client in [*seats, spectator]:
            await client.wait_version(0)
        moves = await play_to_end(seats, [spectator], Rng.from_seed(11))
        final = len(moves)
        assert final > 10
        for i, client in enumerate([*seats, spectator]):
            versions = sorted({s["version"] for s in client.states})
            assert versions == list(range(final + 1)), f"client {i} missed a version"
            assert client.view["over"] and client.view["outcome"]["winners"]
            viewer = i if i < len(seats) else None
            for raw in client.frames:
                assert_no_leak(json.loads(raw), viewer)
        # Each seat's private lines are exactly its own choices, never another seat's.
        for i, client in enumerate(seats):
            mine = [f"You chose the {c}." for s, c in moves if s == i]
            got = [
                line for st in client.states for line in st["log"] if line.startswith("You chose")
            ]
            assert got == mine
        # Seats do see their own tent and their own private log lines.
        assert seats[0].view["players"][0]["tent"] is not None
        assert any(line.startswith("You ") for s in seats[1].states for line in s["log"])
        # The end reveals every tent to everyone, the spectator included.
        assert all(p["tent"] is not None for p in spectator.view["players"])
        assert spectator.states[-1]["room"]["status"] == "finished"
        assert spectator.states[-1]["room"]["seed"] is not None
        # The lobby lists it no more; the API says finished.
        r = await seats[0].http.get(f"/api/tables/{table['slug']}")
        assert r.json()["status"] == "finished"
    finally:
        for client in [*seats, spectator]:
            await client.close()


async def test_reconnect_gets_the_same_view_and_full_log(server: Server) -> None:
    """A reload (new connection) or a sync message returns exactly the current view."""
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    try:
        for p in seats:
            await p.connect(table["slug"])
            await p.wait_version(0)
        await seats[1].act({"type": "camp"})
        await seats[1].wait_version(1)
        view_before = seats[1].view
        await seats[1].ws.close()  # type: ignore[union-attr]
        again = Player(server.url, server.ws_url)
        again.http.cookies.set("stolik", seats[1].http.cookies.get("stolik") or "")
        await again.connect(table["slug"])
        await again.wait_version(1)
        assert again.view == view_before
        assert "You chose the camp." in again.states[-1]["log"]
        n = len(again.states)
        await again.send({"type": "sync", "version": 0})
        await again.wait_for(lambda p: len(p.states) > n)
        assert again.states[-1]["view"] == view_before
        assert again.states[-1]["log"][0].startswith("The game begins. Good luck!")
        await again.close()
    finally:
        for p in seats:
            await p.close()
