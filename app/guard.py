"""What the server refuses before any route runs, and the headers every answer carries.

- Cross-site requests: a websocket handshake or a state-changing HTTP request (anything but
  GET/HEAD/OPTIONS) whose `Origin` is not one of the public origins is refused — HTTP with 403
  and the code `bad_origin`, a websocket by closing the handshake with 4403 (the browser sees a
  403). `PUBLIC_ORIGINS` lists the origins (`https://stolik.example`); when it is empty the
  origin must name the host the request was sent to. With `PUBLIC_ORIGINS` set the `Host`
  header must be one of theirs too (no DNS-rebinding). A request without `Origin` is not from
  a browser page (browsers send it on every POST and handshake), so it cannot be a forgery.
  An `Origin` that is not a well-formed origin (`origin_key`: a bad port, a broken address,
  a path, "null") is refused the same way — never an error.
- Security headers on every HTTP answer: a Content-Security-Policy without inline scripts,
  `X-Content-Type-Options`, `Referrer-Policy`, and framing refused; over https (directly or
  behind a proxy that says so) every cookie is marked `Secure`.
- `RateWindow`: a sliding-window budget (acts per socket, tables and guests per address);
  `ActBudgets`: a table socket's messages counted per socket, per person and per address.
"""

from __future__ import annotations

import ipaddress
import json
import re
import time
from collections import deque
from collections.abc import Callable, Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import i18n
from app.i18n import N_

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        # htmx and the pages set a few inline styles (grid sizes, animation delays).
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
BAD_ORIGIN = N_("This request came from another site and was refused.")
WS_BAD_ORIGIN = 4403
"""Close code of a websocket handshake refused for its origin."""


_ORIGIN = re.compile(
    r"(?P<scheme>https?)://(?P<host>\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?",
    re.ASCII,
)
DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(text: str) -> str | None:
    """`scheme://host[:port]` of a well-formed origin (as browsers send it: http or https, a
    host name or address, an optional port from 1 to 65535, nothing else), lower-cased, the
    default port dropped; None for anything else. Never raises (the `Origin` header is
    whatever a client sends)."""
    found = _ORIGIN.fullmatch(text.lower())
    if found is None:
        return None
    scheme, host, port = found.group("scheme", "host", "port")
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    if port is None:
        return f"{scheme}://{host}"
    number = int(port)
    if not 0 < number < 65536:
        return None
    if number == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{number}"


def configured_origins(origins: Iterable[str]) -> set[str]:
    """The keys of `PUBLIC_ORIGINS` (a trailing slash allowed); a malformed one stops the
    server at start, naming it."""
    keys = set()
    for origin in origins:
        text = origin.strip()
        if not text:
            continue
        key = origin_key(text.removesuffix("/"))
        if key is None:
            raise ValueError(f"PUBLIC_ORIGINS: not an origin (https://host[:port]): {text!r}")
        keys.add(key)
    return keys


def _host_of(origin_key: str) -> str:
    return origin_key.split("://", 1)[-1]


def _strip_default_port(host: str) -> str:
    host = host.strip().lower()
    for suffix in (":80", ":443"):
        if host.endswith(suffix):
            return host.removesuffix(suffix)
    return host


