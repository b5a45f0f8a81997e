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
the first full match to the router's own `handle`, as the router does. Anything else — no
route, a path matched but not its method (405), a trailing slash to redirect — goes to the
router's own walk, unchanged. So the same route answers every request, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi.routing import APIRouter, _EffectiveRouteContext, _IncludedRouter
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


def leaves(route: BaseRoute) -> list[tuple[str, Matcher]]:
    """A top-level route's routes, in the order the router tries them: each one's first
    segment and the call FastAPI makes to match it."""
    if isinstance(route, _IncludedRouter):
        found: list[tuple[str, Matcher]] = []
        for candidate in route.effective_candidates():
            if not isinstance(candidate, _EffectiveRouteContext):
                return [(ANY, route.matches)]  # a router included in an included router
            inner = candidate.starlette_route
            if inner is not None:
                found.append((first_segment(getattr(inner, "path_format", "")), inner.matches))
            elif candidate.path_regex is not None:
                found.append((first_segment(candidate.path_format), candidate.matches))
            else:
                return [(ANY, route.matches)]
        return found
    return [(first_segment(getattr(route, "path_format", "")), route.matches)]


class RouteIndex:
    """The router's ASGI entry: the first route that fully matches, found among the routes
    that can (see the module docstring); the router's own walk for everything else."""

    def __init__(self, router: APIRouter) -> None:
        self.router = router
        self.built_for = -1
        self.by_segment: dict[str, tuple[tuple[BaseRoute, Matcher], ...]] = {}
        self.anywhere: tuple[tuple[BaseRoute, Matcher], ...] = ()

    def build(self) -> None:
        """Index the router's routes (done at the first request, once every route is in)."""
        entries = [
            (segment, route, matcher)
            for route in self.router.routes
            for segment, matcher in leaves(route)
        ]
        segments = {segment for segment, _, _ in entries if segment != ANY}
        self.by_segment = {
            key: tuple((r, m) for s, r, m in entries if s in (key, ANY)) for key in segments
        }
        self.anywhere = tuple((r, m) for s, r, m in entries if s == ANY)
        self.built_for = len(self.router.routes)

    def first(self, scope: Scope) -> tuple[BaseRoute, Scope] | None:
        """The route the router would hand `scope` to and the scope it would add (its first
        full match), or None when the router's own walk must answer (no route, 405, a
        redirect)."""
        if self.built_for != len(self.router.routes):
            self.build()
        segment = get_route_path(scope)[1:].partition("/")[0]
        for route, matcher in self.by_segment.get(segment, self.anywhere):
            match, child_scope = matcher(scope)
            if match is Match.FULL:
                # An included router's own `matches` says FULL with nothing to add; its
                # `handle` finds the route again among its own routes.
                return route, {} if isinstance(route, _IncludedRouter) else child_scope
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = None if scope["type"] == "lifespan" else self.first(scope)
        if found is None:
            await self.router.app(scope, receive, send)
            return
        # What the router does with its first full match (APIRouter.app).
        route, child_scope = found
        if "router" not in scope:
            scope["router"] = self.router
        scope.update(child_scope)
        _route_selected(
            scope=scope,
            path=getattr(route, "path_format", None),
            mount=isinstance(route, Mount),
        )
        await route.handle(scope, receive, send)
