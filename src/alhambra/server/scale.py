"""Several server processes over one PostgreSQL database, coordinated through Redis.

With ``alhambra serve --redis-url`` every process runs a :class:`Coordinator`:

* **Live updates across processes** (Redis pub/sub): after every change it stores, a process
  publishes ``changed`` (or ``gone``) with the table id on one channel; every other process that
  holds that table in memory reloads it from the database (:meth:`TableService.refresh`) and pushes
  the update to its own WebSockets. Pub/sub rather than PostgreSQL LISTEN/NOTIFY: the same Redis
  also carries the claims and the shared counters below, and a message is tiny (the state itself
  is always read from the database, so a message lost while a process restarts costs nothing:
  the process loads the table on its next access).
* **Bot moves claimed by exactly one process**: before a bot computes the move due at
  ``(table, version)`` its process takes the key ``claim:<table>:<version>`` with ``SET NX`` (a
  Lua script). A process that loses leaves the move and looks again a moment later; if the owner
  has stopped beating (its ``alive:<process>`` key, renewed every second, lapses 3 s after a kill -9),
  the next process takes the claim over, so a killed process's bot moves are played by the others.
  Hints take a claim of their own per table the same way (one hint per table across processes).
* **Limits across processes**: :class:`RedisRateLimit` (a token bucket per client in Redis) and
  :class:`RedisConnections` (live WebSockets per address and per table, counted per process in
  hashes that lapse with the process's heartbeat, so a killed process's sockets stop counting).

Every key starts with ``prefix`` (``serve --redis-prefix``), so several sites can share a Redis.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from typing import Any

import redis

from .conns import Connections
from .service import TableService

__all__ = ["Coordinator", "RedisConnections", "RedisRateLimit"]

log = logging.getLogger("alhambra.server")

HEARTBEAT = 1.0
"""Seconds between two heartbeats of a process."""
SYNC_EVERY = 2
"""Heartbeats between two comparisons of the tables in memory with the database."""
ALIVE_FOR = 3.0
"""Seconds a process counts as alive after its last heartbeat (its claims are taken over after)."""

_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if owner == ARGV[1] then return 1 end
if redis.call('EXISTS', ARGV[3] .. owner) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""
"""Take ``KEYS[1]`` for process ARGV[1] (ms ARGV[2]) if it is free, already ours, or its owner's
heartbeat key (prefix ARGV[3] + owner) has lapsed: 1 taken, 2 taken over, 0 held by a live process."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) + tonumber(t[2]) / 1000000\n"
"""The Redis server's clock (seconds), so processes on several machines agree on who is alive."""

_BEAT = (
    _NOW
    + """
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60)
return 1
"""
)
"""Record process ARGV[1]'s heartbeat in the sorted set KEYS[1] (score: when), dropping entries a
minute old."""

_ALIVE = (
    _NOW
    + """
return redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[1]), '+inf')
"""
)
"""The processes of the sorted set KEYS[1] that beat within the last ARGV[1] seconds."""

