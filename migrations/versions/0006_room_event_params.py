"""The parameters of a table's own log lines (who, how many), so each reader sees them in
their language; lines stored before are plain text and read as such.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_events") as batch:
        batch.add_column(sa.Column("params", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_events") as batch:
        batch.drop_column("params")
