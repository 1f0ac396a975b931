"""The module scaffold: ``alhambra new-module ID`` writes a working module package from the
templates kept beside this file (``templates/``), so a new module passes every test on creation."""

from __future__ import annotations

from .generate import ScaffoldError, check_module_id, default_dest, new_module, reserved_words

__all__ = ["ScaffoldError", "check_module_id", "default_dest", "new_module", "reserved_words"]
