"""Bot accounts (docs/bot-api.md): programs that play with a token their owner made, and the
table option that lets them sit (`rooms.outside_bots`, off for every existing table).
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0013"


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("outside_bots", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "bot_accounts",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("revoked", sa.Float(), nullable=True),
    )
    op.create_index("ix_bot_accounts_owner_id", "bot_accounts", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_accounts_owner_id", "bot_accounts")
    op.drop_table("bot_accounts")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("outside_bots")
