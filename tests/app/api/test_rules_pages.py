"""How to play (issue 13): a page per game in English and Polish, linked from the lobby and
the table, saying plainly where the card list is provisional and where the server chose."""

from __future__ import annotations

import httpx
import pytest

from engines import REGISTRY, SHIPPED
from tests.clients import Player, make_table
from tests.conftest import Server

ENGLISH_HEADINGS = ["Goal", "Where this server had to choose"]
POLISH_HEADINGS = ["Cel gry", "Decyzje tego serwera"]


SHIPPED_IDS = sorted(e.spec.id for e in SHIPPED)
"""How-to-play pages are written for the games that ship (the tests' own game has none)."""


@pytest.mark.parametrize("game_id", SHIPPED_IDS)
async def test_every_game_has_a_page_in_both_languages(server: Server, game_id: str) -> None:
    engine = REGISTRY[game_id]
    async with httpx.AsyncClient(base_url=server.url) as http:
        en = await http.get(f"/rules/{game_id}", headers={"Accept-Language": "en"})
        pl = await http.get(f"/rules/{game_id}?lang=pl")
    assert en.status_code == pl.status_code == 200
    assert f"How to play: {engine.spec.title}" in en.text
    assert "Jak grać:" in pl.text and '<html lang="pl">' in pl.text
    for heading in ENGLISH_HEADINGS:
        assert f"<h2>{heading}</h2>" in en.text
        assert heading not in pl.text
    for heading in POLISH_HEADINGS:
        assert f"<h2>{heading}</h2>" in pl.text
    # Every page marks the server's own decisions, in the reader's language.
    assert en.text.count("Server's choice") >= 2
    assert pl.text.count("Decyzja serwera") >= 2
    provisional = game_id in ("ganges", "dreadful_circus")
    assert ("Provisional card list" in en.text) is provisional
    assert ("Tymczasowa lista kart" in pl.text) is provisional


async def test_an_unknown_game_is_404(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.get("/rules/chess")
    assert r.status_code == 404 and "There is no game at this address." in r.text


async def test_lobby_and_table_link_to_the_rules(server: Server) -> None:
    ala = await Player(server.url, server.ws_url).login("Ala")
    lobby = await ala.http.get("/")
    for game_id in SHIPPED_IDS:
        assert f'href="/rules/{game_id}"' in lobby.text
    await ala.close()
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    page = await players[0].http.get(f"/t/{table['slug']}")
    assert 'href="/rules/incan_gold"' in page.text
    for p in players:
        await p.close()
