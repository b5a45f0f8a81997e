"""The push routes, on SQLite and PostgreSQL: bad subscriptions are refused with a clear
error and store nothing (an address that is not https or points inside the network, keys
that are not a browser's, unknown events, nobody signed in); the devices page's switch and
choices change only the person's own devices; unsubscribing; the key for the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import text

from app.api.routes.push import _public_endpoint
from tests.app.push.conftest import subscribe
from tests.clients import Player
from tests.conftest import start_server
from tests.push_service import PushService


def test_only_public_https_push_services() -> None:
    assert _public_endpoint("https://fcm.googleapis.com/fcm/send/abc", False)
    for bad in (
        "http://fcm.googleapis.com/x",
        "https://localhost/x",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest",
        "ftp://example.org/x",
        "https:///nohost",
        "https://[bad/x",
    ):
        assert not _public_endpoint(bad, False), bad
    assert _public_endpoint("http://127.0.0.1:9/x", True)


async def stored(srv: Any) -> int:
    sessions = srv.server.config.app.state.sessions
    async with sessions() as session:
        got = await session.execute(text("SELECT count(*) FROM push_subscriptions"))
        return int(got.scalar_one())


async def test_bad_subscriptions_are_refused(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path)
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    nobody = Player(srv.url, srv.ws_url)
    try:
        key = (await ala.http.get("/push/key")).json()["key"]
        assert len(key) == 87  # an uncompressed P-256 point, base64url
        good = push.subscribe().as_json() | {"endpoint": "https://push.example.org/abc"}
        cases: list[tuple[dict[str, Any], str]] = [
            (good | {"endpoint": "http://push.example.org/abc"}, "bad_endpoint"),
            (good | {"endpoint": "https://192.168.0.1/abc"}, "bad_endpoint"),
            (good | {"keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, "bad_keys"),
            (good | {"keys": {"p256dh": good["keys"]["p256dh"], "auth": "!!"}}, "bad_keys"),
            (good | {"events": ["turn", "gossip"]}, "bad_events"),
        ]
        for body, code in cases:
            r = await ala.http.post("/push/subscriptions", json=body)
            assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
        r = await nobody.http.post("/push/subscriptions", json=good)
        assert r.status_code == 401
        assert await stored(srv) == 0
        r = await ala.http.post("/push/subscriptions", json=good | {"events": ["over"]})
        assert r.json()["events"] == ["over"]
        assert await stored(srv) == 1
    finally:
        await ala.close()
        await nobody.close()
        await srv.stop()


async def test_choices_and_switch_are_the_persons_own(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, push_insecure_endpoints=True)
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    ola = await Player(srv.url, srv.ws_url).login("Ola")
    try:
        sub = await subscribe(ala, push)
        page = (await ala.http.get("/devices")).text
        sub_id = int(page.split('action="/push/subscriptions/', 1)[1].split('"', 1)[0])
        # Another person cannot touch it.
        r = await ola.http.post(f"/push/subscriptions/{sub_id}", data={"events": ["turn"]})
        assert r.status_code == 404
        r = await ola.http.post(f"/push/subscriptions/{sub_id}/remove")
        assert r.status_code == 404
        # Its person turns it off and keeps two events.
        r = await ala.http.post(f"/push/subscriptions/{sub_id}", data={"events": ["turn", "over"]})
        assert r.status_code == 303
        page = (await ala.http.get("/devices")).text
        assert 'name="enabled" value="on" checked' not in page
        assert page.count('name="events" value="turn" checked') == 1
        assert 'name="events" value="start" checked' not in page
        r = await ala.http.post("/push/unsubscribe", json={"endpoint": sub.endpoint})
        assert r.json() == {"removed": True}
        assert await stored(srv) == 0
    finally:
        await ala.close()
        await ola.close()
        await srv.stop()


async def test_a_signed_out_device_gets_no_more_pushes(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, push_insecure_endpoints=True)
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    try:
        await subscribe(ala, push)
        page = (await ala.http.get("/devices")).text
        device = page.split('action="/devices/', 1)[1].split("/signout", 1)[0]
        assert await stored(srv) == 1
        r = await ala.http.post(f"/devices/{device}/signout")
        assert r.status_code == 303
        assert await stored(srv) == 0
    finally:
        await ala.close()
        await srv.stop()


async def test_push_off_offers_nothing(db_url: str, tmp_path: Path) -> None:
    srv = await start_server(db_url, tmp_path, push=False)
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    try:
        assert (await ala.http.get("/push/key")).status_code == 404
        assert 'id="notifications"' not in (await ala.http.get("/devices")).text
    finally:
        await ala.close()
        await srv.stop()
