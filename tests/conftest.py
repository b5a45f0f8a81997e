"""Shared fixtures: a real database per test (SQLite file and a scratch PostgreSQL database),
and the app served in-process by uvicorn on a loopback port; High Card, the game only the tests
know (tests/high_card), registered for the whole session."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import redis.asyncio as aioredis
import uvicorn

from app.core.config import Settings
from app.main import create_app
from app.realtime.transport import StolikWebSockets
from tests.high_card import registered_for_tests

_TEST_GAMES = pytest.StashKey[ExitStack]()


def pytest_configure(config: pytest.Config) -> None:
    """Register High Card and its screen before any test module is collected, so every suite
    parametrized by the registry runs it; suites about what ships leave it out by
    `engines.is_shipped`."""
    stack = ExitStack()
    stack.enter_context(registered_for_tests())
    config.stash[_TEST_GAMES] = stack


def pytest_unconfigure(config: pytest.Config) -> None:
    """Unregister High Card and forget its screen."""
    config.stash[_TEST_GAMES].close()


PG_DSN = os.environ.get("STOLIK_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("STOLIK_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def _pg_admin() -> asyncpg.Connection:
    return await asyncpg.connect(PG_DSN, timeout=5)


@asynccontextmanager
async def scratch_postgres() -> AsyncIterator[str]:
    """A scratch PostgreSQL database, dropped afterwards.

    Locally a missing server skips the test; in CI (CI=true) it is a failure.
    """
    try:
        admin = await _pg_admin()
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI but unreachable: {exc}")
        pytest.skip(f"PostgreSQL not reachable: {exc}")
    name = f"stolik_test_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    base = PG_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    try:
        yield f"{base}/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def redis_or_skip() -> None:
    """Skip locally without the Redis server; in CI (CI=true) its absence is a failure."""
    client = aioredis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required in CI but unreachable: {exc}")
        pytest.skip(f"Redis not reachable: {exc}")
    finally:
        await client.aclose()


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A scratch PostgreSQL database for one test."""
    async with scratch_postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Each database test runs on the embedded SQLite and on the real PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}"
    else:
        async with scratch_postgres() as url:
            yield url


@dataclass
class Server:
    """An app served on a loopback port."""

    url: str
    ws_url: str
    settings: Settings
    server: uvicorn.Server
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Shut down gracefully (open websockets are closed)."""
        self.server.should_exit = True
        await asyncio.wait_for(self.task, 15)


class FakeClock:
    """An injected wall clock for turn clocks and disconnection times: tests move it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass."""
        self.t += seconds


@asynccontextmanager
async def served(database_url: str, tmp_path: Path, **settings: Any) -> AsyncIterator[Server]:
    """`start_server` for the block, stopped after it."""
    srv = await start_server(database_url, tmp_path, **settings)
    try:
        yield srv
    finally:
        await srv.stop()


async def start_server(
    database_url: str,
    data_dir: Path,
    now: Callable[[], float] | None = None,
    **overrides: Any,
) -> Server:
    """Start the app in this event loop on a free loopback port (`overrides`: settings;
    `now`: an injected clock). Bots move at once and think little unless overridden."""
    defaults: dict[str, Any] = {
        "bot_delay": 0.0,
        "bot_think_scale": 0.05,
        # Tests drive games far faster than people click: budgets only where a test sets them.
        "create_rate_count": 0,
        "act_rate_count": 0,
        "act_rate_address_count": 0,
        # The background reviewer only where a test turns it on (it would take CPU).
        "review": False,
    }
    settings = Settings(
        database_url=database_url,
        data_dir=data_dir,
        secret_key="test-secret",
        log_tail=500,
        **{**defaults, **overrides},
    )
    app = create_app(settings, now=now)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        ws=StolikWebSockets,  # as deployed (scripts/run.sh): the same protocol and limits
        ws_max_size=65536,
        ws_per_message_deflate=False,
        lifespan="on",
        # A test's HTTP client may sit idle longer than uvicorn's 5 s (a screenshot, a game
        # played by bots) and then reuse its connection: closed by the server at that moment,
        # the request failed with a ReadError on a loaded machine.
        timeout_keep_alive=120,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(300):
        if server.started:
            break
        if task.done():
            task.result()
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError("server did not start")
    port = server.servers[0].sockets[0].getsockname()[1]
    return Server(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", settings, server, task)


@pytest.fixture
async def server(db_url: str, tmp_path: Path) -> AsyncIterator[Server]:
    """The app on SQLite and on PostgreSQL."""
    srv = await start_server(db_url, tmp_path)
    try:
        yield srv
    finally:
        await srv.stop()


@pytest.fixture
async def sqlite_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app on the embedded SQLite default (what the browser tests use)."""
    srv = await start_server(f"sqlite+aiosqlite:///{tmp_path / 'stolik.db'}", tmp_path)
    try:
        yield srv
    finally:
        await srv.stop()


@pytest.fixture
async def clock() -> FakeClock:
    """The injected wall clock (a module may start it elsewhere by its own `clock`)."""
    return FakeClock()


@pytest.fixture
async def clocked(db_url: str, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Server]:
    """A server on SQLite and PostgreSQL whose clock the test moves (the ticker is idle)."""
    async with served(db_url, tmp_path, now=clock, clock_tick=3600) as srv:
        yield srv
