"""The table page's fragments: the shared board, the state page, the log, the seats bar.

Each is drawn from the table's snapshot once per moment (or game version), audience and
language, kept in the presentation's caches (app/presentation/cache.py) and shared by every
socket of that audience. Templates get a narrow context (see `state_html`), never the table.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from app import bots, i18n
from app.presentation import cache, log
from app.presentation.environment import as_viewer, split_marks, templates
from app.presentation.messages import standing_names, table_info
from app.realtime.connection import Connection
from app.table.snapshot import Snapshot


def shared_board(snap: Snapshot) -> Markup:
    """The game's board at the snapshot's version and table revision in the current
    language, drawn from the spectator's view, with `mine()` markers left in (see
    `app.presentation.environment`). Its context has no viewer: `room` (public facts),
    `catalogue`, `version`, `view`, `names`."""
    game = snap.game
    assert game is not None
    drawn = cache.for_frame(game)
    key = ("board", i18n.current())
    cached = drawn.get(key)
    if cached is None:
        ctx = {
            "room": table_info(snap, None),
            "catalogue": snap.engine.catalogue(),
            "version": game.version,
            "view": game.view(None),
            "names": standing_names(snap),
        }
        template = templates.env.get_template(f"games/{snap.engine.spec.id}/board.html")
        cached = drawn[key] = template.render(ctx)
    return Markup(cached)


def board_for(snap: Snapshot, seat: int | None, view: Any) -> Markup:
    """The shared board as the person at `seat` reads it (their own view `view`); the board
    is cut at its markers once per game version and language, not per audience."""
    drawn = cache.for_frame(snap.game)
    key = ("board pieces", i18n.current())
    pieces = drawn.get(key)
    if pieces is None:
        pieces = drawn[key] = split_marks(shared_board(snap))
    return as_viewer(pieces, seat, (snap.engine.spec.id, view, standing_names(snap)))


_WAITING = frozenset({"open", "closed"})


def chain_html(snap: Snapshot) -> Markup:
    """The line beside the shuffle commitment with the move chain's head (engines/chain.py),
    swapped in after every move: the same for every audience, so drawn once per game version
    and language (empty for a game from before the chain, or none)."""
    game = snap.game
    drawn = cache.for_frame(game)
    key = ("chain", i18n.current())
    cached = drawn.get(key)
    if cached is None:
        ctx = {"commitment": game.seed_commitment, "head": game.chain_head} if game else {}
        template = templates.env.get_template("partials/chain.html")
        cached = drawn[key] = template.render(ctx)
    return Markup(cached)


def state_html(snap: Snapshot, conn: Connection, settings_log_tail: int) -> str:
    """Every fragment of the table page, each swapped by id (hx-swap-oob).

    Templates get a narrow context, never the table or a state: `room` (public facts, see
    `app.presentation.messages.table_info`), `view` (the engine's view for `seat`), `seat`,
    `is_host`, `version`, `log_html` (the log lines this seat may read), `names` (display
    names by seat) and `catalogue` (the game's public card data) — nothing else about the
    person, so one rendering serves every socket of the same audience. The game's board is
    not drawn here but once for all audiences (`shared_board`) and read as this audience
    (`for_viewer`).

    The log is sent whole (its last `settings_log_tail` lines) the first time, then only the
    lines of the versions after those `conn` was sent (`conn.log_version`), added at its top,
    while they are made from the same texts (`log.basis`) for the same seat (a watcher who
    takes over a seat gets that seat's whole log); this function records what it sent in
    `conn`. A sync (`log_version` set back to -1) gets the whole log again.
    """
    seat = snap.seat_of(conn.user_id)
    game = snap.game
    version = game.version if game else 0
    is_host = conn.user_id == snap.host_id
    texts = log.basis(snap)
    basis = None if texts is None else (texts, seat)  # another seat reads other lines
    after = conn.log_version if basis is not None and conn.log_basis == basis else -1
    conn.log_version, conn.log_basis = (version, basis) if basis is not None else (-1, None)
    # Rendered once per audience and language at this moment (version, table revision, who
    # is online, half second: the table info's clock time keeps it fresh to 0.5 s), whatever
    # the number of sockets (ten spectators share one page, and so do all the sockets one
    # move behind: they are sent the same new log lines).
    pages = cache.for_moment(snap)
    key = ("page", seat, is_host, i18n.current(), settings_log_tail, after)
    cached: str | None = pages.get(key)
    if cached is not None:
        return cached
    view = game.view(seat) if game else None
    lines = log.lines_for(snap, seat, after_version=after, last=settings_log_tail)
    room = table_info(snap, seat)
    names = standing_names(snap)
    board = ""
    if game and room["status"] not in _WAITING:
        # Only the board holds `mine()` markers: the page around it is this audience's own.
        board = board_for(snap, seat, view)
    ctx = {
        "room": room,
        "catalogue": snap.engine.catalogue(),
        "seat": seat,
        "is_host": is_host,
        "version": version,
        "view": view,
        "board": board,
        "chain_html": chain_html(snap),
        "seat_list": seat_list(snap, room, seat, is_host),
        "log_html": log_html(snap, lines, settings_log_tail, added=after >= 0),
        "names": names,
        "bot_levels": bots.LEVELS,
    }
    html = templates.env.get_template("partials/table_state.html").render(ctx)
    if len(pages) > 64:
        pages.clear()
    pages[key] = html
    return html


_LOG_ITEMS: dict[str, str] = {}


def log_html(snap: Snapshot, lines: list[str], tail: int, added: bool = False) -> Markup:
    """The log fragment for these lines (newest first): the whole log (at most `tail` lines;
    the page keeps that many), or with `added` the new lines to put at its top (nothing at all
    when there are none). Each line is escaped into its `<li>` once, not per audience and move,
    and a list of lines is rendered once per language at this game version and table
    revision, so audiences that read the same lines share it."""
    if added and not lines:
        return Markup("")
    drawn = cache.for_frame(snap.game)
    key = ("log", i18n.current(), added, tuple(lines))
    cached = drawn.get(key)
    if cached is None:
        if len(_LOG_ITEMS) > 50_000:
            _LOG_ITEMS.clear()
        items = []
        for line in reversed(lines):
            item = _LOG_ITEMS.get(line)
            if item is None:
                item = _LOG_ITEMS[line] = f"<li>{escape(line)}</li>"
            items.append(item)
        cached = drawn[key] = templates.env.get_template("partials/log.html").render(
            {"items": Markup("".join(items)), "added": added, "tail": tail}
        )
    return Markup(cached)


def seat_list(snap: Snapshot, room: dict[str, Any], seat: int | None, is_host: bool) -> Markup:
    """The seats of the seats bar as the person at `seat` reads them. Drawn once for everyone
    at this moment (`cache.for_moment`) and language — `room` is `table_info` of now — and
    read per audience (`mine()`, as the board); a host without a seat gets their own drawing
    (the hand-to-a-bot buttons are the host's)."""
    unseated_host = is_host and seat is None
    game = snap.game
    moment = cache.for_moment(snap)
    key = ("seats", i18n.current(), unseated_host)
    pieces = moment.get(key)
    if pieces is None:
        ctx = {
            "room": room,
            "header": game.header() if game else None,
            "unseated_host": unseated_host,
        }
        html = templates.env.get_template("partials/seat_list.html").render(ctx)
        pieces = moment[key] = split_marks(html)
    return as_viewer(pieces, seat, None)


def presence_html(snap: Snapshot, conn: Connection) -> str:
    """Just the seats bar (presence dots changed). It reads only the views' public header
    (who is to act, who has chosen), so no seat's view is computed for a presence change."""
    seat = snap.seat_of(conn.user_id)
    is_host = conn.user_id == snap.host_id
    room = table_info(snap, seat)
    ctx = {"room": room, "seat_list": seat_list(snap, room, seat, is_host), "oob": True}
    return templates.env.get_template("partials/seats.html").render(ctx)
