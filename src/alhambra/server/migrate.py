"""Schema migrations (Alembic) for the server's database, SQLite or PostgreSQL.

:func:`upgrade` brings a database to the newest revision: an empty one gets every table; a file
made before Alembic (the version with ``create_all``, which has no ``alembic_version``) first
gets the columns it lacks, is stamped at ``0001`` (that schema) and is then upgraded like any
other, so no table is lost. It runs on ``alhambra db upgrade`` and when the server starts; on
PostgreSQL an advisory lock makes processes that start together migrate one after another.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from .schema import Base, add_missing_columns

__all__ = ["BASELINE", "current_revision", "head_revision", "upgrade"]

BASELINE = "0001"
"""The revision of the schema the server had before Alembic."""

_LOCK_KEY = 0x416C68616D627261  # "Alhambra": the PostgreSQL advisory lock of a migration


def _config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).resolve().parent / "migrations"))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def head_revision() -> str:
    """The newest revision this version of the server knows."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision a database is at (None: empty, or made before Alembic)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Migrate the database to the newest revision; returns ``(revision before, revision now)``
    (``before`` is ``"pre-alembic"`` for a file made before Alembic)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        before = MigrationContext.configure(conn).get_current_revision()
        insp = inspect(conn)
        if before is None and insp.has_table("game_tables"):
            # older than the baseline: its missing tables (identical in the baseline and now) and nullable columns first
            missing = [t for t in Base.metadata.sorted_tables if t.name in ("seats", "actions") and not insp.has_table(t.name)]
            Base.metadata.create_all(conn, tables=missing)
            add_missing_columns(conn, BASELINE)
            command.stamp(_config(conn), BASELINE)
            before = "pre-alembic"
        command.upgrade(_config(conn), "head")
    return before, head_revision()
