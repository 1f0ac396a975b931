"""The server's tables as SQLAlchemy models (the schema the Alembic revisions build), and the
columns a file made before Alembic may lack. Below both the storage (:mod:`.db`) and the
migrations (:mod:`.migrate`)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["ActionRow", "Base", "SeatRow", "TableRow", "add_missing_columns", "utc_now"]


def utc_now() -> dt.datetime:
    """The time now in UTC, without a zone (as the columns store it)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class TableRow(Base):
    """A game table: configuration, seed, current version and the state snapshot at it."""

    __tablename__ = "game_tables"
    __table_args__ = (Index("ix_game_tables_status_updated", "status", "updated_at"), Index("ix_game_tables_created", "created_at"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    hints: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=False)
    """The creator allowed hints (GET /api/tables/{id}/hint) at this private table; NULL (no) on
    tables stored before the option existed (the column is added by :func:`add_missing_columns`)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    config_json: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer)
    snapshot_json: Mapped[str] = mapped_column(Text)
    start_events_json: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utc_now)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utc_now)
    creator_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    """SHA-256 of the creator's token (may delete the table before it starts); NULL on tables
    stored before creator tokens existed (added to older databases by :func:`add_missing_columns`)."""
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Undos so far: every server process numbers the table's log (``Snapshot.epoch``) alike (revision 0002)."""
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None, index=True, unique=True)
    """The finished table this one is the rematch of (same seats, bots and game; see
    :mod:`alhambra.server.rematch`); NULL for a table created in the lobby (revision 0003).
    Unique (revision 0004): a finished table has one rematch, whichever process made it."""


class SeatRow(Base):
    """One seat of a table: a person (with a hashed secret token) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)


class ActionRow(Base):
    """One accepted action: the version it created, who played it, and what it caused."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "version", name="uq_action_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    events_json: Mapped[str] = mapped_column(Text)
    final: Mapped[bool] = mapped_column(Boolean, default=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    undone_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utc_now)


_BASELINE_NULLABLE = {
    "game_tables": ("name", "hints", "creator_token_hash"),
    "seats": ("bot", "name", "token_hash"),
    "actions": ("undone_version",),
}
"""The nullable columns of the Alembic baseline (revision 0001) by table."""


def add_missing_columns(conn: Connection, baseline: str = "0001") -> list[str]:
    """Add the nullable columns of the baseline schema that a file made before them lacks (the
    server added ``hints`` and ``creator_token_hash`` this way before Alembic); returns them as
    ``table.column``. Used by :func:`alhambra.server.migrate.upgrade` before stamping ``baseline``."""
    assert baseline == "0001"
    insp = inspect(conn)
    added: list[str] = []
    for table in Base.metadata.sorted_tables:
        if not insp.has_table(table.name):
            continue
        have = {c["name"] for c in insp.get_columns(table.name)}
        for col in table.columns:
            if col.name in have or col.name not in _BASELINE_NULLABLE.get(table.name, ()):
                continue
            kind = col.type.compile(dialect=conn.dialect)
            conn.execute(text(f'ALTER TABLE "{table.name}" ADD COLUMN "{col.name}" {kind}'))
            added.append(f"{table.name}.{col.name}")
    return added
