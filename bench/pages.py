"""What one move costs in HTML rendering, per game: the table page (seats bar, board, your
area, log) rendered for every seat and one spectator, as a move's push does, from positions
spread over a seeded random game, in English and Polish. No server and no database: the
tables are built in memory (`offline_table`, shared with
tests/app/presentation/test_html_no_leak.py).

    python -m bench.pages [--players 4] [--repeat 50] [--digest]

Prints, per game, the mean CPU milliseconds per move (all audiences) and per page; with
`--digest`, instead, a sha256 over every page it renders (each position, language and
audience, in order): two checkouts that print the same digests render the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from types import SimpleNamespace
from typing import Any

from app import i18n
from app.presentation.table import state_html
from app.realtime.connection import Connection
from app.store.tables import SeatInfo
from app.table import GameLive, Runtime, Table
from engines import ENGINES
from engines.core import Engine

_RUNTIME = Runtime(now=lambda: 1_800_000_000.0)
"""One for every offline room, as a server has one: a Runtime makes its metrics (prometheus
objects), which would otherwise count in every measured move."""


def offline_table(engine: Engine[Any, Any, Any], state: Any, players: int) -> Table:
    """A playing room of `players` people (user ids 100, 101, …) holding `state` at version
    7, with no database behind it (only rendering may be asked of it)."""
    room = SimpleNamespace(
        id=1,
        slug="offline",
        game_id=engine.spec.id,
        options={},
        num_seats=players,
        private=False,
        invite_code="x",
        host_id=100,
        status="playing",
        clock="normal",
        bot_level="normal",
        away_days=0,
        outside_bots=False,
        rematch_slug=None,
        friends_only=False,
    )
    hub = Table(None, room, _RUNTIME)  # type: ignore[arg-type]
    hub.seats = {s: SeatInfo(s, 100 + s, f"Player {s + 1}") for s in range(players)}
    hub.game = GameLive(
        db_id=1,
        engine=engine,
        state=state,
        version=7,
        seed=0,
        seed_commitment="c" * 64,
        chain_head="d" * 64,
        log=[],
        prompt_version=dict.fromkeys(range(players), 7),
    )
    return hub


def positions(engine: Engine[Any, Any, Any], players: int, seed: int, samples: int) -> list[Any]:
    """`samples` states spread from the start to the end of a seeded random game."""
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options({}), seed).state
    states = [state]
    for _ in range(2000):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    picks = sorted({int(i * (len(states) - 1) / (samples - 1)) for i in range(samples)})
    return [states[i] for i in picks]


def one_move(engine: Engine[Any, Any, Any], state: Any, players: int) -> None:
    """Every audience's page of a new version (a fresh room: nothing rendered yet)."""
    hub = offline_table(engine, state, players)
    for seat in [*range(players), None]:
        conn = Connection(user_id=None if seat is None else 100 + seat, fmt="html")
        state_html(hub.snapshot(), conn, 200)


def pages_digest(engine: Engine[Any, Any, Any], players: int) -> str:
    """A sha256 over every page `main` renders for `engine` (positions, languages, audiences
    in order), each page once and from a fresh room."""
    digest = hashlib.sha256()
    states = positions(engine, players, seed=3, samples=8)
    for lang in ("en", "pl"):
        with i18n.use(lang):
            for state in states:
                hub = offline_table(engine, state, players)
                for seat in [*range(players), None]:
                    conn = Connection(user_id=None if seat is None else 100 + seat, fmt="html")
                    digest.update(state_html(hub.snapshot(), conn, 200).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=50, help="renders of each position")
    parser.add_argument(
        "--digest", action="store_true", help="print a sha256 of every page, not timings"
    )
    args = parser.parse_args()
    for engine in ENGINES:
        players = max(engine.spec.min_players, min(args.players, engine.spec.max_players))
        if args.digest:
            print(f"{engine.spec.id:18s} {players} seats: {pages_digest(engine, players)}")
            continue
        states = positions(engine, players, seed=3, samples=8)
        times = []
        for lang in ("en", "pl"):
            with i18n.use(lang):
                for state in states:
                    one_move(engine, state, players)  # warm: templates, translations
                    start = time.process_time()
                    for _ in range(args.repeat):
                        one_move(engine, state, players)
                    times.append((time.process_time() - start) / args.repeat)
        per_move = sum(times) / len(times) * 1000
        print(
            f"{engine.spec.id:18s} {players} seats + 1 spectator: {per_move:6.2f} ms CPU per "
            f"move, {per_move / (players + 1):5.2f} ms per page"
        )


if __name__ == "__main__":
    main()
