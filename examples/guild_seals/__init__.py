"""Guild seals (``guild_seals``): the made-up four-card module of docs/writing-a-module.md."""

from __future__ import annotations

from .module import MODULE, SealsState, SealUse

__all__ = ["MODULE", "SealUse", "SealsState"]
