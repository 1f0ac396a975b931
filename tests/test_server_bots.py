"""The bot pool: fair across tables (as scheduling order, with instant bots), searching bots in
worker processes, recovery from a dead worker, all-bot tables only while watched and capped,
and a shutdown that does not wait for a search. On SQLite only: the pool sees the storage
through the service alone; its claims across processes on PostgreSQL + Redis are test_server_scale.py's."""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from alhambra.bots import Observation
from alhambra.server.botpool import BotPool, _Pending, is_searching
from alhambra.server.db import Database
from alhambra.server.service import BotRequest, SeatSpec, TableService
from alhambra.view import view
from tests.server_helpers import ServerProcess, receive, wait_for

PAUSE_FILE = "ALHAMBRA_TEST_PAUSE_FILE"
PROBE_DIR = "ALHAMBRA_TEST_PROBE_DIR"


def paused_search(spec: str, obs: Observation, seed: int) -> str:
    """A stand-in search (runs in a worker process): waits while the file named by the
    environment variable exists, then plays the first legal action."""
    path = os.environ.get(PAUSE_FILE)
    while path and os.path.exists(path):
        time.sleep(0.02)
    return obs.legal[0]


def probe_search(spec: str, obs: Observation, seed: int) -> str:
    """A stand-in search (runs in a worker process): waits like :func:`paused_search`, then calls
    the worker's yield point once, as every search iteration does, and writes down whether this
    search yields to people and how long it paused."""
    from alhambra.bots.base import yield_point
    from alhambra.server import botpool

    (Path(os.environ[PROBE_DIR]) / f"started-{os.getpid()}").touch()
    path = os.environ.get(PAUSE_FILE)
    while path and os.path.exists(path):
        time.sleep(0.02)
    pause = yield_point()
    paused = pause() if pause is not None else -1.0
    out = Path(os.environ[PROBE_DIR]) / f"{os.getpid()}-{time.monotonic_ns()}"
    out.write_text(f"{int(botpool._yields)} {paused}")
    return obs.legal[0]


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[TableService]:
    db = Database(f"sqlite:///{tmp_path / 'bots.sqlite3'}")
    yield TableService(db)
    db.close()


def _bots(*levels: str) -> list[SeatSpec]:
    return [SeatSpec("bot", level) for level in levels]


def _finished(svc: TableService, tid: str) -> bool:
    return svc.table(tid).snap.status == "finished"


def test_specs_that_search_run_in_the_workers() -> None:
    assert is_searching("mcts:hard") and is_searching("mcts:easy")
    assert not is_searching("random") and not is_searching("greedy")


def test_tables_take_turns_move_by_move(svc: TableService) -> None:
    """Three all-bot tables with instant bots: while all three play, every three consecutive
    moves started belong to three different tables (round-robin: a table's move never waits
    for two moves of another table)."""
    pool = BotPool(svc, delay=0.0, workers=1, max_bot_tables=3)
    tids = [svc.create_table(_bots("random", "random", "greedy"))[0].id for _ in range(3)]
    for tid in tids:
        pool.watch(tid)
    pool.start()
    try:
        wait_for(lambda: any(_finished(svc, t) for t in tids), timeout=120, step=0.05)
    finally:
        pool.stop()
    order = list(pool.dispatched)
    first_end = min(svc.table(t).snap.version for t in tids if _finished(svc, t))
    assert len(order) > 3 * 50
    # each table's versions count its moves; look at the moves before any table could have ended
    window = order[: 3 * (first_end - 1)]
    for i in range(len(window) - 2):
        assert len(set(window[i : i + 3])) == 3, window[i : i + 6]


