"""Table chat over real websockets: players and spectators read it, named people write it,
limits refuse with clear errors and change nothing, and the lines are kept with the table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.clients import Player, make_table
from tests.conftest import Server, start_server


def chats(client: Player) -> list[dict[str, Any]]:
    """Every chat message this client received, in order."""
    return [m for m in map(json.loads, client.frames) if m["type"] == "chat"]


def lines(client: Player) -> list[tuple[str, int | None, str]]:
    """What the client's chat box shows: the last history, then the new lines after it."""
    shown: list[dict[str, Any]] = []
    for msg in chats(client):
        shown = list(msg["messages"]) if msg["history"] else shown + msg["messages"]
    return [(m["name"], m["seat"], m["text"]) for m in shown]


async def wait_lines(client: Player, count: int) -> None:
    """Wait until the client shows `count` chat lines."""
    await client.wait_for(lambda p: len(lines(p)) >= count)


async def test_chat_reaches_players_and_spectators(server: Server) -> None:
    """Seated players, a named watcher and an anonymous watcher all read every line."""
    seats, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bartek", "Celina"], private=True
    )
    slug, code = table["slug"], table["invite_code"]
    named = await Player(server.url, server.ws_url).login("Zosia")
    anonymous = Player(server.url, server.ws_url)
    everyone = [*seats, named, anonymous]
    try:
        for client in everyone:
            await client.connect(slug, code)
            await client.wait_for(lambda p: len(chats(p)) >= 1)
            assert chats(client)[0] == {"type": "chat", "messages": [], "history": True}

        await seats[0].send({"type": "chat", "text": "  Hello <b>all</b>!\u202e  "})
        # Lines from two sockets sent at once may be stored in either order: Zosia answers
        # once she has read Ala's line.
        await wait_lines(named, 1)
        await named.send({"type": "chat", "text": "good luck\nboth"})
        for client in everyone:
            await wait_lines(client, 2)
            assert lines(client) == [
                ("Ala", 0, "Hello <b>all</b>!"),
                ("Zosia", None, "good luck both"),
            ]

        # An anonymous watcher may read but not write; the refusal reaches only them.
        await anonymous.send({"type": "chat", "text": "hi"})
        error = await anonymous.wait_error(1)
        assert error["code"] == "no_name"
        await seats[1].send({"type": "chat", "text": "thanks"})
        for client in everyone:
            await wait_lines(client, 3)
            assert lines(client)[-1] == ("Bartek", 1, "thanks")
            assert len(lines(client)) == 3
        assert not seats[0].errors and not named.errors

        # A late joiner gets the kept history in one message.
        late = await Player(server.url, server.ws_url).login("Late")
        await late.connect(slug, code)
        await wait_lines(late, 3)
        assert chats(late)[0]["history"] is True
        assert lines(late) == lines(seats[0])
        await late.close()
    finally:
        for client in everyone:
            await client.close()


async def test_chat_limits_refuse_and_change_nothing(server: Server) -> None:
    """Empty, too long and too fast lines are refused with their own codes."""
    seats, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bartek"], seats=3, start=False
    )
    ala, bartek = seats
    try:
        for client in seats:
            await client.connect(table["slug"])
            await client.wait_for(lambda p: len(chats(p)) >= 1)
        await ala.send({"type": "chat", "text": " \t\u200b "})
        assert (await ala.wait_error(1))["code"] == "chat_empty"
        await ala.send({"type": "chat", "text": "x" * 301})
        refused = await ala.wait_error(2)
        assert refused["code"] == "chat_too_long"
        assert "300" in refused["message"]
        await ala.send({"type": "chat", "text": "y" * 300})  # exactly the limit is fine
        await ala.send({"type": "chat"})
        assert (await ala.wait_error(3))["code"] == "malformed"
        for n in range(4):
            await ala.send({"type": "chat", "text": f"line {n}"})
        await wait_lines(bartek, 5)
        await ala.send({"type": "chat", "text": "one too many"})
        limited = await ala.wait_error(4)
        assert limited["code"] == "chat_rate_limited"
        assert "wait" in limited["message"]
        # Bartek has his own allowance.
        await bartek.send({"type": "chat", "text": "my turn"})
        await wait_lines(ala, 6)
        assert [t for _, _, t in lines(ala)] == [
            "y" * 300,
            *(f"line {n}" for n in range(4)),
            "my turn",
        ]
        assert lines(bartek) == lines(ala)
    finally:
        for client in seats:
            await client.close()


async def test_rate_limit_window_passes(tmp_path: Path) -> None:
    """After the window, the same person may write again."""
    srv = await start_server(
        f"sqlite+aiosqlite:///{tmp_path / 'chat.db'}",
        tmp_path,
        chat_rate_count=2,
        chat_rate_window=0.5,
    )
    seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek"], seats=3, start=False)
    ala = seats[0]
    try:
        await ala.connect(table["slug"])
        await ala.send({"type": "chat", "text": "one"})
        await ala.send({"type": "chat", "text": "two"})
        await wait_lines(ala, 2)
        await ala.send({"type": "chat", "text": "three"})
        assert (await ala.wait_error(1))["code"] == "chat_rate_limited"
        await asyncio.sleep(0.6)
        await ala.send({"type": "chat", "text": "four"})
        await wait_lines(ala, 3)
        assert [t for _, _, t in lines(ala)] == ["one", "two", "four"]
    finally:
        for client in seats:
            await client.close()
        await srv.stop()


async def test_chat_is_kept_across_a_restart(db_url: str, tmp_path: Path) -> None:
    """Lines are stored with the table: a new server process replays them in order."""
    srv = await start_server(db_url, tmp_path)
    seats, table = await make_table(srv.url, srv.ws_url, ["Ala", "Bartek"], seats=3, start=False)
    try:
        await seats[0].connect(table["slug"])
        for text in ("first", "second", "third"):
            await seats[0].send({"type": "chat", "text": text})
        await wait_lines(seats[0], 3)
        cookie = seats[1].http.cookies.get("stolik")
    finally:
        for client in seats:
            await client.close()
        await srv.stop()

    srv = await start_server(db_url, tmp_path)
    again = Player(srv.url, srv.ws_url)
    again.http.cookies.set("stolik", cookie or "")
    try:
        await again.connect(table["slug"])
        await wait_lines(again, 3)
        assert lines(again) == [("Ala", 0, "first"), ("Ala", 0, "second"), ("Ala", 0, "third")]
    finally:
        await again.close()
        await srv.stop()


async def test_browser_fragments_escape_chat(server: Server) -> None:
    """Browsers get the history as a replacing fragment and new lines appended, escaped."""
    from websockets.asyncio.client import connect

    seats, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bartek"], seats=3, start=False
    )
    ala = seats[0]
    url = f"{server.ws_url}/ws/t/{table['slug']}"
    try:
        async with connect(url, additional_headers={"Cookie": ala.cookie}) as ws:
            frames: list[str] = []
            while not any('id="chat-log"' in f for f in frames):
                frames.append(str(await asyncio.wait_for(ws.recv(), 5)))
            history = next(f for f in frames if 'id="chat-log"' in f)
            assert 'hx-swap-oob="true"' in history
            assert "No messages yet" in history
            await ws.send(json.dumps({"type": "chat", "text": "<script>alert(1)</script>"}))
            while True:
                frame = str(await asyncio.wait_for(ws.recv(), 5))
                if 'id="chat-log"' in frame:
                    break
            assert 'hx-swap-oob="beforeend"' in frame
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in frame
            assert "<script>" not in frame
    finally:
        for client in seats:
            await client.close()
