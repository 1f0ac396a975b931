"""Fixtures shared by the test modules of this folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

BACKENDS = ["sqlite", "postgresql"]
"""The storages a server test may run on (docs/server.md: Several processes)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run this test's backend (store, c) fixtures on SQLite and on PostgreSQL + Redis")


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage of the ``c`` and ``store`` fixtures: ``sqlite`` (the embedded default), or
    ``postgresql`` (a fresh PostgreSQL database with Redis coordination) where a test module
    parametrizes it (``BOTH_BACKENDS = True``) or a test is marked ``both_backends``."""
    return str(getattr(request, "param", "sqlite"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module with ``BOTH_BACKENDS = True``, or a test marked ``both_backends``, runs its
    ``c`` / ``store`` tests on SQLite and on PostgreSQL + Redis."""
    both = getattr(metafunc.module, "BOTH_BACKENDS", False) or metafunc.definition.get_closest_marker("both_backends") is not None
    if "backend" in metafunc.fixturenames and both:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def store(tmp_path: Path, backend: str) -> Iterator[dict[str, Any]]:
    """``create_app``'s storage options for ``backend`` (see :func:`scale_helpers.storage`);
    the same database for every app a test makes from them (a restart keeps it)."""
    from .scale_helpers import storage

    with storage(backend, tmp_path) as options:
        yield options


@pytest.fixture
def c(store: dict[str, Any]) -> Iterator[TestClient]:
    """A table server's test client over a fresh database (SQLite, or PostgreSQL + Redis)."""
    from alhambra.server import create_app

    with TestClient(create_app(bot_delay=0.0, **store)) as cl:
        yield cl
