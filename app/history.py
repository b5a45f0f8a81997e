"""Finished games live on: a game's export (every action with its seat, the revealed secret and
its commitment) and its server-side verification (engines/verify.py, run on the export)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repo
from app.errors import Refusal
from app.i18n import N_
from app.realtime.hub import RoomHub
from engines import verify


async def export_game(session: AsyncSession, hub: RoomHub) -> dict[str, Any]:
    """The finished game as a self-contained JSON document (format `stolik-game/1`); refused
    while it runs, since the secret and the final state would show hidden cards."""
    game = await repo.game_for_room(session, hub.room_id)
    if game is None or hub.status != "finished" or game.result is None:
        raise Refusal(
            "not_finished",
            N_("The game is not over yet: its record is shown once it has ended."),
            409,
        )
    moves = await repo.game_moves(session, game.id)
    scheme = "v2" if game.seed_secret is not None else "v1"
    export: dict[str, Any] = {
        "format": verify.FORMAT,
        "engine": game.engine,
        "rules_version": game.rules_version,
        "options": game.options,
        "num_players": game.num_players,
        "players": [
            {
                "seat": s,
                "name": info.shown_name,
                "bot": info.bot_level if info.is_bot else None,
                "control": info.control,
            }
            for s, info in sorted(hub.seats.items())
        ],
        "commitment_scheme": scheme,
        "commitment": game.seed_commitment,
        "seed": game.seed,
        "actions": [{"seat": m.seat, "action": m.action} for m in moves],
        "final_snapshot": game.snapshot,
        "result": game.result,
        "finished_at": game.updated_at.isoformat() if game.updated_at else None,
    }
    if scheme == "v2":
        export["salt"] = game.seed_salt
        export["secret"] = game.seed_secret
    return export


async def verify_game(session: AsyncSession, hub: RoomHub) -> tuple[dict[str, Any], verify.Report]:
    """The export and what replaying it found (in a worker thread: a replay takes a while)."""
    export = await export_game(session, hub)
    report = await asyncio.to_thread(verify.verify, export)
    return export, report
