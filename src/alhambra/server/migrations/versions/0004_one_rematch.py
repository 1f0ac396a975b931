"""One rematch per finished table: ``game_tables.rematch_of`` becomes unique.

Two server processes (PostgreSQL + Redis) asked for the rematch of one table at the same moment
could each create one; with the unique index the second insert fails and that process hands out
the first one's table (:mod:`alhambra.server.rematch`). Should a database already hold two
rematches of one table, the later ones (by id) are kept as ordinary tables (their link is cleared)
before the index is made unique.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Clear the link of any second rematch of a table, then make the index unique."""
    op.execute(
        "UPDATE game_tables SET rematch_of = NULL WHERE rematch_of IS NOT NULL AND id <> "
        "(SELECT MIN(first.id) FROM game_tables AS first WHERE first.rematch_of = game_tables.rematch_of)"
    )
    op.drop_index("ix_game_tables_rematch_of", "game_tables")
    op.create_index("ix_game_tables_rematch_of", "game_tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    """The index as revision 0003 made it (not unique)."""
    op.drop_index("ix_game_tables_rematch_of", "game_tables")
    op.create_index("ix_game_tables_rematch_of", "game_tables", ["rematch_of"])
