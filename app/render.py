"""HTML rendering of lobby and table fragments from engine views (Jinja2 templates)."""

from __future__ import annotations

import json
import marshal
import re
from collections import OrderedDict
from collections.abc import MutableMapping
from keyword import iskeyword as is_python_keyword
from typing import Any

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, Template, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.ext import Extension
from jinja2.idtracking import VAR_LOAD_RESOLVE
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup, escape

from app import bots, clocks, i18n, identity
from app.core.config import ROOT
from app.i18n import N_
from app.realtime.hub import Connection, RoomHub
from app.realtime.messages import room_info, standing_names
from app.store.lobby import LobbyRow
from engines import ENGINES, REGISTRY
from engines.core import Phrase

_DICT_ATTRS = frozenset(dir(dict))

_PLAIN_CALLS = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext", "mine", "own"})
"""Globals that templates call as plain Python functions: each takes no Jinja context and
returns Markup (the translations; `mine()` and `own()` of the shared board, ~20 calls per
board)."""


def escape_output(value: Any) -> Markup:
    """What `{{ value }}` prints in an autoescaped template: markupsafe's `escape`, with the
    commonest cases first. Markup (a macro's or `_()`'s output, a cut board) is printed as
    it is instead of being copied into a new Markup, and an int (a version, a count, a seat)
    needs no escaping. The same text as `escape` in every case (a test compares them)."""
    kind = type(value)
    if kind is Markup:
        return value  # type: ignore[no-any-return]
    if kind is str:
        return escape(value)
    if kind is int:
        return Markup(value)
    return escape(value)


class _CodeGenerator(CodeGenerator):
    """Jinja's compiler, but a call of one of `_PLAIN_CALLS` (the translation functions `_()`,
    `gettext`, … and the calls `{% trans %}` compiles to; the shared board's `mine()` and
    `own()`) is a plain Python call. Jinja routes every call through `Context.call`, which
    looks for a context-taking callable first: an extra Python frame per call (~10 % of a
    table page's CPU, hundreds of calls per page; ~10 % of drawing a board). Ours are plain
    functions, checked below. And `{{ _("…") }}` prints their Markup as it is: Jinja escaped
    it again, which for Markup only copies the text.
    Every other `{{ … }}` is escaped by `escape_output` (the same text, faster)."""

    @staticmethod
    def _resolved(name: str, frame: Frame) -> bool:
        ref = frame.symbols.find_ref(name)
        return ref is not None and frame.symbols.find_load(ref) == (VAR_LOAD_RESOLVE, name)

    def _plain(self, node: nodes.Node, frame: Frame) -> bool:
        """Whether `node` is a call of one of `_PLAIN_CALLS` that we write as a plain call."""
        return (
            isinstance(node, nodes.Call)
            and isinstance(node.node, nodes.Name)
            and node.node.name in _PLAIN_CALLS
            # The global, not a name the template binds itself (a macro, a loop variable):
            and self._resolved(node.node.name, frame)
            and node.dyn_args is None
            and node.dyn_kwargs is None
            and not self.environment.is_async
            and not any(is_python_keyword(k.key) for k in node.kwargs)
        )

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        super().visit_Template(node, frame)
        # The template's functions look `escape` up when they run: from here on it is ours.
        self.writeline("from app.render import escape_output as escape")

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        # `{{ _("…") }}` is Markup already: escaping it again only copied the text.
        if not (self._plain(node, frame) and frame.eval_ctx.autoescape and finalize.src is None):
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if not (self._plain(node, frame) and frame.eval_ctx.autoescape and finalize.src is None):
            super()._output_child_post(node, frame, finalize)

    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        if forward_caller or not self._plain(node, frame):
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        callee = node.node
        self.visit(callee, frame)
        self.write("(")
        for i, arg in enumerate([*node.args, *node.kwargs]):
            if i:
                self.write(", ")
            self.visit(arg, frame)
        self.write(")")


