"""The parameters of a table's own log lines (who, how many), so each reader sees them in
their language; lines stored before are plain text and read as such.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    with op.batch_alter_table("room_events") as batch:
        batch.add_column(sa.Column("params", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_events") as batch:
        batch.drop_column("params")
