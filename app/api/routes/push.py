"""Web Push for the page: the server's public key, a device subscribing and unsubscribing,
the person choosing per device what to get (or turning a device off), and the check a
service worker makes before it shows "your turn" (is it still true?)."""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from app.api.deps import MemberTable, RequiredUser, SessionDep, SettingsDep, TablesDep
from app.errors import Refusal
from app.i18n import N_
from app.push import subscriptions
from app.push.keys import public_key, server_key
from app.push.notices import KINDS

router = APIRouter()


class Keys(BaseModel):
    """A subscription's keys, as the browser's `PushSubscription.toJSON()` gives them."""

    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=64)


class Subscribe(BaseModel):
    """A device subscribing: its push service endpoint and keys, and the events it wants
    (every event when not given)."""

    endpoint: str = Field(max_length=1000)
    keys: Keys
    events: list[str] = Field(default_factory=lambda: list(KINDS), max_length=len(KINDS))


class Unsubscribe(BaseModel):
    """A device turning its pushes off (its browser's subscription is gone)."""

    endpoint: str = Field(max_length=1000)


def _public_endpoint(endpoint: str, insecure: bool) -> bool:
    """A push service's address the server may post to: https, and not this machine or a
    private network (the server must not be made to post inside it); `insecure` (tests, a
    local push service): any http or https address."""
    try:
        url = urlsplit(endpoint)
        host = url.hostname
    except ValueError:
        return False
    if not host or url.scheme not in ("https", "http"):
        return False
    if insecure:
        return True
    if url.scheme != "https" or host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return True  # a name: push services are public hosts
    return ip.is_global


def _on(settings: SettingsDep) -> None:
    if not settings.push:
        raise Refusal("push_off", N_("Notifications are turned off on this server."), 404)


@router.get("/push/key")
async def vapid_key(settings: SettingsDep) -> dict[str, Any]:
    """The key a browser subscribes with (`applicationServerKey`)."""
    _on(settings)
    return {"key": public_key(server_key(settings.data_dir, settings.push_vapid_key))}


@router.post("/push/subscriptions")
async def subscribe(
    body: Subscribe,
    request: Request,
    session: SessionDep,
    user: RequiredUser,
    settings: SettingsDep,
    tables: TablesDep,
) -> dict[str, Any]:
    """This device gets pushes (its subscription replaces any earlier one of its browser)."""
    _on(settings)
    if not _public_endpoint(body.endpoint, settings.push_insecure_endpoints):
        raise Refusal("bad_endpoint", N_("A push subscription needs an https address."), 422)
    if not subscriptions.valid_keys(body.keys.p256dh, body.keys.auth):
        raise Refusal("bad_keys", N_("The push subscription's keys are not valid."), 422)
    unknown = set(body.events) - set(KINDS)
    if unknown:
        raise Refusal(
            "bad_events", N_("Unknown events: %(names)s."), 422, names=", ".join(sorted(unknown))
        )
    device = request.session.get("sid")
    row = await subscriptions.subscribe(
        session,
        user.id,
        device if isinstance(device, str) else None,
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        body.events,
        tables.runtime.now(),
    )
    await session.commit()
    return {"id": row.id, "events": subscriptions.events_of(row.events)}


@router.post("/push/unsubscribe")
async def unsubscribe(body: Unsubscribe, session: SessionDep, user: RequiredUser) -> dict[str, Any]:
    """This device gets no more pushes."""
    gone = await subscriptions.remove(session, user.id, endpoint=body.endpoint)
    await session.commit()
    return {"removed": gone}


@router.post("/push/subscriptions/{sub_id}")
async def choose(
    sub_id: int,
    session: SessionDep,
    user: RequiredUser,
    events: Annotated[list[str] | None, Form()] = None,
    enabled: Annotated[str | None, Form()] = None,
) -> Response:
    """The devices page's form: what this device gets, and whether it gets anything."""
    chosen = [e for e in events or [] if e in KINDS]
    if not await subscriptions.choose(session, user.id, sub_id, chosen, enabled == "on"):
        raise Refusal("unknown_subscription", N_("There is no such device."), 404)
    await session.commit()
    return RedirectResponse("/devices#notifications", status_code=303)


@router.post("/push/subscriptions/{sub_id}/remove")
async def remove(sub_id: int, session: SessionDep, user: RequiredUser) -> Response:
    """Stop pushes to one device (it may turn them on again from its own page)."""
    if not await subscriptions.remove(session, user.id, sub_id=sub_id):
        raise Refusal("unknown_subscription", N_("There is no such device."), 404)
    await session.commit()
    return RedirectResponse("/devices#notifications", status_code=303)


@router.get("/push/check/{slug}")
async def still_true(table: MemberTable, user: RequiredUser, version: int) -> dict[str, bool]:
    """Whether a "your turn" push of `version` is still true: the person's seat still has
    the decision it was asked at that version (the worker does not show a stale one)."""
    game = table.game
    seat = table.seat_of(user.id)
    current = (
        game is not None
        and seat is not None
        and not game.over
        and seat in game.acting
        and game.prompt_version.get(seat) == version
    )
    return {"current": current}
