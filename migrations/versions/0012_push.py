"""Web Push: each device's push subscription (with the events it wants) and the outbox of
pushes waiting to be sent (written in the transaction of the change that causes them)."""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0018"


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("device_id", sa.String(32), nullable=True),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("events", sa.String(100), nullable=False),
        sa.Column("enabled", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "subscription_id",
            sa.Integer,
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column(
            "room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("params", sa.JSON, nullable=True),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("lease", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_push_outbox_due", "push_outbox", ["due"])


def downgrade() -> None:
    op.drop_index("ix_push_outbox_due", "push_outbox")
    op.drop_table("push_outbox")
    op.drop_table("push_subscriptions")
