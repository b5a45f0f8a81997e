"""The Stolik ASGI app: `create_app(settings)` builds it; `app` is the default instance.

Run: `uvicorn app.main:app` (see README). At start it migrates the database (unless
AUTO_MIGRATE=false), then serves pages, the JSON API and the websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.middleware.sessions import SessionMiddleware

from app import i18n, logs, memory
from app.accounts import routes as account_routes
from app.api.error_page import ErrorPage, NameFirst, ask_name
from app.api.error_page import show as show_error_page
from app.api.routes import (
    api,
    bot_api,
    bot_pages,
    devices,
    friends,
    history,
    nights,
    pages,
    push,
    pwa,
    ratings,
    ws,
    ws_lobby,
)
from app.core.config import ROOT, Settings
from app.errors import Refusal
from app.guard import ActBudgets, Guard, RateBudgets
from app.history import Replays
from app.i18n import N_, LanguageMiddleware
from app.logs import RequestIds
from app.metrics import Metrics
from app.push.run import start_sender
from app.realtime.bus import make_bus
from app.realtime.connection import SendWatch
from app.review import routes as review_routes
from app.review.worker import ReviewWorker
from app.routing import RouteIndex
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import head_revision, schema_revision, upgrade_database
from app.store.outage import OUTAGES, is_outage, unavailable
from app.store.pg import open_store
from app.table import Runtime, Tables
from engines.core import params_to_json

log = logging.getLogger("stolik.app")


def create_app(settings: Settings | None = None, now: Callable[[], float] | None = None) -> FastAPI:
    """Build the app for `settings` (defaults: the embedded SQLite setup).

    `now` replaces the wall clock of turn clocks and disconnection times (tests inject one).
    """
    settings = settings or Settings()
    logs.configure(settings.log_format, settings.log_level)
    metrics = Metrics()
    bus = make_bus(settings.redis_url, settings.redis_channel)
    if bus.enabled:
        metrics.watch_bus(bus)
    runtime = Runtime(
        metrics=metrics,
        bus=bus,
        follower_grace=settings.follower_grace,
        bot_delay=settings.bot_delay,
        takeover_after=settings.takeover_after,
        bot_think_scale=settings.bot_think_scale,
        now=now if now is not None else time.time,
        sends=SendWatch(settings.ws_send_timeout),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url
        if settings.auto_migrate:
            await upgrade_database(url)
        engine = make_engine(url, settings.db_pool_size, settings.db_max_overflow)
        app.state.db = engine
        app.state.sessions = make_session_factory(engine)
        tables = Tables(app.state.sessions, runtime)
        tables.evict_after = settings.hub_evict_after
        tables.store = await open_store(url, app.state.sessions, settings.db_pool_size // 2)
        app.state.tables = tables
        await bus.start(tables.follow)
        await tables.resume()
        ticker = asyncio.create_task(tables.run_ticker(settings.clock_tick))
        sender = None
        if settings.push:
            sender = start_sender(settings, app.state.sessions, tables, runtime)
        memory.tune_gc()
        reviewer = ReviewWorker(
            app.state.sessions,
            bound=settings.review_queue,
            game_steps=settings.review_steps,
            cpu_seconds=settings.review_cpu_seconds,
        )
        app.state.reviewer = reviewer
        reviewing = asyncio.create_task(reviewer.run()) if settings.review else None
        yield
        for task in (ticker, sender, reviewing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        reviewer.close()
        await tables.shutdown()
        await bus.stop()
        await tables.store.close()
        await engine.dispose()

    app = FastAPI(title="Stolik", lifespan=lifespan)
    app.state.settings = settings
    app.state.replays = Replays()
    app.state.act_budgets = ActBudgets(
        settings.act_rate_count, settings.act_rate_window, settings.act_rate_address_count
    )
    app.state.create_budgets = {
        kind: RateBudgets(settings.create_rate_count, settings.create_rate_window)
        for kind in ("guests", "tables")
    }
    app.state.mail_budgets = RateBudgets(settings.mail_rate_count, settings.mail_rate_window)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.resolved_secret_key,
        session_cookie="stolik",
        max_age=365 * 24 * 3600,
        same_site="lax",
        https_only=settings.cookie_secure,
    )
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(Guard, public_origins=settings.origins)
    app.add_middleware(RequestIds)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    # The table sockets and the JSON API, where the traffic is, come first (`RouteIndex`
    # below tries only the routes a path can match, in this order). No path of one router is
    # a path of another, so the order changes nothing else.
    app.include_router(ws.router)
    app.include_router(ws_lobby.router)
    app.include_router(api.router)
    app.include_router(bot_api.router)
    app.include_router(bot_pages.router)
    app.include_router(pages.router)
    app.include_router(devices.router)
    app.include_router(account_routes.router)
    app.include_router(history.router)
    app.include_router(friends.router)
    app.include_router(ratings.router)
    app.include_router(pwa.router)
    app.include_router(nights.router)
    app.include_router(push.router)
    app.include_router(review_routes.router)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """Prometheus metrics, for the holder of METRICS_TOKEN only (else: not found)."""
        token = settings.metrics_token
        given = request.headers.get("authorization", "")
        if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return JSONResponse({"error": {"code": "not_found", "message": "Not Found"}}, 404)
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """The process is up (for a container's liveness check)."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        """The database answers and its schema is at the newest migration (readiness)."""
        try:
            async with app.state.sessions() as session:
                current = await schema_revision(session)
        except Exception as exc:  # any failure means "not ready"
            return JSONResponse({"status": "unavailable", "detail": type(exc).__name__}, 503)
        head = head_revision()
        if current != head:
            return JSONResponse({"status": "migrating", "revision": current, "head": head}, 503)
        return JSONResponse({"status": "ready", "revision": current})

    app.add_exception_handler(ErrorPage, show_error_page)
    app.add_exception_handler(NameFirst, ask_name)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> Response:
        # FastAPI's default answer echoes the input back, which cannot even be encoded when it
        # holds a lone surrogate (a 500): answer in the API's own shape, without the input.
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())[1:])
        refusal = Refusal(
            "malformed",
            N_("Bad request: %(where)s %(detail)s."),
            422,
            where=where,
            detail=str(first.get("msg", "")),
        )
        return JSONResponse(
            {"error": {"code": refusal.code, "message": refusal.message}}, status_code=422
        )

    async def database_away(request: Request, exc: Exception) -> Response:
        # The database is unreachable (restarting): "try again", not a server error.
        if not is_outage(exc):
            raise exc
        log.warning("database unreachable", extra={"detail": type(exc).__name__})
        refusal = unavailable()
        if request.method == "GET" and "text/html" in request.headers.get("accept", ""):
            # A page asked by a browser: the error page says so, in the reader's language.
            page = ErrorPage(None, i18n.gettext("Try again"), refusal.message, refusal.status)
            return await show_error_page(request, page)
        return await room_error(request, refusal)

    for kind in OUTAGES:
        app.add_exception_handler(kind, database_away)

    app.router.middleware_stack = RouteIndex(app.router)

    @app.exception_handler(Refusal)
    async def room_error(_request: Request, exc: Refusal) -> Response:
        metrics.refused.labels(exc.code).inc()
        log.debug("refused", extra={"code": exc.code, "status": exc.status})
        return JSONResponse(
            {
                "error": {
                    "code": exc.code,
                    "message": exc.message,
                    "key": exc.template,
                    "params": params_to_json(exc.params),
                }
            },
            status_code=exc.status,
        )

    return app


app = create_app()
