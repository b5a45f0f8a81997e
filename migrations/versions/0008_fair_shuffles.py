"""Provably fair shuffles: a game keeps the secret its seed derives from, the public salt of
its commitment, and the rules version it was played under. Games from before have no secret
(their commitment is the older SHA-256 of the seed) and rules version 1.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seed_salt", sa.String(128), nullable=True))
        batch.add_column(
            sa.Column("rules_version", sa.String(16), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rules_version")
        batch.drop_column("seed_salt")
        batch.drop_column("seed_secret")
