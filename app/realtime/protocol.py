"""The websocket protocol: a closed set of typed messages (docs/architecture.md, "app/realtime/").

Client → server: act {version, action}, sync {version}, chat {text}.
Server → client: state {version, view, log}, error {code, message}, presence {online},
chat {messages, history} (the whole kept history on connect, then one line at a time).

Browsers send the same messages (HTMX's websocket extension adds a HEADERS field, ignored
here) and receive HTML fragments instead of JSON; `?format=json` on the socket URL asks for
JSON, which the tests, the benchmark and future bots use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from app.errors import Refusal
from app.i18n import N_
from engines.core import params_to_json

MAX_VERSION = 2**31 - 1
"""The largest game version a client may name (the database's integer): a larger one is
refused as malformed, never carried on to a refusal the writer cannot encode."""


class ClientMessage(BaseModel):
    """Base of every message a client may send."""

    model_config = ConfigDict(extra="ignore")


class Act(ClientMessage):
    """Play `action` on the game as it was at `version`."""

    type: Literal["act"]
    version: int = Field(ge=0, le=MAX_VERSION)
    action: dict[str, Any]

    @field_validator("action", mode="before")
    @classmethod
    def _decode_action(cls, value: Any) -> Any:
        """Browsers may send the action as a JSON string (a form field)."""
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError("action is not valid JSON") from exc
        return value


class Sync(ClientMessage):
    """Ask for the full current state (after a gap or a reconnect)."""

    type: Literal["sync"]
    version: int = Field(default=-1, ge=-1, le=MAX_VERSION)


class Chat(ClientMessage):
    """A line of table chat."""

    type: Literal["chat"]
    text: str  # length and rate limits are the table's (settings), with their own error codes


Incoming = Annotated[Act | Sync | Chat, Field(discriminator="type")]
INCOMING: TypeAdapter[Act | Sync | Chat] = TypeAdapter(Incoming)


MAX_DEPTH = 8
"""The deepest nesting a client frame may have (an act is at most three levels deep)."""
MAX_ITEMS = 2000
"""The most values a client frame may hold."""


def json_shape(text: str) -> tuple[int, int]:
    """The nesting depth and a bound on the number of values of a JSON text, found without
    parsing it (so a hostile frame cannot exhaust the parser's recursion)."""
    depth = deepest = 0
    items = 1
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
        elif ch == ",":
            items += 1
    return deepest, items


def parse_incoming(raw: str | bytes, max_bytes: int) -> Act | Sync | Chat:
    """Decode one client frame, or raise `Refusal` saying what is wrong."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise Refusal(
            "too_large",
            N_("Message too large (%(size)s bytes; limit %(limit)s)."),
            size=size,
            limit=max_bytes,
        )
    text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
    # Counting brackets and commas (strings included) bounds the depth and the items from
    # above; only a frame over a bound is scanned for its exact shape (an act has two
    # brackets and a few commas, and str.count runs in C).
    openers = text.count("[") + text.count("{")
    if openers > MAX_DEPTH or text.count(",") + 1 > MAX_ITEMS:
        depth, items = json_shape(text)
        if depth > MAX_DEPTH or items > MAX_ITEMS:
            raise Refusal("malformed", N_("Message is nested too deeply or holds too many items."))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, huge numbers
        raise Refusal("malformed", N_("Message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise Refusal("malformed", N_("Message must be a JSON object."))
    kind = data.get("type")
    if kind not in ("act", "sync", "chat"):
        raise Refusal("unknown_type", N_("Unknown message type: “%(kind)s”."), kind=str(kind)[:40])
    try:
        return INCOMING.validate_python(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())[1:])
        raise Refusal(
            "malformed",
            N_("Bad %(kind)s message: %(where)s %(detail)s."),
            kind=kind,
            where=where,
            detail=err["msg"],
        ) from None


# ---- server → client (JSON form) ---------------------------------------------------------------


def state_message(
    version: int,
    view: dict[str, Any],
    log: list[str],
    entries: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The state at `version` as one seat sees it, with the log lines it may read (`log`, in
    the reader's language; `entries`, the same lines as message ids and parameters)."""
    msg = {"type": "state", "version": version, "view": view, "log": log}
    if entries is not None:
        msg["entries"] = entries
    return msg


def error_message(
    code: str, message: str, key: str | None = None, params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A refusal; nothing changed. `message` is in the reader's language; `key` (the English
    message id) and `params` let a client render it itself."""
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if key is not None:
        msg["key"] = key
        msg["params"] = {k: _encodable(v) for k, v in params_to_json(params or {}).items()}
    return msg


def _encodable(value: Any) -> Any:
    """A parameter as JSON can carry it: an integer past 64 bits (a client's own number echoed
    in a refusal) as its digits."""
    if isinstance(value, int) and not -(2**63) <= value < 2**64:
        return str(value)
    return value


def presence_message(online: list[int]) -> dict[str, Any]:
    """Which seats have a connection open."""
    return {"type": "presence", "online": online}


def chat_message(messages: list[dict[str, Any]], history: bool) -> dict[str, Any]:
    """Chat lines: the kept history (`history` true, replaces what the client shows) or new."""
    return {"type": "chat", "messages": messages, "history": history}
