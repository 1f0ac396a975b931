"""Alembic migrations of the server's database (SQLite and PostgreSQL): see :mod:`alhambra.server.migrate`."""
