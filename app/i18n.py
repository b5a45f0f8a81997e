"""Languages: Polish and English through standard gettext catalogues (Babel).

The catalogues are `app/locales/<lang>/LC_MESSAGES/messages.po`, kept in the repository and
compiled in memory when the server starts (no generated files to forget). Messages are written
in English in the code and templates (`{% trans %}`, `_()`, `ngettext`); `python -m
scripts.i18n` extracts them and updates both catalogues.

The language of the current request or websocket message lives in a context variable, so
templates and error messages translate without passing a language around: `use(lang)` sets
it, `gettext`/`ngettext` read it. Choosing: the person's stored choice, else the `lang` cookie,
else the browser's Accept-Language, else English.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from engines.core import Event, Phrase, Term, render_param

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski"}
"""Every language offered, by code, each named in itself."""
DEFAULT = "en"
COOKIE = "lang"

GENDERS: tuple[str, ...] = ("she", "he", "neutral")
"""How a person may ask the site to speak of them; each is also the gettext context of the
messages that name a person's act or state (app/gendered.py)."""

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


@cache
def translations(lang: str) -> Translations:
    """The compiled catalogue of `lang` (English for anything unknown)."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf)


current: Callable[[], str] = _current.get
"""The language of what is being rendered now (the context variable's own getter: a page
asks for it about a hundred times)."""


@contextmanager
def use(lang: str) -> Iterator[None]:
    """Render and translate in `lang` inside the block."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def set_current(lang: str) -> None:
    """Set the language for the rest of this task (a request or a websocket)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


def gettext(message: str) -> str:
    """`message` in the current language."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` in the current language (Polish has three: 1 karta, 2 karty, 5 kart)."""
    return translations(current()).ngettext(singular, plural, n)


_ = gettext


def grammar(gender: str | None) -> str:
    """The gettext context for a person's choice: "she", "he", or "neutral" (also for no
    choice or an unknown one)."""
    return gender if gender in GENDERS else "neutral"


@cache
def _gendered_ids(lang: str) -> frozenset[str]:
    """The messages `lang`'s catalogue has per gender (with a "she" context entry)."""
    catalog: dict[Any, Any] = translations(lang)._catalog
    prefix = "she\x04"
    return frozenset(k[len(prefix) :] for k in catalog if type(k) is str and k.startswith(prefix))


def is_gendered(message: str) -> bool:
    """Whether the current language says `message` differently per person (app/gendered.py)."""
    return message in _gendered_ids(current())


def gendered(gender: str | None, message: str) -> str:
    """`message` in the current language as it speaks of a person who chose `gender` (the
    plain message when it has no forms per person)."""
    if message in _gendered_ids(current()):
        return pgettext(grammar(gender), message)
    return gettext(message)


def fill(
    message: str, plural: str | None, params: Mapping[str, Any], gender: str | None = None
) -> str:
    """An engine's or the app's message in the current language: the translated template
    (its plural form for `params["count"]`; its form for the person's `gender` when it has
    one), filled with the parameters, game words (`Term`s) translated too. Seat references
    (`{p2}`) are left for the table to name."""
    if plural is not None:
        text = ngettext(message, plural, int(params.get("count", 0)))
    elif gender is not None:
        text = gendered(gender, message)
    else:
        text = gettext(message)
    if not params:
        return text
    return text % {k: render_param(v, term, phrase) for k, v in params.items()}


def phrase(value: Phrase) -> str:
    """A message inside a message, in the current language."""
    return fill(value.message, value.plural, value.params)


def term(word: Term) -> str:
    """A game word in the current language."""
    if word.context is None:
        return gettext(word.text)
    return pgettext(word.context, word.text)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, in `context`."""
    return str(translations(current()).pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """The form for `n`, in `context`."""
    return str(translations(current()).npgettext(context, singular, plural, n))


def event_text(event: Event, gender_of: Callable[[int], str | None] | None = None) -> str:
    """A log line in the current language (events stored without params read as they are).
    A line about a person's act (its `who` is a seat, `{p2}`) takes that person's form:
    `gender_of(seat)` says how they chose to be spoken of, looked up now, not when the line
    was stored."""
    gender = None
    if gender_of is not None and event.plural is None and is_gendered(event.message):
        seat = seat_number(event.params.get("who"))
        gender = gender_of(seat) if seat is not None else "neutral"
    return fill(event.message, event.plural, event.params, gender)


def seat_number(ref: Any) -> int | None:
    """The seat a `{p2}` reference names (None for anything else)."""
    if type(ref) is str and ref.startswith("{p") and ref.endswith("}") and ref[2:-1].isdigit():
        return int(ref[2:-1])
    return None


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated later, where it is shown."""
    return message


def negotiate(accept_language: str | None) -> str:
    """The best offered language for an Accept-Language header (English when none fits)."""
    if not accept_language:
        return DEFAULT
    if len(accept_language) <= 200:
        return _remembered(accept_language)
    return _negotiate(accept_language)


@lru_cache(maxsize=1024)
def _remembered(accept_language: str) -> str:
    # A browser sends the same header with every request; parsing it (Babel) cost ~16 µs.
    # Short headers only, so the cache holds at most ~200 KB whatever clients send.
    return _negotiate(accept_language)


def _negotiate(accept_language: str) -> str:
    wanted: list[tuple[float, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality + i * 1e-6, tag.strip()))
    for _rank, tag in sorted(wanted):
        try:
            code = Locale.parse(tag.replace("-", "_")).language
        except (ValueError, UnknownLocaleError):
            continue
        if code in LANGUAGES:
            return code
    return DEFAULT


def choose(stored: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The person's stored choice, else the cookie, else the browser's languages."""
    for lang in (stored, cookie):
        if lang in LANGUAGES:
            return lang
    return negotiate(accept_language)


class LanguageMiddleware:
    """Sets the language of each request and websocket (pure ASGI, so the websocket's tasks
    inherit it): `?lang=` first (JSON clients), then the `lang` cookie, then Accept-Language.
    A signed-in person's stored choice is applied later, where the person is loaded."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            set_current(language_of(scope))
        await self.app(scope, receive, send)


def language_of(scope: Scope) -> str:
    """The language a request or websocket asks for: `?lang=`, else the `lang` cookie, else
    Accept-Language — read as Starlette reads them (`HTTPConnection`), but the query and the
    cookies parsed only when they could hold a `lang` (~8 µs a request saved)."""
    query = scope.get("query_string", b"")
    if b"lang" in query or b"%" in query:
        asked = HTTPConnection(scope).query_params.get("lang")
        if asked in LANGUAGES:
            return asked
    cookie = accept = None
    for name, value in scope.get("headers") or ():
        # Starlette's `Headers.get` answers the first header of a name.
        if name == b"cookie" and cookie is None:
            cookie = value
        elif name == b"accept-language" and accept is None:
            accept = value
    if cookie is not None and COOKIE.encode() in cookie:
        conn = HTTPConnection(scope)
        return choose(None, conn.cookies.get(COOKIE), conn.headers.get("accept-language"))
    return negotiate(None if accept is None else accept.decode("latin-1"))
