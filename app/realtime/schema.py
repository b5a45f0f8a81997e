"""The websocket protocol as JSON Schema (docs/bot-api.md), served at `/api/schema/ws`.

The client's messages are the very models the server parses them with
(`app.realtime.protocol`); the server's JSON messages are described by the models below,
and the tests validate recorded frames of every kind against the published schema (with
`additionalProperties: false` wherever the server's own fields are listed), so a field
added to a message without its schema fails there. Each game's actions are the engine's own
pydantic models (`engine.action_adapter`).
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from app.realtime.protocol import Act, Chat, Sync
from engines import ENGINES


class _Out(BaseModel):
    """Base of the server's messages: exactly these fields."""

    model_config = ConfigDict(extra="forbid")


class Outcome(_Out):
    """The end of a game."""

    scores: dict[str, int] = Field(description="Final score by seat (as a string).")
    ranks: dict[str, int] = Field(description="Place by seat: 1 is best, ties share a place.")
    winners: list[int]
    reason: str
    details: dict[str, Any]


class ViewHeader(_Out):
    """The part of every game's view that is the same for all games."""

    to_act: list[int] = Field(description="Seats that must act now (several: simultaneous).")
    chosen: list[int] = Field(description="Seats that already chose in a simultaneous step.")
    over: bool
    outcome: Outcome | None


class View(BaseModel):
    """What the connection's seat may see (a spectator: what everyone may see). Besides
    `header` each game has its own fields; see its rules page and `GET /api/games`."""

    model_config = ConfigDict(extra="allow")

    header: ViewHeader


class SeatClock(_Out):
    """A seat's turn clock."""

    bank: float | None = None
    deadline: float | None = None
    timeouts: int | None = None


class SeatFacts(_Out):
    """Who sits in a seat."""

    seat: int
    name: str | None
    online: bool
    bot: str | None = Field(description="A built-in bot's level; None for people and bot accounts.")
    program: bool = Field(description="A bot account (a program with a token) sits here.")
    control: str | None = Field(
        description="Who plays a person's seat now: None (they do), autopilot, away, resigned."
    )
    grammar: Literal["she", "he", "neutral"]
    rating: int | None = Field(
        description="The shown rating in this game (a bot's fixed one); None: not rated yet."
    )
    provisional: bool = Field(description="Fewer than 10 rated games yet.")
    offline_for: float | None
    clock: dict[str, Any] | None


class RoomFacts(_Out):
    """A table's public facts, and the reader's own."""

    slug: str
    game: str
    title: str
    status: Literal["open", "playing", "finished", "closed"]
    closed_idle: bool
    private: bool
    friends_only: bool = Field(description="Only the host's friends may sit (anyone may watch).")
    rated: bool = Field(description="The game's end changes its persons' ratings.")
    num_seats: int
    min_players: int
    simultaneous: bool
    invite_code: str | None
    host_seat: int | None
    options: dict[str, Any]
    seats: list[SeatFacts]
    now: float = Field(description="The server's clock, seconds since the epoch.")
    clock: str
    away_days: int = Field(
        description="The longest pause per decision (days) for a player who is away; 0: none."
    )
    bot_level: str
    outside_bots: bool = Field(description="Whether bot accounts may sit at this table.")
    takeover_after: float
    to_act: list[int]
    seed_commitment: str | None
    move_chain: str | None
    seed: int | None
    seed_secret: str | None
    seed_salt: str | None
    your_seat: int | None
    rematch: str | None
    rematch_join: str | None
    your_prompt: int | None = Field(
        description="The version your current question was asked at (null: not seated)."
    )


class LogEntry(_Out):
    """One log line: the English message id and parameters, and the text in your language."""

    version: int
    key: str
    plural: str | None
    params: dict[str, Any]
    text: str


class StateOut(_Out):
    """The game at `version` as the connection's seat sees it, with the log lines after the
    last ones this connection was sent. Sent on connect, after every change and on `sync`."""

    type: Literal["state"]
    version: int
    view: View | dict[str, Any] = Field(description="Empty before the game starts.")
    log: list[str]
    entries: list[LogEntry]
    room: RoomFacts
    legal: list[dict[str, Any]] | None = Field(
        default=None,
        description=(
            "Only with `?legal=1` on the socket URL: your seat's legal actions now (empty when "
            "you need not act), each one a valid `action` of an `act` message."
        ),
    )


class ErrorOut(_Out):
    """A refusal: nothing changed. `code` is stable; `message` is in your language."""

    type: Literal["error"]
    code: str
    message: str
    key: str | None = None
    params: dict[str, Any] | None = None


