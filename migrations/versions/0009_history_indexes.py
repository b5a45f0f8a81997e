"""Indexes for "Your games" and profiles: a person's seats, finished games by date.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_index("ix_games_status_updated_at", "games", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_updated_at", "games")
    op.drop_index("ix_seats_user_id", "seats")
