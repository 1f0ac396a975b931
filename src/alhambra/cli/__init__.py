"""The ``alhambra`` command line: score a real Alhambra, benchmark, replay, demo, list modules.

Exit codes are part of the contract:

* ``score``: 0 legal Alhambra, 1 broken rule or impossible tiles, 2 unreadable input;
* ``replay``: 0 replayed, 1 illegal or corrupt record (the error names the step), 2 unreadable
  file or JSON;
* every command: 2 for bad options (one line on stderr, never a traceback); 3 for an
  internal error (a bug: set ``ALHAMBRA_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

from collections.abc import Sequence

from .common import app

# each command module registers its commands on the app when imported, in the order of the help
# isort: off
from . import score, bench, play, tournaments, serve, modules, train  # noqa: F401
# isort: on

__all__ = ["app", "main"]


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line (``python -m alhambra``)."""
    app(args=list(argv) if argv is not None else None, prog_name="alhambra")
