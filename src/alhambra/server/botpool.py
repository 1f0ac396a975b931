"""The bots of every table, played fairly and off the server's process.

:class:`BotPool` listens to the :class:`~alhambra.server.service.TableService`. After a change,
if a bot is to act at a table, that table gets **one** pending move, due ``delay`` seconds later.
One dispatcher thread takes the due moves in the order they became due, so a table's next move
is always queued behind the moves already waiting at the other tables: round-robin over tables,
a bot move never waits for more than one move of each other table. Tables with a person come
first: their due moves and their searches' answers go before anything of an all-bot table (the
round-robin holds among the tables with people, and among the all-bot tables).

* Cheap bots (``random``, ``greedy``) choose on the dispatcher thread (milliseconds).
* Searching bots (``mcts:*``) run in a :class:`~concurrent.futures.ProcessPoolExecutor`
  (spawn context, ``workers`` processes, at a lower CPU priority in sessions of their own: see
  :func:`_worker_init`), so a search never holds the
  server's interpreter: HTTP and WebSocket answers go on. The worker is sent only the seat's
  :class:`~alhambra.bots.Observation` (its view and the public events as that seat sees them),
  the bot's spec and a seed. The answer is played at the table version it was computed for; if
  the table moved on meanwhile it is dropped. A worker that dies breaks the pool: a fresh pool
  is made and the move becomes a random legal move (logged). With two or more workers, one is
  kept for tables with a person seat.
* **People first on the CPU too**: while a person's action or a bot move at a table with a
  person is in hand (and :data:`LINGER` after, while its updates go out), the searches of
  all-bot tables pause at their next iteration (a yield point,
  :func:`alhambra.bots.base.set_yield_point`; the pause is added to their time budget), for
  at most :data:`HOLD_MAX` at a time. So a cheap bot's reply never shares the cores with
  searches nobody waits for: beside all-bot tables it is as fast as on an idle server, by
  construction (``alhambra loadtest --fairness``).
* Tables whose every seat is a bot play only while someone watches (a WebSocket is open), and
  at most ``max_bot_tables`` of them at once; the others pause where they are.
* :meth:`BotPool.stop` never waits for a search: it terminates the worker processes.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import Observation, make_bot, parse_spec
from ..bots.base import set_yield_point
from .service import BOT, PLAYING, BotRequest, ServiceError, TableService

__all__ = ["DEFAULT_MAX_BOT_TABLES", "HOLD_MAX", "LINGER", "BotPool", "is_searching", "search_move"]

log = logging.getLogger("alhambra.server")

T = TypeVar("T")

DEFAULT_MAX_BOT_TABLES = 2
"""All-bot tables that may play at once (``serve --max-bot-tables``)."""

HOLD_MAX = 0.5
"""Seconds at most that one person's move (an action, a bot's reply at a table with a person)
pauses the all-bot tables' searches: a move that takes longer lets them go on."""

LINGER = 0.05
"""Seconds the all-bot searches stay paused after a person's move was handled: its updates are
sent and the bot's reply is picked up meanwhile."""

_pause_until: Any = None
"""In a search worker: the shared ``time.monotonic()`` (one clock for every process of the
machine) until which all-bot searches pause; set by :class:`BotPool`."""

_yields = False
"""In a search worker: the search in hand is for a table with only bots (it yields to people)."""


def is_searching(spec: str) -> bool:
    """True for bots that search (``mcts:*``): they run in the worker processes."""
    try:
        return parse_spec(spec)[0] == "mcts"
    except ValueError:
        return False


def search_move(spec: str, obs: Observation, seed: int) -> str:
    """The move of bot ``spec`` for ``obs`` (runs in a worker process; a fresh bot each time)."""
    bot = make_bot(spec)
    return str(bot.choose(obs, bot.budget, random.Random(seed)))


