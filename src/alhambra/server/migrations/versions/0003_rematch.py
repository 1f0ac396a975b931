"""The rematch link: ``game_tables.rematch_of`` (the finished table a rematch was made from).

A database that the server made with ``create_all`` after rematches existed but before Alembic
already has the column: it is added only where it is missing.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column and its index where they are missing."""
    insp = sa.inspect(op.get_bind())
    if "rematch_of" not in {c["name"] for c in insp.get_columns("game_tables")}:
        op.add_column("game_tables", sa.Column("rematch_of", sa.String(32), nullable=True))
    if "ix_game_tables_rematch_of" not in {i["name"] for i in insp.get_indexes("game_tables")}:
        op.create_index("ix_game_tables_rematch_of", "game_tables", ["rematch_of"])


def downgrade() -> None:
    """Remove them."""
    op.drop_index("ix_game_tables_rematch_of", "game_tables")
    op.drop_column("game_tables", "rematch_of")
