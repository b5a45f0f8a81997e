"""Bad input gets a clear error and changes nothing (over real HTTP and websockets)."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.clients import Player, make_table
from tests.conftest import Server


@pytest.fixture
async def table(server: Server):  # type: ignore[no-untyped-def]
    """A started three-seat table with every seat connected, at version 0."""
    seats, info = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    for p in seats:
        await p.connect(info["slug"])
        await p.wait_version(0)
    yield seats, info
    for p in seats:
        await p.close()


async def expect_error(player: Player, frame: object, code: str) -> str:
    """Send a frame, expect an error with `code`, and check the game did not move."""
    before = (player.version, len(player.states))
    n = len(player.errors)
    await player.send(frame)
    err = await player.wait_error(n + 1)
    assert err["code"] == code, err
    assert err["message"]
    assert player.version == before[0]
    message: str = err["message"]
    return message


async def test_malformed_unknown_and_oversized_messages(table, server: Server) -> None:  # type: ignore[no-untyped-def]
    """Not JSON, not an object, an unknown type, a bad field, too large: errors, no change."""
    seats, _ = table
    p = seats[0]
    assert "JSON" in await expect_error(p, "{not json", "malformed")
    await expect_error(p, "[1, 2]", "malformed")
    assert "Unknown message type" in await expect_error(p, {"type": "dance"}, "unknown_type")
    await expect_error(p, {"type": "act", "version": "x", "action": {"type": "torch"}}, "malformed")
    await expect_error(p, {"type": "act", "version": 0}, "malformed")
    big = json.dumps({"type": "chat", "text": "x" * (server.settings.max_message_bytes + 10)})
    assert "too large" in await expect_error(p, big, "too_large")
    await expect_error(
        p, {"type": "act", "version": 0, "action": {"type": "fly"}}, "malformed_action"
    )
    # The connection survives all of that and the game still works.
    await p.act({"type": "torch"})
    await p.wait_version(1)


async def test_out_of_turn_stale_and_spectator_acts_are_refused(table, server: Server) -> None:  # type: ignore[no-untyped-def]
    """Acting twice, acting on an old version, and a spectator acting: refused, nothing changes."""
    seats, info = table
    await seats[0].act({"type": "camp"})
    for p in seats:
        await p.wait_version(1)
    await expect_error(
        seats[0], {"type": "act", "version": 1, "action": {"type": "torch"}}, "not_your_turn"
    )
    # Seat 1's choice is still the same question: its version-0 act is accepted (simultaneous).
    await seats[1].act({"type": "torch"}, version=0)
    for p in seats:
        await p.wait_version(2)
    # After the reveal every choice is a new question: an act from before it is stale.
    await seats[2].act({"type": "torch"})
    for p in seats:
        await p.wait_version(3)
    msg = await expect_error(
        seats[1], {"type": "act", "version": 2, "action": {"type": "camp"}}, "stale"
    )
    assert "version 2" in msg
    await seats[1].wait_for(lambda p: len(p.states) >= 5)  # a fresh full state follows
    await expect_error(
        seats[1], {"type": "act", "version": 99, "action": {"type": "camp"}}, "stale"
    )
    watcher = Player(server.url, server.ws_url)
    await watcher.connect(info["slug"])
    await watcher.wait_version(3)
    await expect_error(
        watcher, {"type": "act", "version": 3, "action": {"type": "torch"}}, "spectator"
    )
    await watcher.close()
    r = await seats[0].http.get(f"/api/tables/{info['slug']}")
    assert r.status_code == 200


async def test_joining_full_or_started_tables_and_unknown_rooms(server: Server) -> None:
    """Full, started, unknown and private-without-code are clear HTTP and websocket errors."""
    seats, info = await make_table(server.url, server.ws_url, ["A", "B", "C"], start=False)
    late = await Player(server.url, server.ws_url).login("Dorota")
    r = await late.http.post(f"/api/tables/{info['slug']}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    r = await seats[1].http.post(f"/api/tables/{info['slug']}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = await seats[0].http.post(f"/api/tables/{info['slug']}/start")
    assert r.status_code == 200
    r = await seats[1].http.post(f"/api/tables/{info['slug']}/leave")
    assert r.json()["error"]["code"] == "already_started"
    r = await late.http.post("/api/tables/nope/join")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_room"
    r = await late.http.get("/t/nope")
    assert r.status_code == 404 and "no table" in r.text
    async with connect(f"{server.ws_url}/ws/t/nope?format=json") as ws:
        err = json.loads(await ws.recv())
        assert err["code"] == "unknown_room"
        with pytest.raises(ConnectionClosed):
            await ws.recv()
    anon = Player(server.url, server.ws_url)
    r = await anon.http.post(f"/api/tables/{info['slug']}/join")
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_name"
    for p in [*seats, late, anon]:
        await p.close()


async def test_private_table_needs_its_code(server: Server) -> None:
    """A private table is unlisted and refuses page, API and socket without the invite code."""
    seats, info = await make_table(
        server.url, server.ws_url, ["A", "B"], private=True, seats=3, start=False
    )
    stranger = await Player(server.url, server.ws_url).login("Stranger")
    r = await stranger.http.get("/api/tables")
    assert info["slug"] not in {t["slug"] for t in r.json()}
    # Without its code a private table answers exactly like a table that does not exist.
    missing = await stranger.http.get("/t/NoSuchTb")
    for path in (f"/t/{info['slug']}", f"/t/{info['slug']}?code=wrong"):
        r = await stranger.http.get(path)
        assert r.status_code == missing.status_code == 404
    r = await stranger.http.post(f"/api/tables/{info['slug']}/join")
    gone = await stranger.http.post("/api/tables/NoSuchTb/join")
    assert r.status_code == gone.status_code == 404
    assert r.json() == gone.json()
    async with connect(f"{server.ws_url}/ws/t/{info['slug']}?format=json") as ws:
        assert json.loads(await ws.recv())["code"] == "unknown_room"
    assert (
        await stranger.http.get(f"/t/{info['slug']}?code={info['invite_code']}")
    ).status_code == 200
    r = await stranger.http.post(
        f"/api/tables/{info['slug']}/join", params={"code": info["invite_code"]}
    )
    assert r.status_code == 200 and r.json()["seat"] == 2
    # The creator's own lobby lists it (marked private).
    mine = (await seats[0].http.get("/api/tables")).json()
    assert any(t["slug"] == info["slug"] and t["private"] for t in mine)
    for p in [*seats, stranger]:
        await p.close()


async def test_start_short_handed_shrinks_seats_and_minimum_is_enforced(server: Server) -> None:
    """The host may start with fewer than all seats once the game's minimum is met."""
    seats, info = await make_table(server.url, server.ws_url, ["A", "B"], seats=5, start=False)
    r = await seats[0].http.post(f"/api/tables/{info['slug']}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_enough_players"
    third = await Player(server.url, server.ws_url).login("C")
    await third.http.post(f"/api/tables/{info['slug']}/join", params={"seat": 4})
    r = await seats[0].http.post(f"/api/tables/{info['slug']}/start")
    assert r.status_code == 200 and r.json()["players"] == 3
    room = (await third.http.get(f"/api/tables/{info['slug']}")).json()
    assert room["num_seats"] == 3 and room["your_seat"] == 2
    assert [s["name"] for s in room["seats"]] == ["A", "B", "C"]
    for p in [*seats, third]:
        await p.close()


async def test_bad_table_options_and_names(server: Server) -> None:
    """Unknown game, seats outside the range, bad options, empty names: refused."""
    p = await Player(server.url, server.ws_url).login("Ala")
    for body, code in [
        ({"game": "chess", "seats": 3}, "unknown_game"),
        ({"game": "incan_gold", "seats": 9}, "bad_seats"),
        ({"game": "incan_gold", "seats": 3, "options": {"artifacts": "lots"}}, "bad_options"),
    ]:
        r = await p.http.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"]["code"] == code
    r = await p.http.post("/api/guest", json={"name": "   "})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"
    assert (await p.http.get("/api/tables")).json() == []
    await p.close()


async def test_deeply_nested_json_is_malformed_and_the_socket_stays(server: Server) -> None:
    """`[` × 1000 under the size limit is refused as `malformed` before parsing; the same
    socket then still answers a sync."""
    seats, info = await make_table(server.url, server.ws_url, ["A", "B", "C"])
    try:
        url = f"{server.ws_url}/ws/t/{info['slug']}?format=json"
        async with connect(url, additional_headers={"Cookie": seats[0].cookie}) as ws:
            while json.loads(await ws.recv())["type"] != "state":
                pass
            for frame in (
                "[" * 1000 + "]" * 1000,
                '{"type": "act", "x": ' + "[1," * 500 + "1" + "]" * 500 + "}",
            ):
                await ws.send(frame)
                while (msg := json.loads(await ws.recv()))["type"] != "error":
                    pass
                assert msg["code"] == "malformed"
            await ws.send(json.dumps({"type": "sync"}))
            while (msg := json.loads(await ws.recv()))["type"] != "state":
                pass
            assert msg["version"] >= 0
    finally:
        for p in seats:
            await p.close()


@pytest.mark.parametrize(
    ("raw", "status", "kept"),
    [
        (r"Ala\ud800", 422, "malformed"),
        (r"An\u0000na", 200, "Anna"),
        (r"Ev\u202eil", 200, "Evil"),
        (r"Ze\u200bro", 200, "Zero"),
        (r"Zoe\u0308 Łucja", 200, "Zoë Łucja"),
        (r"\u200b\u202e", 422, "bad_name"),
        (r"\u0301\u0308\u0327", 422, "bad_name"),
        (r"\u3164", 422, "bad_name"),
        (r"\u0301Ala", 200, "Ala"),
    ],
)
async def test_names_are_normalised_or_refused(
    server: Server, raw: str, status: int, kept: str
) -> None:
    """Names are NFC, without control or format characters; a lone surrogate is refused with
    422 and a clear message (never a 500, on either database); `kept` is the stored name or
    the refusal's code."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = '{"name": "' + raw + '"}'
        r = await http.post(
            "/api/guest", content=body, headers={"Content-Type": "application/json"}
        )
    assert r.status_code == status, r.text
    if status == 200:
        assert r.json()["name"] == kept
    else:
        assert r.json()["error"]["code"] == kept
        assert r.json()["error"]["message"]


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("", "Please enter a display name."),
        ("\u200b\u202e", "A name needs at least one visible letter, digit or sign."),
        ("\u0301\u0308\u0327", "A name needs at least one visible letter, digit or sign."),
    ],
)
async def test_the_name_page_refuses_a_bad_name_as_the_api_does(
    server: Server, raw: str, says: str
) -> None:
    """The name page answers a name that will not do with 422 and the same message as the
    JSON API, and no guest is made."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = "name=" + "".join(f"%{b:02X}" for b in raw.encode())
        r = await http.post(
            "/name",
            content=body + "&next=/",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert r.status_code == 422, r.text[:300]
        assert says in r.text.replace("&#39;", "'")
        assert http.cookies.get("stolik") is None
        api = await http.post("/api/guest", json={"name": raw or " "})
        assert api.status_code == 422 and api.json()["error"]["message"] == says
