"""`i18n.language_of` (what `LanguageMiddleware` sets) answers as Starlette's reading of the
query, the cookies and Accept-Language did before it skipped parsing them: the same language
for any query string and headers (Hypothesis), and the obvious cases by name."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import HTTPConnection

from app import i18n


def starlette_reading(scope: dict[str, Any]) -> str:
    """The middleware's choice as it was: every source read through `HTTPConnection`."""
    conn = HTTPConnection(scope)
    asked = conn.query_params.get("lang")
    if asked in i18n.LANGUAGES:
        return asked
    return i18n.choose(None, conn.cookies.get(i18n.COOKIE), conn.headers.get("accept-language"))


def scope_of(query: bytes, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {"type": "http", "query_string": query, "headers": headers}


pieces = st.sampled_from(
    ["lang", "=", "pl", "en", "de", "&", ";", " ", "%6C", "ang", "stolik", "q=0.5", ",", "-PL", "x"]
)
texts = st.lists(pieces, max_size=8).map("".join)
header = st.tuples(
    st.sampled_from([b"cookie", b"accept-language", b"host", b"x-lang"]),
    texts.map(lambda t: t.encode("latin-1")),
)


@settings(max_examples=400, deadline=None)
@given(texts.map(lambda t: t.encode("latin-1")), st.lists(header, max_size=4))
def test_the_same_language_as_starlettes_reading(
    query: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    scope = scope_of(query, headers)
    assert i18n.language_of(scope) == starlette_reading(scope)


def test_each_source_in_turn() -> None:
    accept = (b"accept-language", b"pl-PL,pl;q=0.9,en;q=0.8")
    assert i18n.language_of(scope_of(b"", [])) == "en"
    assert i18n.language_of(scope_of(b"", [accept])) == "pl"
    assert i18n.language_of(scope_of(b"", [(b"cookie", b"lang=en"), accept])) == "en"
    assert i18n.language_of(scope_of(b"lang=en", [(b"cookie", b"lang=pl")])) == "en"
    assert i18n.language_of(scope_of(b"%6Cang=pl", [])) == "pl"
    assert i18n.language_of(scope_of(b"lang=xx", [(b"cookie", b"a=1; lang=pl")])) == "pl"


def test_a_long_accept_language_is_negotiated_not_remembered() -> None:
    long = "de;q=0.1," * 40 + "pl"
    assert len(long) > 200
    assert i18n.negotiate(long) == "pl"
