"""The move chain over a live server, SQLite and PostgreSQL (issue 32, item 3): its head is
shown to everyone at the table after every move (JSON `room.move_chain`, the HTML page's
`#chain`) and is the one stored with the game; the export carries every move's link and
verifies; an import whose chain is broken is refused, naming the move, in both languages;
an export from before the chain still imports."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from typing import Any

from websockets.asyncio.client import connect

from app.store.moves import game_moves
from engines import chain, verify
from tests.clients import Player, drive, make_table, table_of
from tests.conftest import Server
from tests.engines.test_verify import finished_export
from tests.tables import app_of, stored_game

_CHAIN = re.compile(r'<p id="chain"[^>]* data-chain="([0-9a-f]{64})"')


async def _stored_head(server: Server, slug: str) -> tuple[str | None, int, str]:
    """The head stored with the game, its version, and the head recomputed from the stored
    moves and the commitment."""
    _room, game, _count = await stored_game(server, slug)
    async with app_of(server).state.sessions() as session:
        moves = await game_moves(session, game.id)
    again = chain.chain_head(game.seed_commitment, [(m.seat, m.action) for m in moves])
    return game.chain_head, game.version, again


async def _html_head(ws: Any, want: str, shown: list[str]) -> str:
    """Read the HTML socket until its page shows the chain head `want` (the latest shown)."""

    async def loop() -> str:
        while not shown or shown[-1] != want:
            found = _CHAIN.findall(str(await ws.recv()))
            shown.extend(found)
        return shown[-1]

    return await asyncio.wait_for(loop(), 5)


async def test_the_head_is_shown_live_and_stored(server: Server) -> None:
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    slug = table["slug"]
    watcher = await Player(server.url, server.ws_url).login("Dorota")
    try:
        for s in seats:
            await s.connect(slug)
        await watcher.connect(slug)
        async with connect(
            f"{server.ws_url}/ws/t/{slug}", additional_headers={"Cookie": watcher.cookie}
        ) as page:
            shown: list[str] = []
            heads = []
            for move in range(25):
                stored, version, recomputed = await _stored_head(server, slug)
                assert version == move and stored == recomputed
                if move == 0:
                    commitment = seats[0].states[-1]["room"]["seed_commitment"]
                    assert stored == chain.chain_start(commitment)
                for p in [*seats, watcher]:
                    await p.wait_version(version)
                    assert p.states[-1]["room"]["move_chain"] == stored, (move, p)
                assert await _html_head(page, stored, shown) == stored
                heads.append(stored)
                game = table_of(app_of(server), slug).game
                assert game is not None and game.chain_head == stored
                if game.over:
                    break
                await drive(app_of(server), slug, dict(enumerate(seats)), [watcher], moves=1)
            assert len(set(heads)) == len(heads)  # a new head after every move
        await drive(app_of(server), slug, dict(enumerate(seats)), [watcher], moves=400)
        await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
        last = seats[0].states[-1]["room"]["move_chain"]
        stored, _version, recomputed = await _stored_head(server, slug)
        assert last == stored == recomputed

        export = (await seats[0].http.get(f"/api/tables/{slug}/export")).json()
        assert export["format"] == verify.FORMAT == "stolik-game/2"
        assert export["chain_scheme"] == chain.SCHEME
        assert export["move_chain"] == last == export["actions"][-1]["chain"]
        assert verify.verify(export).ok
        page_text = (await seats[0].http.get(f"/t/{slug}/verify")).text
        assert "✓ Verified" in page_text and last in page_text
    finally:
        for p in [*seats, watcher]:
            await p.close()


async def test_import_checks_the_chain(server: Server) -> None:
    """A Dreadful Circus game made by the engine alone: it imports and exports again as it
    came; the same file with a refused bid's contents changed (the replay's end is the same)
    is refused by both import routes, naming the move, in English and Polish; an export from
    before the chain still imports."""
    export = finished_export("dreadful_circus", seed_of_play=5)
    before_chain = finished_export("dreadful_circus", seed_of_play=5, chained=False)
    ala = await Player(server.url, server.ws_url).login("Ala")
    try:
        r = await ala.http.post("/api/games/import", json=export)
        assert r.status_code == 201, r.text
        imported = r.json()
        again = (
            await ala.http.get(
                f"/api/tables/{imported['slug']}/export?code={imported['invite_code']}"
            )
        ).json()
        for key in ("format", "chain_scheme", "move_chain", "actions", "commitment"):
            assert again[key] == export[key], key

        # A bid whose change the replay does not notice (the hole).
        for i, move in enumerate(export["actions"]):
            if move["action"]["type"] != "bid":
                continue
            old = copy.deepcopy(before_chain)
            old["actions"][i]["action"]["copper"] = move["action"].get("copper", 0) + 1
            if verify.verify(old).ok:
                break
        else:
            raise AssertionError("no refused bid whose contents the replay ignores")
        r = await ala.http.post("/api/games/import", json=old)
        assert r.status_code == 201  # from before the chain: the replay alone judges it
        again = (
            await ala.http.get(
                f"/api/tables/{r.json()['slug']}/export?code={r.json()['invite_code']}"
            )
        ).json()
        assert again["format"] == verify.FORMAT_BEFORE_CHAIN and "move_chain" not in again

        tampered = copy.deepcopy(export)
        tampered["actions"][i]["action"]["copper"] = move["action"].get("copper", 0) + 1
        r = await ala.http.post("/api/games/import", json=tampered)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_import"
        assert r.json()["error"]["message"] == (
            f"This game does not verify: Move {i + 1} does not match the move chain."
        )
        r = await ala.http.post("/api/games/import?lang=pl", json=tampered)
        assert f"Ruch {i + 1} nie zgadza się z łańcuchem ruchów." in r.json()["error"]["message"]
        upload = {"game": ("game.json", json.dumps(tampered).encode())}
        r = await ala.http.post("/history/import", files=upload)
        assert r.status_code == 422  # the "Your games" page, saying why
        assert f"Move {i + 1} does not match the move chain." in r.text
        r = await ala.http.post("/history/import?lang=pl", files=upload)
        assert f"Ruch {i + 1} nie zgadza się z łańcuchem ruchów." in r.text

        broken_head = dict(export, move_chain="0" * 64)
        r = await ala.http.post("/api/games/import", json=broken_head)
        assert r.status_code == 422
        assert "The head of the move chain does not match the moves." in r.text
    finally:
        await ala.close()
