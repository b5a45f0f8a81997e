"""Friends: the friends page (friends online and at which public tables, requests both ways,
invitations), asking by profile link or name, answering, and inviting a friend to your table
in one click (the table page's panel)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app import i18n
from app.api.deps import NamedUser, RequiredUser, SessionDep, TablesDep, find_table
from app.errors import Refusal
from app.friends import requests
from app.friends.invitations import invite, notify_invitation
from app.i18n import N_
from app.presentation.environment import templates
from app.store import friends, people
from app.store.models import User
from app.table import Tables

router = APIRouter(tags=["friends"])


async def _friends_page(
    request: Request,
    session: AsyncSession,
    user: User,
    tables: Tables,
    *,
    notice: str | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    now = tables.runtime.now()
    ctx = {
        "user": user,
        "friends": await friends.friends_of(session, user.id, now),
        "incoming": await friends.pending_requests(session, user.id, incoming=True),
        "outgoing": await friends.pending_requests(session, user.id, incoming=False),
        "invitations": await friends.invitations_for(session, user.id),
        "profile": str(request.base_url).rstrip("/") + f"/u/{user.id}",
        "notice": notice,
        "error": error,
    }
    return templates.TemplateResponse(request, "friends.html", ctx, status_code=status)


@router.get("/friends", response_class=HTMLResponse)
async def friends_page(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Your friends (online first, with the public tables they sit at), requests to answer,
    requests you sent, and invitations to tables."""
    return await _friends_page(request, session, user, tables)


async def _ask(
    request: Request, session: AsyncSession, user: User, tables: Tables, other: User
) -> Response:
    """Ask `other` to be friends (or accept their request) and say what happened."""
    try:
        now_friends = await requests.ask(session, user, other, tables.runtime.now())
    except Refusal as exc:
        await session.rollback()
        return await _friends_page(
            request, session, user, tables, error=exc.message, status=exc.status
        )
    await session.commit()
    tables.person_notified(other.id, "request")  # their open lobby says a request waits
    done = (
        N_("You and %(name)s are friends now.")
        if now_friends
        else N_("Friend request sent to %(name)s.")
    )
    notice = i18n.gettext(done) % {"name": other.name}
    return await _friends_page(request, session, user, tables, notice=notice)


@router.post("/friends/add", response_class=HTMLResponse)
async def add_friend(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The friends page's form: a profile link or a name."""
    form = await request.form()
    try:
        other = await requests.find_person(session, str(form.get("who", ""))[:300])
    except Refusal as exc:
        return await _friends_page(
            request, session, user, tables, error=exc.message, status=exc.status
        )
    return await _ask(request, session, user, tables, other)


async def _person(session: AsyncSession, person_id: int) -> User:
    person = await people.get_user(session, person_id)
    if person is None:
        raise Refusal("unknown_person", N_("Nobody has this profile link."), 404)
    return person


@router.post("/u/{person_id}/friend", response_class=HTMLResponse)
async def add_from_profile(
    person_id: int, request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The profile page's button: ask this person to be friends."""
    try:
        other = await _person(session, person_id)
    except Refusal as exc:
        return await _friends_page(
            request, session, user, tables, error=exc.message, status=exc.status
        )
    return await _ask(request, session, user, tables, other)


ANSWERS = {"decline": requests.decline, "cancel": requests.cancel, "remove": requests.unfriend}
"""What a person may do about another's request or friendship (accepting takes the time)."""


@router.post("/friends/{person_id}/{answer}", response_class=HTMLResponse)
async def answer(
    person_id: int,
    answer: str,
    request: Request,
    session: SessionDep,
    user: NamedUser,
    tables: TablesDep,
) -> Response:
    """Accept or decline a request, cancel your own, or end a friendship."""
    try:
        if answer not in ANSWERS and answer != "accept":
            raise Refusal("unknown_answer", N_("There is nothing to do at this address."), 404)
        other = await _person(session, person_id)
        if answer == "accept":
            await requests.accept(session, user, other, tables.runtime.now())
        else:
            await ANSWERS[answer](session, user, other)
    except Refusal as exc:
        await session.rollback()
        return await _friends_page(
            request, session, user, tables, error=exc.message, status=exc.status
        )
    await session.commit()
    return RedirectResponse("/friends", status_code=303)


@router.post("/friends/invitations/{invitation_id}/dismiss")
async def dismiss(
    invitation_id: int, request: Request, session: SessionDep, user: NamedUser
) -> Response:
    """Put an invitation away."""
    await friends.dismiss_invitation(session, invitation_id, user.id)
    await session.commit()
    if request.headers.get("hx-request"):
        return HTMLResponse("")
    return RedirectResponse("/friends", status_code=303)


@router.get("/t/{slug}/friends", response_class=HTMLResponse)
async def invite_panel(
    slug: str, request: Request, session: SessionDep, user: RequiredUser, tables: TablesDep
) -> Response:
    """The table page's "Invite a friend" panel (for a person with a seat at a table that
    waits or plays): their friends, online first, each with a button."""
    table = await find_table(tables, slug, user.id, None)
    shown = table.seat_of(user.id) is not None and table.status in ("open", "playing")
    rows = await friends.friends_of(session, user.id, tables.runtime.now()) if shown else []
    seated = {info.user_id for info in table.seats.values()}
    ctx = {
        "user": user,
        "slug": slug,
        "shown": shown,
        "friends": [f for f in rows if f.id not in seated],
        "friends_only": table.friends_only,
    }
    return templates.TemplateResponse(request, "partials/invite_friends.html", ctx)


@router.post("/t/{slug}/invite")
async def invite_friend(
    slug: str, request: Request, session: SessionDep, user: RequiredUser, tables: TablesDep
) -> Response:
    """Invite a friend (form field `friend`: their id) to this table in one click; they see
    it at once on their lobby page."""
    table = await find_table(tables, slug, user.id, None)
    form = await request.form()
    raw = str(form.get("friend", ""))
    friend = await people.get_user(session, int(raw)) if raw.isdigit() else None
    if friend is None:
        raise Refusal("not_friends", N_("You can invite only your friends."), 403)
    await invite(session, table, user, friend, tables.runtime.now())
    await session.commit()
    await notify_invitation(tables, table, user, friend.id)
    if request.headers.get("hx-request"):
        ctx = {"name": friend.name}
        return templates.TemplateResponse(request, "partials/invited.html", ctx)
    return RedirectResponse(f"/t/{slug}", status_code=303)
