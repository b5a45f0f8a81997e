"""Polish and English at the server (issue 13): the browser's language on a first visit, a
switch kept with the person, and two people at one table each reading their own language
over the websocket; refusals in the reader's language, also for JSON clients (`?lang=pl`)."""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.asyncio.client import connect

from app import i18n
from tests.clients import Player, make_table
from tests.conftest import Server

POLISH = {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


async def test_first_visit_follows_the_browser(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        pl = await http.get("/name", headers=POLISH)
        en = await http.get("/name", headers=ENGLISH)
    assert '<html lang="pl">' in pl.text and "Witaj w Stoliku" in pl.text
    assert "Welcome" not in pl.text
    assert '<html lang="en">' in en.text and "Welcome to Stolik" in en.text


async def test_the_switch_is_kept_with_the_person(server: Server) -> None:
    """Switching to Polish sets a cookie and is stored with the person: another browser with
    the same identity (no language cookie, an English browser) reads Polish too."""
    ala = await Player(server.url, server.ws_url).login("Ala")
    r = await ala.http.post("/lang", data={"lang": "pl", "next": "/"}, headers=ENGLISH)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert ala.http.cookies.get("lang") == "pl"
    page = await ala.http.get("/", headers=ENGLISH)
    assert "Grasz jako <strong>Ala</strong>" in page.text
    async with httpx.AsyncClient(base_url=server.url) as other_device:
        other_device.cookies.set("stolik", ala.http.cookies["stolik"])
        page = await other_device.get("/", headers=ENGLISH)
    assert "Załóż stół" in page.text
    # Back to English, and a language nobody offers is refused without changing anything.
    await ala.http.post("/lang", data={"lang": "en", "next": "/"})
    bad = await ala.http.post("/lang", data={"lang": "xx", "next": "/"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_language"
    assert "Create a table" in (await ala.http.get("/", headers=POLISH)).text
    await ala.close()


async def test_refusals_speak_the_readers_language(server: Server) -> None:
    """HTTP refusals follow the request's language; JSON clients may ask with ?lang=pl."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        pl = await http.post("/api/tables/nope/join", headers=POLISH)
        en = await http.post("/api/tables/nope/join", headers=ENGLISH)
        asked = await http.post("/api/tables/nope/join?lang=pl", headers=ENGLISH)
    assert pl.json()["error"] == en.json()["error"] | {"message": pl.json()["error"]["message"]}
    assert en.json()["error"]["message"] == "Choose a display name first."
    assert pl.json()["error"]["message"] == "Najpierw wybierz swoje imię."
    assert asked.json()["error"]["message"] == "Najpierw wybierz swoje imię."


async def frames_until(ws: object, predicate: object, limit: int = 20) -> str:
    for _ in range(limit):
        frame = str(await asyncio.wait_for(ws.recv(), 5))  # type: ignore[attr-defined]
        if predicate(frame):  # type: ignore[operator]
            return frame
    raise AssertionError("no such frame")


async def test_two_languages_at_one_table(server: Server) -> None:
    """Ala reads Polish and Bartek English at the same table, pushed live: the seats bar,
    the waiting room, and a refusal each gets for the same mistake."""
    players, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bartek", "Celina"], start=False
    )
    ala, bartek, _celina = players
    url = f"{server.ws_url}/ws/t/{table['slug']}"
    try:
        async with (
            connect(url, additional_headers={"Cookie": ala.cookie, **POLISH}) as pl,
            connect(url, additional_headers={"Cookie": bartek.cookie, **ENGLISH}) as en,
        ):
            first_pl = await frames_until(pl, lambda f: 'id="board"' in f)
            first_en = await frames_until(en, lambda f: 'id="board"' in f)
            assert "Czekamy na graczy" in first_pl and 'aria-label="Gracze"' in first_pl
            assert "Waiting for players" in first_en and 'aria-label="Players"' in first_en
            assert "Waiting for players" not in first_pl
            # A change made by one of them reaches both, each in their own language.
            r = await ala.http.post(f"/api/tables/{table['slug']}/start")
            assert r.status_code == 200
            started_pl = await frames_until(pl, lambda f: "Zegar" in f or "Poddaj się" in f)
            started_en = await frames_until(en, lambda f: "Resign" in f)
            assert "Resign" not in started_pl and "Poddaj się" not in started_en
            # The same mistake, refused in each reader's language.
            stale = {"type": "act", "version": 999, "action": {"type": "torch"}}
            await pl.send(json.dumps(stale))
            await en.send(json.dumps(stale))
            err_pl = await frames_until(pl, lambda f: 'id="toast"' in f)
            err_en = await frames_until(en, lambda f: 'id="toast"' in f)
            assert "Gra poszła dalej" in err_pl
            assert "The table has moved on" in err_en
    finally:
        for p in players:
            await p.close()


async def test_json_clients_get_message_ids_and_their_language(server: Server) -> None:
    """A JSON client asking for Polish reads Polish lines and refusals, each with its English
    message id and parameters, so it may render them itself."""
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    ala = players[0]
    url = f"{server.ws_url}/ws/t/{table['slug']}?format=json&lang=pl"
    try:
        async with connect(url, additional_headers={"Cookie": ala.cookie, **ENGLISH}) as ws:
            state = json.loads(await frames_until(ws, lambda f: json.loads(f)["type"] == "state"))
            begins = state["entries"][0]
            assert begins["key"] == (
                "The game begins. Good luck! The shuffle is committed: %(commitment)s"
            )
            commitment = begins["params"]["commitment"]
            assert len(commitment) == 64
            assert (
                begins["text"]
                == state["log"][0]
                == (f"Gra się zaczyna. Powodzenia! Tasowanie jest zatwierdzone: {commitment}")
            )
            round_line = next(e for e in state["entries"] if e["key"].startswith("Round %"))
            assert round_line["params"]["round"] == 1
            assert round_line["text"].startswith("Zaczyna się runda 1; prowadzi ")
            assert [e["text"] for e in state["entries"]] == state["log"]
            await ws.send(json.dumps({"type": "act", "version": 999, "action": {"type": "x"}}))
            error = json.loads(await frames_until(ws, lambda f: json.loads(f)["type"] == "error"))
            assert error["code"] == "malformed_action" or error["code"] == "stale"
            assert error["key"] and error["message"] != error["key"]
        r = await ala.http.post(f"/api/tables/{table['slug']}/start?lang=pl")
        assert r.json()["error"] == {
            "code": "already_started",
            "message": "Gra już się zaczęła.",
            "key": "The game has already started.",
            "params": {},
        }
    finally:
        for p in players:
            await p.close()


async def test_the_game_list_speaks_the_readers_language(server: Server) -> None:
    """`GET /api/games`: every playable game with its player range and options schema, its
    title in the reader's language; asked again, the same answer (the schema is built once)."""
    from app.lobby import playable_engines

    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        en = (await http.get("/api/games", headers=ENGLISH)).json()
        pl = (await http.get("/api/games", headers=POLISH)).json()
        again = (await http.get("/api/games", headers=ENGLISH)).json()
    engines = {e.spec.id: e for e in playable_engines()}
    assert [g["id"] for g in en] == list(engines) and en == again
    for game_en, game_pl in zip(en, pl, strict=True):
        spec = engines[game_en["id"]].spec
        assert (game_en["min_players"], game_en["max_players"]) == (
            spec.min_players,
            spec.max_players,
        )
        assert game_en["options"] == spec.options.model_json_schema() == game_pl["options"]
        assert game_en["title"] == spec.title
        with i18n.use("pl"):
            assert game_pl["title"] == i18n.gettext(spec.title)
    titles = {g["id"]: g["title"] for g in pl}
    assert titles["racing_hedgehogs"] == "Pędzące Jeże"  # translated