class _Environment(Environment):
    """Jinja's environment with a fast path for `obj.key` on a plain dict (engine views are
    dicts): Jinja tries the attribute first and a dict has none, so every `view.players` cost
    a raised and caught AttributeError. Same result: a dict's own methods (`names.get`) still
    win over its keys, and a missing key is undefined."""

    code_generator_class = _CodeGenerator
    _by_name: dict[str, Template]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._by_name = {}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRS:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def get_template(
        self,
        name: str | Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> Template:
        """A template by name from a plain dict: templates are never reloaded (auto_reload is
        off), and Jinja's own lookup (the loader's weak reference, its LRU cache's lock and
        reordering) ran ~28 times per table page, for every include and import."""
        if globals is None and type(name) is str:
            template = self._by_name.get(name)
            if template is None:
                template = self._by_name[name] = super().get_template(name, parent)
            return template
        return super().get_template(name, parent, globals)

    def overlay(self, **options: Any) -> Environment:  # type: ignore[override]
        """An overlay loads its own templates (its options may compile them otherwise)."""
        overlay = super().overlay(**options)
        assert isinstance(overlay, _Environment)
        overlay._by_name = {}
        return overlay

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as a plain dict, not Jinja's ChainMap over the environment's:
        every import in a template (`{% from … import … %}`) compares the importer's global
        names with the imported template's, and over a ChainMap that walk was ~6 % of a
        table page's CPU. Every global is set below, when this module is imported, before any
        template is loaded — set none later."""
        return {**self.globals, **(d or {})}


_LINE_BREAK_AND_INDENT = re.compile(r"[ \t]*\n\s*")


class _CollapseIndentation(Extension):
    """Every line break of a template's own text, with the spaces around it (the indentation
    of the template's source), becomes one line break: a page reads the same (HTML shows any
    run of white space as one space, and no template has a `<pre>` or `<textarea>`), and a
    table push is 13–18 % smaller, which every audience's page, every frame and the
    browser's parse pay for. Only the template's text changes, never what an expression
    prints (a player's name, a chat line)."""

    def filter_stream(self, stream: TokenStream) -> TokenStream:
        def collapsed() -> Any:
            for token in stream:
                if token.type == "data" and "\n" in token.value:
                    value = _LINE_BREAK_AND_INDENT.sub("\n", token.value)
                    yield Token(token.lineno, "data", value)
                else:
                    yield token

        return TokenStream(collapsed(), stream.name, stream.filename)


# Templates are read once per process (no stat of the file on every render); restart the
# server to see an edited template.
templates = Jinja2Templates(
    env=_Environment(
        loader=FileSystemLoader(str(ROOT / "templates")), autoescape=True, auto_reload=False
    )
)
templates.env.add_extension("jinja2.ext.i18n")
templates.env.add_extension(_CollapseIndentation)
# Installed for the extension's new-style `{% trans %}` compilation; the callables themselves
# are replaced below by plain, cached ones.
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext
)
templates.env.globals["lang"] = i18n.current
_TRANSLATED: dict[tuple[str, ...], Markup] = {}

# Every template of this environment is autoescaped, so the translation callables below are
# plain functions that return Markup. Jinja's own (new-style) ones take the context, and a
# context-taking call inside a `for` loop makes a derived copy of the context for every call
# (a Ganges page did that ~100 times per render).
assert templates.env.autoescape is True


def _translated(key: tuple[str, ...], message: Any) -> Markup:
    """The cached Markup of a message without variables (formatted with none, as Jinja does,
    so "%%" reads "%" either way)."""
    cached = _TRANSLATED.get(key)
    if cached is None:
        if len(_TRANSLATED) > 20_000:  # messages are a finite catalogue; bound it anyway
            _TRANSLATED.clear()
        cached = _TRANSLATED[key] = Markup(message()) % {}
    return cached


def _gettext(message: str, **variables: Any) -> Markup:
    """`_()` / `gettext` in templates: Jinja's new-style semantics (the translation is
    escaped-safe text formatted with escaped variables); without variables, kept per
    language (a page calls it hundreds of times)."""
    if variables:
        return Markup(i18n.gettext(message)) % variables
    key = (i18n.current(), message)
    cached = _TRANSLATED.get(key)
    return _translated(key, lambda: i18n.gettext(message)) if cached is None else cached


