"""Alembic environment: runs the migrations on the connection :mod:`alhambra.server.migrate` hands over
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` when the ``alembic`` tool runs it."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from alhambra.server.schema import Base

config = context.config
connection = config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
else:  # pragma: no cover - the alembic command line, for developers writing a revision
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata, render_as_batch=conn.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
