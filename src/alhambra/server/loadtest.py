"""A bounded loopback load test: N concurrent tables played by bot clients over the real API.

:func:`run_loadtest` starts ``alhambra serve`` on a free 127.0.0.1 port with a fresh SQLite
file, creates ``tables`` tables whose every seat is a person seat, and plays them from this
process as third-party clients would: every seat has its own WebSocket; the seat to act picks a
random legal action from its view and sends it; the latency of that action is the time from
sending it until *every* seat of the table has received its update with the new version.
Each table plays at most ``actions`` actions, pausing ``pace`` seconds between them, and the
whole run stops after ``max_seconds`` at the latest. The server is stopped at the end.

:func:`run_fairness` measures what busy bots do to a person's table: one table with a person
seat against a ``random`` bot is played first on the idle server, then again beside
``bot_tables`` tables of six ``mcts:hard`` bots, each with a watching WebSocket so that it
plays. The person (this process) plays random legal actions, preferring those that end the
turn; it records the time from sending an action to its own update (action-to-update) and,
when the action handed the turn to the bot, until the bot's first move arrives (bot reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["latency_ms", "run_fairness", "run_loadtest", "serving", "throughput"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class _Seat:
    token: str
    ws: Any = None
    msg: dict[str, Any] | None = None
    version: int = -1
    got: dict[int, float] = field(default_factory=dict)
    to_act: dict[int, int | None] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None


@dataclass
class _Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    """Error messages the server sent (a refused action)."""
    failures: list[str] = field(default_factory=list)
    finished_games: int = 0


async def _reader(seat: _Seat, stats: _Stats) -> None:
    async for raw in seat.ws:
        now = time.perf_counter()
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind in ("state", "update"):
            seat.msg = msg
            seat.version = msg["version"]
            seat.got.setdefault(msg["version"], now)
            seat.to_act[msg["version"]] = msg["view"]["to_act"]
            seat.changed.set()
        elif kind == "error":
            stats.errors += 1
            seat.changed.set()


async def _wait_all(seats: list[_Seat], version: int, timeout: float) -> float | None:
    """The time the last seat saw ``version`` (or a later one), None on timeout."""
    end = time.perf_counter() + timeout
    while True:
        if all(s.version >= version for s in seats):
            return max(min(t for v, t in s.got.items() if v >= version) for s in seats)
        left = end - time.perf_counter()
        if left <= 0:
            return None
        for s in seats:
            s.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_any_change(seats), timeout=left)


async def _any_change(seats: list[_Seat]) -> None:
    waits = [asyncio.ensure_future(s.changed.wait()) for s in seats]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


async def _setup(http: Any, ws_base: str, players: int, stats: _Stats) -> list[_Seat]:
    """Create one table with ``players`` person seats, join them all and connect every seat."""
    import websockets

    r = await http.post("/api/tables", json={"seats": [{"kind": "person"}] * players})
    r.raise_for_status()
    data = r.json()
    tid = data["table"]["id"]
    seats = [_Seat(s["token"]) for s in data["seats"]]
    for s in seats:
        (await http.post(f"/api/tables/{tid}/join", json={}, headers={"Authorization": f"Bearer {s.token}"})).raise_for_status()
    for s in seats:
        s.ws = await websockets.connect(f"{ws_base}/ws/tables/{tid}", max_size=2**22)
        await s.ws.send(json.dumps({"type": "hello", "token": s.token}))
        s.reader = asyncio.create_task(_reader(s, stats))
    return seats


async def _play(seats: list[_Seat], actions: int, pace: float, deadline: float, stats: _Stats, rng: random.Random) -> None:
    """Play up to ``actions`` random actions at one table, timing each until every seat has it."""
    await asyncio.sleep(rng.random() * pace)  # spread the tables over the pace interval
    for _ in range(actions):
        if time.perf_counter() > deadline:
            break
        # every seat must have its first message (versions start at 0) and the newest version
        if await _wait_all(seats, max(0, *(s.version for s in seats)), 30) is None:
            stats.failures.append("a seat never received the table's latest version")
            break
        view = seats[0].msg["view"] if seats[0].msg else None
        if view is None or view["outcome"] is not None:
            stats.finished_games += 1
            break
        me = seats[view["to_act"]]
        assert me.msg is not None
        legal = me.msg["view"]["legal_actions"]
        version = me.msg["version"]
        sent = time.perf_counter()
        await me.ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "version": version}))
        done = await _wait_all(seats, version + 1, 30)
        if done is None:
            stats.failures.append("an update did not reach every seat within 30 s")
            break
        stats.latencies.append(done - sent)
        await asyncio.sleep(pace)


async def _run(base: str, tables: int, players: int, actions: int, pace: float, max_seconds: float) -> tuple[_Stats, float]:
    import httpx

    ws_base = base.replace("http://", "ws://")
    stats = _Stats()
    rng = random.Random(1)
    all_seats: list[list[_Seat]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for i in range(0, tables, 20):  # set every table up first, in batches
                got = await asyncio.gather(*(_setup(http, ws_base, players, stats) for _ in range(min(20, tables - i))))
                all_seats.extend(got)
        start = time.perf_counter()
        results = await asyncio.gather(
            *(_play(seats, actions, pace, start + max_seconds, stats, random.Random(rng.random())) for seats in all_seats),
            return_exceptions=True,
        )
        stats.failures += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
        return stats, time.perf_counter() - start
    finally:
        for seats in all_seats:
            for s in seats:
                if s.reader is not None:
                    s.reader.cancel()
                if s.ws is not None:
                    await s.ws.close()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def latency_ms(latencies: Sequence[float], name: str = "") -> dict[str, float]:
    """The p50, p90, p99 and maximum of ``latencies`` (seconds) in milliseconds, under the keys
    ``{name}p50_ms`` ... ``{name}max_ms`` (NaN for none)."""
    ms = [1000 * x for x in latencies]
    got = {f"{name}p{q}_ms": _percentile(ms, q / 100) for q in (50, 90, 99)}
    got[f"{name}max_ms"] = max(ms) if ms else float("nan")
    return got


def throughput(latencies: Sequence[float], seconds: float) -> dict[str, Any]:
    """A run's actions (one latency each, in seconds), its length, actions per second and :func:`latency_ms`."""
    return {
        "actions": len(latencies),
        "seconds": seconds,
        "actions_per_s": len(latencies) / seconds if seconds > 0 else 0.0,
        **latency_ms(latencies),
    }


