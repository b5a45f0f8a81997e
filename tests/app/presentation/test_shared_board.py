"""One board for everyone: a game's board is drawn once per state and language from the
spectator's view and shared by every audience at the table; what is the viewer's own is written
with `mine()` and kept per audience by `for_viewer()` (app/presentation/environment.py)."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import meta
from markupsafe import Markup

from app import i18n
from app.presentation import environment, table
from app.presentation.messages import standing_names
from app.realtime.connection import Connection
from bench.pages import offline_table, positions
from engines import ENGINES, REGISTRY
from engines.core import Engine

VIEWER_ONLY = {"seat", "is_host", "log_html", "bot_levels"}


def _page(engine: Engine[Any, Any, Any], state: Any, players: int, seat: int | None) -> str:
    hub = offline_table(engine, state, players)
    return table.state_html(
        hub.snapshot(), Connection(user_id=None if seat is None else 100 + seat, fmt="html"), 200
    )


def _board(html: str) -> str:
    start = html.index('<main id="board"')
    return html[start : html.index("</main>", start)]


def test_mine_keeps_each_version_for_its_reader_and_escapes_both() -> None:
    marked = environment.mine(2, "<b>me</b>", Markup("<i>them</i>"))
    html = f"<p>{marked}</p><p>{environment.mine(0, ' mine')}</p>"
    assert environment.for_viewer(html, 2) == "<p>&lt;b&gt;me&lt;/b&gt;</p><p></p>"
    assert environment.for_viewer(html, 0) == "<p><i>them</i></p><p> mine</p>"
    assert environment.for_viewer(html, None) == "<p><i>them</i></p><p></p>"
    assert environment.for_viewer(html, 12) == environment.for_viewer(html, None)
    assert environment.mine(None, "me", "them") == "them"  # no such seat: nobody's own
    three = (
        environment.mine(1, "A") + environment.mine(12, "B") + environment.mine([1, 12], "", "C")
    )
    assert [environment.for_viewer(three, s) for s in (1, 12, 2, None)] == ["A", "B", "C", "C"]
    assert environment.for_viewer(environment.mine([3, None], "x", "y"), 3) == "x"
    # Given as Markup (a `{% filter for_viewer(seat) %}` block): kept as it is, not re-escaped.
    quoted = Markup(environment.mine(1, "O'Brien & me", "O'Brien's"))
    assert environment.for_viewer(quoted, None) == "O&#39;Brien&#39;s"
    assert environment.for_viewer(quoted, 1) == "O&#39;Brien &amp; me"


def test_mine_refuses_what_it_could_not_resolve() -> None:
    with pytest.raises(ValueError):
        environment.mine(1, environment.mine(1, "inner"))
    with pytest.raises(TypeError):
        environment.mine("1", "me")  # a seat is a number; "1" would never match a reader
    with pytest.raises(TypeError):
        environment.mine(True, "me")
    with pytest.raises(TypeError):
        environment.mine([1, "2"], "me")
    marked = str(environment.mine(1, "me", "them"))
    for cut in (marked[:-5], marked[: marked.index("<!--@|")], marked.replace("|", "")):
        with pytest.raises(ValueError):  # a marker cut apart is never read as another
            environment.for_viewer(f"<p>{cut}</p>", 1)


def test_a_name_cannot_forge_a_marker() -> None:
    """Text that looks like a marker is escaped before it reaches the shared board."""
    tpl = environment.templates.env.from_string("{{ names[0] }}{{ mine(1, 'yes', 'no') }}")
    html = tpl.render(names={0: "<!--@0-->x<!--@|-->y<!--@.-->"})
    assert environment.for_viewer(html, 0) == "&lt;!--@0--&gt;x&lt;!--@|--&gt;y&lt;!--@.--&gt;no"


def test_mine_and_own_are_plain_calls_that_print_what_they_return() -> None:
    """A board calls `mine()` and `own()` directly, not through Jinja's `Context.call` (about
    twenty calls per board), and prints their Markup as it is; the `{% call mine(…) %}` form
    and a name the template binds itself are left to Jinja."""
    source = (
        "{% for p in seats %}<tr class='{{ mine(p, 'mine') }}'>{{ names[p] }}"
        "{{ mine(p, ' (you)', ' <them>') }}{{ mine(p, own('tent', p)) }}</tr>{% endfor %}"
        "{% call mine(1) %}<b>{{ names[1] }}</b>{% endcall %}"
    )
    code = environment.templates.env.compile(source, raw=True)
    assert code.count("context.call(") == 1  # the call block only
    board = environment.templates.env.from_string(source).render(seats=[0, 1], names=["A&", "B"])
    assert str(environment.for_viewer(board, None)) == (
        "<tr class=''>A&amp; &lt;them&gt;</tr><tr class=''>B &lt;them&gt;</tr>"
    )
    assert str(environment.for_viewer(board, 1)).endswith(
        "<tr class='mine'>B (you)<!--own:tent:1--></tr><b>B</b>"
    )
    local = "{% macro mine(x) %}<{{ x }}>{% endmacro %}{{ mine('a') }}"
    assert "context.call(" in environment.templates.env.compile(local, raw=True)
    assert environment.templates.env.from_string(local).render() == "<a>"


SHARED = [f"games/{game}/board.html" for game in sorted(REGISTRY)] + [
    "partials/seat_list.html",
    "partials/seat.html",
]


@pytest.mark.parametrize("name", SHARED)
def test_no_shared_drawing_reads_who_is_looking(name: str) -> None:
    """A board's template (and the seats bar's seats) reads nothing about its viewer, so one
    drawing serves all."""
    env = environment.templates.env
    assert env.loader is not None
    source = env.loader.get_source(env, name)[0]  # templates/ or a folder a test added
    read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals)
    assert not read & VIEWER_ONLY, f"{name} reads {sorted(read & VIEWER_ONLY)}"
    assert "your_" not in source, f"{name} reads a viewer's own room facts"


@pytest.mark.parametrize("engine", ENGINES, ids=[e.spec.id for e in ENGINES])
def test_one_board_per_move_and_each_reader_sees_their_own(
    engine: Engine[Any, Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat and a spectator get their page of a move; the board is drawn once (per
    language), no marker reaches a page, and the board each seat reads differs from the
    spectator's board only where `mine()` put that seat's own words."""
    players = engine.spec.min_players + (engine.spec.max_players > engine.spec.min_players)
    drawn: list[str] = []
    real = environment.templates.env.get_template

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.endswith("/board.html"):
            drawn.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(environment.templates.env, "get_template", counting)
    for state in positions(engine, players, seed=7, samples=4):
        hub = offline_table(engine, state, players)
        for lang in ("en", "pl"):
            with i18n.use(lang):
                before = len(drawn)
                pages = {
                    seat: table.state_html(
                        hub.snapshot(),
                        Connection(user_id=None if seat is None else 100 + seat, fmt="html"),
                        200,
                    )
                    for seat in [*range(players), None]
                }
                assert len(drawn) - before == 1, "the board is drawn once for every reader"
                shared = table.shared_board(hub.snapshot())
                for seat, page in pages.items():
                    assert "<!--@" not in page and "<!--own:" not in page
                    own = (engine.spec.id, hub.game.view(seat), standing_names(hub.snapshot()))  # type: ignore[union-attr]
                    assert environment.for_viewer(shared, seat, own) in _board(page)
                spectator = _board(pages[None])
                assert "(you)" not in spectator and "(ty)" not in spectator


