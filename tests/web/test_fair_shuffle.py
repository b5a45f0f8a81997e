"""Provably fair shuffles over a live server, SQLite and PostgreSQL (issue 17): the commitment
is shown from the first log line and in the room info; the secret stays hidden until the end;
a finished game's export verifies (server page and `engines.verify`), a running game's export
is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engines import verify
from tests.conftest import Server
from tests.web.clients import drive, make_table
from tests.web.tables import app_of


async def test_commitment_secret_export_and_verify(server: Server, tmp_path: Path) -> None:
    seats, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    slug = table["slug"]
    try:
        for s in seats:
            await s.connect(slug)
        await seats[0].wait_version(0)
        info = seats[0].states[-1]["room"]
        commitment = info["seed_commitment"]
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert commitment in seats[0].states[-1]["log"][0]
        assert info["seed_secret"] is None and info["seed"] is None

        early = await seats[1].http.get(f"/api/tables/{slug}/export")
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "not_finished"

        played = await drive(app_of(server), slug, dict(enumerate(seats)), [], moves=400)
        assert played > 0
        await seats[0].wait_for(lambda p: p.states[-1]["room"]["status"] == "finished")
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
        export["actions"][0]["action"] = {
            "type": "camp" if export["actions"][0]["action"]["type"] == "torch" else "torch"
        }
        path.write_text(json.dumps(export))
        assert verify.main([str(path)]) == 1

        page = await seats[0].http.get(f"/t/{slug}/verify")
        assert page.status_code == 200
        assert "✓ Verified" in page.text and commitment in page.text
        polish = await seats[0].http.get(f"/t/{slug}/verify?lang=pl")
        assert "Sprawdzone" in polish.text
    finally:
        for s in seats:
            await s.close()
