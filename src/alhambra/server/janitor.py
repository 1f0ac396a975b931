"""Housekeeping: idle tables leave memory, abandoned tables leave the database.

:class:`Janitor` runs on its own thread, every ``interval`` seconds:

* tables nobody looked up for ``evict_after`` seconds are dropped from memory (they stay in the
  database and are loaded again on the next access), unless someone watches them or a bot move
  is waiting there;
* tables never started within ``expire_waiting`` seconds of their creation, and unfinished
  tables unchanged for ``expire_idle`` seconds, are deleted (their watchers are closed with
  4410). Finished games are kept.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from .service import TableService

__all__ = ["DEFAULT_EVICT_AFTER", "DEFAULT_EXPIRE_IDLE", "DEFAULT_EXPIRE_WAITING", "Janitor"]

log = logging.getLogger("alhambra.server")

DEFAULT_EVICT_AFTER = 600.0
"""Seconds an unwatched table stays in memory after its last use (``serve --evict-after``)."""
DEFAULT_EXPIRE_WAITING = 24 * 3600.0
"""Seconds a table may wait for its players before it is deleted (``serve --expire-waiting``)."""
DEFAULT_EXPIRE_IDLE = 30 * 24 * 3600.0
"""Seconds an unfinished game may go without a move before it is deleted (``serve --expire-idle``)."""


class Janitor:
    """Evicts idle tables and expires abandoned ones on a background thread.

    ``keep(table_id)`` says a table must stay in memory (watched, or a bot move pending).
    """

    def __init__(
        self,
        service: TableService,
        keep: Callable[[str], bool],
        evict_after: float = DEFAULT_EVICT_AFTER,
        expire_waiting: float = DEFAULT_EXPIRE_WAITING,
        expire_idle: float = DEFAULT_EXPIRE_IDLE,
        interval: float | None = None,
    ) -> None:
        for name, value in (("evict_after", evict_after), ("expire_waiting", expire_waiting), ("expire_idle", expire_idle)):
            if not value > 0:
                raise ValueError(f"{name} must be positive")
        self.service = service
        self.keep = keep
        self.evict_after = evict_after
        self.expire_waiting = expire_waiting
        self.expire_idle = expire_idle
        self.interval = interval if interval is not None else max(0.05, min(60.0, evict_after / 4, expire_waiting / 4))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="alhambra-janitor", daemon=True)

    def run_once(self) -> tuple[list[str], list[str]]:
        """One round: ``(evicted ids, expired ids)``."""
        expired = self.service.expire_abandoned(self.expire_waiting, self.expire_idle)
        evicted = self.service.evict_idle(self.evict_after, self.keep)
        return evicted, expired

    def start(self) -> None:
        """Start the background thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stop the background thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.run_once()
            except Exception:
                log.exception("housekeeping failed")
