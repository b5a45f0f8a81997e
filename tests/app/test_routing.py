"""`RouteIndex` (app/routing.py) picks the route FastAPI's own walk picks: for every path of
the app's routes, and on a small app of every kind of route (prefixed routers, a catch-all,
a mount, a websocket) where 404, 405 and trailing-slash redirects answer the same."""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import PlainTextResponse
from fastapi.routing import _IncludedRouter
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match

from app.core.config import ROOT, Settings
from app.main import create_app
from app.routing import ANY, RouteIndex, first_segment


def walk(app: FastAPI, scope: dict[str, Any]) -> Any:
    """The top-level route FastAPI's router hands a request to (its first full match)."""
    for route in app.router.routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return route
    return None


def scope_of(path: str, method: str = "GET", kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "method": method,
        "path": path,
        "root_path": "",
        "headers": [],
        "query_string": b"",
    }


def test_first_segment() -> None:
    assert first_segment("/api/tables/{slug}") == "api"
    assert first_segment("/api") == "api"
    assert first_segment("/healthz") == "healthz"
    assert first_segment("/static/{path}") == "static"
    assert first_segment("/t/{slug}/review") == "t"
    assert first_segment("/") == ANY
    assert first_segment("/{slug}") == ANY
    assert first_segment("/x{slug}") == ANY
    assert first_segment("") == ANY


def test_every_route_of_the_app_is_found_as_fastapi_finds_it(tmp_path: Any) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/r.db"))
    index = app.router.middleware_stack
    assert isinstance(index, RouteIndex)
    paths = {"/", "/nope", "/api", "/api/", "/api/nope", "/static/app.css", "/healthz/"}
    for top in index.router.routes:
        for leaf in top.effective_candidates() if isinstance(top, _IncludedRouter) else [top]:
            inner = getattr(leaf, "starlette_route", None) or leaf
            path_format = getattr(inner, "path_format", "")
            paths.add(re.sub(r"\{[^}]+\}", "1", path_format))
            paths.add(re.sub(r"\{[^}]+\}", "1", path_format) + "/")
    assert len(paths) > 100
    for path in sorted(paths):
        for kind, method in (("http", "GET"), ("http", "POST"), ("websocket", "GET")):
            scope = scope_of(path, method, kind)
            found = index.first(dict(scope))
            assert (found[0][0] if found else None) is walk(app, dict(scope)), (kind, method, path)


def what_routing_left(scope: Any) -> list[str]:
    """The scope's keys and what routing put in them, by name (objects differ between apps)."""
    fastapi_scope = scope.get("fastapi", {})
    included = fastapi_scope.get("included_router")
    context = fastapi_scope.get("effective_route_context")
    return [
        ",".join(sorted(scope)),
        ",".join(sorted(fastapi_scope)),
        getattr(scope.get("route"), "path", "-"),
        getattr(scope.get("endpoint"), "__name__", "-"),
        repr(scope.get("path_params")),
        getattr(scope.get("router"), "prefix", "-"),
        "-" if included is None else included.original_router.prefix,
        "-" if context is None else context.path_format,
    ]


def small_app(indexed: bool) -> FastAPI:
    app = FastAPI()
    api = APIRouter(prefix="/api")

    @api.get("/things/{thing_id}")
    async def thing(thing_id: int, request: Request) -> dict[str, Any]:
        return {"thing": thing_id, "scope": what_routing_left(request.scope)}

    @api.post("/things/{thing_id}/poke")
    async def poke(thing_id: int) -> dict[str, Any]:
        return {"poked": thing_id}

    pages = APIRouter()

    @pages.get("/about", response_class=PlainTextResponse)
    async def about(request: Request) -> str:
        return f"about {what_routing_left(request.scope)}"

    @pages.get("/{slug}", response_class=PlainTextResponse)
    async def anything(slug: str) -> str:
        return f"slug {slug}"

    @pages.get("/", response_class=PlainTextResponse)
    async def home() -> str:
        return "home"

    sockets = APIRouter()

    @sockets.websocket("/ws/{room}")
    async def room(websocket: WebSocket, room: str) -> None:
        await websocket.accept()
        await websocket.send_text(room)
        await websocket.close()

    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(sockets)
    app.include_router(api)

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, Any]:
        return {"status": "ok", "scope": what_routing_left(request.scope)}

    app.include_router(pages)  # its `/{slug}` after `/healthz`

    if indexed:
        app.router.middleware_stack = RouteIndex(app.router)
    return app


REQUESTS = [
    ("GET", "/"),
    ("GET", "/about"),
    ("GET", "/about/"),
    ("GET", "/whatever"),
    ("GET", "/healthz"),
    ("GET", "/healthz/"),
    ("POST", "/healthz"),
    ("GET", "/api/things/7"),
    ("GET", "/api/things/x"),
    ("GET", "/api/things/7/"),
    ("POST", "/api/things/7"),
    ("POST", "/api/things/7/poke"),
    ("GET", "/api/things/7/poke"),
    ("GET", "/api"),
    ("GET", "/api/"),
    ("GET", "/a/b/c"),
    ("GET", "/static/favicon.ico"),
    ("GET", "/static/nope.css"),
    ("GET", "/static"),
]


@pytest.mark.parametrize(("method", "path"), REQUESTS)
async def test_same_answers_with_and_without_the_index(method: str, path: str) -> None:
    answers = []
    for indexed in (False, True):
        transport = httpx.ASGITransport(app=small_app(indexed))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.request(method, path, follow_redirects=False)
            answers.append((r.status_code, r.content, sorted(r.headers.items())))
    assert answers[0] == answers[1]


async def test_sockets_through_the_index() -> None:
    app = small_app(True)
    incoming = [{"type": "websocket.connect"}]
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1000}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = scope_of("/ws/abc", kind="websocket") | {"subprotocols": [], "app": app}
    await app(scope, receive, send)
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send", "websocket.close"]
    assert sent[1]["text"] == "abc"
