"""Games nights: start one, its page and live standings (/n/{slug}), its next table, its end;
and the same standings as JSON for scripts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n
from app.api.deps import NamedUser, SessionDep, TablesDep, UserDep, spend_creation
from app.api.error_page import refusal_shown
from app.errors import Refusal
from app.i18n import N_
from app.lobby import options_from_form
from app.nights import service
from app.nights import store as nights
from app.nights.models import Night
from app.presentation.environment import templates
from engines import REGISTRY

router = APIRouter(tags=["nights"])

POLL_SECONDS = 5
"""How often an open night's page asks for the standings again (htmx polling)."""


async def _night(session: SessionDep, slug: str) -> Night:
    night = await nights.get_night(session, slug)
    if night is None:
        raise Refusal("unknown_night", N_("There is no games night at this address."), 404)
    return night


def _context(page: service.NightPage, user: Any, error: str | None = None) -> dict[str, Any]:
    games = service.game_choices()
    last = page.tables[-1].game_id if page.tables else games[0]["id"]
    return {
        "user": user,
        "page": page,
        "night": page.night,
        "is_host": user is not None and user.id == page.night.host_id,
        "games": games,
        "next_game": last,
        "next_seats": service.default_seats(last, page),
        "poll": POLL_SECONDS,
        "error": error,
    }


@router.post("/nights")
async def start_night(request: Request, session: SessionDep, user: NamedUser) -> Response:
    """The lobby's "games night" form: a new night, hosted by the caller."""
    form = await request.form()
    with refusal_shown(user, i18n.gettext("No games night")):
        spend_creation(request, "tables")
        night = await service.start_night(session, user, str(form.get("name", "")))
    return RedirectResponse(f"/n/{night.slug}", status_code=303)


@router.get("/n/{slug}", response_class=HTMLResponse)
async def night_page(request: Request, slug: str, session: SessionDep, user: UserDep) -> Response:
    """A night: its standings (live), its tables, the podium once over; the host's controls."""
    with refusal_shown(user, i18n.gettext("No games night")):
        night = await _night(session, slug)
    page = await service.night_page(session, night, user.id if user else None)
    return templates.TemplateResponse(request, "night.html", _context(page, user))


@router.get("/n/{slug}/standings", response_class=HTMLResponse)
async def standings_fragment(
    request: Request, slug: str, session: SessionDep, user: UserDep
) -> Response:
    """The live part of a night's page (standings, tables, podium), polled by htmx."""
    with refusal_shown(user, i18n.gettext("No games night")):
        night = await _night(session, slug)
    page = await service.night_page(session, night, user.id if user else None)
    return templates.TemplateResponse(request, "partials/night_live.html", _context(page, user))


@router.post("/n/{slug}/tables")
async def next_table(
    request: Request, slug: str, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The host's "next table": that game, everyone of the latest table seated."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    with refusal_shown(user, i18n.gettext("No games night")):
        night = await _night(session, slug)
    game_id = form.get("game", "")
    try:
        seats = int(form.get("seats", "0"))
    except ValueError:
        seats = 0
    try:
        spend_creation(request, "tables")
        options = options_from_form(game_id, form) if game_id in REGISTRY else {}
        row = await service.next_table(session, tables, night, user, game_id, seats, options)
    except Refusal as exc:
        page = await service.night_page(session, night, user.id)
        ctx = _context(page, user, exc.message)
        return templates.TemplateResponse(request, "night.html", ctx, status_code=exc.status)
    return RedirectResponse(f"/t/{row.slug}?code={row.invite_code}", status_code=303)


@router.post("/n/{slug}/end")
async def end_night(slug: str, session: SessionDep, user: NamedUser) -> Response:
    """The host ends the night: the podium is final."""
    with refusal_shown(user, i18n.gettext("No games night")):
        night = await _night(session, slug)
        await service.end_night(session, night, user)
    return RedirectResponse(f"/n/{slug}", status_code=303)


@router.get("/api/nights/{slug}")
async def night_json(slug: str, session: SessionDep, user: UserDep) -> dict[str, Any]:
    """A night's standings, tables and podium as JSON."""
    night = await _night(session, slug)
    page = await service.night_page(session, night, user.id if user else None)
    return {
        "slug": night.slug,
        "name": night.name,
        "host": page.host_name,
        "status": night.status,
        "standings": [vars(line) for line in page.lines],
        "podium": [[line.name for line in step] for step in page.podium],
        "tables": [
            {
                "position": t.position,
                "slug": t.slug,
                "game": t.game_id,
                "status": t.status,
                "players": [s.shown_name for s in t.seats],
                "ranks": t.ranks,
            }
            for t in page.tables
        ],
    }
