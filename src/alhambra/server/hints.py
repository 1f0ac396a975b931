"""Hints: what the strongest bot would play, computed off the server's process.

A hint is asked for by a seat at its turn (``GET /api/tables/{id}/hint``). The bot gets only
that seat's :class:`~alhambra.bots.Observation` (its view and the public events, as the bot
seats do) and searches for ``seconds`` in a worker process of a small
:class:`~concurrent.futures.ProcessPoolExecutor` (spawned, so no lock or thread of the server
is copied into it), so a search never slows the HTTP or WebSocket answers. One hint at a time
per table (:class:`HintBusy` otherwise).
"""

from __future__ import annotations

import multiprocessing
import random
import secrets
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import update

from ..actions import parse_action
from ..components import CURRENCIES
from ..view import view
from .db import TableRow
from .replay import Narrator, describe_hint
from .service import PLAYING, ServiceError, Table, TableService, offered_actions

__all__ = ["DEFAULT_HINT_SECONDS", "HINT_BOT", "HintBusy", "HintPool", "allow_hints", "finish_hint", "hint_action", "start_hint"]

HINT_BOT = "mcts:hard"
"""The bot whose move a hint shows: the strongest level."""

DEFAULT_HINT_SECONDS = 2.0
"""The search time of one hint (``alhambra serve --hint-seconds``)."""


PUBLIC_REFUSED = "hints are only for private tables: a public table is played without them"
"""Why a public table cannot have hints (422)."""


class HintBusy(Exception):
    """A hint is already being computed for this table."""


def hint_action(seat: int, view: dict[str, Any], events: Sequence[dict[str, Any]], seconds: float, seed: int) -> str:
    """The move the :data:`HINT_BOT` chooses for ``seat`` from its view and the public events
    within ``seconds`` (runs in a worker process; also callable directly)."""
    from ..bots import Budget, Observation, make_bot

    bot = make_bot(HINT_BOT)
    obs = Observation(seat, view, tuple(events))
    return str(bot.choose(obs, Budget(bot.budget.iterations, seconds), random.Random(seed)))


class HintPool:
    """The worker processes of the hints (started on the first hint) and the tables busy now."""

    def __init__(self, seconds: float = DEFAULT_HINT_SECONDS, workers: int = 1) -> None:
        self.seconds = seconds
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def submit(self, table_id: str, seat: int, view: dict[str, Any], events: Sequence[dict[str, Any]], seed: int) -> Future[str]:
        """Start a hint for ``table_id``; :class:`HintBusy` while one is computed for it."""
        with self._lock:
            if table_id in self._busy:
                raise HintBusy(table_id)
            self._busy.add(table_id)
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            pool = self._pool
        try:
            fut = pool.submit(hint_action, seat, view, list(events), self.seconds, seed)
        except BrokenProcessPool:  # a worker died earlier: start afresh
            self._forget(pool)
            self._done(table_id)
            return self.submit(table_id, seat, view, events, seed)
        except Exception:
            self._done(table_id)
            raise
        fut.add_done_callback(lambda f: self._finished(table_id, pool, f))
        return fut

    def _finished(self, table_id: str, pool: ProcessPoolExecutor, fut: Future[str]) -> None:
        if not fut.cancelled() and isinstance(fut.exception(), BrokenProcessPool):
            self._forget(pool)  # the next hint gets a new worker
        self._done(table_id)

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def busy(self, table_id: str) -> bool:
        """True while a hint is computed for this table."""
        with self._lock:
            return table_id in self._busy

    def _done(self, table_id: str) -> None:
        with self._lock:
            self._busy.discard(table_id)

    def close(self) -> None:
        """Stop the workers without waiting for a search in progress."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # a search in progress is of no use any more: end its process rather than wait for it
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()


def start_hint(service: TableService, pool: HintPool, table_id: str, seat: int, version: int) -> Future[str]:
    """Check that ``seat`` may have a hint now and start computing it from the seat's view and
    the events it has seen: 403 where hints are off (public tables, or the creator did not
    allow them), 409 when the version is stale or it is not the seat's decision, 429
    (:class:`HintBusy`) while another hint is computed for the table."""
    table = service.table(table_id)
    snap = table.snap
    if table.public or not table.hints:
        raise ServiceError("hints are off at this table (only the creator of a private table can allow them)", 403)
    if snap.status != PLAYING:
        raise ServiceError("hints are given while the game is being played", 409)
    if version != snap.version:
        raise ServiceError(f"stale version {version}: the table is at version {snap.version}", 409)
    if snap.state.to_act != seat:
        raise ServiceError("a hint is given when it is your decision", 409)
    v = view(snap.state, seat)
    return pool.submit(table_id, seat, v, table.events_for(snap, seat), secrets.randbits(32))


def finish_hint(service: TableService, table_id: str, seat: int, version: int, action: str) -> dict[str, Any]:
    """The answer for a computed hint: the move and a sentence for it (409 when the table moved
    on meanwhile)."""
    table = service.table(table_id)
    snap = table.snap
    if snap.version != version:
        raise ServiceError("the table moved on while the hint was computed; ask again", 409)
    legal = [str(a) for a in offered_actions(snap)]
    if action not in legal:  # pragma: no cover - the bot falls back to a legal move itself
        raise ServiceError("no hint could be found for this position", 503)
    narrator = Narrator(table.config, [s.name for s in snap.seats], [CURRENCIES[c] for c in snap.state.market_currency])
    text = describe_hint(narrator, snap.state, parse_action(action), seat)
    return {"version": version, "action": action, "text": text, "bot": HINT_BOT}


def allow_hints(service: TableService, table: Table) -> None:
    """Turn hints on at a newly created private table (its creator's choice, stored in its row)."""
    if table.public:
        raise ServiceError(PUBLIC_REFUSED, 422)
    with service.db.session() as s:
        s.execute(update(TableRow).where(TableRow.id == table.id).values(hints=True))
    table.hints = True
