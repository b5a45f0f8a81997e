"""Friends over HTTP and the lobby socket (issue 35 section 2), on SQLite and PostgreSQL:
asking by profile link or name and answering; the profile's friend button; a friends-only
table refuses a stranger's seat (403, nothing changes) while the stranger may still watch;
inviting a friend in one click reaches their open lobby page at once, with the link."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import update
from websockets.asyncio.client import ClientConnection, connect

from app.accounts.names import name_key
from app.store.models import Device, User
from tests.conftest import REDIS_URL, Server, redis_or_skip, start_server
from tests.tables import app_of


async def guest(srv: Server, name: str) -> tuple[httpx.AsyncClient, int]:
    """A new guest's client and id."""
    http = httpx.AsyncClient(base_url=srv.url, timeout=10)
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()
    return http, int(r.json()["id"])


def cookie(http: httpx.AsyncClient) -> dict[str, str]:
    return {"Cookie": f"stolik={http.cookies.get('stolik')}"}


async def befriend(a: httpx.AsyncClient, b: httpx.AsyncClient, a_id: int, b_id: int) -> None:
    """`a` asks from `b`'s profile, `b` accepts."""
    r = await a.post(f"/u/{b_id}/friend")
    assert r.status_code == 200, r.text
    r = await b.post(f"/friends/{a_id}/accept")
    assert r.status_code == 303


async def next_of(sock: ClientConnection, kind: str) -> dict[str, Any]:
    """The next JSON message of `kind` on a socket."""

    async def read() -> dict[str, Any]:
        while True:
            raw = await sock.recv()
            msg: dict[str, Any] = json.loads(raw)
            if msg.get("type") == kind:
                return msg

    return await asyncio.wait_for(read(), 5)


async def test_asking_answering_and_the_profile_button(server: Server) -> None:
    ala, ala_id = await guest(server, "Ala")
    bolek, bolek_id = await guest(server, "Bolek")
    celina, celina_id = await guest(server, "Celina")
    try:
        # The profile offers a request; yourself: none, and asking yourself is refused.
        assert f'action="/u/{bolek_id}/friend"' in (await ala.get(f"/u/{bolek_id}")).text
        assert '/friend"' not in (await ala.get(f"/u/{ala_id}")).text
        r = await ala.post("/friends/add", data={"who": f"{server.url}/u/{ala_id}"})
        assert r.status_code == 422 and "cannot add yourself" in r.text

        # By name (any case): a request Bolek sees; asking twice says so.
        r = await ala.post("/friends/add", data={"who": "bolek"})
        assert r.status_code == 200 and "Friend request sent to Bolek." in r.text
        r = await ala.post("/friends/add", data={"who": "Bolek"})
        assert r.status_code == 409 and "already has your friend request" in r.text
        assert "waiting for an answer" in (await ala.get(f"/u/{bolek_id}")).text
        page = (await bolek.get("/friends")).text
        assert f'action="/friends/{ala_id}/accept"' in page
        assert f'action="/friends/{ala_id}/accept"' in (await bolek.get(f"/u/{ala_id}")).text

        # Bolek accepts: friends on both pages; accepting again is refused.
        assert (await bolek.post(f"/friends/{ala_id}/accept")).status_code == 303
        r = await bolek.post(f"/friends/{ala_id}/accept")
        assert r.status_code == 409 and "There is no friend request" in r.text
        for http, other in ((ala, "Bolek"), (bolek, "Ala")):
            page = (await http.get("/friends")).text
            assert f">{other}</a>" in page and "on Stolik now" in page
        r = await ala.post("/friends/add", data={"who": f"/u/{bolek_id}"})
        assert r.status_code == 409 and "friends already" in r.text

        # Celina asks Ala, who declines; then Ala removes Bolek.
        await celina.post(f"/u/{ala_id}/friend")
        assert (await ala.post(f"/friends/{celina_id}/decline")).status_code == 303
        assert (await ala.post(f"/friends/{bolek_id}/remove")).status_code == 303
        assert "No friends yet" in (await ala.get("/friends")).text
        assert "No friends yet" in (await bolek.get("/friends")).text
        assert f'action="/u/{ala_id}/friend"' in (await celina.get(f"/u/{ala_id}")).text

        # Nonsense answers and people.
        assert (await ala.post(f"/friends/{bolek_id}/hug")).status_code == 404
        assert (await ala.post("/friends/999999/accept")).status_code == 404
        r = await ala.post("/friends/add", data={"who": "Nobody at all"})
        assert r.status_code == 404 and "Nobody is called" in r.text
    finally:
        for http in (ala, bolek, celina):
            await http.aclose()


