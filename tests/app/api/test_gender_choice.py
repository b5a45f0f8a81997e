"""How the site speaks of a person (issue 33): chosen on the name page, kept with the person,
carried to the tables they sit at (a new revision: pages and log drawn again), and read by
the log at render time."""

from __future__ import annotations

from sqlalchemy import select

from app import i18n
from app.presentation import log
from app.store.models import User
from tests.clients import Player, make_table, table_of
from tests.conftest import Server
from tests.tables import app_of

POLISH = {"Accept-Language": "pl-PL,pl;q=0.9"}


async def _stored_gender(server: Server, user_id: int) -> str | None:
    async with app_of(server).state.tables.sessions() as session:
        gender: str | None = (
            await session.execute(select(User.gender).where(User.id == user_id))
        ).scalar()
        return gender


async def test_a_new_guest_chooses_on_the_name_page(server: Server) -> None:
    me = Player(server.url, server.ws_url)
    page = await me.http.get("/name", headers=POLISH)
    assert "Jak gra ma o tobie mówić?" in page.text
    assert page.text.count('name="gender"') == 3 and "checked" not in page.text
    r = await me.http.post(
        "/name", data={"name": "Bożena", "gender": "she", "next": "/"}, headers=POLISH
    )
    assert r.status_code == 303
    again = await me.http.get("/name", headers=POLISH)
    assert 'value="she" checked' in again.text
    await me.close()


async def test_a_change_reaches_the_table_and_its_log(server: Server) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bartek", "Celina"])
    ala = players[0]
    slug = table["slug"]
    try:
        hub = table_of(app_of(server), slug)
        uid = hub.seats[0].user_id
        assert uid is not None and hub.seats[0].grammar == "neutral"
        r = await ala.http.post(f"/api/tables/{slug}/resign")
        assert r.status_code == 200
        with i18n.use("pl"):
            assert "Ala poddaje grę; bot ją dokończy." in log.texts(hub.snapshot())
        before = hub.revision
        r = await ala.http.post("/name", data={"name": "Ala", "gender": "she", "next": "/"})
        assert r.status_code == 303
        assert await _stored_gender(server, uid) == "she"
        assert hub.seats[0].gender == "she" and hub.revision > before
        with i18n.use("pl"):
            texts = log.texts(hub.snapshot())
        # The stored line is the same; it reads in her words now.
        assert "Ala poddała się; bot dokończy jej grę." in texts
        assert "Ala poddaje grę; bot ją dokończy." not in texts
        # Said to her: her own form.
        r = await ala.http.post(f"/api/tables/{slug}/resign", headers=POLISH)
        assert r.json()["error"]["message"] == "Już się poddałaś."
        # A choice nobody offers is ignored; the name page keeps the one she made.
        await ala.http.post("/name", data={"name": "Ala", "gender": "xx", "next": "/"})
        assert await _stored_gender(server, uid) == "she"
    finally:
        for p in players:
            await p.close()
