"""Initial schema: users, rooms, seats, games, moves."""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("slug", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("num_seats", sa.Integer, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=False),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_rooms_slug", "rooms", ["slug"], unique=True)
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.UniqueConstraint("room_id", "seat"),
        sa.UniqueConstraint("room_id", "user_id"),
    )
    op.create_index("ix_seats_room_id", "seats", ["room_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "room_id",
            sa.Integer,
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("engine", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("num_players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("snapshot", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index("ix_moves_game_id", "moves", ["game_id"])


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
    op.drop_table("seats")
    op.drop_table("rooms")
    op.drop_table("users")
