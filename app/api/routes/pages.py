"""HTML pages: name, lobby, create table, table (the game screen frame)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit, urlunsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n, vacation
from app.api.deps import (
    NamedUser,
    SessionDep,
    SettingsDep,
    TableDep,
    TablesDep,
    UserDep,
    find_table,
    spend_creation,
)
from app.api.error_page import ErrorPage, refusal_shown
from app.api.guests import clean_name, name_guest
from app.errors import Refusal
from app.history import Replays, round_starts, verify_game
from app.i18n import N_
from app.lobby import (
    create_table,
    lobby_listing,
    option_fields,
    options_from_form,
    playable_engines,
)
from app.nights.store import night_of_room
from app.presentation import log as game_log
from app.presentation.environment import game_title, templates
from app.presentation.messages import standing_names, table_info
from app.store import friends, people
from app.store.models import User
from app.store.tables import SeatInfo, away_of
from engines import REGISTRY

router = APIRouter(tags=["pages"])


def _safe_next(target: str | None) -> str:
    """Only local paths are followed after choosing a name."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


def _name_page(
    request: Request, user: User | None, target: str, error: str | None = None, status: int = 200
) -> Response:
    ctx = {"user": user, "next": target, "error": error}
    return templates.TemplateResponse(request, "name.html", ctx, status_code=status)


@router.get("/name", response_class=HTMLResponse)
async def name_form(request: Request, user: UserDep, next: str = "/") -> Response:
    """Choose a display name."""
    return _name_page(request, user, _safe_next(next))


@router.post("/name", response_class=HTMLResponse)
async def name_submit(
    request: Request, session: SessionDep, user: UserDep, tables: TablesDep
) -> Response:
    """Store the name (and how the person wants to be spoken of) and go on; `sit=N` in the
    target takes that seat."""
    form = await request.form()
    target = _safe_next(str(form.get("next", "/")))
    asked = str(form.get("gender", ""))
    gender = asked if asked in i18n.GENDERS else None
    try:
        name = clean_name(str(form.get("name", "")))
        uid = await name_guest(request, session, user, tables, name)
    except Refusal as exc:
        # A name that will not do is a 422 here as in the API (`app.names`); a spent
        # creation budget keeps its 429.
        return _name_page(request, user, target, exc.message, exc.status)
    if gender is not None and (user is None or user.gender != gender):
        await people.set_gender(session, uid, gender)
        await session.commit()
        tables.regendered(uid, gender)
    if gender is None and user is not None:
        gender = user.gender  # left as it was
    target = await _sit_from_target(tables, uid, name, target, gender)
    return RedirectResponse(target, status_code=303)


