"""Helpers for the server tests: an app on a temporary SQLite file, seat headers, a real
server process on a free loopback port (:class:`~alhambra.testing_browser.ServerProcess`)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient

from alhambra.server import create_app
from alhambra.testing_browser import ServerProcess, free_port

__all__ = ["ServerProcess", "auth", "client", "create", "free_port", "play_random", "receive", "two_people", "wait_for"]


@contextmanager
def client(db_file: Path, bot_delay: float = 0.0) -> Iterator[TestClient]:
    """A TestClient over a fresh app (lifespan included: recovery and the bot worker run)."""
    app = create_app(f"sqlite:///{db_file}", bot_delay=bot_delay)
    with TestClient(app) as c:
        yield c


def receive(ws: Any, timeout: float = 20.0) -> Any:
    """The next JSON message of a TestClient WebSocket, as ``ws.receive_json()``, but a message
    that never comes fails the test after ``timeout`` seconds instead of hanging it (Starlette's
    own receive waits forever; its stream is read here with a deadline)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        raise AssertionError(f"no WebSocket message within {timeout:g} s") from None
    ws._raise_on_close(message)  # WebSocketDisconnect for a close, as receive_json does
    return json.loads(message["text"])


def auth(token: str | None) -> dict[str, str]:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(c: Any, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Create a table and return the response JSON (asserting 201)."""
    r = c.post("/api/tables", json={"seats": seats, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def two_people(c: Any) -> tuple[str, list[str]]:
    """A started 2-person table: its id and both tokens."""
    data = create(c, [{"kind": "person"}, {"kind": "person"}])
    tid = data["table"]["id"]
    tokens = [s["token"] for s in data["seats"]]
    for tok in tokens:
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    return tid, tokens


def wait_for(fn: Any, timeout: float = 20.0, step: float = 0.01) -> Any:
    """Poll ``fn`` until it returns something truthy (AssertionError after ``timeout``)."""
    end = time.monotonic() + timeout
    while True:
        got = fn()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError("condition not reached in time")
        time.sleep(step)


def play_random(c: Any, tid: str, tokens: list[str | None], rng: random.Random, max_steps: int = 5000) -> dict[str, Any]:
    """Play random legal actions for the person seats until the game is over; return the last view."""
    for _ in range(max_steps):
        msg = c.get(f"/api/tables/{tid}/view").json()
        if msg["table"]["status"] == "finished":
            return msg
        seat = msg["view"]["to_act"]
        tok = tokens[seat] if seat is not None else None
        if tok is None:  # a bot's turn: it moves by itself
            time.sleep(0.005)
            continue
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
        legal = mine["view"]["legal_actions"]
        if not legal:
            continue
        r = c.post(f"/api/tables/{tid}/actions", json={"action": rng.choice(legal), "version": mine["version"]}, headers=auth(tok))
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")
