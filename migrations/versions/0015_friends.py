"""Friends (issue 35 section 2): friendships and friend requests, invitations to a table, and
tables where only the host's friends may sit.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0012"


def _person(name: str) -> sa.Column[int]:
    """A column naming a person; their rows go with them."""
    return sa.Column(name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("id", sa.Integer, primary_key=True),
        _person("low_id"),
        _person("high_id"),
        _person("requester_id"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("accepted", sa.Float, nullable=True),
        sa.UniqueConstraint("low_id", "high_id"),
        sa.CheckConstraint("low_id < high_id", name="ck_friendships_two_people"),
    )
    op.create_index("ix_friendships_high_id", "friendships", ["high_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        _person("from_id"),
        _person("to_id"),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("room_id", "to_id"),
    )
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("friends_only", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("friends_only")
    op.drop_index("ix_invitations_to_id", "invitations")
    op.drop_table("invitations")
    op.drop_index("ix_friendships_high_id", "friendships")
    op.drop_table("friendships")
