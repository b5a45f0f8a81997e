"""Finished games live on: a game's export (every action with its seat and its link of the move
chain, the revealed secret and its commitment) and its server-side verification
(engines/verify.py, run on the export)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Refusal
from app.i18n import N_
from app.names import imported_name
from app.store import games, history, people, tables
from app.store.models import Game
from app.store.moves import game_moves
from app.table import Table
from engines import REGISTRY, chain, safe_json, verify
from engines.core import GameError


async def _finished_game(session: AsyncSession, table: Table, not_yet: str) -> Game:
    """The table's stored game once it has ended; else `not_finished` (409) saying `not_yet`."""
    game = await games.game_for_table(session, table.id)
    if game is None or table.status != "finished" or game.result is None:
        raise Refusal("not_finished", not_yet, 409)
    return game


async def export_game(session: AsyncSession, table: Table) -> dict[str, Any]:
    """The finished game as a self-contained JSON document (format `stolik-game/2`: every
    move with its link of the move chain; `stolik-game/1` for a game from before the chain);
    refused while it runs, since the secret and the final state would show hidden cards.

    The links are computed here from the stored moves and the commitment; the head is the one
    stored with the game (shown at the table after each move), so moves changed in the
    database since are caught by the verifier at the end of the chain."""
    game = await _finished_game(
        session, table, N_("The game is not over yet: its record is shown once it has ended.")
    )
    moves = await game_moves(session, game.id)
    scheme = "v2" if game.seed_secret is not None else "v1"
    actions = [{"seat": m.seat, "action": m.action} for m in moves]
    if game.chain_head is not None:
        links = chain.chain_links(game.seed_commitment, ((m.seat, m.action) for m in moves))
        for move, link in zip(actions, links, strict=True):
            move["chain"] = link
    export: dict[str, Any] = {
        "format": verify.FORMAT if game.chain_head is not None else verify.FORMAT_BEFORE_CHAIN,
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
            for s, info in sorted(table.seats.items())
        ],
        "commitment_scheme": scheme,
        "commitment": game.seed_commitment,
        "seed": game.seed,
        "actions": actions,
        "final_snapshot": game.snapshot,
        "result": game.result,
        "finished_at": game.updated_at.isoformat() if game.updated_at else None,
    }
    if scheme == "v2":
        export["salt"] = game.seed_salt
        export["secret"] = game.seed_secret
    if game.chain_head is not None:
        export["chain_scheme"] = chain.SCHEME
        export["move_chain"] = game.chain_head
    return export


async def verify_game(session: AsyncSession, table: Table) -> tuple[dict[str, Any], verify.Report]:
    """The export and what replaying it found (in a worker thread: a replay takes a while)."""
    export = await export_game(session, table)
    report = await asyncio.to_thread(verify.verify, export)
    return export, report


# ---- replays ----------------------------------------------------------------------------------


class Replays:
    """Built replays (every state of a finished game, from `setup(seed)` and the stored
    actions), kept for the few games looked at most recently."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self._built: dict[int, list[Any]] = {}

    async def states(self, session: AsyncSession, table: Table) -> list[Any]:
        """Every state of the room's finished game: index = version."""
        game = await _finished_game(
            session,
            table,
            N_("A game can be replayed once it is over; until then the table is the game."),
        )
        if game.id in self._built:
            states = self._built.pop(game.id)
            self._built[game.id] = states  # most recently used last
            return states
        moves = await game_moves(session, game.id)
        engine = table.engine
        options = engine.parse_options(game.options)

        def build() -> list[Any]:
            state = engine.setup(game.num_players, options, game.seed).state
            out = [state]
            for m in moves:
                state = engine.apply(state, m.seat, engine.parse_action(m.action)).state
                out.append(state)
            return out

        try:
            states = await asyncio.to_thread(build)
        except GameError:
            if game.rules_version != engine.spec.rules_version:
                raise Refusal(
                    "cannot_replay",
                    N_(
                        "This game was played under rules version %(played)s; this server "
                        "has version %(current)s and can no longer replay it."
                    ),
                    409,
                    played=game.rules_version,
                    current=engine.spec.rules_version,
                ) from None
            raise
        self._built[game.id] = states
        while len(self._built) > self.keep:
            self._built.pop(next(iter(self._built)))
        return states


def round_starts(engine: Any, states: list[Any]) -> list[tuple[int, Any]]:
    """(version, round) where the public view's round number changes — for the "jump to a
    round" links (games whose views have no round give none)."""
    starts: list[tuple[int, Any]] = []
    last: Any = None
    for version, state in enumerate(states):
        rnd = engine.view(state, None).get("round")
        if rnd is not None and rnd != last:
            starts.append((version, rnd))
        last = rnd
    return starts


# ---- import -----------------------------------------------------------------------------------


