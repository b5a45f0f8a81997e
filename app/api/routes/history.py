"""Finished games live on: "Your games" (every game you played, newest first, by game, a page
at a time) and a person's public profile (their games at public tables and how they went)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import SessionDep, UserDep
from app.db import repo
from app.render import templates
from app.tables import playable_engines

router = APIRouter()
PAGE = 20


async def _games_page(
    request: Request,
    session: SessionDep,
    viewer_id: int | None,
    person_id: int,
    game: str,
    page: int,
    template: str,
) -> Response:
    person = await repo.get_user(session, person_id)
    if person is None:
        return templates.TemplateResponse(
            request, "error.html", {"user": None, "title": "404", "message": "—"}, 404
        )
    public_only = viewer_id != person_id
    page = max(1, page)
    known = {e.spec.id for e in playable_engines()}
    game_id = game if game in known else None
    games, total = await repo.played_games(
        session,
        person_id,
        game_id=game_id,
        public_only=public_only,
        limit=PAGE,
        offset=(page - 1) * PAGE,
    )
    ctx = {
        "person": person,
        "mine": not public_only,
        "games": games,
        "total": total,
        "page": page,
        "pages": max(1, -(-total // PAGE)),
        "game": game_id or "",
        "choices": sorted(known),
        "stats": await repo.game_stats(session, person_id, public_only),
    }
    return templates.TemplateResponse(request, template, ctx)


@router.get("/history", response_class=HTMLResponse)
async def your_games(
    request: Request, session: SessionDep, user: UserDep, game: str = "", page: int = 1
) -> Response:
    """Every game you played, newest first, each opening its replay."""
    if user is None:
        return RedirectResponse("/name?next=/history", status_code=303)
    return await _games_page(request, session, user.id, user.id, game, page, "history.html")


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
    viewer = user.id if user else None
    return await _games_page(request, session, viewer, person_id, game, page, "history.html")
