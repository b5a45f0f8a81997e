"""Work done once per audience, not per socket: ten spectators of a table receive one JSON
encoding of each state between them, and every one of them the same bytes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from typing import Any

import pytest

from app import i18n
from app.presentation import cache, messages
from app.presentation import log as game_log
from app.presentation.table import state_html
from app.realtime.connection import Connection
from app.store.tables import SeatInfo
from app.table import GameLive
from bench.pages import offline_table
from engines import ENGINES
from engines.core import Event
from tests.clients import Player, make_table, table_of
from tests.conftest import Server
from tests.tables import app_of, assert_kept_as_stored


async def test_spectators_share_one_encoding_per_state(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    watchers = [Player(server.url, server.ws_url) for _ in range(10)]
    for w in watchers:
        await w.connect(slug)
        await w.wait_version(0)
    mover = players[0]
    await mover.connect(slug)
    await mover.wait_version(0)
    encoded: list[Any] = []
    real = messages.encode_json

    def counting(data: Any) -> str:
        text = real(data)
        if data.get("type") == "state":
            encoded.append(json.loads(text)["room"]["your_seat"])
        return text

    monkeypatch.setattr(messages, "encode_json", counting)
    game = table_of(app_of(server), slug).game
    assert game is not None
    await mover.act(game.engine.dump_action(game.engine.legal_actions(game.state, 0)[0]))
    for client in [mover, *watchers]:
        await client.wait_version(1)
    # One encoding for the ten spectators (seat None), one for the mover's seat.
    assert encoded.count(None) == 1, encoded
    assert encoded.count(0) == 1, encoded
    frames = {w.frames[-1] for w in watchers if '"type":"state"' in w.frames[-1]}
    assert len(frames) == 1
    for client in [*players, *watchers]:
        await client.close()


async def test_what_shows_the_moment_is_kept_for_that_moment_only(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page and a JSON state show the clocks to the half second and who is online: they are
    shared while neither changes, dropped when either does, and never pile up on a watched
    table where nobody moves."""
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    app = app_of(server)
    hub = table_of(app, slug)
    tail = app.state.settings.log_tail
    watcher = Connection(user_id=None, fmt="html")  # a spectator (drawn, not attached)
    clock = [1_000_000.0]
    monkeypatch.setattr(hub, "runtime", dataclasses.replace(hub.runtime, now=lambda: clock[0]))
    hub.revision += 1  # a snapshot reads the runtime's clock it was made with
    first = state_html(hub.snapshot(), watcher, tail)
    other = Connection(user_id=None, fmt="html")  # a second spectator
    assert state_html(hub.snapshot(), other, tail) is first  # same moment: shared
    for _ in range(40):  # twenty seconds of nobody moving, the page drawn every half second
        clock[0] += 0.5
        state_html(hub.snapshot(), watcher, tail)
        messages.state_json_text(hub.snapshot(), None, 0)
    # What is kept: the board (and its cut), the log, the move chain's line, the names, and
    # this moment's page, seats, room info (as a dict and encoded) and JSON.
    assert cache.held(hub.snapshot()) <= 10

    # Someone sits down within the same half second: the page shows them online at once.
    before = state_html(hub.snapshot(), watcher, tail)
    json_before = messages.state_json_text(hub.snapshot(), None, 0)
    await players[1].connect(slug)
    await players[1].wait_version(0)
    after = state_html(hub.snapshot(), watcher, tail)
    assert after.count("dot online") == before.count("dot online") + 1
    assert messages.state_json_text(hub.snapshot(), None, 0) != json_before
    for p in players:
        await p.close()