MAX_IMPORT_MOVES = 50_000
MAX_IMPORT_BYTES = 20_000_000
"""Largest game file read for an import."""
NOT_A_GAME = N_("This file is not a game this server can replay.")
_NOT_STORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL and lone surrogates: text PostgreSQL refuses to store."""
_FITS = {"commitment": 64, "secret": 64, "salt": 128, "rules_version": 16}
"""The longest text each of these export fields may hold (its column)."""


def parse_export(raw: bytes) -> dict[str, Any]:
    """An uploaded game file as a JSON object, or `bad_import` (422): not JSON, nested too
    deeply (never a RecursionError), not an object, too large."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise Refusal("bad_import", NOT_A_GAME, 422)
    try:
        export = safe_json.loads(raw)
    except safe_json.BadJson:
        raise Refusal("bad_import", NOT_A_GAME, 422) from None
    if not isinstance(export, dict):
        raise Refusal("bad_import", NOT_A_GAME, 422)
    return export


def _storable(export: dict[str, Any]) -> bool:
    """Whether what an import stores as it is fits the database: no text holding NUL or a
    lone surrogate (PostgreSQL refuses both), texts and the seed within their columns. The
    players' names are not stored as they are (`imported_name` cleans them)."""
    rest = {k: v for k, v in export.items() if k != "players"}
    for text in safe_json.strings(rest):
        if _NOT_STORABLE.search(text):
            return False
    for key, longest in _FITS.items():
        value = export.get(key)
        if value is not None and len(str(value)) > longest:
            return False
    seed = export.get("seed")
    return type(seed) is int and -(2**63) <= seed < 2**63


def _player_names(export: dict[str, Any], n: int) -> dict[int, str]:
    """The export's players' names by seat, cleaned like typed names (none for what is not
    a player entry or cleans to nothing)."""
    players = export.get("players")
    names: dict[int, str] = {}
    if not isinstance(players, list):
        return names
    for i, player in enumerate(players[:n]):
        if not isinstance(player, dict):
            continue
        seat = player.get("seat", i)
        name = imported_name(player.get("name"))
        if type(seat) is int and 0 <= seat < n and name is not None:
            names.setdefault(seat, name)
    return names


async def import_game(session: AsyncSession, importer_id: int, export: dict[str, Any]) -> Any:
    """Store a verified export as a finished private table of `importer_id` (the host), its
    players as name-only guests, so it can be replayed here; refused (422) unless it verifies
    and what it stores fits (`_storable`)."""
    actions = export.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_IMPORT_MOVES:
        raise Refusal("bad_import", NOT_A_GAME, 422)
    if safe_json.depth(export) > safe_json.MAX_DEPTH or not _storable(export):
        raise Refusal("bad_import", NOT_A_GAME, 422)
    report = await asyncio.to_thread(verify.verify, export)
    if not report.ok:
        raise Refusal(
            "bad_import",
            N_("This game does not verify: %(problem)s"),
            422,
            problem=report.problems[0],
        )
    engine = REGISTRY[str(export["engine"])]
    options = engine.parse_options(export.get("options") or {})
    n = int(export["num_players"])

    def replay() -> tuple[list[Any], list[Any]]:
        step = engine.setup(n, options, int(export["seed"]))
        opening, state, events = step.events, step.state, []
        for move in actions:
            step = engine.apply(state, int(move["seat"]), engine.parse_action(move["action"]))
            state = step.state
            events.append(step.events)
        return opening, events

    opening, events = await asyncio.to_thread(replay)
    names = _player_names(export, n)
    room = await tables.create_room(
        session,
        host_id=importer_id,
        game_id=engine.spec.id,
        options=options.model_dump(mode="json"),
        num_seats=n,
        private=True,
    )
    await tables.remove_seat_at(session, room.id, 0)
    for seat in range(n):
        guest = await people.create_user(session, names.get(seat, f"Player {seat + 1}"))
        await tables.add_seat(session, room.id, seat, guest.id)
    scheme = export.get("commitment_scheme")
    game = await games.create_game(
        session,
        games.new_game(
            room_id=room.id,
            engine=engine.spec.id,
            options=options.model_dump(mode="json"),
            num_players=n,
            seed=int(export["seed"]),
            seed_commitment=str(export["commitment"]),
            snapshot=export["final_snapshot"],
            opening=[e.to_json() for e in opening],
            seed_secret=str(export["secret"]) if scheme == "v2" else None,
            seed_salt=str(export["salt"]) if scheme == "v2" else None,
            rules_version=str(export.get("rules_version") or "1"),
            # Verified above: the chain's head, kept so that the game exports as it came.
            chain_head=str(export["move_chain"]) if export["format"] == verify.FORMAT else None,
        ),
    )
    await history.store_imported_moves(
        session,
        game.id,
        actions,
        [[e.to_json() for e in step] for step in events],
        export["result"],
    )
    await tables.set_table(session, room.id, status="finished")
    return room
