"""Indexes for many tables: the housekeeping queries (status and last change) and the open
tables by creation time stop scanning every row; plus an ``epoch`` column counting undos, so
that every server process numbers a table's log the same way.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the indexes and the epoch column (0 for the tables stored before: their count of undone actions)."""
    op.create_index("ix_game_tables_status_updated", "game_tables", ["status", "updated_at"])
    op.create_index("ix_game_tables_created", "game_tables", ["created_at"])
    op.add_column("game_tables", sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE game_tables SET epoch = (SELECT COUNT(*) FROM actions WHERE actions.table_id = game_tables.id AND actions.undone)")


def downgrade() -> None:
    """Remove them."""
    op.drop_column("game_tables", "epoch")  # never a batch copy: SQLite would cascade the seats and actions away
    op.drop_index("ix_game_tables_created", "game_tables")
    op.drop_index("ix_game_tables_status_updated", "game_tables")
