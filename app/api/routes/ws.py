"""Websocket endpoints: one per open table page (the lobby's live list is in ws_lobby.py,
with the helpers of this module).

The table socket is a small state machine: accept → attach (full state sent) → read loop
(act / sync / chat) while a writer task sends what the table announces (state, presence, chat,
errors) → detach.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected
from uvicorn.protocols.utils import ClientDisconnected

from app import bot_accounts, i18n, identity
from app.core.config import Settings
from app.errors import Refusal
from app.guard import ActBudgets
from app.i18n import N_
from app.presentation.messages import encode_json, state_json_text
from app.presentation.simple import chat_html, error_html
from app.presentation.table import presence_html, state_html
from app.realtime.connection import CLOSE_SIGNED_OUT, Connection, SendWatch
from app.realtime.protocol import (
    Act,
    Chat,
    Sync,
    chat_message,
    error_message,
    parse_incoming,
    presence_message,
)
from app.realtime.transport import SocketControl, control_of
from app.table import ChatLimits, Table, Tables

router = APIRouter()
log = logging.getLogger("stolik.ws")


SIGNED_OUT = N_("This device was signed out.")


BOT_DEVICE_KEY = "stolik.bot_device"
"""Where `_user_id` leaves a bot's device id in the socket's scope."""


async def _user_id(ws: WebSocket) -> int | None:
    """The person behind the socket's cookie, or the bot behind its `Authorization: Bearer`
    token (which wins; `bot_accounts.bot_of_token` refuses a bad one); raises `SignedOut` for
    a cookie whose device was signed out (a socket cannot re-set the cookie: the page
    reloads and is nobody)."""
    tables: Tables = ws.app.state.tables
    token = bot_accounts.bearer(ws.headers)
    if token is not None:
        bot = await bot_accounts.bot_of_token(ws.app.state.sessions, token)
        ws.scope[BOT_DEVICE_KEY] = bot_accounts.device_of(bot.id)
        return bot.id
    cookie = dict(ws.session)
    user = await identity.person(
        cookie,
        ws.app.state.sessions,
        tables.runtime.now(),
        ws.headers.get("user-agent", ""),
        upgrade=False,
        known=tables.known,
        store=tables.store,
    )
    if user is None and "uid" in ws.session:
        raise SignedOut
    return user.id if user is not None else None


def _device(ws: WebSocket, uid: int | None) -> str | None:
    """The cookie's device id (a bot's: `bot:<id>`), for a socket that is someone."""
    bot_device = ws.scope.get(BOT_DEVICE_KEY)
    if isinstance(bot_device, str):
        return bot_device
    sid = ws.session.get("sid")
    return sid if uid is not None and isinstance(sid, str) else None


async def _close_signed_out(ws: WebSocket) -> None:
    """Close a socket whose device was signed out, saying so (once: a second close is a
    no-op)."""
    with contextlib.suppress(Exception):
        await ws.close(CLOSE_SIGNED_OUT, "signed out")


async def _refuse(ws: WebSocket, fmt: str, code: str, message: str, close_code: int) -> None:
    """Accept only to say why (in the reader's language), then close."""
    await ws.accept()
    text = i18n.gettext(message)
    if fmt == "json":
        await ws.send_json(error_message(code, text, message, {}))
    else:
        await ws.send_text(error_html(code, text))
    await ws.close(close_code, text.encode()[:120].decode(errors="ignore"))


CLOSE_TOO_SLOW = 4408
"""Close code: the client fell too far behind (it re-syncs when it reconnects)."""
CLOSE_RATE_LIMITED = 4429
"""Close code: far past the act rate limit."""


class TooSlow(Exception):
    """The client stopped reading."""


class SignedOut(Exception):
    """The socket's device was signed out."""


BACKLOG = 50
"""Pushes waiting for a socket's writer past which its reader stops taking the client's
messages until the writer catches up: a burst of messages that are each answered (refusals,
say) waits in the client's own TCP stream instead of filling the mailbox, so a client that
reads its answers is never taken for one too slow to read."""

_warned = False


def _tune(ws: WebSocket, settings: Settings) -> None:
    """Give the socket's connection its limits (send buffer, time to close); without
    `app.realtime.transport.StolikWebSockets` a close may wait for ever: say so, once."""
    global _warned
    control = control_of(ws.scope)
    if control is not None:
        control.configure(settings.ws_close_timeout, settings.ws_send_buffer)
    elif not _warned:
        _warned = True
        log.warning(
            "websockets served without app.realtime.transport:StolikWebSockets (uvicorn --ws): "
            "a client that stops reading keeps its connection open"
        )


async def _close(ws: WebSocket, code: int, reason: str, settings: Settings) -> None:
    """Close the socket; never wait longer than the close timeout (the connection itself is
    aborted by the transport when the client does not answer)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code, reason), settings.ws_close_timeout)


async def _send(
    ws: WebSocket,
    conn: Connection,
    data: Any,
    sends: SendWatch,
    control: SocketControl | None = None,
) -> None:
    """Write one push; a push still waiting for the client after `SendWatch.timeout` (the
    ticker's sweep cancels it) raises TooSlow. With the socket's control
    (`StolikWebSockets`), the frame goes straight to the connection, not through the ASGI
    send and the middleware's wrappers of it (the same frame; a client gone is
    `WebSocketDisconnect` either way)."""
    if conn.overflow or conn.too_slow:
        raise TooSlow
    sends.begin(conn)
    try:
        # A fragment, or JSON encoded already.
        text = data if isinstance(data, str) else encode_json(data)
        if control is None:
            await ws.send_text(text)
        else:
            try:
                await control.send_text(text.encode())
            except ClientDisconnected:
                raise WebSocketDisconnect(1006) from None
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if conn.too_slow and task is not None and task.uncancel() == 0:
            raise TooSlow from None
        raise
    finally:
        sends.end(conn)


async def _writer(ws: WebSocket, table: Table, conn: Connection, settings: Settings) -> None:
    """Send what the table announces; each state is computed for this connection's seat."""
    json_fmt = conn.fmt == "json"
    sends = table.runtime.sends
    control = control_of(ws.scope)
    # (version, table revision, who is online) of the last state or presence sent: a
    # presence push that would show the client what it has is not sent (a new socket's own
    # seat coming online right after its first state; one push for several sockets opening).
    shown: tuple[Any, ...] = ()
    while True:
        kind, payload = await conn.queue.get()
        conn.taken(kind)
        if conn.signed_out:
            raise SignedOut
        if kind == "error":
            code, message, template, params = payload
            data: Any = (
                error_message(code, message, template, params)
                if json_fmt
                else error_html(code, message)
            )
            await _send(ws, conn, data, sends, control)
        elif kind == "state":
            # A move (or another change) being made or waiting its turn makes a state that
            # supersedes this one: take a turn in the table's queue (at once when it is free)
            # and send the newest (Incan Gold's simultaneous decisions: four moves that queued
            # together, one push per socket instead of four).
            async with table.lock:
                pass
            snap = table.snapshot()
            key = (snap.version, snap.revision)
            if key == conn.sent_key and payload != "force":
                continue
            conn.sent_key = key
            if json_fmt:
                seat = snap.seat_of(conn.user_id)
                data = state_json_text(snap, seat, conn.log_version, legal=conn.legal)
                conn.log_version = key[0]
            else:
                data = state_html(snap, conn, settings.log_tail)
            await _send(ws, conn, data, sends, control)
            shown = (*key, snap.online)
        elif kind == "presence":
            snap = table.snapshot()
            now_shown = (snap.version, snap.revision, snap.online)
            if now_shown == shown:
                continue
            data = presence_message(list(snap.online)) if json_fmt else presence_html(snap, conn)
            await _send(ws, conn, data, sends, control)
            shown = now_shown
        elif kind == "chat":
            # payload None: the whole kept history (a new connection); else one new line.
            lines = list(table.chat.lines) if payload is None else [payload]
            history = payload is None
            data = chat_message(lines, history) if json_fmt else chat_html(lines, history)
            await _send(ws, conn, data, sends, control)


def _with_caller(
    route: Callable[[WebSocket, str, int | None], Awaitable[None]],
) -> Callable[[WebSocket], Awaitable[None]]:
    """A socket route given the socket's format (`json`, else HTML) and person (None:
    nobody); a socket whose device was signed out is refused first (4401)."""

    @functools.wraps(route)
    async def endpoint(ws: WebSocket) -> None:
        fmt = "json" if ws.query_params.get("format") == "json" else "html"
        try:
            uid = await _user_id(ws)
        except SignedOut:
            await _refuse(ws, fmt, "signed_out", SIGNED_OUT, CLOSE_SIGNED_OUT)
            return
        except Refusal as refusal:  # a bot token that is unknown or revoked
            await _refuse(ws, fmt, refusal.code, refusal.template, CLOSE_SIGNED_OUT)
            return
        await route(ws, fmt, uid)

    return endpoint


async def _accepted(ws: WebSocket, fmt: str, uid: int | None) -> Connection | None:
    """Accept the socket (with the transport's limits) and register its connection; None,
    the socket closed, when its device was signed out while the handshake went on."""
    tables: Tables = ws.app.state.tables
    _tune(ws, ws.app.state.settings)
    await ws.accept()
    conn = Connection(user_id=uid, fmt=fmt, device=_device(ws, uid))
    conn.legal = fmt == "json" and ws.query_params.get("legal") in ("1", "true")
    if not tables.sockets.opened(conn):
        await _close_signed_out(ws)
        return None
    return conn


@router.websocket_route("/ws/t/{slug}")
@_with_caller
async def table_socket(ws: WebSocket, fmt: str, uid: int | None) -> None:
    """The live table: state pushes in, acts and syncs out. Query: `format` (`json`, else
    HTML fragments) and a private table's `code`.

    Both sockets are plain Starlette routes, not FastAPI ones: FastAPI wraps a websocket
    endpoint in two exit stacks, its dependency solver and their closures (~5 KB a socket,
    for nothing here); and both hand the socket's life over to a task once it is accepted
    (`_carry_on`), so that no coroutine of the middleware waits for as long as it is open."""
    tables: Tables = ws.app.state.tables
    settings: Settings = ws.app.state.settings
    slug: str = ws.path_params["slug"]
    code = ws.query_params.get("code")
    table = await tables.get(slug)
    if table is None or not table.may_watch(uid, code):
        # A private table without its code answers like a missing one (no probing).
        await _refuse(ws, fmt, "unknown_room", N_("There is no table at this address."), 4404)
        return
    conn = await _accepted(ws, fmt, uid)
    if conn is None:
        return
    # The table again, now: a table nobody watched may have been forgotten while the socket was
    # accepted (`Tables._forget_unwatched`), and a socket must join the one that is followed.
    table = await tables.get(slug) or table
    table.presence.attach(conn)
    writer = asyncio.create_task(_write_or_close(ws, table, conn, settings))
    await _carry_on(ws, _read(ws, table, conn, writer))


async def _carry_on(ws: WebSocket, life: Coroutine[Any, Any, None]) -> None:
    """The rest of an accepted socket's life, `life`, handed over to the transport
    (`SocketControl.hand_over`): the route returns, and the coroutines of the middleware
    and routing above it (~12 KB an idle socket) are freed. Without that transport, here."""
    control = control_of(ws.scope)
    if control is None or not control.hand_over(life):
        await life
        return
    # FastAPI's exit stack of the request's middleware is closed when the route returns; the
    # socket's scope would keep it (and its deque) for nothing.
    ws.scope.pop("fastapi_middleware_astack", None)


async def _read(ws: WebSocket, table: Table, conn: Connection, writer: asyncio.Task[None]) -> None:
    """The table socket's reader, until the client leaves (or the writer gives up): acts,
    syncs and chat lines; then the connection is detached."""
    tables: Tables = ws.app.state.tables
    settings: Settings = ws.app.state.settings
    uid = conn.user_id
    budgets: ActBudgets = ws.app.state.act_budgets
    budget = budgets.socket()
    address = ws.client.host if ws.client else None
    try:
        while True:
            if conn.queue.qsize() >= BACKLOG:
                room = conn.queue.room(BACKLOG)
                await asyncio.wait((room, writer), return_when=asyncio.FIRST_COMPLETED)
                room.cancel()
            if writer.done():
                break
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect" or conn.signed_out:
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            over = budgets.over(budget, uid, address)
            if over > settings.act_rate_close:
                log.info("socket closed: rate limit", extra={"room": table.slug, "user": uid})
                await _close(ws, CLOSE_RATE_LIMITED, "rate limited", settings)
                break
            if over:
                refusal = Refusal("rate_limited", N_("Too many messages; wait a few seconds."), 429)
                conn.notify("error", (refusal.code, refusal.message, refusal.template, {}))
                continue
            await _handle(table, conn, uid, raw, settings)
            if writer.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        tables.sockets.closed(conn)
        table.presence.detach(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if conn.signed_out:
            await _close_signed_out(ws)


async def _write_or_close(
    ws: WebSocket, table: Table, conn: Connection, settings: Settings
) -> None:
    """The writer; a client too slow to read, or a writer that fails, gets its socket closed
    with a reason (the page re-syncs when it reconnects) instead of a page that says "live"
    while nothing arrives."""
    try:
        await _writer(ws, table, conn, settings)
    except TooSlow:
        log.info("socket closed: too slow", extra={"room": table.slug, "user": conn.user_id})
        await _close(ws, CLOSE_TOO_SLOW, "too slow", settings)
    except SignedOut:
        log.info("socket closed: signed out", extra={"room": table.slug, "user": conn.user_id})
        await _close_signed_out(ws)
    except asyncio.CancelledError:
        raise
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the client left, or the socket was closed already (over the size limit, say)
    except Exception:
        log.exception("socket writer failed", extra={"room": table.slug, "user": conn.user_id})
        await _close(ws, 1011, "server error", settings)


async def _handle(
    table: Table, conn: Connection, uid: int | None, raw: str | bytes, settings: Settings
) -> None:
    """One client frame; every refusal becomes an error message and changes nothing."""
    metrics = table.runtime.metrics
    try:
        msg = parse_incoming(raw, settings.max_message_bytes)
        if isinstance(msg, Act):
            started = time.perf_counter()
            await table.act(uid, msg)
            metrics.act_latency.observe(time.perf_counter() - started)
        elif isinstance(msg, Sync):
            conn.log_version = -1
            conn.notify("state", "force")
        elif isinstance(msg, Chat):
            limits = ChatLimits(
                settings.chat_max_chars, settings.chat_rate_count, settings.chat_rate_window
            )
            await table.send_chat(uid, msg.text, limits)
    except Refusal as exc:
        metrics.refused.labels(exc.code).inc()
        log.debug("refused", extra={"room": table.slug, "user": uid, "code": exc.code})
        conn.notify("error", (exc.code, exc.message, exc.template, exc.params))
        if exc.code in ("stale", "conflict"):
            conn.log_version = -1
            conn.notify("state", "force")


async def _stopped(task: asyncio.Task[None]) -> None:
    """Cancel `task` and wait for it to end, whatever it ended with (its failure, if any,
    was logged where it happened)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
