"""Signed-in devices (sessions a person can see and sign out) and one-time device links.
Cookies from before carry no device: the first request with one registers it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("agent", sa.String(160), nullable=False, server_default=""),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("revoked", sa.Float, nullable=True),
    )
    op.create_index("ix_devices_user_id", "devices", ["user_id"])
    op.create_table(
        "device_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("device_links")
    op.drop_index("ix_devices_user_id", "devices")
    op.drop_table("devices")