async def test_a_tables_views_do_not_outlive_the_push(server: Server) -> None:
    """Every audience's view is made once for a move's pushes and then let go (kept until the
    next move, 500 tables' views were most of what a garbage collection walked); a socket
    that asks later gets a view made again, the same."""
    players, table = await make_table(server.url, server.ws_url, ["Ala", "Bo", "Cy"])
    slug = table["slug"]
    watcher = Player(server.url, server.ws_url)
    for client in [*players, watcher]:
        await client.connect(slug)
        await client.wait_version(0)
    game = table_of(app_of(server), slug).game
    assert game is not None
    await players[0].act(game.engine.dump_action(game.engine.legal_actions(game.state, 0)[0]))
    for client in [*players, watcher]:
        await client.wait_version(1)
    await asyncio.sleep(0.05)
    assert game.audiences.views == {}
    fresh = game.engine.view(game.state, None)
    assert game.view(None) == fresh
    seen = len(watcher.states)
    await watcher.send({"type": "sync"})
    await watcher.wait_for(lambda p: len(p.states) > seen)
    assert watcher.states[-1]["view"] == json.loads(json.dumps(fresh))
    for client in [*players, watcher]:
        await client.close()


async def test_a_new_table_is_kept_in_memory_as_the_database_holds_it(
    server: Server,
) -> None:
    """A table created through the API or the lobby's form is in memory as the database holds
    it (no reading back of what was just written); joining it then works as ever."""
    players, table = await make_table(
        server.url, server.ws_url, ["Ala", "Bo"], game="karmaka", start=False
    )
    hub = await assert_kept_as_stored(server, table["slug"])
    assert sorted(hub.seats) == [0, 1] and hub.seats[1].name == "Bo"
    host = players[0]
    r = await host.http.post(
        "/tables",
        data={"game": "karmaka", "seats": "2", "visibility": "private", "clock": "none"},
        headers={"Origin": server.url},
    )
    assert r.status_code == 303
    slug = r.headers["location"].split("/t/")[1].split("?")[0]
    hub = await assert_kept_as_stored(server, slug)
    assert hub.private and [s.name for s in hub.seats.values()] == ["Ala"]
    r = await players[1].http.post(
        f"/api/tables/{slug}/join", params={"code": hub.invite_code, "seat": 1}
    )
    assert r.status_code == 200
    await assert_kept_as_stored(server, slug)
    for p in players:
        await p.close()


def _new_incan_gold_room() -> tuple[Any, Any, Any, GameLive]:
    """A 3-seat Incan Gold room in memory (seed 5) at version 0 with an empty log: the
    engine, its state, the hub and the hub's game."""
    from engines import get_engine

    engine = get_engine("incan_gold")
    state = engine.setup(3, engine.parse_options({}), 5).state
    hub = offline_table(engine, state, 3)
    game = hub.game
    assert game is not None
    game.log, game.version = [], 0
    return engine, state, hub, game


def test_log_lines_are_judged_once_per_audience_and_stay_right_as_the_log_grows() -> None:
    """`log_for` / `entries_for` keep, per audience, which lines it may read, extended as
    the log grows (and the JSON entries once per line): at every step they equal a plain
    filter of the whole log (private lines of Incan Gold included), for each seat and a
    spectator, from any version, any tail."""
    from engines.core import Event, Rng, who

    engine, state, hub, game = _new_incan_gold_room()
    rng = Rng.from_seed(9)

    def check() -> None:
        texts = game_log.texts(hub.snapshot())
        for audience in [0, 1, 2, None]:
            for after in (-1, 0, game.version - 2, game.version - 1):
                plain = [
                    i for i, (v, e) in enumerate(game.log) if v > after and e.visible_to(audience)
                ]
                assert game_log.lines_for(hub.snapshot(), audience, after) == [
                    texts[i] for i in plain
                ]
                assert game_log.entries_for(hub.snapshot(), audience, after) == [
                    {
                        "version": game.log[i][0],
                        "key": game.log[i][1].to_json()["text"],
                        "plural": game.log[i][1].to_json().get("plural"),
                        "params": game.log[i][1].to_json().get("params", {}),
                        "text": texts[i],
                    }
                    for i in plain
                ]
                for last in (0, 1, 5, 200):
                    tail = plain[max(0, len(plain) - last) :]
                    assert game_log.lines_for(hub.snapshot(), audience, after, last=last) == [
                        texts[i] for i in tail
                    ]

    while engine.outcome(state) is None and game.version < 60:
        seat = sorted(engine.to_act(state))[rng.randbelow(len(engine.to_act(state)))]
        actions = engine.legal_actions(state, seat)
        step = engine.apply(state, seat, actions[rng.randbelow(len(actions))])
        state, game.state, game.version = step.state, step.state, game.version + 1
        game.log.extend((game.version, e) for e in step.events)
        check()
        if game.version % 3 == 0:  # a table's own line now and then: the log grows by one
            game.log.append((game.version, Event.public("%(who)s is back.", who=who(seat))))
            hub.revision += 1  # as the table counts a line of its own (`Table.changed`)
            check()
    private_seen = sum(1 for _, e in game.log if not e.visible_to(None))
    assert private_seen > 0  # private lines were there to be filtered