async def test_friends_only_table(server: Server) -> None:
    """Only the host's friends may sit; a stranger is refused (403 `friends_only`), the seats
    stay as they were, and the stranger may still watch the public table."""
    host, host_id = await guest(server, "Host")
    friend, friend_id = await guest(server, "Friend")
    stranger, _ = await guest(server, "Stranger")
    try:
        await befriend(friend, host, friend_id, host_id)
        r = await host.post(
            "/api/tables", json={"game": "incan_gold", "seats": 3, "friends_only": True}
        )
        slug = r.json()["slug"]
        before = (await host.get(f"/api/tables/{slug}")).json()
        assert before["friends_only"] is True

        r = await stranger.post(f"/api/tables/{slug}/join")
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "friends_only"
        assert "Only the host's friends" in r.json()["error"]["message"]
        after = (await host.get(f"/api/tables/{slug}")).json()["seats"]
        # Who sits where is unchanged (`offline_for` counts the seconds, so it moves on).
        assert [{**s, "offline_for": None} for s in after] == [
            {**s, "offline_for": None} for s in before["seats"]
        ]
        page = await stranger.get(f"/t/{slug}")
        assert page.status_code == 200 and "friends only" in page.text
        url = f"{server.ws_url}/ws/t/{slug}?format=json"
        async with connect(url, additional_headers=cookie(stranger), open_timeout=5) as sock:
            state = await next_of(sock, "state")
        assert state["room"]["friends_only"] is True
        listed = {t["slug"]: t for t in (await stranger.get("/api/tables")).json()}
        assert listed[slug]["friends_only"] is True

        r = await friend.post(f"/api/tables/{slug}/join")
        assert r.status_code == 200, r.text
        seats = (await host.get(f"/api/tables/{slug}")).json()["seats"]
        assert [s["name"] for s in seats] == ["Host", "Friend", None]
    finally:
        for http in (host, friend, stranger):
            await http.aclose()


async def test_an_invitation_reaches_the_open_lobby(server: Server) -> None:
    """The host invites a friend to a private table in one click: the friend's open lobby page
    gets the invitation at once, with a link that opens the table. Inviting a non-friend, or
    to a table where you have no seat, is refused and writes nothing."""
    host, host_id = await guest(server, "Host")
    friend, friend_id = await guest(server, "Friend")
    stranger, stranger_id = await guest(server, "Stranger")
    try:
        await befriend(host, friend, host_id, friend_id)
        r = await host.post("/api/tables", json={"game": "incan_gold", "seats": 3, "private": True})
        slug, code = r.json()["slug"], r.json()["invite_code"]
        panel = await host.get(f"/t/{slug}/friends")
        assert f'name="friend" value="{friend_id}"' in panel.text
        assert f'value="{stranger_id}"' not in panel.text

        url = f"{server.ws_url}/ws/lobby?format=json"
        async with connect(url, additional_headers=cookie(friend), open_timeout=5) as sock:
            await next_of(sock, "lobby")
            r = await host.post(
                f"/t/{slug}/invite", data={"friend": friend_id}, headers={"HX-Request": "true"}
            )
            assert r.status_code == 200 and "Invited Friend" in r.text
            pushed = await next_of(sock, "invitations")
        [invitation] = pushed["invitations"]
        assert invitation["from_name"] == "Host"
        assert invitation["slug"] == slug and invitation["code"] == code
        table_page = await friend.get(f"/t/{slug}?code={code}")
        assert table_page.status_code == 200
        assert "Host invites you to Incan Gold" in (await friend.get("/")).text

        # Refusals: a non-friend, and by someone without a seat; nothing is written.
        r = await host.post(f"/t/{slug}/invite", data={"friend": stranger_id})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_friends"
        await befriend(stranger, friend, stranger_id, friend_id)
        r = await friend.post(f"/t/{slug}/invite", data={"friend": stranger_id})
        assert r.status_code == 404  # a private table she has no seat at: not even seen
        public = (await host.post("/api/tables", json={"game": "incan_gold", "seats": 3})).json()
        r = await friend.post(f"/t/{public['slug']}/invite", data={"friend": stranger_id})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
        assert "invites you" not in (await stranger.get("/friends")).text

        # Dismissed, it is gone.
        r = await friend.post(f"/friends/invitations/{invitation['id']}/dismiss")
        assert r.status_code == 303
        assert "invites you" not in (await friend.get("/friends")).text
    finally:
        for http in (host, friend, stranger):
            await http.aclose()


