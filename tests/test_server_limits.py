"""Clients that send too slowly or too much are cut off (a real server on loopback). On SQLite only:
the HTTP protocol's deadlines do not touch the storage."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = Path(tmp_path_factory.mktemp("limits")) / "limits.db"
    with ServerProcess(db, extra_args=("--request-timeout", "1")) as srv:
        yield srv


def _connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return sock


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Send ``trickle`` one byte every 0.3 s; return when the server closed the socket (None if it
    was still open after ``seconds``)."""
    start = time.monotonic()
    sock.settimeout(0.3)
    i = 0
    while time.monotonic() - start < seconds:
        try:
            data = sock.recv(4096)
            if not data:
                return time.monotonic() - start
            if b"HTTP/1.1 408" in data:
                return time.monotonic() - start
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - start
        if i < len(trickle):
            try:
                sock.sendall(trickle[i : i + 1])
            except OSError:
                return time.monotonic() - start
            i += 1
    return None


def test_a_request_head_sent_byte_by_byte_is_cut_off(server: ServerProcess) -> None:
    sock = _connect(server)
    try:
        took = _closed_within(sock, 8, b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100)
    finally:
        sock.close()
    assert took is not None and took < 4, "a trickling request head must be cut off after the request timeout"
    assert server.http.get("/api/health").status_code == 200  # the server is fine


def test_a_body_that_trickles_in_gets_408(server: ServerProcess) -> None:
    sock = _connect(server)
    try:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
        took = _closed_within(sock, 8, b'"seats"' * 5)
    finally:
        sock.close()
    assert took is not None and took < 4


def test_an_idle_connection_after_a_response_is_closed(server: ServerProcess) -> None:
    sock = _connect(server)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(5)
        assert b"200 OK" in sock.recv(4096)
        took = _closed_within(sock, 8, b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"X: " + b"b" * 100)
    finally:
        sock.close()
    assert took is not None and took < 4


def test_a_websocket_is_not_cut_off_by_the_head_deadline(server: ServerProcess) -> None:
    import json

    from websockets.sync.client import connect

    r = server.http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    tid = r.json()["table"]["id"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{tid}") as ws:
        time.sleep(2.5)  # longer than the request timeout
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
