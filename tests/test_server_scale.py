"""Several server processes over PostgreSQL + Redis (real processes, real services): a move made
through one process reaches a WebSocket on another, people joining through two processes start
the game, every bot move is played by exactly one process and a killed process's claim is taken
over (bot moves and hints), and the rate limits and WebSocket caps count across processes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from .scale_helpers import fresh_pg, need_redis, redis_prefix
from .server_helpers import ServerProcess, auth, wait_for


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ServerProcess, str, str]]:
    """Two `alhambra serve` processes on one PostgreSQL database and one Redis prefix."""
    redis_url = need_redis()
    folder = tmp_path_factory.mktemp("scale")
    prefix = redis_prefix()
    with fresh_pg() as url:
        args = ("--redis-url", redis_url, "--redis-prefix", prefix, "--create-rate", "6", "--ws-per-address", "3", "--hint-seconds", "0.1")
        a = ServerProcess(folder / "a.db", database_url=url, bot_delay=0.05, extra_args=args)
        try:
            b = ServerProcess(folder / "b.db", database_url=url, bot_delay=0.05, extra_args=args)
            try:
                yield a, b, redis_url, prefix
            finally:
                b.stop()
        finally:
            a.stop()


async def _watch(srv: ServerProcess, tid: str, want_version: int, source: str = "127.0.0.1") -> dict[str, Any]:
    async with websockets.connect(srv.url.replace("http", "ws") + f"/ws/tables/{tid}", local_addr=(source, 0)) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg.get("version", -1) >= want_version:
                return msg


def test_a_move_through_one_process_reaches_a_websocket_on_another(pair: Any) -> None:
    a, b, _, _ = pair
    r = a.http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]}).json()
    tid, tokens = r["table"]["id"], [s["token"] for s in r["seats"]]
    assert a.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tokens[0])).status_code == 200
    assert b.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tokens[1])).status_code == 200
    wait_for(lambda: a.http.get(f"/api/tables/{tid}").json()["status"] == "playing", timeout=5)  # B's join started it for A too

    async def go() -> None:
        watcher = asyncio.create_task(_watch(a, tid, 2))
        for _ in range(2):
            v = b.http.get(f"/api/tables/{tid}/view").json()
            seat = v["view"]["to_act"]
            mine = b.http.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
            act = {"action": mine["view"]["legal_actions"][0], "version": mine["version"]}
            assert b.http.post(f"/api/tables/{tid}/actions", json=act, headers=auth(tokens[seat])).status_code == 200
        got = await watcher
        assert got["version"] == 2 and got["table"]["status"] == "playing"

    asyncio.run(go())


def _health(srv: ServerProcess) -> dict[str, Any]:
    got: dict[str, Any] = srv.http.get("/api/health").json()
    return got


def _ender(view: dict[str, Any]) -> str:
    """An action that ends the person's turn (taking money always does)."""
    finals: list[str] = view["final_actions"]
    return next((a for a in finals if a.startswith("take")), finals[0])


def _person_turn(srv: ServerProcess, tid: str, tok: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        m: dict[str, Any] = srv.http.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
        return m if m["view"]["to_act"] == 0 or m["table"]["status"] == "finished" else None

    got: dict[str, Any] = wait_for(ready)
    return got


def test_each_bot_move_is_played_by_exactly_one_process(pair: Any) -> None:
    a, b, _, _ = pair
    before = [_health(s)["bot_moves"] for s in (a, b)]
    r = a.http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]}).json()
    tid, tok = r["table"]["id"], r["seats"][0]["token"]
    assert b.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    a.http.get(f"/api/tables/{tid}")  # both processes hold the table in memory: both see every bot move due
    for i in range(10):
        srv = (a, b)[i % 2]
        v = _person_turn(srv, tid, tok)
        if v["table"]["status"] != "playing":
            break
        act = {"action": _ender(v), "version": v["version"]}
        assert srv.http.post(f"/api/tables/{tid}/actions", json=act, headers=auth(tok)).status_code in (200, 409)
    _person_turn(a, tid, tok)
    _person_turn(b, tid, tok)
    played = [_health(s)["bot_moves"] - n for s, n in zip((a, b), before, strict=True)]
    assert all(_health(s)["bot_moves_dropped"] == 0 for s in (a, b)), "no bot answer was computed twice"
    record = b.http.get(f"/api/tables/{tid}/view").json()
    bot_actions = sum(1 for e in record["events"] if e.get("type") == "TurnEnded" and e.get("seat") == 1)
    assert sum(played) >= max(1, bot_actions) and sum(played) >= 5
    assert all(n >= 0 for n in played)  # whichever process claimed a move first played it (either may win every claim)


