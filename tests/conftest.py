"""Fixtures shared by the test modules of this folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .server_helpers import client


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    """A table server's test client over a fresh database (see :func:`server_helpers.client`)."""
    with client(tmp_path / "db.sqlite3") as cl:
        yield cl
