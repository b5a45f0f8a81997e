"""The review page (`/t/{slug}/review`) and its JSON (`/api/tables/{slug}/review`): refused
while the game runs (the review, like the replay, is shown to everyone only after the end);
the first look queues the game if the background reviewer has not yet; progress while it
works; then each seat's win-chance graph (inline SVG drawn here: the page runs no inline
script) and its key moments, in the reader's language."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app import i18n
from app.api.deps import SessionDep, TableDep, UserDep
from app.api.error_page import refusal_shown
from app.errors import Refusal
from app.i18n import N_
from app.presentation import log as game_log
from app.presentation.environment import game_title, templates
from app.presentation.messages import standing_names, table_info
from app.review import queue
from app.review.models import Review
from app.store import games
from app.table import Table
from engines.bots.review import Assessment, key_moments
from engines.core import Event

router = APIRouter(tags=["review"])

NOT_YET = N_("The game is not over yet: its review is shown once it has ended.")
WIDTH, HEIGHT = 360, 120
"""The graph's drawing box (it scales to the page)."""


async def review_row(request: Request, session: AsyncSession, table: Table) -> Review | None:
    """The finished game's review row, queued now if it has none (None: the queue is full);
    `not_finished` (409) while the game runs."""
    game = await games.game_for_table(session, table.id)
    if game is None or table.status != "finished" or game.result is None:
        raise Refusal("not_finished", NOT_YET, 409)
    bound = request.app.state.settings.review_queue
    return await queue.enqueue(session, game.id, bound)


def percent(win: float) -> str:
    return i18n.gettext("%(n)s%%") % {"n": round(100 * win)}


def _words(table_snap: Any, data: dict[str, Any], text: str) -> str:
    event = (data.get("words") or {}).get(text)
    if event is None:
        return text
    return game_log.fill_names(table_snap, i18n.event_text(Event.from_json(event)))


def graph(points: list[tuple[int, float]], last: int, marks: set[int]) -> dict[str, Any]:
    """The SVG's polyline and markers: x by version over the game, y by win chance."""

    def xy(version: int, win: float) -> tuple[float, float]:
        return (
            round(WIDTH * version / max(1, last), 1),
            round(HEIGHT - HEIGHT * max(0.0, min(1.0, win)), 1),
        )

    coords = [xy(v, w) for v, w in points]
    return {
        "line": " ".join(f"{x},{y}" for x, y in coords),
        "dots": [(x, y, v in marks) for (x, y), (v, _w) in zip(coords, points, strict=True)],
        "width": WIDTH,
        "height": HEIGHT,
    }


def seats_view(table: Table, result: dict[str, Any], last: int) -> list[dict[str, Any]]:
    """Per seat: its name, graph and key moments in the reader's language."""
    snap = table.snapshot()
    names = standing_names(snap)
    raw = result.get("decisions", [])
    found = [Assessment.from_json(d) for d in raw]
    by_key = {(d["version"], d["seat"]): d for d in raw}
    out = []
    for seat in sorted(table.seats):
        mine = [a for a in found if a.seat == seat]
        moments = key_moments(found, seat)
        marks = {a.version for a in moments}
        out.append(
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "decisions": len(mine),
                "graph": graph([(a.version, a.best.win) for a in mine], last, marks),
                "moments": [
                    {
                        "version": a.version,
                        "move": a.version + 1,
                        "chosen": _words(snap, by_key[(a.version, seat)], a.chosen),
                        "chosen_win": percent(a.chosen_estimate.win),
                        "best": _words(snap, by_key[(a.version, seat)], a.best.text),
                        "best_win": percent(a.best.win),
                    }
                    for a in moments
                ],
            }
        )
    return out


@router.get("/t/{slug}/review", response_class=HTMLResponse)
async def review_page(
    table: TableDep,
    request: Request,
    session: SessionDep,
    user: UserDep,
    code: str | None = None,
) -> Response:
    """Each seat's win chance over the game and its key moments, once the game has ended."""
    with refusal_shown(user, game_title(table.game_id)):
        row = await review_row(request, session, table)
    ahead = 0
    if row is not None and row.status == "queued":
        ahead = max(0, await _ahead(session, row))
    last = table.game.version if table.game else 0
    done = row is not None and row.status == "done" and row.result is not None
    ctx = {
        "user": user,
        "room": table_info(table.snapshot(), None),
        "code": code,
        "row": row,
        "ahead": ahead,
        "seats": seats_view(table, row.result or {}, last) if done and row else [],
        "last": last,
    }
    return templates.TemplateResponse(request, "review.html", ctx)


async def _ahead(session: AsyncSession, row: Review) -> int:
    from sqlalchemy import func, select

    result = await session.execute(
        select(func.count())
        .select_from(Review)
        .where(Review.status.in_(("queued", "running")), Review.id < row.id)
    )
    return int(result.scalar_one())


@router.get("/api/tables/{slug}/review")
async def review_json(table: TableDep, request: Request, session: SessionDep) -> dict[str, Any]:
    """The review as data: status, progress, and every valued decision once done; 409 while
    the game runs."""
    row = await review_row(request, session, table)
    if row is None:
        return {"status": "queue_full"}
    body: dict[str, Any] = {"status": row.status, "done": row.done, "total": row.total}
    if row.status == "done" and row.result is not None:
        body["decisions"] = [
            {k: v for k, v in d.items() if k != "words"} for d in row.result["decisions"]
        ]
    return body