def test_tables_with_a_person_go_first(svc: TableService) -> None:
    """The dispatcher's order: a due move of a table with a person goes before the moves of
    all-bot tables that became due earlier (in due order among each kind), and before the
    answers of their searches; a person table's own answer goes before all of them."""
    pool = BotPool(svc, delay=0.0, workers=2, max_bot_tables=5)
    bots = [svc.create_table(_bots("random", "random"))[0].id for _ in range(3)]
    people = [svc.create_table([SeatSpec("person"), SeatSpec("bot", "random")])[0].id for _ in range(2)]
    for tid in bots:
        pool.watch(tid)  # not started: nothing is dispatched, the pending moves stay as set here
    with pool._cond:
        pool._pending.clear()
        due = iter(range(10))
        for tid in [bots[0], people[1], bots[1], people[0], bots[2]]:
            pool._pending[tid] = _Pending(float(next(due)), 0, 0, False, tid in bots)
        order = []
        while (pick := pool._pick(100.0)[0]) is not None:
            order.append(pick)
            del pool._pending[pick]
        assert order == [people[1], people[0], bots[0], bots[1], bots[2]]
        # not yet due: the wait is until the earliest, of either kind
        pool._pending[bots[0]] = _Pending(5.0, 0, 0, False, True)
        pool._pending[people[0]] = _Pending(7.0, 0, 0, False, False)
        assert pool._pick(4.0) == (None, 1.0)
        # answers of searches: a person table's first; an all-bot table's waits while a person's move is due
        answers = [(_request(svc, tid), Future[str]()) for tid in (bots[0], bots[1], people[1])]
        pool._results.extend(answers)
        assert pool._next_result(people_only=True) == answers[2]
        assert pool._next_result(people_only=True) is None
        assert pool._next_result(people_only=False) == answers[0]


def _request(svc: TableService, tid: str) -> BotRequest:
    snap = svc.table(tid).snap
    req = svc.bot_request(tid, snap.version)
    if req is None:  # the person is to act: any request of this table will do for the order
        seat = snap.state.to_act
        assert seat is not None
        req = BotRequest(tid, snap.version, seat, "random", Observation(seat, view(snap.state, seat), ()), False)
    return req


def test_all_bot_tables_play_only_while_watched_and_at_most_max(svc: TableService) -> None:
    pool = BotPool(svc, delay=0.0, workers=1, max_bot_tables=2)
    tids = [svc.create_table(_bots("random", "random"))[0].id for _ in range(3)]
    pool.start()
    try:
        time.sleep(0.3)
        assert [svc.table(t).snap.version for t in tids] == [0, 0, 0]  # nobody watches: paused
        for tid in tids:
            pool.watch(tid)
        wait_for(lambda: sum(svc.table(t).snap.version > 10 for t in tids) == 2, timeout=30, step=0.02)
        playing = [t for t in tids if svc.table(t).snap.version > 0]
        assert len(playing) == 2  # the cap: the third waits for a place
        waiting = next(t for t in tids if t not in playing)
        pool.unwatch(playing[0])  # nobody watches it any more: it pauses, the third plays
        wait_for(lambda: svc.table(waiting).snap.version > 10, timeout=30, step=0.02)
        wait_for(lambda: not pool.busy(playing[0]), timeout=30, step=0.01)  # a move in flight may still land
        paused_at = svc.table(playing[0]).snap.version
        time.sleep(0.3)
        assert svc.table(playing[0]).snap.version == paused_at
        assert not _finished(svc, playing[0])
    finally:
        pool.stop()


def test_a_searching_bot_plays_from_a_worker_process(svc: TableService) -> None:
    """A real mcts:easy bot moves through the process pool, given only its seat's observation."""
    pool = BotPool(svc, delay=0.0, workers=1)
    table, _ = svc.create_table(_bots("mcts:easy", "random"))
    req = svc.bot_request(table.id, 0)
    assert req is not None and req.all_bots
    assert req.obs.view == view(table.snap.state, req.seat)  # what the worker is sent: the seat's view
    pool.start()
    try:
        pool.watch(table.id)
        wait_for(lambda: len(table.snap.record) >= 8 and pool.worker_pids(), timeout=60, step=0.05)
        assert os.getpid() not in pool.worker_pids()
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        for pid in pool.worker_pids():  # the workers yield the CPU to the server
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + 10)
            # in a session of their own (Linux autogroups share the CPU between sessions first)
            assert os.getsid(pid) == pid != os.getsid(0)
        assert any(e.seat == 0 for e in table.snap.record)  # the mcts seat moved
    finally:
        pool.stop()
    assert pool.worker_pids() == []