def test_a_killed_processs_bot_and_hint_claims_are_taken_over(pair: Any, tmp_path: Path) -> None:
    a, _, redis_url, prefix = pair
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
    r = a.http.post("/api/tables", json={"seats": seats, "hints": True}).json()
    tid, tok = r["table"]["id"], r["seats"][0]["token"]
    assert a.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    v = _person_turn(a, tid, tok)
    due = v["version"] + 1  # the bot's move after the person's turn-ending action
    # a process claims that move and the table's hint (beating as a server does) and is killed -9
    # before it answers either
    script = (
        "import threading, time\n"
        "from alhambra.server.scale import Coordinator\n"
        f"c = Coordinator({redis_url!r}, {prefix!r})\n"
        "def beat():\n"
        "    while True:\n"
        "        c._beat(); time.sleep(0.5)\n"
        "threading.Thread(target=beat, daemon=True).start()\n"
        f"assert c.claim('bot', '{tid}:{due}') and c.claim('hint', '{tid}')\n"
        "print('claimed', flush=True)\n"
        "time.sleep(600)\n"
    )
    doomed = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert doomed.stdout is not None and doomed.stdout.readline().strip() == "claimed"
        taken = _health(a)["claims_taken_over"]
        hint = a.http.get(f"/api/tables/{tid}/hint?version={v['version']}", headers=auth(tok))
        assert hint.status_code == 429 and "already being computed" in hint.json()["detail"], "the hint waits while its owner lives"
        act = {"action": _ender(v), "version": v["version"]}
        assert a.http.post(f"/api/tables/{tid}/actions", json=act, headers=auth(tok)).status_code == 200
        time.sleep(1.5)
        assert a.http.get(f"/api/tables/{tid}").json()["version"] == due, "the claimed move waits while its owner lives"
        doomed.kill()
        doomed.wait(10)
        t0 = time.monotonic()
        wait_for(lambda: a.http.get(f"/api/tables/{tid}").json()["version"] > due, timeout=20)
        assert time.monotonic() - t0 < 10
        assert _health(a)["claims_taken_over"] == taken + 1
        v = _person_turn(a, tid, tok)  # the person's second turn: the dead process's hint claim no longer stands in the way
        hint = a.http.get(f"/api/tables/{tid}/hint?version={v['version']}", headers=auth(tok), timeout=90)
        assert hint.status_code == 200 and hint.json()["action"] in v["view"]["legal_actions"], hint.text
        assert _health(a)["claims_taken_over"] == taken + 2
    finally:
        doomed.kill()


def test_rate_limits_and_websocket_caps_hold_across_processes(pair: Any) -> None:
    a, b, _, _ = pair
    # --create-rate 6 a minute: the tables created above and these share one bucket per address
    made = [srv.http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]}) for srv in (a, b) * 4]
    codes = [r.status_code for r in made]
    assert 201 in codes and codes[-1] == 429 and codes.count(429) >= 2
    tid = next(r.json()["table"]["id"] for r in made if r.status_code == 201)

    async def go() -> None:
        path = f"/ws/tables/{tid}"
        opened = []
        for srv in (a, b, a):  # --ws-per-address 3, counted over both processes
            ws = await websockets.connect(srv.url.replace("http", "ws") + path, local_addr=("127.0.0.9", 0))
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "state"
            opened.append(ws)
        ws = await websockets.connect(b.url.replace("http", "ws") + path, local_addr=("127.0.0.9", 0))
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        await asyncio.wait_for(ws.wait_closed(), 20)
        assert ws.close_code == 4429 and "your address (at most 3)" in msg["detail"]
        for w in opened:
            await w.close()

    asyncio.run(go())


def test_kill_9_of_one_of_two_worker_processes_loses_no_acknowledged_action() -> None:
    """`serve --workers 2` under a small load test; one process is killed with SIGKILL mid-run:
    every acknowledged action is in the database, the clients reconnect, the bots move on."""
    from alhambra.server.loadscale import run_scale_loadtest

    redis_url = need_redis()
    with fresh_pg() as url:
        got = run_scale_loadtest(url, redis_url, workers=2, tables=3, actions=12, pace=0.2, max_seconds=90, kill_after=1.5)
    assert got["killed"] is not None
    assert got["failures"] == []
    assert got["acked"] >= 20 and got["acked_lost"] == 0
    assert got["bot_moves"] > 0


def test_the_live_processes_are_listed_from_their_heartbeats() -> None:
    """``Coordinator.alive`` (what the WebSocket caps sum over) reads the heartbeats of this
    prefix only: a process that stops leaves the list at once, one of another site never enters."""
    from alhambra.server.scale import Coordinator

    redis_url = need_redis()
    prefix = redis_prefix()
    a, b, other = Coordinator(redis_url, prefix), Coordinator(redis_url, prefix), Coordinator(redis_url, redis_prefix())
    try:
        assert a.alive() == b.alive() == sorted([a.process, b.process])
        b.stop()
        assert a.alive() == [a.process] and other.alive() == [other.process]
    finally:
        a.stop()
        other.stop()


def test_serve_refuses_several_processes_over_sqlite(tmp_path: Path) -> None:
    """SQLite is one process's database: `serve --workers 2` over a SQLite file (given, or the
    default one) is refused in one line with exit 2 before anything is opened; so is the load
    test's. No service is needed for the refusal."""
    from alhambra.testing_browser import free_port

    from .cli_helpers import invoke

    db = tmp_path / "x.sqlite3"
    want = (
        "alhambra: error: --workers above 1 needs a PostgreSQL --database-url (postgresql+psycopg://...): a SQLite file is "
        "one process's database (its writers lock the whole file), so serve it with one process"
    )
    redis = ("--redis-url", "redis://127.0.0.1:6379/0")
    for url in (("--database-url", f"sqlite:///{db}"), ()):
        got = invoke("serve", "--port", str(free_port()), "--workers", "2", *url, *redis)
        assert (got.exit_code, got.stdout, got.stderr.strip().splitlines()) == (2, "", [want])
    assert not db.exists()
    got = invoke("loadtest", "--workers", "4", "--database-url", f"sqlite:///{db}", *redis)
    assert got.exit_code == 2 and got.stderr.strip().splitlines() == [
        "alhambra: error: --workers above 1 needs a PostgreSQL --database-url: a SQLite file is one process's database"
    ]
    assert not db.exists()
