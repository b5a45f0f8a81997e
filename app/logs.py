"""What the server tells its operator: `stolik.*` loggers, as text or as JSON lines.

`LOG_FORMAT=json` writes one JSON object per line (time, level, logger, message, the request or
connection id, and the extra fields a call passes: room, user, code, version…); `LOG_LEVEL`
sets the level (info: room changes; debug: every move and every refused message too). Every HTTP
request and websocket gets an id (`X-Request-Id` answered back), carried by a context variable
into every line logged while it is handled.
"""

from __future__ import annotations

import json
import logging
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

request_id: ContextVar[str] = ContextVar("request_id", default="-")

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}


class JsonFormatter(logging.Formatter):
    """One JSON object per record."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": request_id.get(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_info:
            data["traceback"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """`time level logger [request id] message key=value…`."""

    def format(self, record: logging.LogRecord) -> str:
        extra = " ".join(
            f"{k}={v}"
            for k, v in record.__dict__.items()
            if k not in _STANDARD and not k.startswith("_")
        )
        line = (
            f"{self.formatTime(record)} {record.levelname.lower()} {record.name} "
            f"[{request_id.get()}] {record.getMessage()}" + (f" {extra}" if extra else "")
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def configure(fmt: str = "text", level: str = "info") -> None:
    """Send the `stolik` loggers to stderr in `fmt` ("text" or "json") at `level`."""
    logger = logging.getLogger("stolik")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    for old in list(logger.handlers):
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False


class RequestIds:
    """ASGI middleware: an id for every request and websocket (a client's `X-Request-Id` is
    kept when it is short and plain), answered back in `X-Request-Id`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        rid = given if 0 < len(given) <= 64 and given.isascii() and given.isprintable() else ""
        token = request_id.set(rid or secrets.token_hex(6))

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.get().encode()),
                ]
                message = {**message, "headers": headers}
            await send(message)

        try:
            # A websocket's frames need no header: its send is not wrapped (one call less per
            # frame on the hottest path).
            wrapped = send_with_id if scope["type"] == "http" else send
            await self.app(scope, receive, wrapped)
        finally:
            request_id.reset(token)