def _worker_init(pause_until: Any = None, server: int | None = None) -> None:
    """Worker processes leave Ctrl+C to the server and yield the CPU to it.

    A lower priority (nice 10) alone is not enough on Linux with autogroups (the default on most
    desktops and many servers): the scheduler first shares the CPU between sessions and only
    then between the processes of a session, so a searching worker in the server's session used
    up the session's share and a waking server thread waited behind every other session on a
    busy machine (a person's bot reply 4-6x slower beside all-bot tables). So each worker starts
    a session of its own (its own autogroup): the server's session stays idle between requests
    and is served first when it wakes. (The worker's autogroup keeps the usual priority: a
    lower one starves the workers on a busy machine, their start-up then takes 4-10x longer.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.setsid()
    with contextlib.suppress(OSError):
        os.nice(10)
    global _pause_until
    _pause_until = pause_until
    if pause_until is not None:
        set_yield_point(_yield_to_people)
    # in a session of its own a worker outlives a server killed with SIGKILL (nothing tells it):
    # it leaves as soon as the server is gone, even in the middle of a search (``server`` is the
    # server's pid as the server saw it: a worker that starts after a kill has another parent already)
    if server is not None:
        threading.Thread(target=_leave_with_parent, args=(server,), name="alhambra-parent-watch", daemon=True).start()


def _leave_with_parent(parent: int, every: float = 0.5) -> None:
    """Exit this worker process once ``parent`` is no longer its parent (the server died)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _yield_to_people() -> float:
    """The search workers' yield point: an all-bot table's search sleeps while the server has a
    person's move in hand (at most :data:`HOLD_MAX`); returns the seconds it slept."""
    if not _yields or _pause_until is None:
        return 0.0
    now = start = time.monotonic()
    until = float(_pause_until.value)
    while now < until and now - start < HOLD_MAX:
        time.sleep(min(0.005, until - now))
        now, until = time.monotonic(), float(_pause_until.value)
    return now - start


def _search_task(search: Callable[[str, Observation, int], str], spec: str, obs: Observation, seed: int, yields: bool) -> str:
    """Run ``search`` in a worker; ``yields``: an all-bot table's search, which pauses for people."""
    global _yields
    _yields = yields
    try:
        return search(spec, obs, seed)
    finally:
        _yields = False


@dataclass
class _Pending:
    due: float
    seq: int
    version: int
    searching: bool
    all_bots: bool