def run_loadtest(tables: int, players: int, actions: int, pace: float, max_seconds: float) -> dict[str, Any]:
    """Run the load test and return its figures (latencies in milliseconds)."""
    extra = ["--bot-delay", "0", "--create-rate", str(max(20, tables * 2))]
    with tempfile.TemporaryDirectory(prefix="alhambra-load-") as tmp, _server(tmp, extra) as base:
        stats, seconds = asyncio.run(_run(base, tables, players, actions, pace, max_seconds))
    return {
        "tables": tables,
        "players": players,
        "pace_s": pace,
        **throughput(stats.latencies, seconds),
        "errors": stats.errors,
        "failures": stats.failures[:10],
        "finished_games": stats.finished_games,
    }


@contextlib.contextmanager
def _server(tmp: str, extra: list[str]) -> Iterator[str]:
    """``alhambra serve`` on a free loopback port with a fresh SQLite file; yields its base URL."""
    with serving(tmp, ["--database-url", f"sqlite:///{Path(tmp) / 'load.sqlite3'}", *extra]) as (base, _proc):
        yield base


@contextlib.contextmanager
def serving(tmp: str, args: Sequence[str], workers: int = 1, start_timeout: float = 30.0) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``alhambra serve ARGS`` on a free loopback port, its output in ``tmp``/server.log; yields
    its base URL and process once ``workers`` server processes answer, and stops it at the end
    (SIGTERM, then SIGKILL after 30 s)."""
    port = _free_port()
    log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115 - closed below
    cmd = [sys.executable, "-m", "alhambra", "serve", "--port", str(port), *args]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_up(base, proc, workers, start_timeout)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


@dataclass
class _PersonStats:
    bot_reply: list[float] = field(default_factory=list)
    action_update: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def _person_table(http: Any, ws_base: str, actions: int, deadline: float, rng: random.Random) -> _PersonStats:
    """Play a person seat against a random bot; time each action's update and each bot reply."""
    import websockets

    stats = _PersonStats()
    r = await http.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    r.raise_for_status()
    data = r.json()
    tid, token = data["table"]["id"], data["seats"][0]["token"]
    (await http.post(f"/api/tables/{tid}/join", json={}, headers={"Authorization": f"Bearer {token}"})).raise_for_status()
    seat = _Seat(token)
    seat.ws = await websockets.connect(f"{ws_base}/ws/tables/{tid}", max_size=2**22)
    await seat.ws.send(json.dumps({"type": "hello", "token": token}))
    seat.reader = asyncio.create_task(_reader(seat, _Stats()))
    try:
        done = 0
        while done < actions and time.perf_counter() < deadline:
            # wait until it is our turn (the bot may be moving)
            end = time.perf_counter() + 60
            while not (seat.msg and seat.msg["view"]["outcome"] is None and seat.msg["view"]["legal_actions"]):
                if seat.msg and seat.msg["view"]["outcome"] is not None:
                    return stats
                if time.perf_counter() > end:
                    stats.failures.append("the person's turn never came back within 60 s")
                    return stats
                seat.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(seat.changed.wait(), timeout=1)
            msg = seat.msg
            version = msg["version"]
            finals = msg["final_actions"]
            action = rng.choice(finals) if finals else rng.choice(msg["view"]["legal_actions"])
            sent = time.perf_counter()
            await seat.ws.send(json.dumps({"type": "action", "action": action, "version": version}))
            got = await _wait_all([seat], version + 1, 60)
            if got is None:
                stats.failures.append("an update did not arrive within 60 s")
                return stats
            stats.action_update.append(got - sent)
            done += 1
            after = seat.msg
            if after is None or after["view"]["outcome"] is not None:
                return stats
            # the bot is to act after our action; if its move came so fast that our own update
            # was coalesced into it, version + 1 was never seen on its own
            if seat.to_act.get(version + 1, 1) != 0:
                reply = await _wait_all([seat], version + 2, 60)  # the bot's first move
                if reply is None:
                    stats.failures.append("the bot did not reply within 60 s")
                    return stats
                stats.bot_reply.append(reply - sent)
        return stats
    finally:
        if seat.reader is not None:
            seat.reader.cancel()
        await seat.ws.close()


