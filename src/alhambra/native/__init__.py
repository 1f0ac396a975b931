"""The native core: the base game compiled with Cython, an accelerator for search and research.

The Python engine (:mod:`alhambra.engine`) is the authority for the rules. The native core is a
second implementation of the base game for 2-6 players with the 2-player rules (the neutral
player): setup with the same seeded chance (the same deck and bag for the same seed), the take,
buy and redesign actions, placement, the end of a turn, scoring rounds and the end-of-game
hand-out. Games with modules and Granada always run on the Python engine.
:mod:`alhambra.native.check` plays games in both engines and compares the full state and the
legal actions after every action.

The extension is built by ``pip install`` (Cython is a build requirement). When it is missing
(or ``ALHAMBRA_NATIVE=0`` is set), :func:`available` is False, the users of the core (``alhambra
bench --core native``, the research environments) fall back to the Python engine and a one-line
warning says so once.
"""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

from ..state import GameConfig

__all__ = ["NATIVE_ENV", "available", "core_module", "supports", "unavailable_reason", "warn_once"]

NATIVE_ENV = "ALHAMBRA_NATIVE"
"""Set to ``0`` to use the Python engine everywhere even when the native core is built."""

_core: Any = None
_reason: str | None = None
if os.environ.get(NATIVE_ENV, "1") == "0":
    _reason = f"{NATIVE_ENV}=0 is set"
else:
    try:
        _core = importlib.import_module(f"{__name__}._core")
    except ImportError as e:  # pragma: no cover - depends on the build
        _core = None
        _reason = f"the extension is not built ({e}); reinstall with `pip install -e .` and a C compiler"

_warned: list[bool] = [False]


def available() -> bool:
    """True when the native core is built, loaded and not switched off."""
    return _core is not None


def unavailable_reason() -> str | None:
    """Why the native core is not available (None when it is)."""
    return _reason


def core_module() -> Any:
    """The compiled module (``RuntimeError`` when it is not available)."""
    if _core is None:
        raise RuntimeError(f"the native core is not available: {_reason}")
    return _core


def supports(config: GameConfig) -> bool:
    """Can the native core play games of this configuration? (Alhambra without modules.)"""
    return config.game == "alhambra" and not config.modules


def warn_once(what: str = "the Python engine is used") -> None:
    """Say once per process that the native core is missing and what happens instead."""
    if _warned[0] or _core is not None:
        return
    _warned[0] = True
    warnings.warn(f"alhambra: native core unavailable ({_reason}): {what}", RuntimeWarning, stacklevel=3)