@router.post("/lang")
async def choose_language(
    request: Request, session: SessionDep, user: UserDep, tables: TablesDep
) -> Response:
    """Switch the language: kept with the person (and in a cookie for this browser)."""
    form = await request.form()
    lang = str(form.get("lang", ""))
    target = _safe_next(str(form.get("next", "/")))
    if lang not in i18n.LANGUAGES:
        raise Refusal("bad_language", N_("That language is not offered."), 422)
    if user is not None:
        await people.set_language(session, user.id, lang)
        await session.commit()
        tables.person_changed(user.id)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(i18n.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


async def _sit_from_target(
    tables: TablesDep, user_id: int, name: str, target: str, gender: str | None
) -> str:
    """A table target carrying `sit=N` (a seat asked for before choosing a name): take that
    seat if it is still free, and return the target without it."""
    url = urlsplit(target)
    query = parse_qs(url.query)
    match = re.fullmatch(r"/t/([\w-]+)", url.path)
    sit = query.pop("sit", [""])[0]
    clean = urlunsplit(("", "", url.path, urlencode(query, doseq=True), ""))
    if match is None or not sit.isdigit():
        return clean
    try:
        table = await find_table(tables, match.group(1), user_id, query.get("code", [None])[0])
        if table.seat_of(user_id) is None:
            await table.join(user_id, name, int(sit), gender)
    except Refusal:
        pass  # taken meanwhile or started: the table page shows what is free
    return clean


async def _lobby_page(
    request: Request,
    session: SessionDep,
    user: User,
    tables: TablesDep,
    error: str | None = None,
    status: int = 200,
    away_error: str | None = None,
) -> Response:
    rows = await lobby_listing(session, tables, user.id)
    games = [{"spec": e.spec, "options": option_fields(e.spec.id)} for e in playable_engines()]
    now = tables.runtime.now()
    ctx = {
        "user": user,
        "rows": rows,
        "games": games,
        "error": error,
        "away_error": away_error,
        "now": now,
        "invitations": await friends.invitations_for(session, user.id),
        "friend_requests": len(await friends.pending_requests(session, user.id, incoming=True)),
        "online_friends": [f for f in await friends.friends_of(session, user.id, now) if f.online],
    }
    return templates.TemplateResponse(request, "lobby.html", ctx, status_code=status)


@router.get("/", response_class=HTMLResponse)
async def lobby(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Open tables and the create-table form."""
    return await _lobby_page(request, session, user, tables)


@router.post("/away")
async def away_form(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The dashboard's vacation form: away until a day, or back (`back`)."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    if form.get("back"):
        await vacation.come_back(session, tables, user)
        return RedirectResponse("/", status_code=303)
    try:
        until = vacation.until_end_of(
            form.get("until", ""), form.get("tz", "0"), tables.runtime.now()
        )
    except Refusal as exc:
        return await _lobby_page(request, session, user, tables, None, exc.status, exc.message)
    await vacation.go_away(session, tables, user, until)
    return RedirectResponse("/", status_code=303)


@router.post("/tables")
async def create_from_form(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The lobby's create-table form."""
    form = {k: str(v) for k, v in (await request.form()).items()}
    game_id = form.get("game", "")
    try:
        seats = int(form.get("seats", "0"))
    except ValueError:
        seats = 0
    try:
        options = (
            options_from_form(game_id, form)
            if game_id in {e.spec.id for e in playable_engines()}
            else {}
        )
        spend_creation(request, "tables")
        room = await create_table(
            session,
            host_id=user.id,
            game_id=game_id,
            num_seats=seats,
            options=options,
            private=form.get("visibility") == "private",
            clock=form.get("clock", "none"),
            bot_level=form.get("bot_level", "normal"),
            away_days=int(away) if (away := form.get("away_days") or "0").isdigit() else -1,
            outside_bots=form.get("outside_bots") in ("on", "true", "1"),
            friends_only=form.get("friends_only") in ("on", "true", "1"),
            rated=form.get("rated") == "on",
            store=tables.store,
        )
        await session.commit()
    except Refusal as exc:
        return await _lobby_page(request, session, user, tables, exc.message, exc.status)
    tables.adopt(room, [SeatInfo(0, user.id, user.name, gender=user.gender, away=away_of(user))])
    tables.lobby_changed()
    url = f"/t/{room.slug}" + (f"?code={room.invite_code}" if room.private else "")
    return RedirectResponse(url, status_code=303)


@router.get("/t/{slug}", response_class=HTMLResponse)
async def table_page(
    request: Request,
    slug: str,
    tables: TablesDep,
    user: UserDep,
    settings: SettingsDep,
    session: SessionDep,
    code: str | None = None,
) -> Response:
    """The table: waiting room before the start, then the game screen; spectators read-only."""
    uid = user.id if user else None
    with refusal_shown(user, i18n.gettext("Table not available")):
        table = await find_table(tables, slug, uid, code)
    night = await night_of_room(session, table.id)
    ws_url = f"/ws/t/{slug}" + (f"?code={quote(code)}" if code else "")
    invite = f"/t/{slug}?code={table.invite_code}" if table.private else f"/t/{slug}"
    ctx: dict[str, Any] = {
        "user": user,
        "room": table_info(table.snapshot(), table.seat_of(uid)),
        "ws_url": ws_url,
        "invite_path": invite,
        "code": code,
        "is_host": uid == table.host_id,
        "night": night,
        "chat_max_chars": settings.chat_max_chars,
        "next": quote(str(request.url.path) + (f"?code={code}" if code else "")),
    }
    return templates.TemplateResponse(request, "table.html", ctx)


@router.post("/t/{slug}/rematch")
async def rematch_page(slug: str, tables: TablesDep, user: UserDep) -> Response:
    """ "Play again" from the end screen: go to the rematch table (created if needed)."""
    if user is None:
        return RedirectResponse(f"/name?next=/t/{slug}", status_code=303)
    try:
        table = await find_table(tables, slug, user.id, None)
        new_slug, code = await table.rematch(user.id)
    except Refusal:
        return RedirectResponse(f"/t/{slug}", status_code=303)
    tables.lobby_changed()
    return RedirectResponse(
        f"/t/{new_slug}" + (f"?code={code}" if table.private else ""), status_code=303
    )


@router.post("/t/{slug}/sit")
async def sit_page(
    slug: str, tables: TablesDep, user: UserDep, seat: int | None = None, code: str | None = None
) -> Response:
    """Take a seat in one click (the rematch invitation), then show the table."""
    target = f"/t/{slug}" + (f"?code={quote(code)}" if code else "")
    if user is None:
        return RedirectResponse(f"/name?next={quote(target)}", status_code=303)
    try:
        table = await find_table(tables, slug, user.id, code)
        if table.seat_of(user.id) is None:
            try:
                await table.join(user.id, user.name, seat, user.gender)
            except Refusal as exc:
                if exc.code != "seat_taken":
                    raise
                await table.join(user.id, user.name, None, user.gender)
    except Refusal:
        pass  # the table page says what is wrong (full, started, private)
    tables.lobby_changed()
    return RedirectResponse(target, status_code=303)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules_page(request: Request, game_id: str, user: UserDep) -> Response:
    """How to play a game, in the reader's language (templates/rules/<game>.<lang>.html)."""
    engine = REGISTRY.get(game_id)
    if engine is None:
        title = i18n.gettext("No such game")
        raise ErrorPage(user, title, i18n.gettext("There is no game at this address."), 404)
    ctx = {"user": user, "engine": engine, "game_id": game_id}
    return templates.TemplateResponse(request, "rules.html", ctx)


@router.get("/t/{slug}/verify", response_class=HTMLResponse)
async def verify_page(
    slug: str,
    table: TableDep,
    request: Request,
    session: SessionDep,
    user: UserDep,
    code: str | None = None,
) -> Response:
    """Check a finished game's shuffle here on the server: the commitment shown before the
    first move, the revealed secret, and a replay of every move to the stored end."""
    with refusal_shown(user, game_title(table.game_id)):
        export, report = await verify_game(session, table)
    query = f"?code={code}" if code else ""
    ctx = {
        "user": user,
        "room_slug": slug,
        "query": query,
        "title": table.engine.spec.title,
        "export": export,
        "report": report,
    }
    return templates.TemplateResponse(request, "verify.html", ctx)


@router.get("/t/{slug}/replay", response_class=HTMLResponse)
async def replay_page(
    table: TableDep,
    request: Request,
    session: SessionDep,
    user: UserDep,
    at: int | None = None,
    seat: str = "",
    code: str | None = None,
) -> Response:
    """A finished game, move by move, from any seat, as a spectator, or with every hand shown
    (`seat=all`); read-only, through the live table's own templates. `at` is the version."""
    replays: Replays = request.app.state.replays
    with refusal_shown(user, game_title(table.game_id)):
        states = await replays.states(session, table)
    last = len(states) - 1
    version = last if at is None else max(0, min(last, at))
    engine = table.engine
    everyone = seat == "all"
    viewer = int(seat) if seat.isdigit() and int(seat) in table.seats else None
    state = states[version]
    snap = table.snapshot()
    names = standing_names(snap)
    log = [
        game_log.fill_names(snap, i18n.event_text(e))
        for v, e in (table.game.log if table.game else [])
        if v <= version and (everyone or e.visible_to(viewer))
    ]
    hands = (
        [(s, engine.view(state, s)) for s in sorted(table.seats)]
        if everyone
        else ([(viewer, engine.view(state, viewer))] if viewer is not None else [])
    )
    query = {"code": code} if code else {}
    ctx = {
        "user": user,
        "room": table_info(snap, viewer),
        "catalogue": engine.catalogue(),
        "seat": viewer,
        "everyone": everyone,
        "seat_param": seat if (everyone or viewer is not None) else "",
        "version": version,
        "last": last,
        "view": engine.view(state, viewer),
        "hands": hands,
        "log": list(reversed(log)),
        "names": names,
        "rounds": round_starts(engine, states),
        "chat": list(table.chat.lines),
        "query": query,
        "code": code,
    }
    return templates.TemplateResponse(request, "replay.html", ctx)
