"""Caps on live WebSocket connections: per client address and per table.

One address may hold at most ``per_address`` live sockets and one table at most ``per_table``
(spectators included); a socket beyond either is refused with the close code 4429 and a sentence
saying which cap. :class:`Connections` counts in this process; with Redis configured
(:class:`alhambra.server.scale.RedisConnections`) the counts are shared by every server process.
"""

from __future__ import annotations

import threading
from collections import Counter

__all__ = ["DEFAULT_WS_IDLE", "DEFAULT_WS_PER_ADDRESS", "DEFAULT_WS_PER_TABLE", "Connections"]

DEFAULT_WS_PER_ADDRESS = 200
"""Live WebSockets one client address may hold (``serve --ws-per-address``)."""
DEFAULT_WS_PER_TABLE = 500
"""Live WebSockets on one table (``serve --ws-per-table``)."""
DEFAULT_WS_IDLE = 900.0
"""Seconds a WebSocket may go with nothing sent either way before it is closed with 4408
(``serve --ws-idle``); the browser table reconnects by itself when it is used again."""


class Connections:
    """Counts of live WebSockets by address and by table (thread-safe, this process only)."""

    def __init__(self, per_address: int = DEFAULT_WS_PER_ADDRESS, per_table: int = DEFAULT_WS_PER_TABLE) -> None:
        if per_address < 1 or per_table < 1:
            raise ValueError("the WebSocket caps must be at least 1")
        self.per_address = per_address
        self.per_table = per_table
        self._by_address: Counter[str] = Counter()
        self._by_table: Counter[str] = Counter()
        self._lock = threading.Lock()

    def refusal(self, address: str, table_id: str) -> str | None:
        """Why a socket more from ``address`` on ``table_id`` is refused (None: it is admitted
        and counted; :meth:`release` it when it closes)."""
        with self._lock:
            if self._by_address[address] >= self.per_address:
                return self._too_many_address()
            if self._by_table[table_id] >= self.per_table:
                return self._too_many_table()
            self._by_address[address] += 1
            self._by_table[table_id] += 1
            return None

    def release(self, address: str, table_id: str) -> None:
        """A counted socket closed."""
        with self._lock:
            for counter, key in ((self._by_address, address), (self._by_table, table_id)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    def count(self, address: str | None = None, table_id: str | None = None) -> int:
        """Live sockets of an address or of a table (everything with neither)."""
        with self._lock:
            if address is not None:
                return self._by_address.get(address, 0)
            if table_id is not None:
                return self._by_table.get(table_id, 0)
            return sum(self._by_address.values())

    def _too_many_address(self) -> str:
        return f"too many live connections from your address (at most {self.per_address}); close some tabs and try again"

    def _too_many_table(self) -> str:
        return f"too many people are watching this table (at most {self.per_table} connections); try again later"
