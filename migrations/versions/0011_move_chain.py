"""The move chain: a game keeps the head of the chain over its moves (engines/chain.py).
Games from before it have none and export in the format from before the chain.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("chain_head", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("chain_head")
