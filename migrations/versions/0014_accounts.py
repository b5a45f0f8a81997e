"""Accounts without passwords (issue 35 section 1): a guest claims their identity with a
passkey and/or an e-mail address. An account's display name is unique case- and
accent-insensitively (`users.name_key`, NULL for guests, who keep free names); its e-mail is
unique; passkeys and one-time e-mail sign-in links (kept hashed) get tables of their own.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0017"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
    op.create_index("ux_users_name_key", "users", ["name_key"], unique=True)
    op.create_index("ux_users_email", "users", ["email"], unique=True)
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("label", sa.String(160), nullable=False, server_default=""),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_user_id", "passkeys", ["user_id"])
    op.create_table(
        "email_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_email_links_user_id", "email_links", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_email_links_user_id", "email_links")
    op.drop_table("email_links")
    op.drop_index("ix_passkeys_user_id", "passkeys")
    op.drop_table("passkeys")
    op.drop_index("ux_users_email", "users")
    op.drop_index("ux_users_name_key", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email")
        batch.drop_column("name_key")
