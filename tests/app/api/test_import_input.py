"""Imports refuse bad files cleanly and store nothing (issue 32, item 4), on SQLite and
PostgreSQL: 10,000 nested brackets answer 422 (not a RecursionError's 500) on the API and the
"Your games" form; players' names are cleaned like typed ones (NUL, a lone surrogate, bidi
overrides, zero-width characters); what would not fit the database is refused. Hypothesis:
arbitrary JSON, and a real export with one field replaced by arbitrary JSON, never get a 500,
and a refused import stores nothing (a server in a thread of its own, driven synchronously)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from app.store.models import Room, User
from tests.clients import Player
from tests.conftest import Server, scratch_postgres, start_server
from tests.engines.test_verify import finished_export
from tests.tables import app_of

DEEP = "[" * 10_000 + "]" * 10_000
GAME = "incan_gold"


async def _counts(server: Server) -> tuple[int, int]:
    """Rooms and people stored."""
    async with app_of(server).state.sessions() as session:
        rooms = (await session.execute(select(func.count()).select_from(Room))).scalar_one()
        users = (await session.execute(select(func.count()).select_from(User))).scalar_one()
    return int(rooms), int(users)


async def test_deeply_nested_files_are_refused_cleanly(server: Server) -> None:
    host = await Player(server.url, server.ws_url).login("Ala")
    before = await _counts(server)
    for body in (
        DEEP,
        '{"a": ' * 10_000 + "1" + "}" * 10_000,
        '{"seed": NaN}',
        '{"seed": ' + "9" * 5000 + "}",
    ):
        r = await host.http.post(
            "/api/games/import", content=body, headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 422, r.text[:200]
        assert r.json()["error"]["code"] == "bad_import"
        r = await host.http.post("/history/import", files={"game": ("g.json", body.encode())})
        assert r.status_code == 422
        assert "not a game this server can replay" in r.text
    assert await _counts(server) == before
    await host.close()


async def test_imported_names_are_cleaned_and_unstorable_text_refused(server: Server) -> None:
    host = await Player(server.url, server.ws_url).login("Ala")
    export = finished_export(GAME)
    raw_names = ["Ev\u202eil\u0000", "Ze\u200bro\ud800", "\u200b\u202e"]
    export["players"] = [{"seat": s, "name": n} for s, n in enumerate(raw_names)]
    body = json.dumps(export)  # \ud800 and \u0000 travel as JSON escapes, as a file holds them
    r = await host.http.post(
        "/api/games/import", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 201, r.text
    imported = r.json()
    again = (
        await host.http.get(f"/api/tables/{imported['slug']}/export?code={imported['invite_code']}")
    ).json()
    assert [p["name"] for p in again["players"]] == ["Evil", "Zero", "Player 3"]

    before = await _counts(server)
    for key, value in (
        ("rules_version", "1\u0000"),
        ("salt", "s\ud800"),
        ("options", {"x\u0000": 1}),
        ("rules_version", "9" * 100),
        ("seed", 2**70),
    ):
        bad = json.dumps(dict(export, **{key: value}))
        r = await host.http.post(
            "/api/games/import", content=bad, headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 422, (key, r.text[:300])
    assert await _counts(server) == before
    await host.close()


# ---- properties, against a server running in a thread of its own -----------------------------


class ThreadServer:
    """The app on a loopback port, served by an event loop in another thread, so that a
    synchronous Hypothesis test can drive it (`call` runs a coroutine on that loop)."""

    def __init__(self, url: str, server: Server, loop: asyncio.AbstractEventLoop) -> None:
        self.url = url
        self.server = server
        self.loop = loop

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)


@contextlib.contextmanager
def serve_in_thread(kind: str, data: Path) -> Iterator[ThreadServer]:
    started: Future[ThreadServer] = Future()
    stop: list[asyncio.Event] = []

    async def main() -> None:
        try:
            async with contextlib.AsyncExitStack() as stack:
                if kind == "postgres":
                    url = await stack.enter_async_context(scratch_postgres())
                else:
                    url = f"sqlite+aiosqlite:///{data / 'stolik.db'}"
                srv = await start_server(url, data)
                stop.append(asyncio.Event())
                started.set_result(ThreadServer(srv.url, srv, asyncio.get_running_loop()))
                await stop[0].wait()
                await srv.stop()
        except BaseException as exc:  # a skip or failure to start: tell the test
            if not started.done():
                started.set_exception(exc)
            else:
                raise

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    served = started.result(60)
    try:
        yield served
    finally:
        served.loop.call_soon_threadsafe(stop[0].set)
        thread.join(30)


@pytest.fixture(params=["sqlite", "postgres"], scope="module")
def threaded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serve_in_thread(request.param, tmp_path_factory.mktemp(request.param)) as served:
        http = httpx.Client(base_url=served.url, timeout=30)
        assert http.post("/api/guest", json={"name": "Importer"}).status_code == 200
        yield served, http
        http.close()


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
EXPORT = finished_export(GAME)


def _post(http: httpx.Client, body: bytes) -> httpx.Response:
    return http.post(
        "/api/games/import", content=body, headers={"Content-Type": "application/json"}
    )


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=json_values | st.dictionaries(st.sampled_from(sorted(EXPORT)), json_values))
def test_arbitrary_json_is_never_a_500_and_stores_nothing(threaded: Any, value: Any) -> None:
    served, http = threaded
    before = served.call(_counts(served.server))
    r = _post(http, json.dumps(value).encode())
    assert r.status_code == 422, r.text[:300]
    assert served.call(_counts(served.server)) == before


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(key=st.sampled_from(sorted(EXPORT)), value=json_values)
def test_an_export_with_a_field_replaced_is_never_a_500(
    threaded: Any, key: str, value: Any
) -> None:
    served, http = threaded
    before = served.call(_counts(served.server))
    r = _post(http, json.dumps(dict(EXPORT, **{key: value})).encode())
    assert r.status_code in (201, 422), r.text[:300]
    if r.status_code == 422:
        assert served.call(_counts(served.server)) == before
