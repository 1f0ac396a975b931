"""The load test at scale: ``alhambra loadtest --workers N --database-url ... --redis-url ...``.

Starts ``alhambra serve --workers N`` on a loopback port over the given database and Redis, and
plays ``tables`` tables from this process. Each table has ``players`` person seats, every one
with its own WebSocket (the kernel spreads the connections over the processes, so most updates
cross processes through Redis), plus one ``random`` server bot seat with ``bots``. The latency
of an action is the time from sending it until every seat of its table has the new version.

With ``kill_after`` one of the server processes is killed with SIGKILL that many seconds into
the run: the clients whose sockets it held reconnect with their epoch and event count (as the
browser table does) and play on; a table whose bot stops moving, or a client that cannot get
back, is a failure. Every action the server acknowledged is looked up in the database at the
end (its table, version and notation): ``acked_lost`` counts those missing. ``watchers`` more
spectator sockets are opened over the tables from several loopback addresses (127.0.0.2, ...,
``per_address`` each, within the server's per-address cap) and must all have the final version
of their table at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loadtest import serving, throughput

__all__ = ["run_scale_loadtest"]


@dataclass
class _Client:
    table: str
    token: str | None
    source: str = "127.0.0.1"
    ws: Any = None
    msg: dict[str, Any] | None = None
    version: int = -1
    events: int = 0
    epoch: int = 0
    got: dict[int, float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    closed: bool = False


@dataclass
class _Run:
    ws_base: str
    latencies: list[float] = field(default_factory=list)
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    sent: dict[tuple[str, int], str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    reconnects: int = 0
    tables: list[str] = field(default_factory=list)
    finished: int = 0


async def _connect(c: _Client, run: _Run) -> None:
    import websockets

    end = time.perf_counter() + 60
    while time.perf_counter() < end:
        try:
            c.ws = await websockets.connect(f"{run.ws_base}/ws/tables/{c.table}", max_size=2**22, local_addr=(c.source, 0), open_timeout=10)
            hello: dict[str, Any] = {"type": "hello", "token": c.token}
            if c.version >= 0:
                hello.update(epoch=c.epoch, events=c.events)
            await c.ws.send(json.dumps(hello))
            c.closed = False
            c.reader = asyncio.create_task(_read(c, run))
            return
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            await asyncio.sleep(0.3)
    raise RuntimeError("a client could not connect again within a minute")


async def _read(c: _Client, run: _Run) -> None:
    try:
        async for raw in c.ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind in ("state", "update"):
                c.msg = msg
                c.version = msg["version"]
                c.epoch = msg["epoch"]
                c.events = msg["event_start"] + len(msg["events"])
                c.got.setdefault(msg["version"], now)
                c.changed.set()
            elif kind == "ack":
                text = run.sent.get((c.table, msg["version"] - 1))
                if text is not None:
                    run.acked.append((c.table, msg["version"], text))
    except Exception:  # the process died: the player reconnects
        pass
    finally:
        c.closed = True
        c.changed.set()


async def _until(clients: list[_Client], version: int, timeout: float, run: _Run) -> float | None:
    """When the last client saw ``version`` or later (reconnecting the ones whose socket closed)."""
    end = time.perf_counter() + timeout
    while True:
        for c in clients:
            if c.closed:
                run.reconnects += 1
                await _connect(c, run)
        if all(c.version >= version for c in clients):
            return max(min(t for v, t in c.got.items() if v >= version) for c in clients)
        left = end - time.perf_counter()
        if left <= 0:
            return None
        for c in clients:
            c.changed.clear()
        waits = [asyncio.ensure_future(c.changed.wait()) for c in clients]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED), timeout=min(left, 1.0))
        for w in waits:
            w.cancel()


async def _table(http: Any, players: int, bots: bool, run: _Run) -> tuple[str, list[_Client], int | None]:
    seats: list[dict[str, Any]] = [{"kind": "person"}] * players + ([{"kind": "bot", "bot": "random"}] if bots else [])
    r = await http.post("/api/tables", json={"seats": seats})
    r.raise_for_status()
    data = r.json()
    tid = data["table"]["id"]
    clients = [_Client(tid, s["token"]) for s in data["seats"] if s["kind"] == "person"]
    for c in clients:
        (await http.post(f"/api/tables/{tid}/join", json={}, headers={"Authorization": f"Bearer {c.token}"})).raise_for_status()
    for c in clients:
        await _connect(c, run)
    return tid, clients, players if bots else None


async def _play(
    clients: list[_Client], bot_seat: int | None, actions: int, pace: float, deadline: float, run: _Run, rng: random.Random
) -> None:
    await asyncio.sleep(rng.random() * pace)
    done = 0
    while done < actions and time.perf_counter() < deadline:
        newest = max(c.version for c in clients)
        if await _until(clients, max(0, newest), 60, run) is None:
            run.failures.append("a client never got its table's latest version back")
            return
        msg = clients[0].msg
        assert msg is not None
        view = msg["view"]
        if view["outcome"] is not None:
            run.finished += 1
            return
        seat = view["to_act"]
        version = msg["version"]
        if seat == bot_seat:
            if await _until(clients, version + 1, 30, run) is None:
                run.failures.append(f"table {clients[0].table}: its bot did not move within 30 s")
                return
            continue
        me = clients[seat]
        if me.msg is None or me.msg["version"] != version or not me.msg["view"]["legal_actions"]:
            await asyncio.sleep(0.05)
            continue
        text = rng.choice(me.msg["view"]["legal_actions"])
        run.sent[(me.table, version)] = text
        sent = time.perf_counter()
        try:
            await me.ws.send(json.dumps({"type": "action", "action": text, "version": version}))
        except Exception:
            continue  # its process died: reconnect and look again
        got = await _until(clients, version + 1, 30, run)
        if got is None:
            continue  # lost with a dying process before it was stored: the next round looks at the table again
        run.latencies.append(got - sent)
        done += 1
        await asyncio.sleep(pace)


async def _scale(
    base: str,
    tables: int,
    players: int,
    actions: int,
    pace: float,
    max_seconds: float,
    bots: bool,
    watchers: int,
    per_address: int,
    kill: Any,
) -> tuple[_Run, float, dict[str, Any]]:
    import httpx

    run = _Run(base.replace("http://", "ws://"))
    rng = random.Random(3)
    made: list[tuple[str, list[_Client], int | None]] = []
    spectators: list[_Client] = []
    extra: dict[str, Any] = {}
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for i in range(0, tables, 10):
                made += await asyncio.gather(*(_table(http, players, bots, run) for _ in range(min(10, tables - i))))
            run.tables = [t for t, _, _ in made]
            for i in range(watchers):
                spec = _Client(made[i % len(made)][0], None, f"127.0.0.{2 + i // per_address}")
                await _connect(spec, run)
                spectators.append(spec)
            start = time.perf_counter()
            killer = asyncio.ensure_future(kill(start)) if kill is not None else None
            results = await asyncio.gather(
                *(_play(cl, bs, actions, pace, start + max_seconds, run, random.Random(rng.random())) for _, cl, bs in made),
                return_exceptions=True,
            )
            seconds = time.perf_counter() - start
            if killer is not None:
                extra["killed"] = await killer
            run.failures += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
            if spectators:  # every spectator socket ends at its table's final version (reconnecting if its process died)
                finals = {tid: (await http.get(f"/api/tables/{tid}")).json()["version"] for tid, _, _ in made}
                behind = 0
                for s in spectators:
                    if await _until([s], finals[s.table], 30, run) is None:
                        behind += 1
                extra["watchers_connected"] = sum(1 for s in spectators if not s.closed)
                extra["watchers_behind"] = behind
        return run, seconds, extra
    finally:
        for _, clients, _ in made:
            spectators += clients
        for c in spectators:
            if c.reader is not None:
                c.reader.cancel()
            if c.ws is not None:
                with contextlib.suppress(Exception):
                    await c.ws.close()


def _children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def _is_worker(pid: int) -> bool:
    """A uvicorn worker process (spawned by multiprocessing; not its resource tracker)."""
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return False
    return b"multiprocessing" in cmd and b"resource_tracker" not in cmd


def _audit(database_url: str, acked: list[tuple[str, int, str]], tables: list[str], bot_seat: int, since: Any) -> dict[str, int]:
    """From the database: acknowledged actions missing (by table, version and notation), the
    bot moves stored, and the tables whose bot moved after ``since`` (the kill, naive UTC)."""
    from sqlalchemy import bindparam, create_engine, text

    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            q = text("SELECT table_id, version, notation, seat, created_at FROM actions WHERE NOT undone AND table_id IN :ids")
            rows = list(conn.execute(q.bindparams(bindparam("ids", expanding=True)), {"ids": tables}))
    finally:
        engine.dispose()
    stored = {(r[0], r[1]): r[2] for r in rows}
    bots = [r for r in rows if r[3] == bot_seat]
    got = {"acked_lost": sum(1 for t, v, n in acked if stored.get((t, v)) != n), "bot_moves": len(bots)}
    if since is not None:
        got["tables_whose_bot_moved_after_the_kill"] = len({r[0] for r in bots if r[4] > since})
    return got


def run_scale_loadtest(
    database_url: str,
    redis_url: str,
    workers: int,
    tables: int,
    players: int = 2,
    actions: int = 40,
    pace: float = 0.5,
    max_seconds: float = 120.0,
    bots: bool = True,
    kill_after: float | None = None,
    watchers: int = 0,
    per_address: int = 150,
) -> dict[str, Any]:
    """Run it (see the module docstring); latencies in milliseconds."""
    args = [
        "--database-url",
        database_url,
        "--redis-url",
        redis_url,
        "--redis-prefix",
        f"alhambra-load-{os.getpid()}",
        "--workers",
        str(workers),
        "--bot-delay",
        "0",
        "--create-rate",
        str(max(20, tables * 2)),
        "--ws-per-address",
        str(max(200, per_address)),
        "--ws-per-table",
        "1000",
        "--bot-workers",
        "1",
    ]
    killed_at: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="alhambra-scale-") as tmp, serving(tmp, args, workers, start_timeout=180) as (base, proc):

        async def kill(_start: float) -> int | None:
            await asyncio.sleep(kill_after or 0)
            killed_at.append(dt.datetime.now(dt.UTC).replace(tzinfo=None))
            found = [p for p in _children(proc.pid) if _is_worker(p)]
            if not found:
                return None
            victim = sorted(found)[0]
            os.kill(victim, signal.SIGKILL)
            return victim

        got, seconds, extra = asyncio.run(
            _scale(base, tables, players, actions, pace, max_seconds, bots, watchers, per_address, kill if kill_after is not None else None)
        )
    return {
        "workers": workers,
        "tables": tables,
        "players": players,
        "bots": bots,
        "pace_s": pace,
        **throughput(got.latencies, seconds),
        "acked": len(got.acked),
        **_audit(database_url, got.acked, got.tables, players, killed_at[0] if killed_at else None),
        "reconnects": got.reconnects,
        "finished_games": got.finished,
        "failures": got.failures[:10],
        **extra,
    }
