"""Your devices: the browsers a person is signed in on, signing them out, and carrying the
same identity to another device with a one-time link (10 minutes, single use) or its QR code.
The link opens a confirmation page; only its POST signs in (a link preview that fetches the
page uses nothing)."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import identity
from app.api.deps import NamedUser, SessionDep, TablesDep, UserDep, sign_in
from app.core.config import Settings
from app.presentation.environment import templates
from app.push import subscriptions
from app.push.notices import CHOICES
from app.store import people
from app.store.models import User

router = APIRouter()


async def _devices_page(
    request: Request, session: SessionDep, user: User, now: float, **shown: Any
) -> Response:
    """The person's devices, this one first (marked); `shown`: a new link and its QR code."""
    this = request.session.get("sid")
    rows = sorted(await people.list_devices(session, user.id), key=lambda d: d.id != this)
    ctx = {"user": user, "devices": rows, "this": this, "now": now, "link": None, "qr": None}
    settings: Settings = request.app.state.settings
    ctx["push_on"] = settings.push
    if settings.push:
        ctx["pushes"] = await subscriptions.listed(session, user.id, this)
        ctx["push_kinds"] = CHOICES
    return templates.TemplateResponse(request, "devices.html", {**ctx, **shown})


@router.get("/devices", response_class=HTMLResponse)
async def devices(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """The signed-in devices, this one marked."""
    return await _devices_page(request, session, user, tables.runtime.now())


@router.post("/devices/{device_id}/signout")
async def sign_out_one(
    device_id: str, request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Sign out one device (this one too: then this browser is nobody again); its open
    sockets close at once, on every process."""
    gone = await people.revoke_devices(session, user.id, tables.runtime.now(), only=device_id)
    await session.commit()
    tables.signed_out(user.id, gone)
    if device_id == request.session.get("sid"):
        request.session.clear()
        return RedirectResponse("/", status_code=303)
    return RedirectResponse("/devices", status_code=303)


@router.post("/devices/signout-others")
async def sign_out_others(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Sign out every device but this one (their open sockets close at once)."""
    keep = request.session.get("sid")
    gone = await people.revoke_devices(
        session, user.id, tables.runtime.now(), keep=keep if isinstance(keep, str) else None
    )
    await session.commit()
    tables.signed_out(user.id, gone)
    return RedirectResponse("/devices", status_code=303)


@router.post("/devices/link", response_class=HTMLResponse)
async def make_link(
    request: Request, session: SessionDep, user: NamedUser, tables: TablesDep
) -> Response:
    """A new one-time link (and its QR code) to sign another device in as this person."""
    now = tables.runtime.now()
    token = await identity.new_link(session, user.id, now)
    await session.commit()
    url = str(request.base_url).rstrip("/") + f"/link/{token}"
    svg = io.BytesIO()
    segno.make(url, error="m").save(
        svg, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, svgclass="qr"
    )
    qr = svg.getvalue().decode()
    minutes = int(identity.LINK_LIFETIME // 60)
    return await _devices_page(request, session, user, now, link=url, qr=qr, minutes=minutes)


@router.get("/link/{token}", response_class=HTMLResponse)
async def link_page(token: str, request: Request, user: UserDep) -> Response:
    """Confirm before signing in with a one-time link."""
    return templates.TemplateResponse(
        request, "link.html", {"user": user, "token": token, "failed": False}
    )


@router.post("/link/{token}")
async def use_link(
    token: str, request: Request, session: SessionDep, tables: TablesDep
) -> Response:
    """Sign this browser in as the link's person, once; a used or expired link says so."""
    now = tables.runtime.now()
    user_id = await people.claim_device_link(session, identity.token_hash(token), now)
    if user_id is None:
        await session.rollback()
        return templates.TemplateResponse(
            request, "link.html", {"user": None, "token": token, "failed": True}, status_code=410
        )
    await sign_in(request, session, user_id)
    await session.commit()
    return RedirectResponse("/", status_code=303)