async def test_an_invitation_reaches_a_lobby_on_another_process(
    pg_url: str, tmp_path: Path
) -> None:
    """Two processes on one database and one Redis channel: the host invites through one,
    the friend's lobby socket on the other shows the invitation at once (over the bus)."""
    await redis_or_skip()
    channel = f"stolik:test:{uuid.uuid4().hex}"
    one, two = [
        await start_server(pg_url, tmp_path / name, redis_url=REDIS_URL, redis_channel=channel)
        for name in ("one", "two")
    ]
    host, host_id = await guest(one, "Host")
    friend, friend_id = await guest(one, "Friend")
    try:
        await befriend(host, friend, host_id, friend_id)
        slug = (await host.post("/api/tables", json={"game": "ganges", "seats": 2})).json()["slug"]
        url = f"{two.ws_url}/ws/lobby?format=json"
        async with connect(url, additional_headers=cookie(friend), open_timeout=5) as sock:
            await next_of(sock, "lobby")
            r = await host.post(f"/t/{slug}/invite", data={"friend": friend_id})
            assert r.status_code == 303
            pushed = await next_of(sock, "invitations")
        assert [i["slug"] for i in pushed["invitations"]] == [slug]
    finally:
        for http in (host, friend):
            await http.aclose()
        await asyncio.gather(one.stop(), two.stop())


async def test_a_friend_request_is_announced_on_the_open_lobby(server: Server) -> None:
    """A request shows at once on its addressee's open lobby (how many wait), and on the
    lobby page they load later."""
    ala, _ = await guest(server, "Ala")
    bolek, bolek_id = await guest(server, "Bolek")
    try:
        url = f"{server.ws_url}/ws/lobby?format=json"
        async with connect(url, additional_headers=cookie(bolek), open_timeout=5) as sock:
            await next_of(sock, "lobby")
            assert (await ala.post(f"/u/{bolek_id}/friend")).status_code == 200
            pushed = await next_of(sock, "invitations")
        assert pushed["friend_requests"] == 1 and pushed["invitations"] == []
        assert "1 friend request waits for your answer" in (await bolek.get("/")).text
    finally:
        for http in (ala, bolek):
            await http.aclose()


async def test_a_friend_on_a_socket_counts_as_online(server: Server) -> None:
    """A friend whose devices were last seen long ago is "not here now"; once their process
    notes the devices with an open socket (the ticker's `touch_devices`), they are online."""
    ala, ala_id = await guest(server, "Ala")
    bolek, bolek_id = await guest(server, "Bolek")
    app = app_of(server)
    try:
        await befriend(ala, bolek, ala_id, bolek_id)
        url = f"{server.ws_url}/ws/lobby?format=json"
        async with connect(url, additional_headers=cookie(bolek), open_timeout=5) as sock:
            await next_of(sock, "lobby")
            long_ago = app.state.tables.runtime.now() - 3600
            async with app.state.sessions.begin() as session:
                await session.execute(
                    update(Device).where(Device.user_id == bolek_id).values(last_seen=long_ago)
                )
            assert "not here now" in (await ala.get("/friends")).text
            await app.state.tables.touch_devices()
            assert "on Stolik now" in (await ala.get("/friends")).text
    finally:
        for http in (ala, bolek):
            await http.aclose()


async def test_an_account_owns_its_name_when_asked_by_name(server: Server) -> None:
    """Typing a name finds the account that owns it, ignoring capitals and accents, however
    many guests share the name; among guests alone, two of one name are ambiguous."""
    ala, _ = await guest(server, "Ala")
    twins = [await guest(server, "Łukasz") for _ in range(2)]
    owner, owner_id = await guest(server, "Łukasz")
    try:
        r = await ala.post("/friends/add", data={"who": "Łukasz"})
        assert r.status_code == 409 and "Several people are called" in r.text
        async with app_of(server).state.sessions.begin() as session:
            await session.execute(
                update(User).where(User.id == owner_id).values(name_key=name_key("Łukasz"))
            )
        r = await ala.post("/friends/add", data={"who": "lukasz"})
        assert r.status_code == 200 and "Friend request sent to Łukasz." in r.text
        page = (await owner.get("/friends")).text
        assert "/accept" in page
        for http, _id in twins:
            assert "/accept" not in (await http.get("/friends")).text
    finally:
        for http in (ala, owner, *(h for h, _ in twins)):
            await http.aclose()