_BUCKET = """
local level = tonumber(redis.call('HGET', KEYS[1], 'l') or ARGV[3])
local since = tonumber(redis.call('HGET', KEYS[1], 't') or ARGV[1])
local now, rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
level = math.min(burst, level + math.max(0, now - since) * rate)
local wait = 0
if level >= 1 then level = level - 1 else wait = (1 - level) / rate end
redis.call('HSET', KEYS[1], 'l', tostring(level), 't', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""


class Coordinator:
    """One server process's link to the others through Redis (see the module docstring)."""

    def __init__(self, url: str, prefix: str = "alhambra") -> None:
        self.redis: redis.Redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10, socket_connect_timeout=5)
        self.redis.ping()
        self.prefix = prefix
        self.process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.channel = f"{prefix}:changes"
        self.alive_prefix = f"{prefix}:alive:"
        self.beats_key = f"{prefix}:beats"
        """The processes' last heartbeats (a sorted set: listing the live processes reads one key,
        not the whole key space of a Redis that other sites may share)."""
        self.conn_prefix = f"{prefix}:ws:"
        self._claim = self.redis.register_script(_CLAIM)
        self._release = self.redis.register_script(_RELEASE)
        self._beat_script = self.redis.register_script(_BEAT)
        self._alive_script = self.redis.register_script(_ALIVE)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._service: TableService | None = None
        self.takeovers = 0
        """Claims this process took over from a process that had stopped."""
        self.synced = 0
        """Tables reloaded because the database had moved past them without a message."""
        self.received = 0
        """Messages from other processes applied here (for tests and figures)."""
        self._beat()

    # ----------------------------------------------------------------------------- life
    def attach(self, service: TableService) -> None:
        """Publish this process's changes and apply the others' to ``service``."""
        self._service = service
        service.db.shared = True
        service.local_listeners.append(self.publish)

    def start(self) -> None:
        """Start the subscriber and heartbeat threads."""
        ready = threading.Event()
        for target, name in ((lambda: self._listen(ready), "alhambra-redis-sub"), (self._beats, "alhambra-redis-beat")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)
        ready.wait(10)

    def stop(self) -> None:
        """Stop the threads; this process's heartbeat and connection counts go at once."""
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        with contextlib.suppress(redis.RedisError):  # else they lapse by themselves
            self.redis.delete(self.alive_prefix + self.process, self.conn_prefix + self.process)
            self.redis.zrem(self.beats_key, self.process)
        self.redis.close()

    def _beat(self) -> None:
        pipe = self.redis.pipeline()
        pipe.set(self.alive_prefix + self.process, "1", px=int(ALIVE_FOR * 1000))
        pipe.pexpire(self.conn_prefix + self.process, int(ALIVE_FOR * 1000))
        self._beat_script(keys=[self.beats_key], args=[self.process], client=pipe)
        pipe.execute()

    def _beats(self) -> None:
        n = 0
        while not self._stop.wait(HEARTBEAT):
            n += 1
            try:
                self._beat()
            except redis.RedisError as e:
                log.warning("Redis heartbeat failed: %s", e)
            if n % SYNC_EVERY == 0 and self._service is not None:
                try:  # a process killed between its commit and its message: catch up from the database
                    self.synced += len(self._service.sync_stale())
                except Exception:
                    log.exception("cannot compare the tables in memory with the database")

    def alive(self) -> list[str]:
        """The processes whose heartbeat is current (beaten within ``ALIVE_FOR`` seconds by the
        Redis server's clock), read from one sorted set: no scan of a Redis other sites share."""
        got: list[str] = self._alive_script(keys=[self.beats_key], args=[ALIVE_FOR])
        return sorted(got)

    # ----------------------------------------------------------------------------- live updates
    def publish(self, table_id: str, kind: str) -> None:
        """Service local listener: tell the other processes (``changed`` or ``gone``)."""
        self.redis.publish(self.channel, json.dumps({"p": self.process, "t": table_id, "k": kind}, separators=(",", ":")))

    def _listen(self, ready: threading.Event) -> None:
        while not self._stop.is_set():
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
                pubsub.subscribe(self.channel)
                ready.set()
                while not self._stop.is_set():
                    msg = pubsub.get_message(timeout=0.5)
                    if msg is not None:
                        self._apply(msg.get("data"))
                pubsub.close()
            except redis.RedisError as e:  # Redis restarted: subscribe again (the state is in the database)
                log.warning("Redis subscription lost (%s); subscribing again", e)
                ready.set()
                self._stop.wait(1.0)

    def _apply(self, data: Any) -> None:
        try:
            msg = json.loads(data)
            if msg["p"] == self.process or self._service is None:
                return
            self.received += 1
            self._service.refresh(str(msg["t"]), gone=msg["k"] == "gone")
        except Exception:
            log.exception("cannot apply a change from another process: %r", data)

    # ----------------------------------------------------------------------------- claims
    def claim(self, kind: str, key: str, ttl: float = 600.0) -> bool:
        """Take the claim ``kind:key`` for this process (True), unless a live process holds it."""
        got = int(self._claim(keys=[f"{self.prefix}:claim:{kind}:{key}"], args=[self.process, int(ttl * 1000), self.alive_prefix]))
        if got == 2:
            self.takeovers += 1
            log.warning("took over %s %s from a process that stopped", kind, key)
        return got > 0

    def release(self, kind: str, key: str) -> None:
        """Give a claim back (only if this process holds it)."""
        self._release(keys=[f"{self.prefix}:claim:{kind}:{key}"], args=[self.process])

    def bot_claim(self, table_id: str, version: int) -> bool:
        """Claim the bot move due at ``table_id``'s ``version`` (BotPool's ``claim``)."""
        return self.claim("bot", f"{table_id}:{version}")