class PresenceOut(_Out):
    """Which seats have a connection open."""

    type: Literal["presence"]
    online: list[int]


class ChatLine(_Out):
    """One chat line."""

    id: int
    name: str
    seat: int | None
    text: str
    at: str


class ChatOut(_Out):
    """Chat lines: the kept history on connect (`history` true), then one line at a time."""

    type: Literal["chat"]
    messages: list[ChatLine]
    history: bool


class LobbyPlayer(_Out):
    """A seat of one of the reader's own tables, for the dashboard."""

    name: str
    turn: bool = Field(description="Theirs to act now.")
    me: bool = Field(description="The reader's own seat.")
    away_until: float | None = Field(
        description="Until when the person is away (a vacation at a correspondence table)."
    )


class LobbyTable(_Out):
    """One table of the lobby's list (the reader's own tables first)."""

    slug: str
    game_id: str
    host: str
    seated: int
    num_seats: int
    status: Literal["open", "playing"]
    private: bool
    bots: int = Field(description="Built-in bots seated.")
    mine: bool
    clock: str
    invite_code: str | None
    your_turn: bool
    deadline: float | None
    players: list[LobbyPlayer] = Field(description="The seats of the reader's own tables.")
    turn_of: list[str] = Field(description="The names of the others who must act now.")
    friends_only: bool = Field(description="Only the host's friends may sit.")
    rated: bool
    host_rating: int | None = Field(description="The host's shown rating in the table's game.")
    host_provisional: bool


class LobbyOut(_Out):
    """The lobby socket's (`/ws/lobby?format=json`) list: the whole list, again after every
    change."""

    type: Literal["lobby"]
    tables: list[LobbyTable]


class Invitation(_Out):
    """An invitation to a table, as its invitee sees it."""

    id: int
    from_name: str
    game_id: str
    slug: str
    code: str | None = Field(description="A private table's invite code; None for a public one.")
    status: str
    created: float


class InvitationsOut(_Out):
    """The lobby socket's other message: the reader's invitations to tables, newest first, and
    how many friend requests wait for their answer (again whenever one arrives)."""

    type: Literal["invitations"]
    invitations: list[Invitation]
    friend_requests: int


CLIENT: tuple[type[BaseModel], ...] = (Act, Sync, Chat)
SERVER: tuple[type[BaseModel], ...] = (StateOut, ErrorOut, PresenceOut, ChatOut)
LOBBY: tuple[type[BaseModel], ...] = (LobbyOut, InvitationsOut)


@functools.cache
def ws_schema() -> dict[str, Any]:
    """The whole protocol: `client` (what you may send to a table socket), `server` (what it
    sends you), `lobby` (what the lobby socket sends) and `actions` (each game's `action`
    objects), with their definitions in `$defs`."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m, "validation") for m in CLIENT]
    outgoing: tuple[type[BaseModel], ...] = (*SERVER, *LOBBY)
    models += [(m, "serialization") for m in outgoing]
    refs, top = models_json_schema(models, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = dict(top.get("$defs", {}))
    actions: dict[str, Any] = {}
    for engine in ENGINES:
        schema = _action_schema(engine.action_adapter)
        defs.update({f"{engine.spec.id}.{k}": v for k, v in schema.pop("$defs", {}).items()})
        actions[engine.spec.id] = _prefixed(schema, engine.spec.id)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Stolik websocket protocol",
        "description": __doc__.split("\n\n")[0].strip(),
        "client": {"oneOf": [refs[(m, "validation")] for m in CLIENT]},
        "server": {"oneOf": [refs[(m, "serialization")] for m in SERVER]},
        "lobby": {"oneOf": [refs[(m, "serialization")] for m in LOBBY]},
        "actions": actions,
        "$defs": {k: _prefixed(v, k.split(".")[0]) if "." in k else v for k, v in defs.items()},
    }


def _action_schema(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    """One game's action union as JSON Schema (refs under `#/$defs/`)."""
    return adapter.json_schema(ref_template="#/$defs/{model}")


def _prefixed(schema: Any, game: str) -> Any:
    """`schema` with its references to a game's own definitions renamed `<game>.<name>`."""
    if isinstance(schema, str) and schema.startswith("#/$defs/") and "." not in schema:
        return schema.replace("#/$defs/", f"#/$defs/{game}.")
    if isinstance(schema, dict):
        return {key: _prefixed(value, game) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_prefixed(v, game) for v in schema]
    return schema
