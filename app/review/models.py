"""A finished game's review and its place in the background queue (a model on the store's
`Base`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, utcnow


class Review(Base):
    """One game's review: queued, running (by `worker` until `lease_until`), done or failed."""

    __tablename__ = "reviews"
    __table_args__ = (Index("ix_reviews_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    """queued, running, done, failed."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    """Decisions valued so far (progress)."""
    total: Mapped[int] = mapped_column(Integer, default=0)
    """Decisions to value (0 until the worker has replayed the game)."""
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    cpu_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """{"steps": per decision, "decisions": [Assessment.to_json() + "words"]}"""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
