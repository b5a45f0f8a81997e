"""Pages that need a person send nobody to the name page first, then back where they were:
the page itself for a GET (with its query), the page whose form was sent for a POST."""

from __future__ import annotations

import httpx

from tests.conftest import Server


async def test_pages_ask_for_a_name_then_come_back(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as nobody:
        for path, back in [
            ("/", "/name?next=/"),
            ("/devices", "/name?next=/devices"),
            ("/history?game=karmaka&page=2", "/name?next=/history%3Fgame%3Dkarmaka%26page%3D2"),
        ]:
            r = await nobody.get(path)
            assert (r.status_code, r.headers["location"]) == (303, back), path
        origin = {"origin": server.url}
        sent = await nobody.post(
            "/devices/link", headers={**origin, "referer": f"{server.url}/devices"}
        )
        assert (sent.status_code, sent.headers["location"]) == (303, "/name?next=/devices")
        elsewhere = await nobody.post(
            "/tables", data={"game": "incan_gold"}, headers={**origin, "referer": "http://x/y"}
        )
        assert (elsewhere.status_code, elsewhere.headers["location"]) == (303, "/name?next=/")
        # The name page then offers to go back there.
        page = await nobody.get("/name", params={"next": "/history?game=karmaka&page=2"})
        assert 'value="/history?game=karmaka&amp;page=2"' in page.text
        # Nothing was made for nobody.
        assert "Playing as" not in (await nobody.get("/rules/karmaka")).text
