"""The table server: FastAPI app, storage, live updates and the browser table.

``create_app(database_url)`` builds the ASGI app; ``alhambra serve`` runs it on uvicorn.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