class BotPool:
    """Plays every table's bots: fair across tables, searches in worker processes.

    ``workers`` is the number of search processes (default: the CPU count);
    ``max_bot_tables`` caps the all-bot tables playing at once; ``search`` is the function run in
    a worker (``search_move``; tests pass another picklable function). ``dispatched`` records
    the table of each move started, newest last (the scheduling order, for tests and figures).
    """

    def __init__(
        self,
        service: TableService,
        delay: float = 0.6,
        workers: int | None = None,
        max_bot_tables: int = DEFAULT_MAX_BOT_TABLES,
        search: Callable[[str, Observation, int], str] = search_move,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a bot pool needs at least one worker process")
        if max_bot_tables < 0:
            raise ValueError("max_bot_tables must not be negative")
        self.service = service
        self.delay = delay
        self.workers = workers or os.cpu_count() or 1
        self.max_bot_tables = max_bot_tables
        self.search = search
        self.dispatched: deque[str] = deque(maxlen=10_000)
        self.claim: Callable[[str, int], bool] | None = None
        """With several server processes: take the move due at ``(table, version)`` for this
        process (False: another live process has it; the move is looked at again later)."""
        self.played = 0
        """Bot moves this process played (stored)."""
        self.dropped = 0
        """Bot answers this process computed and dropped because the table had moved on."""
        self.claim_retry = 1.0
        """Seconds until a move another process claimed is looked at again (to take it over
        should that process have died)."""
        self._pending: dict[str, _Pending] = {}
        self._running: dict[str, bool] = {}  # table -> searching in a worker
        self._watchers: dict[str, int] = {}
        self._active: set[str] = set()  # all-bot tables admitted to play
        self._results: deque[tuple[BotRequest, Future[str]]] = deque()
        self._seq = 0
        self._cond = threading.Condition()
        self._stop = False
        self._pool: ProcessPoolExecutor | None = None
        self._pause_until: Any = multiprocessing.get_context("spawn").RawValue("d", 0.0)
        """Shared with the workers: all-bot searches pause until this ``time.monotonic()``."""
        self._holds = 0
        self._thread = threading.Thread(target=self._run, name="alhambra-bots", daemon=True)
        service.listeners.append(self.changed)
        service.gone_listeners.append(self.gone)

    # ----------------------------------------------------------------------------- control
    def start(self) -> None:
        """Start the dispatcher thread (the worker processes start with the first search)."""
        self._thread.start()

    def stop(self) -> None:
        """Stop at once: terminate the worker processes (a search in progress is dropped) and
        end the dispatcher (a cheap move in progress finishes first)."""
        with self._cond:
            self._stop = True
            pool, self._pool = self._pool, None
            self._cond.notify_all()
        if pool is not None:
            _terminate(pool)
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    @contextlib.contextmanager
    def people_first(self) -> Iterator[None]:
        """Pause the all-bot tables' searches while a person's move is in hand (the searches
        go on :data:`LINGER` after the last such move ends, or :data:`HOLD_MAX` after it began)."""
        with self._cond:
            self._holds += 1
            self._pause_until.value = max(self._pause_until.value, time.monotonic() + HOLD_MAX)
        try:
            yield
        finally:
            with self._cond:
                self._holds -= 1
                if self._holds == 0:
                    self._pause_until.value = time.monotonic() + LINGER

    def for_person(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a person's action or undo) with the all-bot searches paused."""
        with self.people_first():
            return fn(*args)

    def paused_until(self) -> float:
        """The ``time.monotonic()`` until which all-bot searches pause (for tests and figures)."""
        return float(self._pause_until.value)

    def worker_pids(self) -> list[int]:
        """Process ids of the live search workers."""
        pool = self._pool
        procs: dict[int, Any] = getattr(pool, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.is_alive()]

    def searching(self) -> list[str]:
        """Tables whose bot is searching in a worker now."""
        with self._cond:
            return [tid for tid, s in self._running.items() if s]

    def busy(self, table_id: str) -> bool:
        """A bot move of this table is waiting or in progress (paused all-bot tables are not busy)."""
        with self._cond:
            if table_id in self._running:
                return True
            p = self._pending.get(table_id)
            return p is not None and (not p.all_bots or self._watchers.get(table_id, 0) > 0)

    # ----------------------------------------------------------------------------- listeners
    def changed(self, table_id: str) -> None:
        """Service listener: give the table a pending move when a bot is to act there."""
        try:
            snap = self.service.table(table_id).snap
        except ServiceError:
            return
        seat = snap.state.to_act
        spec = snap.seats[seat].bot if snap.status == PLAYING and seat is not None and snap.seats[seat].kind == BOT else None
        with self._cond:
            if spec is None:
                self._pending.pop(table_id, None)
                self._release(table_id)
                self._cond.notify()
                return
            old = self._pending.get(table_id)
            if old is not None and old.version == snap.version:
                self._cond.notify()  # already waiting: keep its place in the queue (it may just have been unpaused)
                return
            self._seq += 1
            all_bots = all(s.kind == BOT for s in snap.seats)
            self._pending[table_id] = _Pending(time.monotonic() + self.delay, self._seq, snap.version, is_searching(spec), all_bots)
            self._cond.notify()

    def _release(self, table_id: str) -> None:
        """Give up an all-bot table's place among the playing ones when it has no move to make
        or nobody watches it (under the lock)."""
        if table_id not in self._running and (table_id not in self._pending or self._watchers.get(table_id, 0) <= 0):
            self._active.discard(table_id)

    def gone(self, table_id: str) -> None:
        """Service listener: a table was deleted or expired; forget it."""
        with self._cond:
            self._pending.pop(table_id, None)
            self._active.discard(table_id)
            self._watchers.pop(table_id, None)

    def watch(self, table_id: str) -> None:
        """Someone opened a WebSocket on this table (all-bot tables play only while watched)."""
        with self._cond:
            self._watchers[table_id] = self._watchers.get(table_id, 0) + 1
            first = self._watchers[table_id] == 1
        if first:
            self.changed(table_id)

    def unwatch(self, table_id: str) -> None:
        """A WebSocket on this table closed; the last one pauses an all-bot table."""
        with self._cond:
            n = self._watchers.get(table_id, 0) - 1
            if n > 0:
                self._watchers[table_id] = n
                return
            self._watchers.pop(table_id, None)
            self._release(table_id)
            self._cond.notify()

    # ----------------------------------------------------------------------------- dispatcher
    def _pick(self, now: float) -> tuple[str | None, float | None]:
        """The next due move that may start now, or the seconds until one is due.

        Tables with a person come first (in due order), then the all-bot tables (in due
        order): a person never waits behind the moves of tables that nobody plays at, only
        behind the one move the dispatcher is busy with."""
        searches = sum(1 for s in self._running.values() if s)
        bot_searches = sum(1 for tid, s in self._running.items() if s and tid in self._active)
        bot_slots = self.workers - 1 if self.workers >= 2 else self.workers
        wait: float | None = None
        for tid, p in sorted(self._pending.items(), key=lambda kv: (kv[1].all_bots, kv[1].due, kv[1].seq)):
            if p.due > now:
                wait = p.due - now if wait is None else min(wait, p.due - now)
                continue
            if tid in self._running:
                continue
            if p.all_bots:
                if self._watchers.get(tid, 0) <= 0:
                    continue  # paused while nobody watches
                if tid not in self._active and len(self._active) >= self.max_bot_tables:
                    continue
            if p.searching and (searches >= self.workers or (p.all_bots and bot_searches >= bot_slots)):
                continue
            return tid, None
        return None, wait

    def _run(self) -> None:
        while True:
            result: tuple[BotRequest, Future[str]] | None = None
            tid: str | None = None
            with self._cond:
                while True:
                    if self._stop:
                        return
                    tid, wait = self._pick(time.monotonic())
                    result = self._next_result(people_only=tid is not None and not self._pending[tid].all_bots)
                    if result is not None:
                        tid = None
                        break
                    if tid is not None:
                        p = self._pending.pop(tid)
                        self._running[tid] = p.searching
                        if p.all_bots:
                            self._active.add(tid)
                        break
                    self._cond.wait(wait)
            if result is not None:
                with self.people_first() if not result[0].all_bots else contextlib.nullcontext():
                    self._finish(*result)
                continue
            assert tid is not None
            self.dispatched.append(tid)
            try:
                with self.people_first() if not p.all_bots else contextlib.nullcontext():
                    self._start(tid, p)
            except Exception:
                log.exception("table %s: bot move failed", tid)
                self._done(tid)

    def _next_result(self, people_only: bool) -> tuple[BotRequest, Future[str]] | None:
        """The search answer to play next (under the lock): those of tables with a person first;
        with ``people_only`` (a person's table has a move due) none of an all-bot table."""
        for i, (req, fut) in enumerate(self._results):
            if not req.all_bots:
                del self._results[i]
                return req, fut
        if self._results and not people_only:
            return self._results.popleft()
        return None

    def _start(self, table_id: str, p: _Pending) -> None:
        req = self.service.bot_request(table_id, p.version)
        if req is None:  # the table moved on meanwhile
            self._done(table_id)
            return
        if self.claim is not None and not self.claim(table_id, p.version):
            with self._cond:  # another process plays it; look again later in case that process dies
                if table_id not in self._pending:
                    self._seq += 1
                    again = _Pending(time.monotonic() + self.claim_retry, self._seq, p.version, p.searching, p.all_bots)
                    self._pending[table_id] = again
            self._done(table_id)
            return
        if not p.searching:
            self._count(self.service.bot_answer(req, self.service.bot_choose(req)))
            self._done(table_id)
            return
        with self._cond:
            if self._stop:
                return
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_init,
                    initargs=(self._pause_until, os.getpid()),
                )
            pool = self._pool
        try:
            seed = self.service.table(table_id).bot_rng.randrange(1 << 62)  # the table's bot chance, as for cheap bots
            fut = pool.submit(_search_task, self.search, req.spec, req.obs, seed, req.all_bots)
        except (BrokenProcessPool, RuntimeError) as e:  # broken between two moves, or stopping
            fut = Future()
            fut.set_exception(e)
        fut.add_done_callback(lambda f: self._deliver(req, f))

    def _deliver(self, req: BotRequest, fut: Future[str]) -> None:
        with self._cond:
            self._results.append((req, fut))
            self._cond.notify()

    def _finish(self, req: BotRequest, fut: Future[str]) -> None:
        choice: str | None = None
        try:
            choice = fut.result()
        except BrokenProcessPool:
            log.warning("table %s: a bot worker died; a fresh pool takes over, seat %d plays a random move", req.table_id, req.seat)
            with self._cond:
                broken = self._pool
                if broken is not None and getattr(broken, "_broken", False):
                    self._pool = None
            if broken is not None and self._pool is None:
                _terminate(broken)
        except Exception:
            log.exception("table %s: the search of seat %d failed; it plays a random move", req.table_id, req.seat)
        try:
            ok = self.service.bot_answer(req, choice)
            self._count(ok)
            if not ok:
                log.info("table %s: a bot answer for version %d came too late and was dropped", req.table_id, req.version)
        except Exception:
            log.exception("table %s: bot move failed", req.table_id)
        finally:
            self._done(req.table_id)

    def _count(self, played: bool) -> None:
        with self._cond:
            if played:
                self.played += 1
            else:
                self.dropped += 1

    def _done(self, table_id: str) -> None:
        with self._cond:
            self._running.pop(table_id, None)
            self._release(table_id)
            self._cond.notify()


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool without waiting for its tasks: cancel what is queued, terminate the workers."""
    procs: dict[int, Any] = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs.values():
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs.values():
        with contextlib.suppress(Exception):
            proc.join(timeout=2)
            if proc.is_alive():  # ignored SIGTERM or a loaded machine: make sure it goes
                proc.kill()
                proc.join(timeout=2)
