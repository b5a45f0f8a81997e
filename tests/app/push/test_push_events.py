"""Web Push end to end, on SQLite and PostgreSQL: real tables played over the sockets, the
server's sender delivering to the local push service (tests/push_service.py), which checks
each push's VAPID token and decrypts it with the subscription's keys. One test per event
(your turn, start, game over with the place, invitation, bank below a quarter), the tag that
collapses a table's pushes, the person's language, and "your turn" at a live table only for
a person with no tab of it for 60 s."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from app.clocks import banks_running_low
from app.push.notices import after_move
from tests.app.push.conftest import subscribe
from tests.clients import Player
from tests.conftest import FakeClock, Server, start_server
from tests.push_service import PushService

PUSH: dict[str, Any] = {"push_insecure_endpoints": True, "push_poll": 0.05}


async def two_at_a_table(
    srv: Server, clock: str, *, connect: bool = True
) -> tuple[Player, Player, str]:
    """Ala hosts a High Card table with the `clock`, Bartek joins (neither started yet)."""
    ala = await Player(srv.url, srv.ws_url).login("Ala")
    bartek = await Player(srv.url, srv.ws_url).login("Bartek")
    r = await ala.http.post("/api/tables", json={"game": "high_card", "seats": 2, "clock": clock})
    r.raise_for_status()
    slug: str = r.json()["slug"]
    (await bartek.http.post(f"/api/tables/{slug}/join")).raise_for_status()
    if connect:
        await ala.connect(slug)
    return ala, bartek, slug


async def move(player: Player, action: str, version: int) -> None:
    await player.act({"type": action}, version)
    await player.wait_version(version + 1)


def kinds(push: PushService, sub: Any) -> list[str]:
    return [r.payload["kind"] for r in push.of(sub)]


async def test_each_event_reaches_its_person(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, metrics_token="m", **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "slow")
        await bartek.connect(slug)
        to_ala = await subscribe(ala, push)
        to_bartek = await subscribe(bartek, push)
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await push.wait(1)
        assert kinds(push, to_bartek) == ["start"] and kinds(push, to_ala) == []

        await ala.wait_version(0)
        await move(ala, "keep", 0)  # Bartek's turn (slow clock: pushed though his tab is open)
        await push.wait(2)
        turn = push.of(to_bartek)[-1].payload
        assert turn["kind"] == "turn" and turn["version"] == 1
        assert turn["title"] == "Your turn: High Card"
        assert turn["url"] == f"/t/{slug}" and turn["tag"] == f"stolik-{slug}"
        assert turn["check"] == f"/push/check/{slug}?version=1"
        # What the worker asks before showing it: true now, false once he has moved.
        check = await bartek.http.get(turn["check"])
        assert check.json() == {"current": True}

        await bartek.wait_version(1)
        await move(bartek, "keep", 1)  # the last move: game over, a place for each
        await push.wait(4)
        assert (await bartek.http.get(turn["check"])).json() == {"current": False}
        overs = {name: push.of(sub)[-1].payload for name, sub in (("a", to_ala), ("b", to_bartek))}
        places = sorted(p["body"].rsplit(" ", 1)[1] for p in overs.values())
        assert places == ["1.", "2."]
        assert all(
            p["kind"] == "over" and p["title"] == "Game over: High Card" for p in overs.values()
        )

        (await ala.http.post(f"/api/tables/{slug}/rematch")).raise_for_status()
        await push.wait(5)
        invite = push.of(to_bartek)[-1].payload
        assert invite["kind"] == "invite" and invite["table"] != slug
        assert kinds(push, to_ala) == ["over"]  # nobody is pushed what they did themselves
        # Every push of a table carries its tag, as payload and as the push service's Topic.
        for got in push.received:
            assert got.headers["topic"] == got.payload["tag"] == f"stolik-{got.payload['table']}"
            assert got.claims["aud"] == push.url
        assert push.refused == []
        metrics = await ala.http.get("/metrics", headers={"Authorization": "Bearer m"})
        assert 'stolik_pushes_total{outcome="sent"} 5.0' in metrics.text
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


async def test_a_slow_game_starts_with_the_first_turn_pushed(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    """Incan Gold: everyone decides at once, so the start is also the others' first turn."""
    srv = await start_server(db_url, tmp_path, **PUSH)
    try:
        people = [await Player(srv.url, srv.ws_url).login(n) for n in ("Ala", "Bartek", "Celina")]
        r = await people[0].http.post(
            "/api/tables", json={"game": "incan_gold", "seats": 3, "clock": "slow"}
        )
        slug = r.json()["slug"]
        for p in people[1:]:
            (await p.http.post(f"/api/tables/{slug}/join")).raise_for_status()
        subs = [await subscribe(p, push) for p in people]
        (await people[0].http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await push.wait(4)
        await asyncio.sleep(0.3)
        assert kinds(push, subs[0]) == []  # the host started it
        for sub in subs[1:]:
            assert sorted(kinds(push, sub)) == ["start", "turn"]
            assert {r.payload["version"] for r in push.of(sub)} == {0}
        for p in people:
            await p.close()
    finally:
        await srv.stop()


async def test_a_polish_person_reads_polish(db_url: str, tmp_path: Path, push: PushService) -> None:
    srv = await start_server(db_url, tmp_path, **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "slow")
        r = await bartek.http.post("/lang", data={"lang": "pl"}, follow_redirects=False)
        assert r.status_code < 400, r.text
        to_bartek = await subscribe(bartek, push, ["turn"])
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await ala.wait_version(0)
        await move(ala, "swap", 0)
        got = (await push.wait(1))[0].payload
        assert got["title"] == "Twój ruch: High Card", got
        assert got["body"] == f"Stół {slug}: teraz Twój ruch."
        assert got["lang"] == "pl" and kinds(push, to_bartek) == ["turn"]
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


async def test_live_table_pushes_only_after_60_s_without_a_tab(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    clock = FakeClock()
    srv = await start_server(db_url, tmp_path, now=clock, **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "none")
        to_bartek = await subscribe(bartek, push, ["turn"])
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await ala.wait_version(0)
        await move(ala, "keep", 0)  # Bartek has no tab open, but only since the start
        await asyncio.sleep(0.5)
        assert push.received == []
        clock.advance(61)
        got = (await push.wait(1))[0].payload
        assert got["kind"] == "turn" and kinds(push, to_bartek) == ["turn"]
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


async def test_an_open_tab_gets_no_turn_push(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "normal")
        await bartek.connect(slug)
        await subscribe(bartek, push)
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await push.wait(1)  # "start"
        await ala.wait_version(0)
        await move(ala, "keep", 0)
        await asyncio.sleep(0.5)
        assert [r.payload["kind"] for r in push.received] == ["start"]
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


async def test_a_device_gets_only_what_it_chose(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "slow")
        phone = await subscribe(bartek, push, ["over"])
        laptop = await subscribe(bartek, push, ["turn", "over"])
        subs = (await bartek.http.get("/devices")).text
        assert subs.count('<li class="push-device') == 2
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await ala.wait_version(0)
        await move(ala, "keep", 0)
        await push.wait(1)
        assert kinds(push, laptop) == ["turn"] and kinds(push, phone) == []
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


def test_game_over_tells_each_person_their_place() -> None:
    over = after_move(
        room_id=1,
        version=6,
        people={0: 10, 1: 11},
        acting_now=[],
        slow=True,
        offline_for={},
        now=100.0,
        ranks={0: 2, 1: 1},
    )
    got = {(n.user_id, n.kind, n.params["place"]) for n in over}
    assert got == {(10, "over", 2), (11, "over", 1)}


def test_a_bank_running_low_is_seen_while_the_clock_runs() -> None:
    # Normal: 90 s per decision + a 600 s bank; a quarter is 150 s.
    clock = {"spec": "normal", "banks": {"0": 600.0, "1": 100.0}, "started": {"0": 0.0, "1": 0.0}}
    assert banks_running_low(clock, 90 + 449) == []
    assert banks_running_low(clock, 90 + 451) == [(0, 0.0)]  # seat 1 was low before it began
    assert banks_running_low({**clock, "spec": "slow"}, 10**6) == []  # no bank


async def test_extra_time_below_a_quarter_is_pushed_once(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    clock = FakeClock()
    srv = await start_server(db_url, tmp_path, now=clock, clock_tick=0.05, **PUSH)
    try:
        ala, bartek, slug = await two_at_a_table(srv, "fast")  # 30 s + a 180 s bank
        await bartek.connect(slug)
        to_ala = await subscribe(ala, push, ["bank"])
        (await ala.http.post(f"/api/tables/{slug}/start")).raise_for_status()
        await ala.wait_version(0)
        clock.advance(30 + 134)  # 46 s of the bank left: not yet
        await asyncio.sleep(0.5)
        assert push.received == []
        clock.advance(2)  # 44 s left: below a quarter (45 s)
        got = (await push.wait(1))[0].payload
        assert got["kind"] == "bank" and got["title"] == "Your time is running out: High Card"
        clock.advance(5)
        await asyncio.sleep(0.5)
        assert kinds(push, to_ala) == ["bank"]  # once per decision
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()


async def test_a_friends_invitation_is_pushed_with_their_name(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    srv = await start_server(db_url, tmp_path, **PUSH)
    try:
        ala, bartek = Player(srv.url, srv.ws_url), Player(srv.url, srv.ws_url)
        ala_id = (await ala.http.post("/api/guest", json={"name": "Ala"})).json()["id"]
        bartek_id = (await bartek.http.post("/api/guest", json={"name": "Bartek"})).json()["id"]
        assert (await ala.http.post(f"/u/{bartek_id}/friend")).status_code == 200
        assert (await bartek.http.post(f"/friends/{ala_id}/accept")).status_code == 303
        to_bartek = await subscribe(bartek, push, ["invite"])
        r = await ala.http.post("/api/tables", json={"game": "high_card", "seats": 2})
        slug = r.json()["slug"]
        r = await ala.http.post(f"/t/{slug}/invite", data={"friend": str(bartek_id)})
        assert r.status_code < 400
        await push.wait(1)
        (got,) = push.of(to_bartek)
        assert got.payload["kind"] == "invite" and got.payload["table"] == slug
        assert got.payload["body"] == f"Table {slug}: Ala invites you to play."
        assert got.payload["title"] == "Invitation: High Card"
        await ala.close()
        await bartek.close()
    finally:
        await srv.stop()
