"""A vacation set through one server process reaches the table of the same person in
another (PostgreSQL and the Redis bus): its clock pauses there too and the others there see
it, with a new revision of the table (its pages are drawn again)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from app.clocks import DAY
from tests.app.table.test_processes import hub_of_loaded, pair, wait_until
from tests.clients import Player, table_of
from tests.conftest import Server
from tests.tables import app_of, post

__all__ = ["pair"]


async def test_a_vacation_set_through_one_process_pauses_the_clock_in_the_other(
    pair: tuple[Server, Server, str],
) -> None:
    one, two, _ = pair
    ola = await Player(one.url, one.ws_url).login("Ola")
    ewa = await Player(one.url, one.ws_url).login("Ewa")
    try:
        r = await ola.http.post(
            "/api/tables", json={"game": "high_card", "seats": 2, "clock": "slow", "away_days": 7}
        )
        r.raise_for_status()
        slug = r.json()["slug"]
        (await post(ewa, f"/api/tables/{slug}/join", seat=1)).raise_for_status()
        (await post(ola, f"/api/tables/{slug}/start")).raise_for_status()
        there = await hub_of_loaded(two, slug)
        await wait_until(lambda: there.game is not None)
        deadline = there.clock_now()["deadlines"]["0"]
        before = there.revision
        day = datetime.fromtimestamp(time.time() + 3 * DAY, UTC).date().isoformat()
        r = await ola.http.post("/away", data={"until": day, "tz": "0"})
        assert r.status_code == 303
        await wait_until(lambda: there.seats[0].away is not None)
        assert there.revision > before
        assert there.clock_now()["deadlines"]["0"] > deadline + 2 * DAY
        assert table_of(app_of(one), slug).seats[0].away == pytest.approx(there.seats[0].away)
    finally:
        await ola.close()
        await ewa.close()