def test_incan_gold_marks_the_readers_row_and_only_theirs() -> None:
    engine = REGISTRY["incan_gold"]
    state = positions(engine, 3, seed=7, samples=3)[1]
    for seat in (0, 1, 2):
        board = _board(_page(engine, state, 3, seat))
        assert board.count('<tr class="mine') == 1
        assert f"Player {seat + 1} (you)" in board
        assert [f"Player {s + 1} (you)" in board for s in range(3)].count(True) == 1
    assert '<tr class="mine' not in _board(_page(engine, state, 3, None))


def test_own_parts_come_from_the_owners_view_and_reach_only_the_owner() -> None:
    """An `own()` part is filled in from the viewer's own view, on their page only."""
    tpl = environment.templates.env.from_string(
        "{% for s in range(3) %}[{{ mine(s, own('tent'), '?') }}]{% endfor %}"
    )
    shared = tpl.render()
    views = {
        s: {"players": [{"tent": 10 * (t + 1) if t == s else None} for t in range(3)]}
        for s in range(3)
    }
    for seat in range(3):
        page = environment.for_viewer(shared, seat, ("incan_gold", views[seat], {}))
        expected = ["?"] * 3
        expected[seat] = f"◆ {10 * (seat + 1)}"
        assert page == "".join(f"[{e}]" for e in expected)
    assert environment.for_viewer(shared, None, ("incan_gold", None, {})) == "[?][?][?]"
    with pytest.raises(ValueError):
        environment.own("tent-->")
    with pytest.raises(ValueError):
        environment.own("inside", -1)


def test_the_owner_reads_their_tent_on_the_incan_gold_board() -> None:
    engine = REGISTRY["incan_gold"]
    state = positions(engine, 3, seed=7, samples=3)[1]
    for seat in (0, 1, 2):
        board = _board(_page(engine, state, 3, seat))
        tent = state.players[seat].tent
        row = board[board.index('<tr class="mine') :]
        row = row[: row.index("</tr>")]
        assert f"<td>◆ {tent}</td>" in row
        assert board.count('title="Only its owner knows"') == 2


def test_the_seats_bar_is_drawn_once_and_the_host_alone_may_hand_a_seat_to_a_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Presence redraws the seats bar for every socket from one drawing: "(you)" on each
    reader's own seat, and the hand-to-a-bot button (seat 1 away for long) only on the host's
    page — the seated host's or, drawn apart, a host without a seat."""
    engine = REGISTRY["incan_gold"]
    state = positions(engine, 3, seed=7, samples=3)[1]
    hub = offline_table(engine, state, 3)
    # Seats 0 and 2 connected (through another process), seat 1 gone for ten minutes.
    hub.presence.remote("elsewhere", {0, 2})
    hub.presence.offline_since = {1: hub.runtime.now() - 600.0}
    drawn: list[str] = []
    real = environment.templates.env.get_template

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(environment.templates.env, "get_template", counting)
    bars = {
        uid: table.presence_html(hub.snapshot(), Connection(user_id=uid, fmt="html"))
        for uid in (100, 101, 102, None)
    }
    assert drawn.count("partials/seat_list.html") == 1
    assert [bars[100 + s].count("(you)") for s in range(3)] == [1, 1, 1]
    assert "(you)" not in bars[None]
    for s in range(3):
        assert f'<span class="seat-name">Player {s + 1} (you)</span>' in bars[100 + s]
    assert "handover?seat=1" in bars[100]  # the host, seat 0
    assert not any("handover" in bars[uid] for uid in (101, 102, None))
    hub.host_id, hub.revision = 999, hub.revision + 1  # a host who does not play
    assert "handover?seat=1" in table.presence_html(
        hub.snapshot(), Connection(user_id=999, fmt="html")
    )
    assert "handover" not in table.presence_html(
        hub.snapshot(), Connection(user_id=100, fmt="html")
    )
    assert "<!--@" not in "".join(bars.values())
