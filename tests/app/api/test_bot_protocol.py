"""The bot API's documents and its example (issue 36 §2): the websocket JSON Schema and the
OpenAPI document the server serves are the ones the code generates; real frames of every kind
validate against the schema; `examples/bot.py` plays each shipped game to its end against a
live server, seated by its token at a table that lets outside bots sit."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from websockets.asyncio.client import connect

from app.main import create_app
from app.realtime.schema import ws_schema
from bench import outside
from bench.arena import report
from engines import SHIPPED, get_engine
from tests.clients import live_table
from tests.conftest import Server

ROOT = Path(__file__).resolve().parents[3]


def validator(schema: dict[str, Any], part: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """A validator of `part` (a piece of the protocol schema) with the schema's `$defs`."""
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], **part})


def check(v: jsonschema.Draft202012Validator, frame: Any) -> None:
    errors = sorted(v.iter_errors(frame), key=lambda e: list(e.path))
    assert not errors, (errors[0].message[:300], list(errors[0].absolute_path), frame)


async def test_served_documents_are_the_generated_ones(sqlite_server: Server) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        served_ws = (await http.get("/api/schema/ws")).json()
        served_api = (await http.get("/openapi.json")).json()
    schema = ws_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert served_ws == json.loads(json.dumps(schema))
    assert set(schema["actions"]) >= {e.spec.id for e in SHIPPED}

    generated = create_app(sqlite_server.settings).openapi()
    assert served_api == json.loads(json.dumps(generated))
    paths = generated["paths"]
    for path in ("/api/bot/tables", "/api/bot/tables/{slug}/join", "/api/bots"):
        assert path in paths
    listed = paths["/api/bot/tables"]["get"]
    assert "401" in listed["responses"]
    shapes = generated["components"]["schemas"]
    assert shapes["OpenTableOut"]["examples"][0]["game"] == "incan_gold"
    assert shapes["JoinedOut"]["examples"] and shapes["BotOut"]["examples"]
    # Each documented example is valid for its own schema.
    for name in ("OpenTableOut", "JoinedOut", "BotOut"):
        shape = {**shapes[name], "components": generated["components"]}
        for example in shapes[name]["examples"]:
            jsonschema.validate(example, shape)


async def test_frames_of_every_kind_match_the_schema(sqlite_server: Server) -> None:
    """A game played over the sockets (one seat with `legal=1`): states, errors, presence and
    chat, and every legal action offered, validate against the published schema."""
    schema = ws_schema()
    server_v = validator(schema, schema["server"])
    client_v = validator(schema, schema["client"])
    actions_v = validator(schema, schema["actions"]["karmaka"])
    kinds: set[str] = set()
    async with live_table(sqlite_server, ["Ala", "Ola"], game="karmaka", watchers=1) as live:
        url = f"{sqlite_server.ws_url}/ws/t/{live.slug}?format=json&legal=1"
        facts = (await live.seats[0].http.get(f"/api/tables/{live.slug}")).json()
        acting = live.seats[facts["to_act"][0]]  # the seat whose legal actions are not empty
        headers = {"Cookie": acting.cookie}
        async with connect(url, additional_headers=headers) as ws:
            sent = [
                {"type": "chat", "text": "cześć"},
                {"type": "act", "version": 999, "action": {"type": "nonsense"}},
                {"type": "sync"},
            ]
            for msg in sent:
                check(client_v, msg)
                await ws.send(json.dumps(msg))
            await ws.send("not json")
            other = live.seats[1 - facts["to_act"][0]]
            assert other.ws is not None
            legal_seen = errors = 0
            for _ in range(60):
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                check(server_v, frame)
                kinds.add(frame["type"])
                errors += frame["type"] == "error"
                if errors == 2 and other.ws.state.name != "CLOSED":
                    # Both errors came, so the state asked for (sent before the second) too:
                    # the other seat goes offline now, a presence push. Closed earlier, the
                    # state could already show it offline, and no presence would follow.
                    await other.ws.close()
                for action in frame.get("legal") or []:
                    check(actions_v, action)
                    legal_seen += 1
                if kinds >= {"state", "error", "chat", "presence"} and legal_seen:
                    break
        for client in live.everyone:  # the cookie clients (no `legal`) and a spectator
            for raw in client.frames:
                frame = json.loads(raw)
                check(server_v, frame)
                assert "legal" not in frame
    assert kinds >= {"state", "error", "chat", "presence"} and legal_seen

    # The lobby socket's message, with the reader's own table (and its invite code) in it.
    async with connect(
        f"{sqlite_server.ws_url}/ws/lobby?format=json",
        additional_headers={"Cookie": live.seats[0].cookie},
    ) as lobby:
        frame = json.loads(await asyncio.wait_for(lobby.recv(), 5))
    check(validator(schema, schema["lobby"]), frame)
    assert frame["type"] == "lobby" and frame["tables"]


