"""The leaderboards: one per game, of the persons with enough rated games (app/ratings), a page
at a time (keyset pagination: the next page starts after the last row of this one)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n
from app.api.deps import SessionDep, UserDep
from app.api.error_page import ErrorPage
from app.lobby import playable_engines
from app.presentation.environment import templates
from app.ratings import store
from app.ratings.model import LEADERBOARD_GAMES, PROVISIONAL_GAMES

router = APIRouter()
PAGE = 50


@router.get("/ratings")
async def leaderboards() -> Response:
    """The first game's leaderboard."""
    return RedirectResponse(f"/ratings/{playable_engines()[0].spec.id}", status_code=303)


@router.get("/ratings/{game}", response_class=HTMLResponse)
async def leaderboard(
    game: str, request: Request, session: SessionDep, user: UserDep, after: str = ""
) -> Response:
    """One page of `game`'s leaderboard; `after` is the key the previous page links with."""
    games = [e.spec.id for e in playable_engines()]
    if game not in games:
        raise ErrorPage(
            user, i18n.gettext("No such game"), i18n.gettext("There is no such game here."), 404
        )
    page = await store.leaderboard(session, game, after or None, PAGE)
    ctx = {
        "user": user,
        "game": game,
        "games": games,
        "rows": page.rows,
        "next_key": page.next_key,
        "first_page": not after,
        "min_games": LEADERBOARD_GAMES,
        "provisional_games": PROVISIONAL_GAMES,
    }
    return templates.TemplateResponse(request, "leaderboard.html", ctx)
