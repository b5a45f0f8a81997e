"""Indexes for "Your games" and profiles: a person's seats, finished games by date."""

from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_index("ix_games_status_updated_at", "games", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_updated_at", "games")
    op.drop_index("ix_seats_user_id", "seats")
