"""Fixtures shared by the test modules of this folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .server_helpers import client


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage of the ``c`` fixture: ``sqlite`` (the embedded default), or ``postgresql``
    (a fresh PostgreSQL database with Redis coordination) where a test module parametrizes it
    (``BOTH_BACKENDS = True``)."""
    return str(getattr(request, "param", "sqlite"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module with ``BOTH_BACKENDS = True`` runs its ``c`` tests on SQLite and on PostgreSQL + Redis."""
    if "backend" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_BACKENDS", False):
        metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def c(tmp_path: Path, backend: str) -> Iterator[TestClient]:
    """A table server's test client over a fresh database (see :func:`server_helpers.client`)."""
    if backend == "sqlite":
        with client(tmp_path / "db.sqlite3") as cl:
            yield cl
        return
    from alhambra.server import create_app

    from .scale_helpers import fresh_pg, need_redis, redis_prefix

    redis_url = need_redis()
    with fresh_pg() as url, TestClient(create_app(url, bot_delay=0.0, redis_url=redis_url, redis_prefix=redis_prefix())) as cl:
        yield cl
