"""Real PostgreSQL and Redis for the server tests: a fresh database per test (dropped after)
and a Redis key prefix of its own; skipped with a one-line reason where a service is absent."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

__all__ = ["PG_ADMIN_URL", "REDIS_URL", "fresh_pg", "need_redis", "redis_prefix", "storage"]

PG_ADMIN_URL = os.environ.get("ALHAMBRA_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
"""A PostgreSQL server the tests may create databases on (``ALHAMBRA_TEST_PG``)."""
REDIS_URL = os.environ.get("ALHAMBRA_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""A Redis the tests may use under their own key prefixes (``ALHAMBRA_TEST_REDIS``)."""


@contextmanager
def fresh_pg() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database (dropped afterwards); skips without PostgreSQL."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = f"alhambra_srv_test_{secrets.token_hex(4)}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as e:
        admin.dispose()
        pytest.skip(f"no PostgreSQL at {make_url(PG_ADMIN_URL).render_as_string(hide_password=True)}: {type(e).__name__}")
    try:
        yield make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def need_redis() -> str:
    """The test Redis URL; skips when no Redis answers there."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as e:
        pytest.skip(f"no Redis at {REDIS_URL}: {type(e).__name__}")
    return REDIS_URL


def redis_prefix() -> str:
    """A key prefix no other test run uses."""
    return f"alhambra-test-{secrets.token_hex(4)}"


@contextmanager
def storage(backend: str, folder: Path, name: str = "db") -> Iterator[dict[str, Any]]:
    """``create_app``'s storage options for ``backend``: ``sqlite`` (a file in ``folder``) or
    ``postgresql`` (a fresh PostgreSQL database, dropped afterwards, with Redis coordination
    under a key prefix of its own); skips with a one-line reason where a service is absent."""
    if backend == "sqlite":
        yield {"database_url": f"sqlite:///{folder / (name + '.sqlite3')}"}
        return
    if backend != "postgresql":
        raise ValueError(f"unknown backend {backend!r}")
    redis_url = need_redis()
    with fresh_pg() as url:
        yield {"database_url": url, "redis_url": redis_url, "redis_prefix": redis_prefix()}
