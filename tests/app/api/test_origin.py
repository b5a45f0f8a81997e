"""A malformed `Origin` is refused like a foreign one, never an error (issue 32, item 4):
properties of the origin parser (Hypothesis) and, on a live server, every state-changing
request and websocket handshake with one (no cookie needed) answered 403 / refused with 4403."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.guard import Guard, configured_origins, origin_key
from tests.conftest import Server, start_server

MALFORMED = [
    "http://x:99999",
    "http://127.0.0.1:abc",
    "http://[::1",
    "http://[::1]:0",
    "http://[zz::1]",
    "http://127.0.0.1:65536",
    "https://stolik.example/",
    "https://stolik.example/path",
    "https://user@stolik.example",
    "ftp://stolik.example",
    "https://",
    "null",
    "",
    "http://exa mple",
    "http://\x00",
    "https://stolik.example:443:443",
]

WELL_FORMED = re.compile(
    r"https?://(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9._-]*[a-z0-9])?)(:[1-9][0-9]{0,4})?"
)

ALLOWED = "https://stolik.example"


def _headers(origin: str | None, host: str = "stolik.example") -> dict[bytes, bytes]:
    headers = {b"host": host.encode("latin-1")}
    if origin is not None:
        headers[b"origin"] = origin.encode("latin-1")
    return headers


latin1 = st.text(st.characters(max_codepoint=255))
origin_like = st.builds(
    lambda scheme, host, port, tail: f"{scheme}://{host}{port}{tail}",
    st.sampled_from(["http", "https", "HTTPS", "ftp", ""]),
    st.one_of(
        st.sampled_from(["stolik.example", "STOLIK.example", "[::1", "[::1]", "127.0.0.1", ""]),
        latin1,
    ),
    st.one_of(
        st.just(""), st.integers(-5, 100_000).map(lambda n: f":{n}"), latin1.map(":{}".format)
    ),
    st.sampled_from(["", "/", "/x", "?", "#", " "]),
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(latin1, origin_like))
@example("http://x:99999")
@example("http://127.0.0.1:abc")
@example("http://[::1")
def test_the_origin_parser_never_raises_and_keeps_only_well_formed_origins(text: str) -> None:
    key = origin_key(text)
    assert key is None or WELL_FORMED.fullmatch(key), key
    if key is not None:
        assert origin_key(key) == key  # its own key


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.none(), latin1, origin_like), latin1)
@example("http://x:99999", "stolik.example")
@example("http://[::1", "[::1")
def test_the_guard_never_raises_and_allows_only_the_public_origin(
    origin: str | None, host: str
) -> None:
    fixed = Guard(app=None, public_origins=[ALLOWED])  # type: ignore[arg-type]
    allowed = fixed.allowed(_headers(origin, host))
    if allowed:
        assert host.strip().lower() in ("stolik.example", "stolik.example:80", "stolik.example:443")
        assert origin is None or origin_key(origin) == ALLOWED
    # Without PUBLIC_ORIGINS the origin must name the request's own host.
    own = Guard(app=None)  # type: ignore[arg-type]
    if own.allowed(_headers(origin, host)) and origin is not None:
        key = origin_key(origin)
        assert key is not None and WELL_FORMED.fullmatch(key)


def test_well_formed_origins_are_keyed_by_scheme_host_and_port() -> None:
    assert origin_key("HTTPS://Stolik.Example") == "https://stolik.example"
    assert origin_key("https://stolik.example:443") == "https://stolik.example"
    assert origin_key("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert origin_key("http://[::1]:8000") == "http://[::1]:8000"
    for text in MALFORMED:
        assert origin_key(text) is None, text
    assert configured_origins(["https://stolik.example/", " "]) == {"https://stolik.example"}
    with pytest.raises(ValueError, match="PUBLIC_ORIGINS"):
        configured_origins(["https://stolik.example:99999"])


async def test_a_malformed_origin_is_refused_not_an_error(db_url: str, tmp_path: Path) -> None:
    """Every state-changing request and handshake with a malformed Origin — no cookie — is
    refused cleanly (403 `bad_origin`, handshake 403), with or without PUBLIC_ORIGINS."""
    for origins in ("", ALLOWED):
        data = tmp_path / ("fixed" if origins else "own")
        data.mkdir()
        srv: Server = await start_server(db_url, data, public_origins=origins)
        host = {"Host": "stolik.example"} if origins else {}
        try:
            async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
                for origin in ("http://x:99999", "http://127.0.0.1:abc", "http://[::1"):
                    for path in ("/api/guest", "/api/tables", "/api/games/import", "/name"):
                        r = await http.post(path, json={}, headers={**host, "Origin": origin})
                        assert r.status_code == 403, (origin, path, r.text[:200])
                        assert r.json()["error"]["code"] == "bad_origin"
                    for path in ("/ws/lobby", "/ws/t/nothing-here?format=json"):
                        with pytest.raises(InvalidStatus) as refused:
                            await connect(
                                f"{srv.ws_url}{path}",
                                additional_headers={**host, "Origin": origin},
                                open_timeout=5,
                            )
                        assert refused.value.response.status_code == 403
        finally:
            await srv.stop()
