"""Finished games: a person's played games and statistics, and imported games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import (
    Game,
    Move,
    Room,
    SeatRow,
    User,
    utcnow,
)
from app.store.tables import SeatInfo


@dataclass
class PlayedGame:
    """One finished game of a person, for "Your games" and profiles."""

    slug: str
    game_id: str
    finished: datetime
    private: bool
    invite_code: str | None
    players: list[str]
    seat: int
    place: int | None
    won: bool
    of: int


async def played_games(
    session: AsyncSession,
    user_id: int,
    *,
    game_id: str | None = None,
    public_only: bool = False,
    limit: int = 20,
    offset: int = 0,
) -> tuple[list[PlayedGame], int]:
    """The person's finished games, newest first (one page), and how many there are. Served
    by the seats(user_id) and games(status, updated_at) indexes."""
    query = (
        select(Room, Game, SeatRow.seat)
        .join(SeatRow, SeatRow.room_id == Room.id)
        .join(Game, Game.room_id == Room.id)
        .where(SeatRow.user_id == user_id, Game.status == "finished")
    )
    if game_id:
        query = query.where(Room.game_id == game_id)
    if public_only:
        query = query.where(Room.private.is_(False))
    total = int(
        (await session.execute(select(func.count()).select_from(query.subquery()))).scalar_one()
    )
    rows = (
        await session.execute(
            query.order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit).offset(offset)
        )
    ).all()
    names: dict[int, dict[int, str]] = {}
    room_ids = [room.id for room, _, _ in rows]
    if room_ids:
        seats = await session.execute(
            select(SeatRow.room_id, SeatRow.seat, SeatRow.bot_level, User.name)
            .outerjoin(User, User.id == SeatRow.user_id)
            .where(SeatRow.room_id.in_(room_ids))
        )
        for room_id, seat, bot_level, name in seats.all():
            shown = SeatInfo(seat, None, name or "", bot_level).shown_name
            names.setdefault(room_id, {})[seat] = shown
    games = []
    for room, game, seat in rows:
        result = game.result or {}
        ranks = {int(k): int(v) for k, v in (result.get("ranks") or {}).items()}
        winners = set(result.get("winners") or [])
        players = names.get(room.id, {})
        games.append(
            PlayedGame(
                room.slug,
                room.game_id,
                game.updated_at,
                room.private,
                room.invite_code if room.private else None,
                [players[s] for s in sorted(players)],
                seat,
                ranks.get(seat),
                seat in winners,
                game.num_players,
            )
        )
    return games, total


async def game_stats(
    session: AsyncSession, user_id: int, public_only: bool
) -> list[dict[str, Any]]:
    """Per game: finished games played, won, and the average place."""
    query = (
        select(Room.game_id, Game.result, SeatRow.seat)
        .join(SeatRow, SeatRow.room_id == Room.id)
        .join(Game, Game.room_id == Room.id)
        .where(SeatRow.user_id == user_id, Game.status == "finished")
    )
    if public_only:
        query = query.where(Room.private.is_(False))
    rows = await session.execute(query)
    stats: dict[str, dict[str, Any]] = {}
    for game_id, result, seat in rows.all():
        entry = stats.setdefault(game_id, {"game": game_id, "played": 0, "won": 0, "places": []})
        entry["played"] += 1
        result = result or {}
        if seat in (result.get("winners") or []):
            entry["won"] += 1
        place = (result.get("ranks") or {}).get(str(seat))
        if place is not None:
            entry["places"].append(int(place))
    out = []
    for entry in sorted(stats.values(), key=lambda e: -e["played"]):
        places = entry.pop("places")
        entry["average_place"] = round(sum(places) / len(places), 2) if places else None
        out.append(entry)
    return out


async def store_imported_moves(
    session: AsyncSession,
    game_id: int,
    actions: list[dict[str, Any]],
    events: list[list[dict[str, Any]]],
    result: dict[str, Any],
) -> None:
    """An imported game's moves at once, and the game marked finished at its last version."""
    session.add_all(
        Move(game_id=game_id, seq=i + 1, seat=int(a["seat"]), action=a["action"], events=e)
        for i, (a, e) in enumerate(zip(actions, events, strict=True))
    )
    await session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(version=len(actions), status="finished", result=result, updated_at=utcnow())
    )
    await session.flush()