SHIPPED_IDS = sorted(e.spec.id for e in SHIPPED)


@pytest.mark.parametrize("game_id", SHIPPED_IDS)
async def test_example_bot_plays_to_the_end(
    sqlite_server: Server, tmp_path: Path, game_id: str
) -> None:
    """The host seats built-in bots, lets outside bots sit, and lets a bot play for them; the
    example bot finds the table by itself, joins and plays random legal moves to the end."""
    srv = sqlite_server
    engine = get_engine(game_id)
    seats = engine.spec.min_players
    async with httpx.AsyncClient(base_url=srv.url, timeout=20) as ala:
        (await ala.post("/api/guest", json={"name": "Ala"})).raise_for_status()
        token = (await ala.post("/api/bots", json={"name": "Losowy"})).json()["token"]
        body = {"game": game_id, "seats": seats, "outside_bots": True, "bot_level": "easy"}
        made = await ala.post("/api/tables", json=body)
        slug = made.json()["slug"]
        for _ in range(seats - 2):
            (await ala.post(f"/api/tables/{slug}/bots?level=easy")).raise_for_status()
        record = tmp_path / "frames.jsonl"
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "examples" / "bot.py"),
            srv.url,
            token,
            "--seed",
            "7",
            "--pace",
            "0",  # the test server has no rate limits
            "--wait",
            "20",
            "--record",
            str(record),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            for _ in range(200):
                facts = (await ala.get(f"/api/tables/{slug}")).json()
                if all(s["name"] for s in facts["seats"]):
                    break
                await asyncio.sleep(0.1)
            assert facts["seats"][seats - 1]["name"] == "Losowy"
            (await ala.post(f"/api/tables/{slug}/start")).raise_for_status()
            (await ala.post(f"/api/tables/{slug}/autopilot?on=true")).raise_for_status()
            out, err = await asyncio.wait_for(bot.communicate(), 300)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        assert bot.returncode == 0, err.decode()[-2000:]
        lines = out.decode().splitlines()
        assert lines[0] == f"Losowy sits in seat {seats - 1}"
        result = json.loads(lines[-1].removeprefix("over: "))
        assert str(seats - 1) in result["ranks"]
        facts = (await ala.get(f"/api/tables/{slug}")).json()
        assert facts["status"] == "finished"

    schema = ws_schema()
    server_v = validator(schema, schema["server"])
    client_v = validator(schema, schema["client"])
    actions_v = validator(schema, schema["actions"][game_id])
    acts = 0
    for line in record.read_text().splitlines():
        entry = json.loads(line)
        if "in" in entry:
            check(server_v, entry["in"])
        else:
            check(client_v, entry["out"])
            if entry["out"]["type"] == "act":
                check(actions_v, entry["out"]["action"])
                acts += 1
    assert acts > 0


async def test_the_arena_seats_an_outside_bot(sqlite_server: Server) -> None:
    """`bench.arena --outside URL TOKEN`: the example bot, by its token, against a built-in
    level; the outside bot's seat rotates and the tally counts it as its own kind."""
    srv = sqlite_server
    async with httpx.AsyncClient(base_url=srv.url, timeout=20) as owner:
        (await owner.post("/api/guest", json={"name": "Owner"})).raise_for_status()
        token = (await owner.post("/api/bots", json={"name": "Gość"})).json()["token"]
    seats = ["outside", "easy", "easy"]
    assert [outside.seating(seats, g) for g in range(3)] == [
        ["easy", "outside", "easy"],
        ["easy", "easy", "outside"],
        ["easy", "outside", "easy"],
    ]
    fast = outside.DEFAULT_BOT + " --pace 0"
    result = await outside.play_all(srv.url, token, "incan_gold", seats, 2, {}, fast, 120)
    assert result["tally"]["outside"]["seats"] == 2
    assert result["tally"]["easy"]["seats"] == 4
    printed = report("incan_gold", seats, result)
    assert printed.splitlines()[0] == "incan_gold: 2 games, seats outside,easy,easy"
    assert any(line.startswith("outside ") for line in printed.splitlines())