class Guard:
    """ASGI middleware: origin and host checks, security headers (see module docstring)."""

    def __init__(self, app: ASGIApp, public_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = configured_origins(public_origins)
        self.hosts = {_host_of(o) for o in self.origins}

    def allowed(self, headers: dict[bytes, bytes]) -> bool:
        """Whether a request with these headers may change state."""
        host = _strip_default_port(headers.get(b"host", b"").decode("latin-1"))
        if self.hosts and host not in self.hosts:
            return False
        raw = headers.get(b"origin")
        if raw is None:
            return True
        key = origin_key(raw.decode("latin-1"))
        if key is None:  # "null" (a sandboxed or opaque origin) or malformed
            return False
        if self.origins:
            return key in self.origins
        return _host_of(key) == host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if scope["type"] == "websocket":
            if not self.allowed(headers):
                await send({"type": "websocket.close", "code": WS_BAD_ORIGIN})
                return
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not self.allowed(headers):
            await self._refuse(scope, send)
            return

        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if secure:
                    headers = [_secure_cookie(n, v) for n, v in headers]
                present = {name.lower() for name, _ in headers}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        lang = i18n.choose(
            None,
            _cookie(headers.get(b"cookie", b"").decode("latin-1"), i18n.COOKIE),
            headers.get(b"accept-language", b"").decode("latin-1") or None,
        )
        with i18n.use(lang):
            message = i18n.gettext(BAD_ORIGIN)
        body = json.dumps(
            {"error": {"code": "bad_origin", "message": message, "key": BAD_ORIGIN, "params": {}}}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _secure_cookie(name: bytes, value: bytes) -> tuple[bytes, bytes]:
    """A cookie set over https is marked `Secure` (behind a proxy, uvicorn takes the scheme
    from X-Forwarded-Proto when the proxy is trusted: FORWARDED_ALLOW_IPS)."""
    if name.lower() == b"set-cookie" and b"; secure" not in value.lower():
        return name, value + b"; Secure"
    return name, value


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


class _Budget:
    """A budget of `count` events per `window` seconds, timed by `now`; `count` 0 = no limit."""

    def __init__(
        self, count: int, window: float, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.count = count
        self.window = window
        self.now = now


class RateWindow(_Budget):
    """At most `count` events per `window` seconds (a sliding window); `count` 0 = no limit."""

    times: deque[float] | None = None
    """The recent events' times, made at the first event (idle sockets have none)."""

    def over(self) -> int:
        """Record one event; how far past the budget it is (0 = within it)."""
        if self.count <= 0:
            return 0
        if self.times is None:
            self.times = deque()
        t = self.now()
        while self.times and self.times[0] <= t - self.window:
            self.times.popleft()
        self.times.append(t)
        return max(0, len(self.times) - self.count)


class RateBudgets(_Budget):
    """One `RateWindow` per key (an address), forgotten once idle for a window."""

    def __init__(
        self, count: int, window: float, now: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(count, window, now)
        self.windows: dict[str, RateWindow] = {}

    def over(self, key: str) -> bool:
        """Record one event for `key`; whether it is past the budget."""
        return self.excess(key) > 0

    def excess(self, key: str) -> int:
        """Record one event for `key`; how far past the budget it is (0 = within it)."""
        if self.count <= 0:
            return 0
        if len(self.windows) > 10_000:
            t = self.now()
            self.windows = {
                k: w for k, w in self.windows.items() if w.times and w.times[-1] > t - self.window
            }
        window = self.windows.setdefault(key, RateWindow(self.count, self.window, self.now))
        return window.over()


class ActBudgets:
    """The budget of messages a table socket may send, counted three ways in one window: per
    socket, per person (all their sockets together, so reconnecting does not reset it) and
    per address (`address_count`, for everybody behind it together: guests are cheap).

    The counts live in this process: with several processes behind a proxy a person or an
    address that reaches N processes has up to N budgets (see docs/operating.md)."""

    def __init__(
        self,
        count: int,
        window: float,
        address_count: int,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.count = count
        self.window = window
        self.now = now
        self.people = RateBudgets(count, window, now)
        self.addresses = RateBudgets(address_count, window, now)

    def socket(self) -> RateWindow:
        """A new socket's own window."""
        return RateWindow(self.count, self.window, self.now)

    def over(self, own: RateWindow, person: int | None, address: str | None) -> int:
        """Record one message of a socket (`own`) of `person` from `address`; how far past
        the tightest of the three budgets it is (0 = within them all)."""
        excess = own.over()
        if person is not None:
            excess = max(excess, self.people.excess(f"u{person}"))
        if address:
            excess = max(excess, self.addresses.excess(address))
        return excess
