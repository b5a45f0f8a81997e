"""Finished games live on: "Your games" (every game you played, newest first, by game, a page
at a time) and a person's public profile (their games at public tables and how they went, and
their ratings with a chart over time)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from app.api.deps import NamedUser, SessionDep, UserDep
from app.api.error_page import ErrorPage
from app.errors import Refusal
from app.history import import_game, parse_export
from app.lobby import playable_engines
from app.presentation.environment import templates
from app.ratings.pages import rating_panels
from app.store import friends, history, people
from app.store.models import User

router = APIRouter()
PAGE = 20
MAX_FILE = 20_000_000
"""Largest game file read for an import (bytes)."""


async def _games_page(
    request: Request,
    session: SessionDep,
    viewer: User | None,
    person_id: int,
    game: str,
    page: int,
    template: str,
    error: str | None = None,
    status: int = 200,
) -> Response:
    person = await people.get_user(session, person_id)
    if person is None:
        raise ErrorPage(viewer, "404", "—", 404)
    public_only = viewer is None or viewer.id != person_id
    page = max(1, page)
    known = {e.spec.id for e in playable_engines()}
    game_id = game if game in known else None
    games, total = await history.played_games(
        session,
        person_id,
        game_id=game_id,
        public_only=public_only,
        limit=PAGE,
        offset=(page - 1) * PAGE,
    )
    ctx = {
        "user": viewer,
        "person": person,
        "mine": not public_only,
        "games": games,
        "total": total,
        "page": page,
        "pages": max(1, -(-total // PAGE)),
        "game": game_id or "",
        "choices": sorted(known),
        "stats": await history.game_stats(session, person_id, public_only),
        "ratings": await rating_panels(session, person_id),
        "error": error,
        "friendship": await _friendship(session, viewer, person_id),
    }
    return templates.TemplateResponse(request, template, ctx, status_code=status)


async def _friendship(session: SessionDep, viewer: User | None, person_id: int) -> str | None:
    """What the profile's friend button says: None (your own profile, or nobody looking),
    "none" (ask), "sent" (waiting), "received" (answer it) or "friends"."""
    if viewer is None or viewer.id == person_id:
        return None
    link = await friends.link_between(session, viewer.id, person_id)
    if link is None:
        return "none"
    if link.accepted is not None:
        return "friends"
    return "sent" if link.requester_id == viewer.id else "received"


@router.get("/history", response_class=HTMLResponse)
async def your_games(
    request: Request, session: SessionDep, user: NamedUser, game: str = "", page: int = 1
) -> Response:
    """Every game you played, newest first, each opening its replay."""
    return await _games_page(request, session, user, user.id, game, page, "history.html")


@router.get("/u/{person_id}", response_class=HTMLResponse)
async def profile(
    person_id: int,
    request: Request,
    session: SessionDep,
    user: UserDep,
    game: str = "",
    page: int = 1,
) -> Response:
    """A person's public profile: finished games at public tables, per-game statistics."""
    return await _games_page(request, session, user, person_id, game, page, "history.html")


@router.post("/history/import")
async def import_file(request: Request, session: SessionDep, user: NamedUser) -> Response:
    """The import form on "Your games": a downloaded game file, replayed here once verified."""
    async with request.form(max_part_size=MAX_FILE) as form:
        upload = form.get("game")
        raw = await upload.read(MAX_FILE) if isinstance(upload, UploadFile) else b""
    try:
        room = await import_game(session, user.id, parse_export(raw))
    except Refusal as exc:
        message = exc.message
    else:
        await session.commit()
        return RedirectResponse(f"/t/{room.slug}/replay?code={room.invite_code}", 303)
    return await _games_page(
        request, session, user, user.id, "", 1, "history.html", message, status=422
    )