_LOG = re.compile(r'<ul id="log"[^>]*hx-swap-oob="(\w+)"[^>]*>(.*?)</ul>', re.DOTALL)
_LINE = re.compile(r"<li>(.*?)</li>", re.DOTALL)


def _read_log(shown: list[str], frame: str, tail: int) -> list[str]:
    """The log a page shows after `frame`, as htmx and static/js/stolik.js make it: a whole
    log replaces the list, added lines go on its top (the newest `tail` kept), no log
    fragment leaves it as it was."""
    found = _LOG.findall(frame)
    assert len(found) <= 1
    if not found:
        return shown
    swap, body = found[0]
    lines = _LINE.findall(body)
    if swap == "true":
        return lines
    assert swap == "afterbegin" and lines
    return (lines + shown)[:tail]


def test_an_html_log_sends_only_the_new_lines_and_reads_as_the_whole_log() -> None:
    """After the whole log, each socket of a table page is sent only the lines of the
    versions it has not seen (a socket that missed pushes, the lines of all it missed), and
    the page it assembles is at every step the whole log a new socket would get (its last
    `tail` lines, private lines only to their seat); a rename, a sync and a new language
    send the whole log again."""
    from engines.core import Rng

    engine, state, hub, game = _new_incan_gold_room()
    tail = 6
    conns = [Connection(user_id=100 + s, fmt="html") for s in range(3)]
    conns += [Connection(user_id=None, fmt="html"), Connection(user_id=None, fmt="html")]
    lagging = conns[-1]  # drawn every third move only (a slow reader's pushes coalesce)
    taker = Connection(user_id=200, fmt="html")  # watches, then takes over a seat
    shown: dict[int, list[str]] = {}
    rng = Rng.from_seed(4)
    sizes = {"true": 0, "afterbegin": 0, "none": 0}

    def push(conn: Connection) -> str:
        """Draw `conn`'s push; check the log it then shows; say how its log came."""
        frame = state_html(hub.snapshot(), conn, tail)
        fresh = state_html(hub.snapshot(), Connection(user_id=conn.user_id, fmt="html"), tail)
        shown[id(conn)] = _read_log(shown.get(id(conn), []), frame, tail)
        assert shown[id(conn)] == _LINE.findall(_LOG.findall(fresh)[0][1])
        found = _LOG.findall(frame)
        swap: str = found[0][0] if found else "none"
        sizes[swap] += 1
        return swap

    while engine.outcome(state) is None and game.version < 40:
        for conn in conns:
            if conn is not lagging or game.version % 3 == 0:
                push(conn)
        seat = sorted(engine.to_act(state))[rng.randbelow(len(engine.to_act(state)))]
        actions = engine.legal_actions(state, seat)
        step = engine.apply(state, seat, actions[rng.randbelow(len(actions))])
        state, game.state, game.version = step.state, step.state, game.version + 1
        game.log.extend((game.version, e) for e in step.events)
        if game.version == 20:  # a rename: every line is made again, the whole log is sent
            hub.seats[1] = dataclasses.replace(hub.seats[1], name="Bea")
            hub.revision += 1
            for conn in conns:
                assert push(conn) == "true"
                assert any("Bea" in line for line in shown[id(conn)])
        if game.version == 10:  # a watcher takes over seat 3 (same name): its whole log
            hub.seats[2] = SeatInfo(2, 200, hub.seats[2].name)
            hub.revision += 1
            assert push(taker) == "true"
            assert any(line.startswith("You ") for line in shown[id(taker)])
            assert push(conns[2]) == "true"  # and its player watches: the watcher's log
        if game.version < 10:
            push(taker)
    for conn in conns:  # the last move's lines
        push(conn)
    assert sizes["afterbegin"] > 10 * len(conns)
    assert any(len(lines) == tail for lines in shown.values())  # the tail was reached

    conns[0].log_version = -1  # a sync: the whole log again
    assert _LOG.findall(state_html(hub.snapshot(), conns[0], tail))[0][0] == "true"
    with i18n.use("pl"):  # another language: the whole log, in it
        frame = state_html(hub.snapshot(), conns[1], tail)
        assert _LOG.findall(frame)[0][0] == "true"
    assert 'id="log"' not in state_html(hub.snapshot(), conns[2], tail)  # nothing new: no log


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.spec.id)
def test_every_audiences_view_shares_one_header(
    engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A version's views (every seat and a spectator) are each what the engine's `view`
    gives alone, and their common header is made once for all of them."""
    players = engine.spec.min_players
    state = engine.setup(players, engine.parse_options({}), 11).state
    game = GameLive(
        db_id=1,
        engine=engine,
        state=state,
        version=3,
        seed=11,
        seed_commitment="c",
        log=[],
        prompt_version={},
    )
    alone = {seat: engine.view(state, seat) for seat in [*range(players), None]}
    made: list[int] = []
    header = engine.header

    def counted(s: Any) -> Any:
        made.append(1)
        return header(s)

    monkeypatch.setattr(engine, "header", counted)
    for seat, expected in alone.items():
        assert game.view(seat) == expected
    assert len(made) == 1
    game.release_views()
    assert game.view(0) == alone[0] and len(made) == 1  # the same version: kept


def test_names_are_kept_until_a_seat_or_the_language_changes() -> None:
    """The display names every audience's log asks for on every move are made once, and made
    again when a seat changes (a rename, a bot) or in another language."""
    engine = next(e for e in ENGINES if e.spec.id == "incan_gold")
    hub = offline_table(engine, engine.setup(3, engine.parse_options({}), 1).state, 3)
    first = game_log.names(hub.snapshot())
    assert first == {0: "Player 1", 1: "Player 2", 2: "Player 3"}
    assert game_log.names(hub.snapshot()) is first
    # The table counts every change of its seats (`revision`): a new snapshot.
    hub.seats[1] = dataclasses.replace(hub.seats[1], name="Bea")
    hub.revision += 1
    assert game_log.names(hub.snapshot()) == {0: "Player 1", 1: "Bea", 2: "Player 3"}
    hub.seats[2] = SeatInfo(2, None, "Bot", "easy")
    hub.revision += 1
    with i18n.use("en"):
        assert game_log.names(hub.snapshot())[2] == "Bot 3 (easy)"
    with i18n.use("pl"):
        polish = game_log.names(hub.snapshot())[2]
    assert polish != "Bot 3 (easy)" and polish.startswith("Bot 3")
    hub.game.log.append((1, Event.public("%(who)s camps.", who="{p2}")))  # type: ignore[union-attr]
    hub.revision += 1  # a table line: the table counts a change
    with i18n.use("en"):
        assert game_log.lines_for(hub.snapshot(), None)[-1].startswith("Bot 3 (easy)")


@pytest.mark.parametrize("private", [False, True])
def test_a_state_with_its_room_encoded_once_is_the_same_bytes(private: bool) -> None:
    """The JSON state a socket receives, whose shared room facts are encoded once per moment
    and joined with each audience's own, is byte for byte the plain encoding of the state
    message, for every seat and a spectator, with and without a rematch to join."""
    engine = next(e for e in ENGINES if e.spec.id == "incan_gold")
    hub = offline_table(engine, engine.setup(4, engine.parse_options({}), 5).state, 4)
    hub.private = private
    for rematch in (None, "NextOne1"):
        hub.rematch_slug, hub.rematch_code = rematch, "code9"
        hub.revision += 1  # a change of the table: a new snapshot
        for seat in [0, 1, 2, 3, None]:
            text = messages.state_json_text(hub.snapshot(), seat, -1)
            assert text == messages.encode_json(messages.state_json(hub.snapshot(), seat, -1))
            room = json.loads(text)["room"]
            assert room["your_seat"] == seat
            assert (room["rematch_join"] is not None) == (rematch is not None and seat is not None)
