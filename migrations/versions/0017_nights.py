"""Games nights: a host's series of tables with standings (issue 35, section 4)."""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "nights",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("slug", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_nights_slug", "nights", ["slug"], unique=True)
    op.create_table(
        "night_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "night_id",
            sa.Integer,
            sa.ForeignKey("nights.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "room_id",
            sa.Integer,
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_index("ix_night_tables_night_id", "night_tables", ["night_id"])


def downgrade() -> None:
    op.drop_index("ix_night_tables_night_id", "night_tables")
    op.drop_table("night_tables")
    op.drop_index("ix_nights_slug", "nights")
    op.drop_table("nights")
