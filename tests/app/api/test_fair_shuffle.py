"""Provably fair shuffles over a live server, SQLite and PostgreSQL (issue 17): the commitment
is shown from the first log line and in the room info; the secret stays hidden until the end;
a finished game's export verifies (server page and `engines.verify`), a running game's export
is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engines import get_engine, verify
from engines.core import GameError
from tests.clients import drive_to_end, live_table
from tests.conftest import Server


def _replays_to_the_end(export: dict[str, Any]) -> bool:
    """Whether `setup(seed)` and the export's actions reach its stored end (the engine alone)."""
    engine = get_engine(export["engine"])
    state = engine.setup(
        export["num_players"], engine.parse_options(export["options"]), export["seed"]
    ).state
    try:
        for move in export["actions"]:
            state = engine.apply(state, move["seat"], engine.parse_action(move["action"])).state
    except GameError:
        return False
    return bool(engine.dump(state) == export["final_snapshot"])


async def test_commitment_secret_export_and_verify(server: Server, tmp_path: Path) -> None:
    async with live_table(server, ["Ala", "Bartek", "Celina"]) as live:
        seats, slug = live.seats, live.slug
        info = seats[0].states[-1]["room"]
        commitment = info["seed_commitment"]
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert commitment in seats[0].states[-1]["log"][0]
        assert info["seed_secret"] is None and info["seed"] is None

        early = await seats[1].http.get(f"/api/tables/{slug}/export")
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "not_finished"

        played = await drive_to_end(server, live)
        assert played > 0
        info = seats[0].states[-1]["room"]
        assert info["seed_secret"] is not None
        assert verify.commitment(info["seed_secret"], info["seed_salt"]) == commitment

        r = await seats[2].http.get(f"/api/tables/{slug}/export")
        assert r.status_code == 200
        assert "attachment" in r.headers["content-disposition"]
        export = r.json()
        assert export["commitment"] == commitment and len(export["actions"]) == played
        assert [p["name"] for p in export["players"]] == ["Ala", "Bartek", "Celina"]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(export))
        assert verify.main([str(path)]) == 0
        assert _replays_to_the_end(export)
        # A changed choice is caught. Not every flip changes the game (a torch and a camp
        # can end the round alike), so change the first one that, replayed here with the
        # engine alone, fails or ends elsewhere than the stored end.
        for i in range(len(export["actions"])):
            tampered = json.loads(json.dumps(export))
            move = tampered["actions"][i]
            move["action"] = {"type": "camp" if move["action"]["type"] == "torch" else "torch"}
            if not _replays_to_the_end(tampered):
                break
        else:
            raise AssertionError("no single changed choice alters this game")
        path.write_text(json.dumps(tampered))
        assert verify.main([str(path)]) == 1

        page = await seats[0].http.get(f"/t/{slug}/verify")
        assert page.status_code == 200
        assert "✓ Verified" in page.text and commitment in page.text
        polish = await seats[0].http.get(f"/t/{slug}/verify?lang=pl")
        assert "Sprawdzone" in polish.text


async def test_export_import_replay(server: Server) -> None:
    """A finished game exported here and imported back (as any Stolik would) replays to the
    same end; a tampered file is refused with 422 and stores nothing."""
    async with live_table(server, ["Ala", "Bartek", "Celina"]) as live:
        seats, slug = live.seats, live.slug
        await drive_to_end(server, live, seed=11)
        export = (await seats[0].http.get(f"/api/tables/{slug}/export")).json()

        tampered = dict(export, seed=export["seed"] ^ 1)
        r = await seats[1].http.post("/api/games/import", json=tampered)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_import"
        assert (await seats[1].http.post("/api/games/import", content=b"[1]")).status_code == 422

        r = await seats[1].http.post("/api/games/import", json=export)
        assert r.status_code == 201
        imported = r.json()
        assert imported["slug"] != slug
        again = (
            await seats[1].http.get(
                f"/api/tables/{imported['slug']}/export?code={imported['invite_code']}"
            )
        ).json()
        for key in (
            "engine",
            "seed",
            "commitment",
            "secret",
            "salt",
            "actions",
            "final_snapshot",
            "result",
        ):
            assert again[key] == export[key], key
        assert [p["name"] for p in again["players"]] == ["Ala", "Bartek", "Celina"]
        page = await seats[1].http.get(imported["url"])
        assert page.status_code == 200
        assert f"Move {len(export['actions'])} of {len(export['actions'])}" in page.text
        # The form on "Your games": a file upload, then the replay.
        r = await seats[2].http.post(
            "/history/import", files={"game": ("game.json", json.dumps(export).encode())}
        )
        assert r.status_code == 303 and "/replay?code=" in r.headers["location"]
        r = await seats[2].http.post("/history/import", files={"game": ("x.json", b"not json")})
        assert r.status_code == 422 and "not a game this server can replay" in r.text
        # Private: without its code the imported table is not there.
        assert (await seats[2].http.get(f"/t/{imported['slug']}/replay")).status_code == 404