class RedisRateLimit:
    """:class:`~alhambra.server.limits.RateLimit` shared by every process: the token bucket of a
    client lives in Redis (one Lua call per request)."""

    def __init__(self, coordinator: Coordinator, name: str, per_minute: float, burst: int | None = None) -> None:
        if per_minute <= 0:
            raise ValueError("the rate must be positive")
        self.redis = coordinator.redis
        self.key = f"{coordinator.prefix}:rate:{name}:"
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1, int(per_minute)))
        self._script = self.redis.register_script(_BUCKET)

    def take(self, key: str) -> float:
        """Take one request for ``key``: 0.0 if allowed, else the seconds until one is."""
        return float(self._script(keys=[self.key + key], args=[repr(time.time()), repr(self.rate), repr(self.burst)]))


class RedisConnections(Connections):
    """:class:`~alhambra.server.conns.Connections` counted across processes: each process keeps
    its counts in its own hash (renewed with its heartbeat), and a cap is checked against the sum
    over the live processes. Two sockets opened at the same instant through two processes may
    both pass a cap that has room for one (the check and the count are two steps)."""

    def __init__(self, coordinator: Coordinator, per_address: int, per_table: int) -> None:
        super().__init__(per_address, per_table)
        self.co = coordinator
        self.mine = coordinator.conn_prefix + coordinator.process

    def _total(self, field: str) -> int:
        procs = self.co.alive()
        pipe = self.co.redis.pipeline()
        for proc in procs:
            pipe.hget(self.co.conn_prefix + proc, field)
        return sum(int(v or 0) for v in pipe.execute())

    def refusal(self, address: str, table_id: str) -> str | None:
        """As :meth:`Connections.refusal`, over every live process."""
        if self._total("a:" + address) >= self.per_address:
            return self._too_many_address()
        if self._total("t:" + table_id) >= self.per_table:
            return self._too_many_table()
        pipe = self.co.redis.pipeline()
        pipe.hincrby(self.mine, "a:" + address, 1)
        pipe.hincrby(self.mine, "t:" + table_id, 1)
        pipe.pexpire(self.mine, int(ALIVE_FOR * 1000))
        pipe.execute()
        return None

    def release(self, address: str, table_id: str) -> None:
        """A counted socket closed."""
        pipe = self.co.redis.pipeline()
        for field in ("a:" + address, "t:" + table_id):
            pipe.hincrby(self.mine, field, -1)
        got = pipe.execute()
        stale = [f for f, n in zip(("a:" + address, "t:" + table_id), got, strict=True) if int(n) <= 0]
        if stale:
            self.co.redis.hdel(self.mine, *stale)

    def count(self, address: str | None = None, table_id: str | None = None) -> int:
        """Live sockets of an address or of a table, over every live process."""
        if address is not None:
            return self._total("a:" + address)
        if table_id is not None:
            return self._total("t:" + table_id)
        pipe = self.co.redis.pipeline()
        for proc in self.co.alive():
            pipe.hgetall(self.co.conn_prefix + proc)
        return sum(int(n) for got in pipe.execute() for f, n in got.items() if f.startswith("a:"))
