"""The lobby's websocket: its live list of tables and the person's invitations, pushed again
whenever they change. Accepting, the caller and the socket's life are the table socket's
(ws.py)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.routes.ws import _accepted, _carry_on, _close_signed_out, _stopped, _with_caller
from app.lobby import lobby_listing
from app.presentation.simple import invitations_html, lobby_html
from app.realtime.connection import Connection
from app.store import friends
from app.table import Tables

router = APIRouter()
log = logging.getLogger("stolik.ws")


@router.websocket_route("/ws/lobby")
@_with_caller
async def lobby_socket(ws: WebSocket, fmt: str, uid: int | None) -> None:
    """The lobby's table list, pushed again whenever a table changes (query: `format`)."""
    tables: Tables = ws.app.state.tables
    conn = await _accepted(ws, fmt, uid)
    if conn is None:
        return
    tables.lobby.add(conn)
    conn.notify("lobby")
    pusher = asyncio.create_task(_push_lobby(ws, tables, conn))
    await _carry_on(ws, _lobby_read(ws, conn, pusher))


async def _lobby_read(ws: WebSocket, conn: Connection, pusher: asyncio.Task[None]) -> None:
    """The lobby socket's reader: nothing the client sends is read, only its leaving."""
    tables: Tables = ws.app.state.tables
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect" or pusher.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        tables.sockets.closed(conn)
        tables.lobby.discard(conn)
        await _stopped(pusher)
        if conn.signed_out:
            await _close_signed_out(ws)


async def _push_lobby(ws: WebSocket, tables: Tables, conn: Connection) -> None:
    """Send the lobby's table list each time it is told to (a burst of changes is one push),
    and the person's invitations when one arrives (`notify_invitation`). A push that fails is
    logged and ends the pushing (the socket stays until the client leaves); a client gone
    meanwhile is no failure."""
    try:
        while True:
            kinds = {(await conn.queue.get())[0]}
            if conn.signed_out:
                await _close_signed_out(ws)
                return
            await asyncio.sleep(0.1)  # coalesce bursts of changes into one push
            while not conn.queue.empty():
                kinds.add(conn.queue.get_nowait()[0])
            if conn.signed_out:
                await _close_signed_out(ws)
                return
            if kinds & {"invite", "request"} and conn.user_id is not None:
                await _push_invitations(ws, conn, conn.user_id)
            if "lobby" not in kinds:
                continue
            async with ws.app.state.sessions() as session:
                rows = await lobby_listing(session, tables, conn.user_id)
            if conn.fmt == "json":
                await ws.send_json({"type": "lobby", "tables": [r.__dict__ for r in rows]})
            else:
                await ws.send_text(lobby_html(rows, tables.runtime.now()))
    except WebSocketDisconnect:
        raise
    except Exception:
        log.exception("lobby push failed", extra={"user": conn.user_id})
        raise


async def _push_invitations(ws: WebSocket, conn: Connection, user_id: int) -> None:
    """The person's invitations to tables, newest first, and how many friend requests wait for
    their answer (HTML: the lobby's invitations box)."""
    async with ws.app.state.sessions() as session:
        rows = await friends.invitations_for(session, user_id)
        asked = len(await friends.pending_requests(session, user_id, incoming=True))
    if conn.fmt == "json":
        invitations = [r.__dict__ for r in rows]
        await ws.send_json(
            {"type": "invitations", "invitations": invitations, "friend_requests": asked}
        )
    else:
        await ws.send_text(invitations_html(rows, asked))