def _ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """`ngettext` (and `{% trans count=… %}`): the form for `num`, `num` among the
    variables, as Jinja's new-style one."""
    variables.setdefault("num", num)
    return Markup(i18n.ngettext(singular, plural, num)) % variables


def _pgettext(context: str, message: str, **variables: Any) -> Markup:
    """`pgettext` (a message in a context), as Jinja's new-style one; cached like `_()`."""
    if variables:
        variables.setdefault("context", context)
        return Markup(i18n.pgettext(context, message)) % variables
    return _translated((i18n.current(), context, message), lambda: i18n.pgettext(context, message))


def _npgettext(context: str, singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """`npgettext`, as Jinja's new-style one."""
    variables.setdefault("context", context)
    variables.setdefault("num", num)
    return Markup(i18n.npgettext(context, singular, plural, num)) % variables


templates.env.globals.update(
    gettext=_gettext, _=_gettext, ngettext=_ngettext, pgettext=_pgettext, npgettext=_npgettext
)

_PURE: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_PURE_SIZE = [0]  # characters held in _PURE
PURE_MAX_CHARS = 4_000_000
"""What `pure` keeps at most (4–8 MB of text), dropping the oldest drawings first: the
seats and rows of past moves are not drawn again, and what is still in use comes back."""
_SCALARS = (str, int, float, bool, type(None), Markup)


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a macro argument that equals another only if both render
    alike: containers become tagged tuples, scalars keep their type (1, 1.0 and True
    differ on the page, and so do Markup and a str of the same text, a list and a tuple)."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is dict:
        return ("d", *((k, _frozen(v)) for k, v in value.items()))
    if kind is list:
        return ("l", *(_frozen(v) for v in value))
    if kind is tuple:
        return ("t", *(_frozen(v) for v in value))
    raise TypeError(kind)  # anything else (an undefined value, an object): do not cache


def _arguments_key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What tells a macro's calls apart (`pure`): the arguments in marshal's format (version
    2: by value, no shared references), which keeps every type apart — 1, 1.0, True and "1";
    a list and a tuple — and refuses anything but plain values (a Markup, an enum, an object:
    then `_frozen`, or TypeError: do not keep). ~3× faster to make than `_frozen`'s tuples."""
    try:
        return marshal.dumps((args, kwargs), 2)
    except ValueError:
        return (_frozen(args), _frozen(kwargs))


def pure(macro: Any) -> Any:
    """`{% set card = pure(card) %}`: a macro whose output depends only on its arguments
    and the language (one defined in a file imported without context, so it cannot see the
    viewer) is rendered once per distinct arguments and language, not on every call: a
    Ganges page draws the same cards, dice and words hundreds of times per move, and a
    move changes one or two seats of the seats bar (`partials/seat.html`) or rows of a
    board."""
    where = (macro._func.__code__.co_filename, macro.name)

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            key = (where, i18n.current(), _arguments_key(args, kwargs))
        except TypeError:
            return macro(*args, **kwargs)
        out = _PURE.get(key)
        if out is None:
            out = _PURE[key] = macro(*args, **kwargs)
            _PURE_SIZE[0] += len(out)
            while _PURE_SIZE[0] > PURE_MAX_CHARS and _PURE:
                _PURE_SIZE[0] -= len(_PURE.popitem(last=False)[1])
        return out

    return call


templates.env.globals["pure"] = pure


def pick(mapping: dict[Any, Any], keys: list[Any]) -> dict[Any, Any]:
    """`pick(view.cards, p.ships)`: the entries of `mapping` for `keys`, in their order — to
    hand a `pure` macro only what it draws (a player's cards, not every card shown)."""
    return {k: mapping[k] for k in keys}


templates.env.globals["pick"] = pick
templates.env.globals["languages"] = i18n.LANGUAGES


def game_title(game_id: str) -> str:
    """A game's title in the current language (its id when it is not a registered game)."""
    engine = REGISTRY.get(game_id)
    return i18n.gettext(engine.spec.title) if engine is not None else game_id


templates.env.globals["game_title"] = game_title


def game_catalogue(game_id: str) -> Any:
    """A game's public reference data (`Engine.catalogue`), for a macro file imported without
    context: its card helpers then take a card id alone and can be `pure`."""
    return REGISTRY[game_id].catalogue()


templates.env.globals["game_catalogue"] = game_catalogue
templates.env.globals["engines"] = ENGINES
templates.env.filters["tojson_attr"] = lambda v: json.dumps(v, separators=(",", ":"))


def act_vals(version: int, action: dict[str, Any]) -> str:
    """The `hx-vals` of a button that sends `act` for `action` at `version`."""
    return json.dumps({"type": "act", "version": version, "action": action}, separators=(",", ":"))


templates.env.globals["act_vals"] = act_vals
templates.env.globals["clock_choices"] = clocks.CLOCK_CHOICES
templates.env.globals["bot_levels"] = bots.LEVELS
BOT_LEVEL_NAMES = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
CLOCK_NAMES = {"fast": N_("fast"), "normal": N_("normal"), "slow": N_("slow")}


def bot_level_name(level: str) -> str:
    """A bot level's name in the current language."""
    return i18n.gettext(BOT_LEVEL_NAMES.get(level, level))


def clock_name(clock: str) -> str:
    """A clock's short name in the current language."""
    return i18n.gettext(CLOCK_NAMES.get(clock, clock))


templates.env.globals["bot_level_name"] = bot_level_name
templates.env.globals["clock_name"] = clock_name


def mmss(seconds: float | None) -> str:
    """A duration as m:ss (h:mm:ss past an hour)."""
    total = max(0, int(seconds or 0))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


templates.env.filters["mmss"] = mmss


def first_upper(text: object) -> str:
    """The text with its first letter upper-cased and the rest exactly as it was (Jinja's
    `capitalize` lower-cases the rest, which re-cases people's names: never do that)."""
    s = str(text)
    return s[:1].upper() + s[1:]


templates.env.filters["first_upper"] = first_upper
templates.env.filters["gettext"] = i18n.gettext


def phrase(data: dict[str, Any] | None) -> str:
    """An engine phrase from a view (`engines.core.Phrase` JSON) in the current language."""
    return i18n.phrase(Phrase.from_json(data)) if data else ""


templates.env.globals["phrase"] = phrase
templates.env.globals["describe_agent"] = identity.describe_agent
templates.env.filters["phrase"] = phrase


def game_assets(game_id: str) -> list[tuple[str, str]]:
    """The game's own stylesheet and script, those of static/{css,js}/games/<id>.* that exist."""
    found = []
    for kind in ("css", "js"):
        if (ROOT / "static" / kind / "games" / f"{game_id}.{kind}").is_file():
            found.append((kind, f"/static/{kind}/games/{game_id}.{kind}"))
    return found


templates.env.globals["game_assets"] = game_assets


# ---- One board for everyone ------------------------------------------------------------------
# A game's board (`games/<id>/board.html`) is drawn once per state and language from the
# spectator's view, whoever watches, and shared by every audience at the table: drawing it for
# each seat was most of a move's rendering. What differs for the person looking (their row
# marked, "(you)", "Your turn" instead of their name) is written with `mine()`, which leaves
# both versions in the shared text between markers; `for_viewer()` keeps the right one for
# each audience. A marker starts with "<!--@", which no escaped text can contain.

_MINE_OPEN = "<!--@"


def mine(seat: Any, yes: Any = "", no: Any = "", caller: Any = None) -> Markup:
    """`{{ mine(p.seat, " mine") }}`, `{{ mine(s, _("Your turn"), other) }}` or
    `{% call mine(s) %}…{% endcall %}`: `yes` for the person sitting at `seat` (or at any of
    a list of seats), `no` for everyone else (spectators included). Both are escaped unless
    Markup; they cannot hold another `mine()`: a three-way text is three of them, e.g.
    `mine(a, for_a)`, `mine(b, for_b)`, `mine([a, b], "", for_the_rest)`."""
    if caller is not None:
        yes = caller()
    yes_html, no_html = escape(yes), escape(no)
    if _MINE_OPEN in yes_html or _MINE_OPEN in no_html:
        raise ValueError("mine() inside mine(): write the two versions out")
    seats = [s for s in seat if s is not None] if type(seat) in (list, tuple) else [seat]
    if seat is None or not seats:
        return no_html
    if not all(type(s) is int and s >= 0 for s in seats):
        raise TypeError(f"mine() needs seat numbers, not {seat!r}")
    who = ",".join(map(str, seats))
    return Markup(f"<!--@{who}-->{yes_html}<!--@|-->{no_html}<!--@.-->")


_OWN_OPEN = "<!--own:"
_OWN = re.compile(r"<!--own:(\w+)((?::\d+)*)-->")


def own(part: str, *args: int) -> Markup:
    """Where what only the viewer may see goes on the shared board (their hand, their tent,
    a wagon they opened), which the spectator's view the board is drawn from does not hold:
    `{{ mine(p.seat, own("hand"), public) }}`. On that viewer's page, `for_viewer` fills it
    in from their own view with the macro `part(view, seat, *args)` of
    `games/<id>/own.html` (`args`: seat numbers or indices, as the board knows them; a macro
    that also declares `names` gets the display names by seat)."""
    if not part.isidentifier() or not all(type(a) is int and a >= 0 for a in args):
        raise ValueError(f"own() needs a macro name and numbers, not {part!r}, {args!r}")
    return Markup(f"{_OWN_OPEN}{part}{''.join(f':{a}' for a in args)}-->")


def _own_part(parts: Any, own: tuple[str, Any, Any], seat: int, m: re.Match[str]) -> str:
    macro = getattr(parts, m[1])
    args = [int(a) for a in m[2].split(":")[1:]]
    if "names" in macro.arguments:
        return str(macro(own[1], seat, *args, names=own[2]))
    return str(macro(own[1], seat, *args))


def for_viewer(html: str, seat: int | None, own: tuple[str, Any, Any] | None = None) -> Markup:
    """`html` (holding `mine()` markers) as the person at `seat` (None: a spectator) reads
    it; `own` = (game id, that person's own view, names by seat) fills in their `own()`
    parts."""
    if _MINE_OPEN not in html:
        return Markup(html)
    return _as_viewer(_pieces(html), seat, own)


def _pieces(html: str) -> list[Any]:
    """`html` cut at its `mine()` markers: text, then (seats, theirs, everyone else's), …
    (cut with `str.split` at the markers' fixed texts: no escaped text holds "<!--@")."""
    text = str(html)  # as it is: Markup's own string methods would escape the pieces again
    cuts = text.split(_MINE_OPEN)
    if len(cuts) % 3 != 1:
        raise ValueError("a mine() marker cut apart")
    pieces: list[Any] = [cuts[0]]
    for at in range(1, len(cuts), 3):
        # "0,2-->theirs", "|-->everyone else's", ".-->the text up to the next marker"
        seats, _, yes = cuts[at].partition("-->")
        no, rest = cuts[at + 1], cuts[at + 2]
        if not (no.startswith("|-->") and rest.startswith(".-->")):
            raise ValueError("a mine() marker cut apart")
        pieces.append((frozenset(int(s) for s in seats.split(",")), yes, no[4:]))
        pieces.append(rest[4:])
    return pieces


def _as_viewer(pieces: list[Any], seat: int | None, own: tuple[str, Any, Any] | None) -> Markup:
    """The text of `_pieces` as the person at `seat` reads it, their `own()` parts filled in."""
    text = "".join(p if type(p) is str else (p[1] if seat in p[0] else p[2]) for p in pieces)
    if seat is not None and own is not None and own[1] is not None and _OWN_OPEN in text:
        parts = templates.env.get_template(f"games/{own[0]}/own.html").module
        text = _OWN.sub(lambda m: _own_part(parts, own, seat, m), text)
    return Markup(text)


templates.env.globals["mine"] = mine
templates.env.globals["own"] = own
templates.env.filters["for_viewer"] = for_viewer

# Templates call these directly (_CodeGenerator), so none may take Jinja's context.
assert all(
    getattr(templates.env.globals[name], "jinja_pass_arg", None) is None for name in _PLAIN_CALLS
)


def shared_board(hub: RoomHub, state: tuple[Any, ...]) -> Markup:
    """The game's board at this (version, room revision) `state` in the current language,
    drawn from the spectator's view, with `mine()` markers left in (see above). Its context
    has no viewer: `room` (public facts), `catalogue`, `version`, `view`, `names`."""
    game = hub.game
    assert game is not None
    key = (*state, "board", i18n.current())
    cached = hub.rendered.get(key)
    if cached is None:
        ctx = {
            "room": room_info(hub, None),
            "catalogue": hub.engine.catalogue(),
            "version": game.version,
            "view": game.view(None),
            "names": standing_names(hub),
        }
        template = templates.env.get_template(f"games/{hub.engine.spec.id}/board.html")
        cached = hub.rendered[key] = template.render(ctx)
    return Markup(cached)


def board_for(hub: RoomHub, state: tuple[Any, ...], seat: int | None, view: Any) -> Markup:
    """The shared board as the person at `seat` reads it (their own view `view`); the board
    is cut at its markers once per state and language, not per audience."""
    key = (*state, "board pieces", i18n.current())
    pieces = hub.rendered.get(key)
    if pieces is None:
        pieces = hub.rendered[key] = _pieces(shared_board(hub, state))
    return _as_viewer(pieces, seat, (hub.engine.spec.id, view, standing_names(hub)))


_WAITING = frozenset({"open", "closed"})


def state_html(hub: RoomHub, conn: Connection, settings_log_tail: int) -> str:
    """Every fragment of the table page, each swapped by id (hx-swap-oob).

    Templates get a narrow context, never the hub or a state: `room` (public facts, see
    `app.realtime.messages.room_info`), `view` (the engine's view for `seat`), `seat`,
    `is_host`, `version`, `log_html` (the log lines this seat may read), `names` (display
    names by seat) and `catalogue` (the game's public card data) — nothing else about the
    person, so one rendering serves every socket of the same audience. The game's board is
    not drawn here but once for all audiences (`shared_board`) and read as this audience
    (`for_viewer`).

    The log is sent whole (its last `settings_log_tail` lines) the first time, then only the
    lines of the versions after those `conn` was sent (`conn.log_version`), added at its top,
    while they are made from the same texts (`RoomHub.log_basis`) for the same seat (a
    watcher who takes over a seat gets that seat's whole log); this function records
    what it sent in `conn`. A sync (`log_version` set back to -1) gets the whole log again.
    """
    seat = hub.seat_of(conn.user_id)
    game = hub.game
    version = game.version if game else 0
    is_host = conn.user_id == hub.host_id
    texts = hub.log_basis()
    basis = None if texts is None else (texts, seat)  # another seat reads other lines
    after = conn.log_version if basis is not None and conn.log_basis == basis else -1
    conn.log_version, conn.log_basis = (version, basis) if basis is not None else (-1, None)
    # Rendered once per audience and language at this moment (version, room revision, who is
    # online, half second: the room info's clock time keeps it fresh to 0.5 s), whatever the
    # number of sockets (ten spectators share one page, and so do all the sockets one move
    # behind: they are sent the same new log lines).
    pages = hub.moment_cache()
    key = ("page", seat, is_host, i18n.current(), settings_log_tail, after)
    cached: str | None = pages.get(key)
    if cached is not None:
        return cached
    state = (version, hub.room_rev)
    if hub.rendered and next(iter(hub.rendered))[:2] != state:
        hub.rendered.clear()
    view = game.view(seat) if game else None
    log = hub.log_for(seat, after_version=after, last=settings_log_tail)
    room = room_info(hub, seat)
    names = standing_names(hub)
    board = ""
    if game and room["status"] not in _WAITING:
        # Only the board holds `mine()` markers: the page around it is this audience's own.
        board = board_for(hub, state, seat, view)
    ctx = {
        "room": room,
        "catalogue": hub.engine.catalogue(),
        "seat": seat,
        "is_host": is_host,
        "version": version,
        "view": view,
        "board": board,
        "seat_list": seat_list(hub, room, seat, is_host),
        "log_html": log_html(hub, state, log, settings_log_tail, added=after >= 0),
        "names": names,
        "bot_levels": bots.LEVELS,
    }
    html = templates.env.get_template("partials/table_state.html").render(ctx)
    if len(pages) > 64:
        pages.clear()
    pages[key] = html
    return html


_LOG_ITEMS: dict[str, str] = {}


def log_html(
    hub: RoomHub, state: tuple[Any, ...], lines: list[str], tail: int, added: bool = False
) -> Markup:
    """The log fragment for these lines (newest first): the whole log (at most `tail` lines;
    the page keeps that many), or with `added` the new lines to put at its top (nothing at all
    when there are none). Each line is escaped into its `<li>` once, not per audience and move,
    and a list of lines is rendered once per language at this (version, room revision)
    `state`, so audiences that read the same lines share it."""
    if added and not lines:
        return Markup("")
    key = (*state, "log", i18n.current(), added, tuple(lines))
    cached = hub.rendered.get(key)
    if cached is None:
        if len(_LOG_ITEMS) > 50_000:
            _LOG_ITEMS.clear()
        items = []
        for line in reversed(lines):
            item = _LOG_ITEMS.get(line)
            if item is None:
                item = _LOG_ITEMS[line] = f"<li>{escape(line)}</li>"
            items.append(item)
        cached = hub.rendered[key] = templates.env.get_template("partials/log.html").render(
            {"items": Markup("".join(items)), "added": added, "tail": tail}
        )
    return Markup(cached)


def seat_list(hub: RoomHub, room: dict[str, Any], seat: int | None, is_host: bool) -> Markup:
    """The seats of the seats bar as the person at `seat` reads them. Drawn once for everyone
    at this moment (`RoomHub.moment_cache`) and language — `room` is `room_info` of now —
    and read per audience (`mine()`, as the board); a host without a seat gets their own
    drawing (the hand-to-a-bot buttons are the host's)."""
    unseated_host = is_host and seat is None
    game = hub.game
    cache = hub.moment_cache()
    key = ("seats", i18n.current(), unseated_host)
    pieces = cache.get(key)
    if pieces is None:
        ctx = {
            "room": room,
            "header": game.header() if game else None,
            "unseated_host": unseated_host,
        }
        html = templates.env.get_template("partials/seat_list.html").render(ctx)
        pieces = cache[key] = _pieces(html)
    return _as_viewer(pieces, seat, None)


def presence_html(hub: RoomHub, conn: Connection) -> str:
    """Just the seats bar (presence dots changed). It reads only the views' public header
    (who is to act, who has chosen), so no seat's view is computed for a presence change."""
    seat = hub.seat_of(conn.user_id)
    is_host = conn.user_id == hub.host_id
    room = room_info(hub, seat)
    ctx = {"room": room, "seat_list": seat_list(hub, room, seat, is_host), "oob": True}
    return templates.env.get_template("partials/seats.html").render(ctx)


def error_html(code: str, message: str) -> str:
    """A toast with the refusal."""
    ctx = {"code": code, "message": message}
    return templates.env.get_template("partials/toast.html").render(ctx)


def lobby_html(rows: list[LobbyRow], now: float) -> str:
    """The lobby's table list as an out-of-band fragment."""
    return templates.env.get_template("partials/lobby_tables.html").render(
        {"rows": rows, "oob": True, "now": now}
    )


def chat_html(lines: list[dict[str, Any]], history: bool) -> str:
    """Chat lines: the whole list replaced (history) or new lines appended. Chat is the same
    for everyone at the table, so this depends on nothing about the viewer."""
    return templates.env.get_template("partials/chat.html").render(
        {"lines": lines, "history": history}
    )