def test_a_dead_worker_gives_a_random_move_and_a_fresh_pool(
    svc: TableService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pause = tmp_path / "pause"
    pause.touch()
    monkeypatch.setenv(PAUSE_FILE, str(pause))  # the spawned workers inherit it
    pool = BotPool(svc, delay=0.0, workers=1, search=paused_search)
    table, _ = svc.create_table(_bots("mcts:hard", "mcts:hard"))
    pool.start()
    try:
        pool.watch(table.id)
        pids = wait_for(lambda: pool.searching() and pool.worker_pids(), timeout=60, step=0.05)
        assert table.snap.version == 0
        with caplog.at_level(logging.WARNING, logger="alhambra.server"):
            os.kill(pids[0], signal.SIGKILL)
            wait_for(lambda: table.snap.version >= 1, timeout=30, step=0.02)
        assert any("worker died" in r.getMessage() for r in caplog.records)
        pause.unlink()  # from now on the (fresh) workers answer at once
        wait_for(lambda: table.snap.version >= 6, timeout=60, step=0.05)
        assert pids[0] not in pool.worker_pids()
    finally:
        pool.stop()


def test_a_worker_is_kept_for_tables_with_a_person(svc: TableService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers, two watched all-bot tables searching without end: only one of them gets a
    worker; a person's table with a searching bot still finds the other one."""
    pause = tmp_path / "pause"
    pause.touch()
    monkeypatch.setenv(PAUSE_FILE, str(pause))
    pool = BotPool(svc, delay=0.0, workers=2, max_bot_tables=5, search=paused_search)
    bot_tables = [svc.create_table(_bots("mcts:hard", "mcts:hard"))[0].id for _ in range(2)]
    person, tokens = svc.create_table([SeatSpec("person"), SeatSpec("bot", "mcts:easy")])
    pool.start()
    try:
        for tid in bot_tables:
            pool.watch(tid)
        wait_for(lambda: pool.searching(), timeout=60, step=0.02)
        time.sleep(0.2)
        assert len(pool.searching()) == 1  # the second all-bot table waits: one worker is kept
        svc.join(person.id, tokens[0], None)
        if person.snap.state.to_act == 0:  # hand the turn to the bot
            snap = person.snap
            svc.submit(person.id, 0, next(a for a in _finals(snap) if a.startswith("take")), snap.version)
        wait_for(lambda: person.id in pool.searching(), timeout=30, step=0.02)
        assert len(pool.searching()) == 2
    finally:
        pool.stop()


def test_all_bot_searches_pause_while_a_person_move_is_in_hand(svc: TableService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """People first on the CPU: while the pool holds a person's move (``people_first``, as around
    a person's action and a bot's reply at a table with a person), the search of an all-bot
    table sleeps at its yield point until shortly after the hold ends; the search for a table
    with a person never does."""
    pause, probes = tmp_path / "pause", tmp_path / "probes"
    pause.touch()
    probes.mkdir()
    monkeypatch.setenv(PAUSE_FILE, str(pause))
    monkeypatch.setenv(PROBE_DIR, str(probes))
    pool = BotPool(svc, delay=0.0, workers=2, max_bot_tables=5, search=probe_search)
    bots = svc.create_table(_bots("mcts:hard", "mcts:hard"))[0].id
    person, tokens = svc.create_table([SeatSpec("person"), SeatSpec("bot", "mcts:easy")])
    pool.start()
    try:
        pool.watch(bots)
        svc.join(person.id, tokens[0], None)
        if person.snap.state.to_act == 0:  # hand the turn to the bot
            snap = person.snap
            svc.submit(person.id, 0, next(a for a in _finals(snap) if a.startswith("take")), snap.version)
        wait_for(lambda: len(list(probes.glob("started-*"))) == 2, timeout=60, step=0.02)  # both in a worker
        with pool.people_first():
            assert pool.paused_until() - time.monotonic() > 0.4  # HOLD_MAX ahead
            pause.unlink()  # both searches reach their yield point now
            time.sleep(0.3)
        assert 0 < pool.paused_until() - time.monotonic() <= 0.05  # LINGER after the hold
        wait_for(lambda: {f.read_text().split()[0] for f in probes.glob("*-*") if not f.name.startswith("s")} == {"0", "1"})
    finally:
        pool.stop()
    paused: dict[str, float] = {}
    answers = [f for f in probes.iterdir() if not f.name.startswith("started")]
    for f in sorted(answers, key=lambda f: int(f.name.split("-")[1])):  # the first answer of each kind
        yields, seconds = f.read_text().split()
        paused.setdefault(yields, float(seconds))
    assert paused["0"] == 0.0  # the person's table's search went on
    assert 0.2 < paused["1"] < 1.0  # the all-bot search slept until the hold (and LINGER) ended


def test_a_paused_search_gets_its_time_budget_back() -> None:
    """A search calls the yield point once per iteration and adds the seconds it paused to its
    time budget (on the native core and on the Python engine)."""
    import random

    from alhambra.bots import make_bot
    from alhambra.bots.base import Budget, observe, set_yield_point
    from alhambra.engine import new_game
    from alhambra.native import available
    from alhambra.state import GameConfig

    state, events = new_game(GameConfig(players=3), 5)
    seat = state.to_act
    assert seat is not None
    obs = observe(state, seat, events)
    for core in ("native", "python") if available() else ("python",):
        calls: list[float] = []

        def pause(calls: list[float] = calls) -> float:
            calls.append(time.monotonic())
            if len(calls) == 2:
                time.sleep(0.3)
                return 0.3
            return 0.0

        bot = make_bot(f"mcts:easy@core={core}")
        set_yield_point(pause)
        try:
            start = time.perf_counter()
            bot.choose(obs, Budget(seconds=0.15), random.Random(1))
            took = time.perf_counter() - start
        finally:
            set_yield_point(None)
        assert took >= 0.4  # 0.15 s of search + 0.3 s paused, not cut short by the pause
        assert len(calls) >= 3 and calls[2] - calls[1] >= 0.29


def _finals(snap: Any) -> list[str]:
    from alhambra.server.service import final_actions

    return final_actions(snap.state)


def test_stopping_does_not_wait_for_a_search(svc: TableService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pause = tmp_path / "pause"
    pause.touch()  # the search never ends on its own
    monkeypatch.setenv(PAUSE_FILE, str(pause))
    pool = BotPool(svc, delay=0.0, workers=1, search=paused_search)
    table, _ = svc.create_table(_bots("mcts:hard", "mcts:hard"))
    pool.start()
    pool.watch(table.id)
    pids = wait_for(lambda: pool.searching() and pool.worker_pids(), timeout=60, step=0.05)
    version = table.snap.version  # the random seat may have moved first
    pool.stop()  # returns although the search would never finish
    wait_for(lambda: not any(_alive(pid) for pid in pids), timeout=10, step=0.05)
    assert table.snap.version == version  # the dropped search played nothing
    assert pool.searching() == [table.id] and pool.worker_pids() == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out.extend(int(x) for x in text)
    return out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_server_stops_cleanly_during_an_expert_search(tmp_path: Path, sig: int) -> None:
    """SIGTERM while an mcts:hard bot searches in a worker: the server exits by itself (the
    helper would SIGKILL it after 15 s) and leaves no worker process behind. After SIGKILL
    (nothing runs in the server any more) the workers, in sessions of their own, leave too."""
    server = ServerProcess(tmp_path / "stop.sqlite3", bot_delay=0.0, extra_args=("--bot-workers", "1"))
    workers: list[int] = []
    try:
        created: Any = server.http.post("/api/tables", json={"seats": [{"kind": "bot", "bot": "mcts:hard"}] * 3}).json()
        tid = created["table"]["id"]
        import websockets.sync.client as wsc

        with wsc.connect(f"ws://127.0.0.1:{server.port}/ws/tables/{tid}") as ws:
            ws.send('{"type": "hello"}')
            ws.recv(timeout=10)
            workers = wait_for(lambda: len(got := _children(server.proc.pid)) >= 2 and got, timeout=60, step=0.05)  # tracker, worker
            time.sleep(0.5)  # the worker has started the search
            server.proc.send_signal(sig)
            rc = server.proc.wait(timeout=15)
    finally:
        server.stop()
    if sig == signal.SIGTERM:
        assert rc in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it has shut down
        assert "Application shutdown complete" in server.log_file.read_text()
    else:
        assert rc == -signal.SIGKILL
    # the workers were told to go at shutdown; a loaded machine may take a moment to reap them
    wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10, step=0.05)


def test_a_persons_action_holds_the_all_bot_searches(c: Any) -> None:
    """The server wraps a person's action (HTTP and WebSocket) and undo in ``people_first``:
    afterwards the all-bot searches stay paused for LINGER at most."""
    from alhambra.server.botpool import LINGER

    from .server_helpers import auth, two_people

    tid, tokens = two_people(c)
    runner = c.app.state.runner
    for via in ("http", "ws"):
        msg = c.get(f"/api/tables/{tid}/view").json()
        seat = msg["view"]["to_act"]
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        before = time.monotonic()
        if via == "http":
            body = {"action": mine["final_actions"][0], "version": mine["version"]}
            assert c.post(f"/api/tables/{tid}/actions", json=body, headers=auth(tokens[seat])).status_code == 200
        else:
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                ws.send_json({"type": "hello", "token": tokens[seat]})
                receive(ws)
                ws.send_json({"type": "action", "action": mine["final_actions"][0], "version": mine["version"], "id": 1})
                while receive(ws).get("type") != "ack":
                    pass
        assert before < runner.paused_until() <= time.monotonic() + LINGER  # held, and let go after
