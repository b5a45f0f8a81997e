"""Correspondence: a person's vacation (away since/until) and a table's limit on it."""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0014"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("away_since", sa.Float(), nullable=True))
        batch.add_column(sa.Column("away_until", sa.Float(), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("away_days", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("away_days")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("away_until")
        batch.drop_column("away_since")
