"""The server stays calm (issue 28): WebSocket caps per address and per table with a clear
close code, idle sockets closed, a client that sends and closes at once handled quietly, a busy
port refused in one line, /docs served without a CDN, and the documented message limit true.
On SQLite; the caps counted in Redis across processes are test_server_scale.py's."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from alhambra.server.app import MAX_WS_MESSAGE

from .server_helpers import ServerProcess, auth

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("calm")
    caps = ("--ws-per-address", "3", "--ws-per-table", "4")
    srv = ServerProcess(folder / "db.sqlite3", extra_args=caps)
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def quick_idle(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path / "idle.sqlite3", extra_args=("--ws-idle", "1.5"))
    try:
        yield srv
    finally:
        srv.stop()


def _table(srv: ServerProcess) -> tuple[str, list[str]]:
    r = srv.http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    tokens = [s["token"] for s in r.json()["seats"]]
    for tok in tokens:
        assert srv.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    return tid, tokens


async def _open(srv: ServerProcess, tid: str, source: str = "127.0.0.1") -> tuple[ClientConnection, dict[str, Any]]:
    ws = await websockets.connect(srv.url.replace("http", "ws") + f"/ws/tables/{tid}", local_addr=(source, 0))
    await ws.send(json.dumps({"type": "hello"}))
    first: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 20))
    return ws, first


async def _refused(srv: ServerProcess, tid: str, source: str) -> tuple[dict[str, Any], int | None]:
    ws = await websockets.connect(srv.url.replace("http", "ws") + f"/ws/tables/{tid}", local_addr=(source, 0))
    msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
    await asyncio.wait_for(ws.wait_closed(), 20)
    return msg, ws.close_code


def test_websockets_are_capped_per_address_and_per_table(server: ServerProcess) -> None:
    tid, _ = _table(server)
    other, _ = _table(server)

    async def go() -> None:
        mine = [await _open(server, tid) for _ in range(3)]
        assert all(m["type"] == "state" for _, m in mine)
        msg, code = await _refused(server, other, "127.0.0.1")  # a 4th socket from this address, even on another table
        assert code == 4429 and msg["status"] == 429 and "your address (at most 3)" in msg["detail"]
        theirs = [await _open(server, tid, "127.0.0.2")]  # another address: the table has room for one more
        msg, code = await _refused(server, tid, "127.0.0.3")
        assert code == 4429 and "watching this table (at most 4 connections)" in msg["detail"]
        await mine[0][0].close()
        await asyncio.sleep(0.3)
        again, first = await _open(server, tid, "127.0.0.3")  # a closed socket frees its place
        assert first["type"] == "state"
        for ws, _ in [*mine[1:], *theirs, (again, first)]:
            await ws.close()

    asyncio.run(go())


def test_an_idle_websocket_is_closed_with_4408(quick_idle: ServerProcess) -> None:
    tid, _ = _table(quick_idle)

    async def go() -> None:
        ws, _ = await _open(quick_idle, tid, "127.0.0.4")
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        await asyncio.wait_for(ws.wait_closed(), 20)
        assert ws.close_code == 4408 and msg["status"] == 408 and "without activity" in msg["detail"]

    asyncio.run(go())


def test_a_client_that_sends_a_move_and_closes_at_once_leaves_no_traceback(server: ServerProcess) -> None:
    tid, tokens = _table(server)
    before = server.log_file.read_text().count("Traceback")

    async def go() -> None:
        for _ in range(40):
            version = server.http.get(f"/api/tables/{tid}/view").json()["version"]
            async with websockets.connect(server.url.replace("http", "ws") + f"/ws/tables/{tid}", local_addr=("127.0.0.5", 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
                await ws.send(json.dumps({"type": "action", "action": "take b3", "version": version, "id": 1}))

    asyncio.run(go())
    assert server.http.get("/api/health").status_code == 200
    assert server.log_file.read_text().count("Traceback") == before


def test_docs_are_served_from_the_package(server: ServerProcess) -> None:
    page = server.http.get("/docs").text
    assert "/docs-assets/swagger-ui-bundle.js" in page and "/docs-assets/swagger-ui.css" in page
    assert not re.search(r"https?://", page.replace(server.url, "")), "the page must load nothing from elsewhere"
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        r = server.http.get(f"/docs-assets/{asset}")
        assert r.status_code == 200 and len(r.content) > 100_000
    assert "/docs-assets/redoc.standalone.js" in server.http.get("/redoc").text


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        cmd = [sys.executable, "-m", "alhambra", "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    want = f"alhambra: error: port {port} is in use (stop the program using it, or choose another with --port)"
    assert done.stderr.strip().splitlines() == [want]


def test_the_documented_websocket_message_limit_is_the_servers() -> None:
    text = (ROOT / "docs" / "server.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| WebSocket message |"))
    assert f"{MAX_WS_MESSAGE:,} characters" in row and "KiB" not in row
