"""Database tables (SQLAlchemy 2): users, rooms, seats, games, moves, chat, room events,
devices, friendships and invitations.

Table models only; the pydantic shapes the API speaks live in app/schemas.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class User(Base):
    """A guest identity: a display name behind a signed cookie."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    gender: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    """How the site speaks of the person: "she", "he" or "neutral" (None: not chosen, read
    as neutral wording; see app/i18n.py `GENDERS`)."""
    away_since: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    away_until: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    """The person's last vacation (server seconds since the epoch): from when, until when.
    Their clocks at correspondence tables stand still meanwhile (app/clocks.py `with_away`)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    """An account's name folded for comparison (app/accounts/names.py), unique among
    accounts; None for a guest (guests keep free names)."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, default=None)
    """An account's confirmed sign-in address (never shown to anyone else)."""

    __table_args__ = (
        Index("ux_users_name_key", "name_key", unique=True),
        Index("ux_users_email", "email", unique=True),
    )


class Room(Base):
    """A table in the lobby: which game, options, who hosts, public or private."""

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    game_id: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    num_seats: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(default=False)
    invite_code: Mapped[str] = mapped_column(String(32))
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    """open (seating), playing, finished, closed."""
    clock: Mapped[str] = mapped_column(String(16), default="none")
    """The turn clock the host chose: none, fast, normal or slow (app/clocks.py)."""
    bot_level: Mapped[str] = mapped_column(String(16), default="normal")
    """The level of the bot that decides for a seat whose time ran out."""
    away_days: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """At a correspondence table: the longest pause per decision (days) for a player who is
    away; 0: none (app/clocks.py `AWAY_LIMITS`)."""
    rematch_slug: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The table created by "Play again" once this one finished (set once)."""
    outside_bots: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether bot accounts (programs with a token, docs/bot-api.md) may take a seat."""
    friends_only: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Only the host and the host's friends may sit (anyone who may see the table may watch)."""
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the game's end changes its persons' ratings (the host chose; app/ratings)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """Who sits where at a room: a person (`user_id`) or a bot (`bot_level`).

    `control` says who plays a person's seat now: None (the person), "autopilot" (they asked
    a bot to play for them), "away" (handed to a bot: disconnected, or out of time three
    times in a row) or "resigned" (a bot finishes the game for them).
    """

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("room_id", "seat"),
        UniqueConstraint("room_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    control: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Game(Base):
    """A game in progress or finished: the engine's snapshot at `version`."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_status_updated_at", "status", "updated_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), unique=True)
    engine: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_commitment: Mapped[str] = mapped_column(String(64))
    seed_secret: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    """The 128-bit secret the seed derives from (engines/verify.py); None for games before it."""
    seed_salt: Mapped[str | None] = mapped_column(String(128), nullable=True, default=None)
    """The public salt of the commitment, derived from the table."""
    rules_version: Mapped[str] = mapped_column(String(16), default="1")
    chain_head: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    """The head of the move chain at `version` (engines/chain.py); None for games started
    before it (they export in the format from before the chain)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    opening: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """The events of `setup` (version 0), with their audiences; None for older games."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The turn clocks at `version` (banks, deadlines, timeouts in a row), see app/clocks.py."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Move(Base):
    """One applied action: version `seq` was reached by it. Events keep their audiences."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """A line of table chat, kept with the room (players and spectators read it)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(64))
    """The writer's display name when the line was written."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The writer's seat then, or None for a spectator."""
    text: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoomEvent(Base):
    """A log line about the table rather than a move (a bot took a seat, a timeout, a resign).

    Shown in the log after the events of the game version it happened at.
    """

    __tablename__ = "room_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(500))
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    """The English message's parameters (`text` is then the message id); None: plain text."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Heartbeat(Base):
    """When a server process last said it was alive, so deadlines skip the server's downtime."""

    __tablename__ = "heartbeats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch, by the server's clock."""


class Device(Base):
    """One signed-in browser of a person (the cookie names it): what "Your devices" lists and
    can sign out. Times are epoch seconds of the server clock."""

    __tablename__ = "devices"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    agent: Mapped[str] = mapped_column(String(160), default="")
    created: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)
    revoked: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class DeviceLink(Base):
    """A one-time link that signs another browser in as the same person (10 minutes, once).
    Only the token's SHA-256 is kept."""

    __tablename__ = "device_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    expires: Mapped[float] = mapped_column(Float)
    used: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class Passkey(Base):
    """A passkey (WebAuthn credential) that signs its account in; `id` is the credential id
    (base64url), `public_key` its COSE key, `sign_count` the authenticator's last counter."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    label: Mapped[str] = mapped_column(String(160), default="")
    created: Mapped[float] = mapped_column(Float)
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class EmailLink(Base):
    """A one-time e-mail link (15 minutes, once; only the token's SHA-256 is kept):
    `purpose` "add" confirms `email` for the account, "signin" signs a browser in as it."""

    __tablename__ = "email_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    purpose: Mapped[str] = mapped_column(String(8))
    expires: Mapped[float] = mapped_column(Float)
    used: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class BotAccount(Base):
    """A bot account: a program that plays as its own person (a `users` row) with a token its
    owner made on "Your bots" (docs/bot-api.md). Only the token's SHA-256 is kept; a revoked
    token is refused from then on. Times are epoch seconds of the server clock."""

    __tablename__ = "bot_accounts"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    """The bot's own identity: the name at the table, the seat's person."""
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[float] = mapped_column(Float)
    revoked: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class PushSubscription(Base):
    """A device's Web Push subscription (RFC 8030/8291): where to send and with which keys,
    and which events its person chose for it (`events`: ",turn,over," …; see app/push)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    device_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(64))
    events: Mapped[str] = mapped_column(String(100))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created: Mapped[float] = mapped_column(Float)


class PushOutbox(Base):
    """A push waiting to go to one subscription, written in the transaction of the change
    that caused it. A sender claims it for `lease` (epoch seconds); an expired lease is
    claimed again, so a process killed mid-send loses nothing."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    due: Mapped[float] = mapped_column(Float, index=True)
    lease: Mapped[float | None] = mapped_column(Float, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)


class Friendship(Base):
    """Two people who are friends, or a friend request one of them sent (`accepted` None).

    One row per pair, whoever asked: the pair is kept ordered (`low_id` < `high_id`), so the
    database itself refuses a second row for the same two people and a friendship with
    oneself. Times are epoch seconds of the server clock."""

    __tablename__ = "friendships"
    __table_args__ = (
        UniqueConstraint("low_id", "high_id"),
        CheckConstraint("low_id < high_id", name="ck_friendships_two_people"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    low_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    high_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    requester_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created: Mapped[float] = mapped_column(Float)
    accepted: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class Invitation(Base):
    """A person invited a friend to a table (one per table and friend; inviting again
    renews it). Shown to the friend while the table waits or plays, until dismissed."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("room_id", "to_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    from_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A person's rating in one game (app/ratings): openskill's μ and σ, and how many rated
    games it has."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "mu", "user_id"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChange(Base):
    """One seat's rating change at the end of a rated game: written once (the unique
    (game, seat) pair) in the transaction that stores the game's last move."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_rating_changes_game_seat"),
        Index("ix_rating_changes_user", "user_id", "game", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game: Mapped[str] = mapped_column(String(32))
    """The engine's id."""
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
