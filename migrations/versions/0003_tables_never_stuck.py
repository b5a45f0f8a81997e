"""Bots in seats, who controls a seat, turn clocks, rematch links, room log lines, heartbeats."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("user_id", existing_type=sa.Integer, nullable=True)
        batch.add_column(sa.Column("bot_level", sa.String(16), nullable=True))
        batch.add_column(sa.Column("control", sa.String(16), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock", sa.String(16), nullable=False, server_default="none"))
        batch.add_column(
            sa.Column("bot_level", sa.String(16), nullable=False, server_default="normal")
        )
        batch.add_column(sa.Column("rematch_slug", sa.String(16), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
    op.create_table(
        "room_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_room_events_room_id", "room_events", ["room_id"])
    op.create_table(
        "heartbeats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
    op.drop_index("ix_room_events_room_id", "room_events")
    op.drop_table("room_events")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch_slug")
        batch.drop_column("bot_level")
        batch.drop_column("clock")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("control")
        batch.drop_column("bot_level")
        batch.alter_column("user_id", existing_type=sa.Integer, nullable=False)
