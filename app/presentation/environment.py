"""The templates' environment: what every template sees and how it is translated.

`templates` is the one Jinja environment of the server (pages and fragments alike), built on
the hooks of `app.presentation.jinja_hooks`. Every global and filter is set here, when this
module is imported, before any template is loaded (`FastEnvironment.make_globals` copies
them into each template): the translation callables (plain, cached functions), the helpers
templates call (`game_title`, `mmss`, `phrase`, …), and the shared board's `mine()`,
`own()` and `for_viewer` (one board drawn for everyone, read per audience).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.dates import format_date
from fastapi.templating import Jinja2Templates
from jinja2 import FileSystemLoader
from markupsafe import Markup, escape

from app import bots, clocks, i18n, identity
from app.accounts.names import shown
from app.core.config import ROOT
from app.gendered import GENDER_CHOICES
from app.i18n import N_
from app.presentation.hyphenate import hyphenate
from app.presentation.jinja_hooks import PLAIN_CALLS, CollapseIndentation, FastEnvironment, pure
from engines import ENGINES, REGISTRY
from engines.core import Phrase

# Templates are read once per process (no stat of the file on every render); restart the
# server to see an edited template.
_LOADER = FileSystemLoader(str(ROOT / "templates"))
templates = Jinja2Templates(env=FastEnvironment(loader=_LOADER, autoescape=True, auto_reload=False))
templates.env.add_extension("jinja2.ext.i18n")
templates.env.add_extension(CollapseIndentation)
# Installed for the extension's new-style `{% trans %}` compilation; the callables themselves
# are replaced below by plain, cached ones.
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext
)
templates.env.globals["lang"] = i18n.current
templates.env.globals["person_name"] = shown
templates.env.globals["gender_choices"] = GENDER_CHOICES


def has_screen(game_id: str) -> bool:
    """Whether the browser can play this game (its `games/<id>/board.html` exists)."""
    name = f"games/{game_id}/board.html"
    return any((Path(folder) / name).is_file() for folder in _LOADER.searchpath)


def add_template_folder(folder: Path) -> None:
    """Look for templates in `folder` too, after templates/ (tests: the screen of a game they
    register themselves, `engines.register_engine`)."""
    _LOADER.searchpath.append(str(folder))


def remove_template_folder(folder: Path) -> None:
    """Undo `add_template_folder`, forgetting every template read so far."""
    _LOADER.searchpath.remove(str(folder))
    if templates.env.cache is not None:
        templates.env.cache.clear()


# ---- Translations ----------------------------------------------------------------------------
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


def _gendered(grammar: str | None, message: str, **variables: Any) -> Markup:
    """`gendered(s.grammar, "to act")`: the message as it speaks of a person who chose
    `grammar` (app/gendered.py lists the messages that have a form per choice); cached like
    `_()`. Not a gettext keyword: the catalogues get its forms from app/gendered.py."""
    if variables:
        return Markup(i18n.gendered(grammar, message)) % variables
    key = (i18n.current(), "gendered", str(grammar), message)
    cached = _TRANSLATED.get(key)
    if cached is None:
        cached = _translated(key, lambda: i18n.gendered(grammar, message))
    return cached


templates.env.globals.update(
    gettext=_gettext,
    _=_gettext,
    ngettext=_ngettext,
    pgettext=_pgettext,
    npgettext=_npgettext,
    gendered=_gendered,
)

# ---- Helpers templates call ------------------------------------------------------------------
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
templates.env.globals["away_limits"] = clocks.AWAY_LIMITS
templates.env.globals["is_slow_clock"] = clocks.is_slow
templates.env.globals["bot_levels"] = bots.LEVELS
BOT_LEVEL_NAMES = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
CLOCK_NAMES = {
    "fast": N_("fast"),
    "normal": N_("normal"),
    "slow": N_("1 day"),
    "slow2": N_("2 days"),
    "slow3": N_("3 days"),
    "slow7": N_("7 days"),
}


def bot_level_name(level: str) -> str:
    """A bot level's name in the current language."""
    return i18n.gettext(BOT_LEVEL_NAMES.get(level, level))


def clock_name(clock: str) -> str:
    """A clock's short name in the current language."""
    return i18n.gettext(CLOCK_NAMES.get(clock, clock))


templates.env.globals["bot_level_name"] = bot_level_name
templates.env.globals["clock_name"] = clock_name


def mmss(seconds: float | None) -> str:
    """A duration as m:ss (h:mm:ss past an hour, "2 d 3:04:05" past a day; static/js/
    stolik.js writes the same while it ticks)."""
    total = max(0, int(seconds or 0))
    d, total = divmod(total, 86400)
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    if d:
        return i18n.gettext("%(n)s d") % {"n": d} + f" {h}:{m:02d}:{s:02d}"
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def day(moment: float | None) -> str:
    """A day (server seconds since the epoch, read in UTC) in the current language: "3 Dec"."""
    if moment is None:
        return ""
    when = datetime.fromtimestamp(moment, UTC).date()
    return format_date(when, format="d MMM", locale=i18n.current())


templates.env.filters["mmss"] = mmss
templates.env.filters["day"] = day


def first_upper(text: object) -> str:
    """The text with its first letter upper-cased and the rest exactly as it was (Jinja's
    `capitalize` lower-cases the rest, which re-cases people's names: never do that)."""
    s = str(text)
    return s[:1].upper() + s[1:]


templates.env.filters["first_upper"] = first_upper
templates.env.filters["hyphenate"] = hyphenate
templates.env.filters["gettext"] = i18n.gettext


def phrase(data: dict[str, Any] | None) -> str:
    """An engine phrase from a view (`engines.core.Phrase` JSON) in the current language."""
    return i18n.phrase(Phrase.from_json(data)) if data else ""


templates.env.globals["phrase"] = phrase
templates.env.globals["term_text"] = i18n.term
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
    return as_viewer(split_marks(html), seat, own)


def split_marks(html: str) -> list[Any]:
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


def as_viewer(pieces: list[Any], seat: int | None, own: tuple[str, Any, Any] | None) -> Markup:
    """The text of `split_marks` as the person at `seat` reads it, their `own()` parts filled in."""
    text = "".join(p if type(p) is str else (p[1] if seat in p[0] else p[2]) for p in pieces)
    if seat is not None and own is not None and own[1] is not None and _OWN_OPEN in text:
        parts = templates.env.get_template(f"games/{own[0]}/own.html").module
        text = _OWN.sub(lambda m: _own_part(parts, own, seat, m), text)
    return Markup(text)


templates.env.globals["mine"] = mine
templates.env.globals["own"] = own
templates.env.filters["for_viewer"] = for_viewer

# Templates call these directly (PlainCallsCodeGenerator), so none may take Jinja's context.
assert all(
    getattr(templates.env.globals[name], "jinja_pass_arg", None) is None for name in PLAIN_CALLS
)
