"""``alhambra serve --workers N``: N server processes on one port (uvicorn's process manager).

The parent binds the port and starts N worker processes that accept connections from the same
socket (the kernel spreads them), and starts a worker again when one dies. Each worker builds its
app with :func:`app_from_env` from the settings ``serve`` put in the environment (``ALHAMBRA_SERVE``,
JSON); the workers share the database and coordinate through Redis (:mod:`.scale`).
"""

from __future__ import annotations

import json
import os
from typing import Any

from fastapi import FastAPI

from .app import create_app
from .limits import GuardedH11Protocol

__all__ = ["ENV", "app_from_env"]

ENV = "ALHAMBRA_SERVE"
"""The environment variable holding a worker's settings (``create_app`` keyword arguments as JSON,
plus ``request_timeout``, which also sets the request-head deadline)."""


def app_from_env() -> FastAPI:
    """The app of one worker process (uvicorn calls it: ``factory=True``)."""
    settings: dict[str, Any] = json.loads(os.environ[ENV])
    GuardedH11Protocol.head_timeout = float(settings.get("request_timeout", GuardedH11Protocol.head_timeout))
    settings["migrate"] = False  # the parent migrated the schema before starting the workers
    return create_app(**settings)
