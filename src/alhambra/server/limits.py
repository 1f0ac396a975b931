"""Limits that keep one client from tying up the server: the request body size whatever its
framing, the time a client may take to send a request's head and its body, and how fast one
client may create tables.

* :class:`BodyLimit` (ASGI middleware) reads a request's body, as it streams in, up to
  ``max_body`` bytes and within ``timeout`` seconds, then hands it to the app. A longer body
  (declared or chunked) gets 413, a body that trickles in too slowly 408; neither is ever held
  in memory beyond the limit.
* :class:`GuardedH11Protocol` is uvicorn's HTTP/1.1 protocol with a deadline for the request
  head: a connection that has not sent a complete request line and headers ``head_timeout``
  seconds after it opened (or after its last response) is closed. uvicorn itself times out only
  idle keep-alive connections, so a client sending one byte every few seconds would otherwise
  hold a socket for ever.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DEFAULT_CREATE_RATE", "DEFAULT_REQUEST_TIMEOUT", "MAX_BODY", "BodyLimit", "GuardedH11Protocol", "RateLimit"]

MAX_BODY = 64 * 1024
"""Largest request body accepted (bytes)."""

DEFAULT_REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a request's head, and again its body (``serve --request-timeout``)."""


DEFAULT_CREATE_RATE = 20
"""Tables one client (address) may create per minute (``serve --create-rate``)."""


class RateLimit:
    """A token bucket per client key: ``per_minute`` requests a minute on average, at most
    ``burst`` at once. :meth:`take` answers 0 when a request may go ahead, else the seconds to
    wait. Thread-safe; forgets clients whose bucket is full again."""

    def __init__(self, per_minute: float, burst: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError("the rate must be positive")
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1, int(per_minute)))
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take one request for ``key``: 0.0 if allowed, else the seconds until one is."""
        now = self.clock()
        with self._lock:
            level, since = self._buckets.get(key, (self.burst, now))
            level = min(self.burst, level + (now - since) * self.rate)
            if level >= 1.0:
                self._buckets[key] = (level - 1.0, now)
                if len(self._buckets) > 10_000:  # forget the clients whose bucket is full anyway
                    full = [k for k, (lv, t) in self._buckets.items() if lv + (now - t) * self.rate >= self.burst]
                    for k in full:
                        del self._buckets[k]
                return 0.0
            self._buckets[key] = (level, now)
            return (1.0 - level) / self.rate


class BodyLimit:
    """ASGI middleware: at most ``max_body`` bytes of request body, read within ``timeout`` seconds."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, timeout: float = DEFAULT_REQUEST_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _reply(send, 413, f"request body too large (at most {self.max_body} bytes)")
            return
        try:
            body = await asyncio.wait_for(self._read(receive), self.timeout)
        except _TooLarge:
            await _reply(send, 413, f"request body too large (at most {self.max_body} bytes)")
            return
        except TimeoutError:
            await _reply(send, 408, f"request body not received within {self.timeout:g} s")
            return
        if body is None:  # the client went away
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _TooLarge(Exception):
    pass


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections that take longer than ``head_timeout``
    seconds to send a request head (set the class attribute, or use :func:`guarded_protocol`)."""

    head_timeout: float = DEFAULT_REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._head_deadline = self.loop.call_later(self.head_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection that sent no complete request head in %g s", self.head_timeout)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the head deadline with the connection."""
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline."""
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """Stop the deadline once a request head has arrived."""
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        """A WebSocket has its own timeouts (the hello must come within 15 s)."""
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """The next request head on a kept-alive connection gets a deadline of its own."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()


def guarded_protocol(head_timeout: float) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` subclass with this head deadline."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"head_timeout": head_timeout})
