"""Finding a request's route without trying every route: `RouteIndex`.

FastAPI's router tries its routes one by one, and each router included with
`include_router` is one route whose own routes it tries in turn — twice for the one that
matches (once to match, once more to handle). With ~100 routes in 15 routers, finding
`/healthz` (the last one) cost more CPU than the rest of the request's ASGI layers together,
and `/api/tables/{slug}/join` walked the socket routers and half of the API router twice.

`RouteIndex` takes the router's place as its ASGI entry (`Router.middleware_stack`) and asks
only the routes that can match: a route's path begins with a literal part (up to its first
`{`), so a request whose path's first segment is not that part's cannot match it. It keeps
every route (the included routers' routes too) in the router's order, indexed by that first
segment, tries only the request's, in that order, with FastAPI's own `matches`, and hands
the first full match on as the router would (`APIRouter.app`, then for a route of an
included router `_IncludedRouter.handle` and `_handle_selected`: the same scope keys, the
same telemetry). Anything else — no route, a path matched but not its method (405), a
trailing slash to redirect — goes to the router's own walk, unchanged. So the same route
answers every request, with the same scope, as before. This leans on FastAPI's private
routing (pinned in pyproject.toml); tests/app/test_routing.py checks it route by route.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi.routing import (
    _FASTAPI_EFFECTIVE_ROUTE_CONTEXT_KEY,
    _FASTAPI_INCLUDED_ROUTER_KEY,
    APIRoute,
    APIRouter,
    _EffectiveRouteContext,
    _get_fastapi_scope,
    _IncludedRouter,
)
from fastapi.telemetry._api import _route_selected
from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import Receive, Scope, Send

Matcher = Callable[[Scope], tuple[Match, Scope]]
ANY = ""
"""The index key of routes whose path does not fix the first segment (`/`, `/{slug}`)."""


def first_segment(path_format: str) -> str:
    """The first segment every path a route matches has (`api` for `/api/tables/{slug}`), or
    `ANY` when the route's path does not fix it."""
    literal, brace, _ = path_format.partition("{")
    if not literal.startswith("/"):
        return ANY
    head, slash, _ = literal[1:].partition("/")
    if slash or not brace:
        return head
    return ANY


Leaf = tuple[BaseRoute, Matcher, _EffectiveRouteContext | None, bool]
"""A route to try: the router's own route, the call FastAPI makes to match it, for a route of
an included router its context there, and whether the router's walk reaches it past an
included router (which leaves FastAPI's scope dict in the scope, empty or not)."""


def leaves(route: BaseRoute, past_included: bool) -> list[tuple[str, Leaf]]:
    """A top-level route's routes, in the order the router tries them: each one's first
    segment and how to try it."""
    if isinstance(route, _IncludedRouter):
        found: list[tuple[str, Leaf]] = []
        for candidate in route.effective_candidates():
            if not isinstance(candidate, _EffectiveRouteContext):
                return [(ANY, (route, route.matches, None, True))]  # a router in a router
            inner = candidate.starlette_route
            if inner is not None:
                segment = first_segment(getattr(inner, "path_format", ""))
                found.append((segment, (route, inner.matches, candidate, True)))
            elif isinstance(candidate.original_route, APIRoute):
                segment = first_segment(candidate.path_format)
                found.append((segment, (route, candidate.matches, candidate, True)))
            else:
                return [(ANY, (route, route.matches, None, True))]
        return found
    segment = first_segment(getattr(route, "path_format", ""))
    return [(segment, (route, route.matches, None, past_included))]


class RouteIndex:
    """The router's ASGI entry: the first route that fully matches, found among the routes
    that can (see the module docstring); the router's own walk for everything else."""

    def __init__(self, router: APIRouter) -> None:
        self.router = router
        self.built_for = -1
        self.by_segment: dict[str, tuple[Leaf, ...]] = {}
        self.anywhere: tuple[Leaf, ...] = ()

    def build(self) -> None:
        """Index the router's routes (done at the first request, once every route is in)."""
        entries = []
        past_included = False
        for route in self.router.routes:
            entries += leaves(route, past_included)
            past_included = past_included or isinstance(route, _IncludedRouter)
        segments = {segment for segment, _ in entries if segment != ANY}
        self.by_segment = {
            key: tuple(leaf for s, leaf in entries if s in (key, ANY)) for key in segments
        }
        self.anywhere = tuple(leaf for s, leaf in entries if s == ANY)
        self.built_for = len(self.router.routes)

    def first(self, scope: Scope) -> tuple[Leaf, Scope] | None:
        """The route the router would hand `scope` to (its first full match) and the scope
        that match adds, or None when the router's own walk must answer (no route, 405, a
        redirect)."""
        if self.built_for != len(self.router.routes):
            self.build()
        segment = get_route_path(scope)[1:].partition("/")[0]
        for leaf in self.by_segment.get(segment, self.anywhere):
            match, child_scope = leaf[1](scope)
            if match is Match.FULL:
                return leaf, child_scope
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = None if scope["type"] == "lifespan" else self.first(scope)
        if found is None:
            await self.router.app(scope, receive, send)
            return
        (route, _, context, past_included), child_scope = found
        # What the router does with its first full match (APIRouter.app) …
        if "router" not in scope:
            scope["router"] = self.router
        if context is None:
            if past_included:
                _get_fastapi_scope(scope)
            scope.update(child_scope)
            _route_selected(
                scope=scope,
                path=getattr(route, "path_format", None),
                mount=isinstance(route, Mount),
            )
            await route.handle(scope, receive, send)
            return
        # … and, for a route of an included router (whose own `matches` adds nothing and whose
        # telemetry path is None), what its `handle` (`_handle_selected`) does with the route
        # once it has found it again: here it is not looked for twice.
        fastapi_scope = _get_fastapi_scope(scope)
        fastapi_scope[_FASTAPI_INCLUDED_ROUTER_KEY] = route
        scope.update(child_scope)
        inner = context.starlette_route
        _route_selected(
            scope=scope,
            path=getattr(inner, "path_format", None) or context.path_format,
            mount=isinstance(inner or context.original_route, Mount),
        )
        fastapi_scope[_FASTAPI_EFFECTIVE_ROUTE_CONTEXT_KEY] = context
        original = context.original_route
        if isinstance(original, APIRoute):
            scope["route"] = original
            await original.handle(scope, receive, send)
            return
        assert inner is not None
        await inner.handle(scope, receive, send)