async def _fairness(base: str, bot_tables: int, actions: int, max_seconds: float) -> dict[str, Any]:
    import httpx
    import websockets

    ws_base = base.replace("http://", "ws://")
    rng = random.Random(7)
    out: dict[str, Any] = {}
    watchers: list[Any] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        start = time.perf_counter()
        out["idle"] = await _person_table(http, ws_base, actions, start + max_seconds / 2, rng)
        ids = []
        for _ in range(bot_tables):
            r = await http.post("/api/tables", json={"seats": [{"kind": "bot", "bot": "mcts:hard"}] * 6})
            r.raise_for_status()
            ids.append(r.json()["table"]["id"])
            ws = await websockets.connect(f"{ws_base}/ws/tables/{ids[-1]}", max_size=2**22)
            await ws.send(json.dumps({"type": "hello"}))
            watchers.append((ws, asyncio.create_task(_drain(ws))))
        try:
            # measure the steady state: wait until the search workers are up and have answered
            # (a first bot move at some table), not the workers' start-up
            end = time.perf_counter() + 60
            while ids and time.perf_counter() < end:
                versions = [(await http.get(f"/api/tables/{tid}")).json()["version"] for tid in ids]
                if max(versions) >= 1:
                    break
                await asyncio.sleep(0.2)
            out["loaded"] = await _person_table(http, ws_base, actions, time.perf_counter() + max_seconds / 2, rng)
        finally:
            for ws, task in watchers:
                task.cancel()
                await ws.close()
    return out


async def _drain(ws: Any) -> None:
    async for _ in ws:
        pass


def run_fairness(bot_tables: int, actions: int = 30, max_seconds: float = 300.0, server_args: tuple[str, ...] = ()) -> dict[str, Any]:
    """Bot fairness: the person table's bot-reply and action-to-update figures (milliseconds) on
    the idle server and beside ``bot_tables`` watched all-bot ``mcts:hard`` tables, and the
    loaded/idle ratios of the bot-reply percentiles. ``server_args`` go to ``alhambra serve``."""
    with tempfile.TemporaryDirectory(prefix="alhambra-fair-") as tmp, _server(tmp, ["--bot-delay", "0", *server_args]) as base:
        got = asyncio.run(_fairness(base, bot_tables, actions, max_seconds))
    result: dict[str, Any] = {"bot_tables": bot_tables, "server_args": list(server_args), "failures": []}
    for phase in ("idle", "loaded"):
        st: _PersonStats = got[phase]
        result[phase] = {
            "actions": len(st.action_update),
            "bot_replies": len(st.bot_reply),
            **latency_ms(st.bot_reply, "bot_reply_"),
            **latency_ms(st.action_update, "update_"),
        }
        result["failures"] += [f"{phase}: {f}" for f in st.failures]
    for key in ("bot_reply_p50_ms", "bot_reply_p99_ms", "update_p50_ms", "update_p99_ms"):
        idle = result["idle"][key]
        result[key.replace("_ms", "_ratio")] = result["loaded"][key] / idle if idle > 0 else float("nan")
    return result


def _wait_up(base: str, proc: subprocess.Popen[bytes], workers: int = 1, timeout: float = 30.0) -> None:
    """Until ``workers`` different server processes have answered /api/health (with Redis each
    names itself; a single process need not)."""
    import httpx

    seen: set[str] = set()
    end = time.monotonic() + timeout
    while len(seen) < workers:
        if proc.poll() is not None:
            raise RuntimeError("the server exited during start-up")
        if time.monotonic() > end:
            if not seen:
                raise RuntimeError(f"the server did not start within {timeout:g} s")
            raise RuntimeError(f"only {len(seen)} of {workers} server processes answered within {timeout:g} s")
        with contextlib.suppress(httpx.HTTPError, ValueError):
            r = httpx.get(f"{base}/api/health", timeout=2)
            if r.status_code == 200:
                seen.add(str(r.json().get("process", "")))
        time.sleep(0.05)
