"""The bot API (issue 36 §2, docs/bot-api.md) on SQLite and PostgreSQL: a person makes a bot
and sees its token once; only the hash is stored; the token opens the bot API and the table
socket until it is revoked (its open socket closes at once); a bot sits only where the host
lets outside bots sit; bad input is refused and changes nothing."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.store.engine import make_engine, make_session_factory
from app.store.models import BotAccount
from tests.clients import Player
from tests.conftest import Server, served

_PEOPLE: list[Player] = []


@pytest.fixture(autouse=True)
async def _close_people() -> AsyncIterator[None]:
    """Every guest a test made is closed after it."""
    yield
    while _PEOPLE:
        await _PEOPLE.pop().close()


async def host(srv: Server, name: str = "Ala") -> Player:
    person = Player(srv.url, srv.ws_url)
    _PEOPLE.append(person)
    return await person.login(name)


async def new_bot(person: Player, name: str = "Rysiek") -> dict[str, Any]:
    r = await person.http.post("/api/bots", json={"name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def table(person: Player, *, outside_bots: bool, seats: int = 2, **more: Any) -> str:
    body = {"game": "karmaka", "seats": seats, "outside_bots": outside_bots, **more}
    r = await person.http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["slug"])


async def test_token_shown_once_stored_hashed_and_revocable(server: Server) -> None:
    ala = await host(server)
    made = await new_bot(ala)
    token = made["token"]
    assert token.startswith("stolik_bot_") and len(token) > 40

    # Shown once: the list never carries a token.
    listed = (await ala.http.get("/api/bots")).json()
    assert [(b["id"], b["name"], b["token"], b["revoked"]) for b in listed] == [
        (made["id"], "Rysiek", None, None)
    ]

    # Stored hashed: the database holds the SHA-256 and not the token.
    engine = make_engine(server.settings.database_url)
    try:
        async with make_session_factory(engine)() as db:
            row = (await db.execute(select(BotAccount))).scalar_one()
    finally:
        await engine.dispose()
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in json.dumps([row.token_hash, row.user_id, row.owner_id])

    async with httpx.AsyncClient(base_url=server.url, timeout=10) as bot:
        me = await bot.get("/api/bot/account", headers=bearer(token))
        assert me.json() == {
            "id": made["id"],
            "name": "Rysiek",
            "created": None,
            "revoked": None,
            "token": None,
        }
        # Wrong, missing and other-scheme tokens are refused.
        for headers, code in [
            (bearer(token + "x"), "bad_token"),
            (bearer("stolik_bot_nothing"), "bad_token"),
            (bearer("nonsense"), "bad_token"),
            ({"Authorization": f"Basic {token}"}, "bad_token"),
            ({}, "no_token"),
        ]:
            r = await bot.get("/api/bot/tables", headers=headers)
            assert r.status_code == 401 and r.json()["error"]["code"] == code

        # The bot's socket is open at a table; revoking closes it and refuses the token.
        slug = await table(ala, outside_bots=True)
        assert (await bot.post(f"/api/bot/tables/{slug}/join", headers=bearer(token))).json()[
            "seat"
        ] == 1
        url = f"{server.ws_url}/ws/t/{slug}?format=json&legal=1"
        async with connect(url, additional_headers=bearer(token)) as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "state" and first["room"]["your_seat"] == 1
            # Someone else cannot revoke it.
            ola = await host(server, "Ola")
            r = await ola.http.delete(f"/api/bots/{made['id']}")
            assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_bot"
            assert (await ala.http.delete(f"/api/bots/{made['id']}")).json() == {"ok": True}
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        r = await bot.get("/api/bot/account", headers=bearer(token))
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        async with connect(url, additional_headers=bearer(token)) as ws:
            refused = json.loads(await ws.recv())
        assert refused["type"] == "error" and refused["code"] == "bad_token"
        # Revoked twice: nothing to revoke.
        assert (await ala.http.delete(f"/api/bots/{made['id']}")).status_code == 404
        listed = (await ala.http.get("/api/bots")).json()
        assert listed[0]["revoked"] is not None and listed[0]["token"] is None


async def test_bots_sit_only_where_the_host_lets_them(server: Server) -> None:
    ala = await host(server)
    token = (await new_bot(ala))["token"]
    closed_to_bots = await table(ala, outside_bots=False)
    open_to_bots = await table(ala, outside_bots=True, seats=3)
    private = await table(ala, outside_bots=True, private=True)
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as bot:
        listed = (await bot.get("/api/bot/tables", headers=bearer(token))).json()
        assert [t["slug"] for t in listed] == [open_to_bots]
        assert listed[0]["socket"] == f"/ws/t/{open_to_bots}?format=json&legal=1"

        r = await bot.post(f"/api/bot/tables/{closed_to_bots}/join", headers=bearer(token))
        assert r.status_code == 403 and r.json()["error"]["code"] == "no_outside_bots"
        facts = (await ala.http.get(f"/api/tables/{closed_to_bots}")).json()
        assert facts["outside_bots"] is False
        assert [s["name"] for s in facts["seats"]] == ["Ala", None]  # nothing changed

        # A private table without its code answers like a missing one.
        r = await bot.post(f"/api/bot/tables/{private}/join", headers=bearer(token))
        assert r.status_code == 404

        # Bad input: a seat that does not exist, twice the same bot.
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/join?seat=7", headers=bearer(token))
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/join?seat=x", headers=bearer(token))
        assert r.status_code == 422
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/join", headers=bearer(token))
        assert r.json()["seat"] == 1
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/join", headers=bearer(token))
        assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
        facts = (await bot.get(f"/api/bot/tables/{open_to_bots}", headers=bearer(token))).json()
        assert facts["outside_bots"] is True and facts["your_seat"] == 1
        assert [s["name"] for s in facts["seats"]] == ["Ala", "Rysiek", None]
        assert [s["program"] for s in facts["seats"]] == [False, True, False]

        # It may leave before the start, and the listing follows.
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/leave", headers=bearer(token))
        assert r.json() == {"ok": True}
        facts = (await ala.http.get(f"/api/tables/{open_to_bots}")).json()
        assert [s["name"] for s in facts["seats"]] == ["Ala", None, None]
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/leave", headers=bearer(token))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_seated"

        # The host may take it out of its seat before the start, as a built-in bot.
        r = await bot.post(f"/api/bot/tables/{open_to_bots}/join?seat=2", headers=bearer(token))
        assert r.json()["seat"] == 2
        ola = await host(server, "Ola")
        r = await ola.http.delete(f"/api/tables/{open_to_bots}/bots/2")
        assert r.status_code in (403, 409)  # only the host
        assert (await ala.http.delete(f"/api/tables/{open_to_bots}/bots/2")).json()["ok"]
        facts = (await ala.http.get(f"/api/tables/{open_to_bots}")).json()
        assert [s["name"] for s in facts["seats"]] == ["Ala", None, None]


async def test_bad_bot_input_is_refused(server: Server) -> None:
    ala = await host(server)
    for body in [{"name": ""}, {"name": "x" * 200}, {}, {"name": 5}]:
        r = await ala.http.post("/api/bots", json=body)
        assert r.status_code == 422, body
    assert (await ala.http.get("/api/bots")).json() == []
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as nobody:
        assert (await nobody.post("/api/bots", json={"name": "Bot"})).status_code == 401
        assert (await nobody.get("/api/bots")).status_code == 401
    r = await ala.http.delete("/api/bots/999999")
    assert r.status_code == 404
    r = await ala.http.post(
        "/api/tables", json={"game": "karmaka", "seats": 2, "outside_bots": "maybe"}
    )
    assert r.status_code == 422


async def test_the_create_form_sets_the_option(server: Server, tmp_path: Path) -> None:
    ala = await host(server)
    form = {"game": "karmaka", "seats": "2", "visibility": "public", "outside_bots": "on"}
    r = await ala.http.post("/tables", data=form)
    assert r.status_code == 303
    slug = r.headers["location"].split("/t/")[1]
    assert (await ala.http.get(f"/api/tables/{slug}")).json()["outside_bots"] is True
    # The table's page says so, to the players and in Polish too.
    assert "outside bots may sit" in (await ala.http.get(f"/t/{slug}")).text
    polish = await ala.http.get(f"/t/{slug}", headers={"Accept-Language": "pl"})
    assert "boty z zewnątrz</span>" in polish.text
    form.pop("outside_bots")
    r = await ala.http.post("/tables", data=form)
    slug = r.headers["location"].split("/t/")[1]
    assert (await ala.http.get(f"/api/tables/{slug}")).json()["outside_bots"] is False
    assert "outside bots may sit" not in (await ala.http.get(f"/t/{slug}")).text


async def test_your_bots_page_shows_the_token_once(server: Server) -> None:
    ala = await host(server)
    page = await ala.http.get("/bots")
    assert page.status_code == 200 and "You have no bots yet." in page.text
    made = await ala.http.post("/bots", data={"name": "  Rysiek  "})
    found = re.search(r'id="bot-token"[^>]*value="(stolik_bot_[^"]+)"', made.text)
    assert made.status_code == 200 and found, made.text[:2000]
    token = found.group(1)
    again = await ala.http.get("/bots")
    assert "Rysiek" in again.text and token not in again.text  # shown once
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as bot:
        assert (await bot.get("/api/bot/account", headers=bearer(token))).json()["name"] == (
            "Rysiek"
        )
        bot_id = (await ala.http.get("/api/bots")).json()[0]["id"]
        r = await ala.http.post(f"/bots/{bot_id}/revoke")
        assert r.status_code == 303
        assert (await bot.get("/api/bot/account", headers=bearer(token))).status_code == 401
    listed = (await ala.http.get("/bots")).text
    assert "revoked" in listed and f"/bots/{bot_id}/revoke" not in listed
    bad = await ala.http.post("/bots", data={"name": "   "})
    assert bad.status_code == 400 and 'role="alert"' in bad.text
    assert len((await ala.http.get("/api/bots")).json()) == 1


async def test_the_bot_api_page_in_both_languages(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        en = await http.get("/bots/api", headers={"Accept-Language": "en"})
        pl = await http.get("/bots/api?lang=pl")
    assert en.status_code == pl.status_code == 200
    assert "Authorization: Bearer" in en.text and "/api/schema/ws" in en.text
    assert "Finding a table" in en.text
    assert '<html lang="pl">' in pl.text and "Szukanie stołu" in pl.text
    assert "API dla botów" in pl.text


async def test_a_bot_has_the_same_budget_as_a_browser(db_url: str, tmp_path: Path) -> None:
    """Past the act budget a bot's messages are answered `rate_limited`, and far past it its
    socket is closed with 4429, exactly as a browser's (a new socket keeps the budget)."""
    async with served(
        db_url, tmp_path, act_rate_count=5, act_rate_window=60.0, act_rate_close=3
    ) as srv:
        ala = await host(srv)
        token = (await new_bot(ala))["token"]
        slug = await table(ala, outside_bots=True)
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as bot:
            r = await bot.post(f"/api/bot/tables/{slug}/join", headers=bearer(token))
            assert r.status_code == 200
        url = f"{srv.ws_url}/ws/t/{slug}?format=json&legal=1"
        codes: list[str] = []
        async with connect(url, additional_headers=bearer(token)) as ws:
            for _ in range(5 + 3 + 2):
                await ws.send(json.dumps({"type": "sync"}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if frame["type"] == "error":
                        codes.append(frame["code"])
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert codes and set(codes) == {"rate_limited"}
