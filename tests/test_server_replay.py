"""Replays and hints of the table server (JSON API through the real app, SQLite file; the hints
and the upload limit on PostgreSQL + Redis too, where hints are claimed and uploads counted in
Redis; the finished 3-player game of the replay tests is SQLite's alone, to keep the suite short).

Replays: a finished table's game as frames to step through (refused before the end), the same
for an uploaded record file (a bad file gets a clear 422), every frame equal to the engine's
position after that many actions, the moves told in sentences. Hints: the strongest bot's move
for the seat to act, from a worker process, only at private tables whose creator allowed them.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from alhambra.engine import apply, new_game
from alhambra.record import GameRecord
from alhambra.server import create_app
from alhambra.server.db import Database
from alhambra.view import view

from .replay_helpers import finished_game
from .server_helpers import auth, create, two_people, wait_for

RAW = re.compile(r"\b[PSACGT]\d+[nesw]*\b|\b[bgoy]\d+\b|\b-?\d+,-?\d+\b")
"""Tile codes, card codes and coordinates: the record's notation, never shown to people."""


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('replay') / 'db.sqlite3'}", bot_delay=0.0, hint_seconds=0.3)
    with TestClient(app) as cl:
        yield cl


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def hc(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The hint tests' client: on SQLite, and on PostgreSQL + Redis (the hint claim is Redis's)."""
    from .scale_helpers import storage

    with (
        storage(request.param, tmp_path_factory.mktemp("hints")) as where,
        TestClient(create_app(**where, bot_delay=0.0, hint_seconds=0.3)) as cl,
    ):
        yield cl


@pytest.fixture(scope="module")
def finished(c: TestClient) -> str:
    """A finished 3-player game (Ann, Ben, Cy)."""
    return finished_game(c, ["Ann", "Ben", "Cy"])


def test_a_replay_is_refused_before_the_end(c: TestClient) -> None:
    tid, tokens = two_people(c)
    for headers in ({}, auth(tokens[0])):
        r = c.get(f"/api/tables/{tid}/replay", headers=headers)
        assert r.status_code == 409
        assert r.json() == {"detail": "a replay can be watched once the game is over"}
    assert c.get("/api/tables/nosuchtable/replay").status_code == 404


def test_the_replay_of_a_finished_game_matches_the_engine(c: TestClient, finished: str) -> None:
    tid = finished
    r = c.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 200
    assert r.headers.get("content-encoding") == "gzip"  # the client asked for it; it is large
    rep = r.json()
    record = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
    assert len(rep["frames"]) == len(record.actions) + 1
    assert len(rep["moves"]) == len(record.actions)
    assert rep["names"] == ["Ann", "Ben", "Cy"]
    state, _ = new_game(record.config, record.seed)
    for i, frame in enumerate(rep["frames"]):
        expected = view(state, None, with_legal_actions=False)
        for key in ("market", "display", "deck_count", "bag_count", "rounds_scored", "to_act", "turn", "neutral"):
            assert frame[key] == expected[key], (i, key)
        for s, seat in enumerate(frame["seats"]):
            assert seat["alhambra"] == expected["seats"][s]["alhambra"], (i, s)
            assert seat["reserve"] == expected["seats"][s]["reserve"]
            assert seat["score"] == state.scores[s]
            # the game is over: every hand is shown
            assert sorted(seat["hand"]) == sorted(state.card_code(card) for card in state.players[s].hand)
        if i < len(record.actions):
            assert rep["moves"][i]["seat"] == state.to_act
            assert rep["moves"][i]["notation"] == str(record.actions[i])
            state, _ = apply(state, record.actions[i])
    assert rep["outcome"] == state.outcome
    assert rep["table"]["status"] == "finished"
    texts = [t for m in rep["moves"] for t in m["sentences"]]
    assert all(texts[i] for i in range(len(texts)))
    raw = [t for t in texts if RAW.search(t)]
    assert not raw, f"raw notation in the move list: {raw[:5]}"
    assert any(t.startswith(("Ann ", "Ben ", "Cy ")) and " buys " in t for t in texts)
    assert re.fullmatch(r"Game over: .+ wins? with \d+ points", rep["moves"][-1]["sentences"][-1])


def test_an_uploaded_record_replays_and_bad_files_get_a_clear_422(c: TestClient, finished: str) -> None:
    tid = finished
    record = c.get(f"/api/tables/{tid}/record").json()
    r = c.post("/api/replay", json=record)
    assert r.status_code == 200
    rep = r.json()
    assert len(rep["frames"]) == len(record["actions"]) + 1
    assert rep["names"] == ["Player 1", "Player 2", "Player 3"]  # a record file holds no names
    assert rep["frames"] == c.get(f"/api/tables/{tid}/replay").json()["frames"]

    def refused(content: bytes) -> str:
        got = c.post("/api/replay", content=content, headers={"Content-Type": "application/json"})
        assert got.status_code == 422, got.text
        detail: str = got.json()["detail"]
        return detail

    assert "not JSON" in refused(b"this is not json")
    assert "not a game record" in refused(b'{"format": "something else"}')
    assert "must be a JSON object" in refused(b"[1, 2, 3]")
    broken = dict(record, actions=[*record["actions"][:3], "take b99", *record["actions"][3:]])
    assert "step 4" in refused(json.dumps(broken).encode())
    unreadable = dict(record, actions=["fly to the moon"])
    assert "step 1" in refused(json.dumps(unreadable).encode())
    # a partial record replays as far as it goes
    short = c.post("/api/replay", json=dict(record, actions=record["actions"][:5])).json()
    assert len(short["frames"]) == 6


@pytest.mark.both_backends
def test_record_uploads_are_rate_limited(store: dict[str, Any]) -> None:
    app = create_app(**store, bot_delay=0.0)
    with TestClient(app) as cl:
        statuses = [cl.post("/api/replay", content=b"not a record").status_code for _ in range(31)]
        assert statuses[:30] == [422] * 30  # each one read and refused with its reason
        assert statuses[30] == 429
        r = cl.post("/api/replay", content=b"not a record")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "too many record files" in r.json()["detail"]


def test_hints_are_only_for_private_tables_whose_creator_allows_them(hc: TestClient) -> None:
    c = hc
    r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot"}], "public": True, "hints": True})
    assert r.status_code == 422
    assert "private tables" in r.json()["detail"]
    tid, tokens = two_people(c)
    assert c.get(f"/api/tables/{tid}").json()["hints"] is False
    msg = c.get(f"/api/tables/{tid}/view").json()
    seat = msg["view"]["to_act"]
    r = c.get(f"/api/tables/{tid}/hint?version={msg['version']}", headers=auth(tokens[seat]))
    assert r.status_code == 403
    assert "hints are off" in r.json()["detail"]
    assert c.get(f"/api/tables/{tid}/hint?version=0").status_code == 401


def hint_table(c: TestClient) -> tuple[str, list[str], int, int]:
    """A started 2-person table that allows hints: id, tokens, the seat to act, the version."""
    data = create(c, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}], hints=True)
    tid = data["table"]["id"]
    tokens = [s["token"] for s in data["seats"]]
    for tok in tokens:
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    msg = c.get(f"/api/tables/{tid}/view").json()
    assert msg["table"]["hints"] is True
    return tid, tokens, msg["view"]["to_act"], msg["version"]


def test_a_hint_answers_a_legal_move_in_words(hc: TestClient) -> None:
    c = hc
    tid, tokens, seat, version = hint_table(c)
    r = c.get(f"/api/tables/{tid}/hint?version={version}", headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    hint = r.json()
    mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
    assert hint["action"] in mine["view"]["legal_actions"]
    assert hint["version"] == version and hint["bot"] == "mcts:hard"
    assert hint["text"].startswith("You "), hint["text"]
    assert not RAW.search(hint["text"]), hint["text"]
    # the move can be played as it is
    played = c.post(f"/api/tables/{tid}/actions", json={"action": hint["action"], "version": version}, headers=auth(tokens[seat]))
    assert played.status_code == 200


def test_a_hint_is_refused_out_of_turn_on_a_stale_version_and_while_one_is_computed(hc: TestClient) -> None:
    c = hc
    tid, tokens, seat, version = hint_table(c)
    other = 1 - seat
    r = c.get(f"/api/tables/{tid}/hint?version={version}", headers=auth(tokens[other]))
    assert r.status_code == 409 and "your decision" in r.json()["detail"]
    r = c.get(f"/api/tables/{tid}/hint?version={version + 5}", headers=auth(tokens[seat]))
    assert r.status_code == 409 and "stale version" in r.json()["detail"]
    assert c.get(f"/api/tables/{tid}/hint", headers=auth(tokens[seat])).status_code == 422  # no version

    pool = c.app.state.hints  # type: ignore[attr-defined]
    first: dict[str, Any] = {}

    def ask() -> None:
        first["response"] = c.get(f"/api/tables/{tid}/hint?version={version}", headers=auth(tokens[seat]))

    worker = threading.Thread(target=ask)
    worker.start()
    try:
        wait_for(lambda: pool.busy(tid) or "response" in first, timeout=30, step=0.002)
        if "response" not in first:
            r = c.get(f"/api/tables/{tid}/hint?version={version}", headers=auth(tokens[seat]))
            assert r.status_code == 429
            assert r.headers["retry-after"] == "2"
            assert "already being computed" in r.json()["detail"]
    finally:
        worker.join(timeout=60)
    assert first["response"].status_code == 200
    assert not pool.busy(tid)


def test_an_old_database_gets_the_hints_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.execute(
        "CREATE TABLE game_tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80), public BOOLEAN, status VARCHAR(16),"
        " config_json TEXT, seed BIGINT, version INTEGER, snapshot_json TEXT, start_events_json TEXT,"
        " created_at DATETIME, updated_at DATETIME)"
    )
    con.execute("INSERT INTO game_tables VALUES ('abc', NULL, 0, 'finished', '{}', 1, 0, '{}', '[]', '2026-01-01', '2026-01-01')")
    con.commit()
    con.close()
    db = Database(f"sqlite:///{path}")
    try:
        row = db.table("abc")
        assert row is not None and not row.hints  # NULL on old rows: no hints
    finally:
        db.close()
    con = sqlite3.connect(path)
    assert "hints" in [r[1] for r in con.execute("PRAGMA table_info(game_tables)")]
    con.close()


def _ended(pid: int | None) -> bool:
    """The process ``pid`` has exited (a zombie or no longer there)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_closing_the_hint_pool_ends_a_search_in_progress() -> None:
    from alhambra.server.hints import HintPool
    from alhambra.state import GameConfig

    state, events = new_game(GameConfig(players=2), 5)
    seat = state.to_act
    assert seat is not None
    pool = HintPool(seconds=600.0)  # a search that would outlast the test by far
    fut = pool.submit("t1", seat, view(state, seat), [dict(e.to_dict(), text=e.describe()) for e in events], 1)
    assert pool.busy("t1")
    executor = pool._pool
    assert executor is not None
    procs = wait_for(lambda: list((executor._processes or {}).values()), timeout=30)
    pids = [proc.pid for proc in procs]
    pool.close()
    # ended (a zombie until reaped, or gone): the executor's own thread may reap it first
    wait_for(lambda: all(_ended(pid) for pid in pids), timeout=30)
    wait_for(fut.done, timeout=30)  # cancelled or broken: either way the table is free again
    assert not pool.busy("t1")


def test_the_move_list_names_every_module_part_in_words() -> None:
    """Random games with each module: no tile, card or token code nor a coordinate pair in the
    replay's sentences (the narrator names what the catalogue knows; modules word their events)."""
    import random

    from alhambra.engine import legal_actions
    from alhambra.hooks import available_modules, load_module
    from alhambra.server.replay import replay_frames
    from alhambra.state import GameConfig
    from alhambra.view import catalogue

    for mid in available_modules():
        load_module(mid)
        config = GameConfig(players=3, modules=(mid,))
        cat = catalogue(config)
        codes = set(cat["tiles"]) | set(cat["cards"]) | set(cat["money_tokens"])
        state, _ = new_game(config, 3)
        rng = random.Random(3)
        actions = []
        while not state.is_over and len(actions) < 400:
            action = rng.choice(legal_actions(state))
            actions.append(action)
            state, _ = apply(state, action)
        moves = replay_frames(GameRecord(config, 3, actions))["moves"]
        assert len(moves) == len(actions)
        for m in moves:
            for sentence in m["sentences"]:
                words = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", sentence))
                assert not words & codes, (mid, sentence)
                assert not re.search(r"\b-?\d+,-?\d+\b", sentence), (mid, sentence)
                assert not re.search(r"\b[a-z]+\d+\b", sentence), (mid, sentence)  # an item code: cara3, room1, mb2


def test_a_hint_is_searched_from_the_seats_information_only(c: TestClient) -> None:
    """What goes to the worker process is the seat's own view and the events it has seen: the
    other hand, the pile and the bag stay hidden, as for a bot seat."""
    tid, tokens, seat, version = hint_table(c)
    pool = c.app.state.hints  # type: ignore[attr-defined]
    sent: dict[str, Any] = {}

    def capture(table_id: str, who: int, v: dict[str, Any], events: list[dict[str, Any]], seed: int) -> Future[str]:
        sent.update(table_id=table_id, seat=who, view=v, events=events)
        done: Future[str] = Future()
        done.set_result(v["legal_actions"][0])
        return done

    pool.submit = capture
    r = c.get(f"/api/tables/{tid}/hint?version={version}", headers=auth(tokens[seat]))
    assert r.status_code == 200
    mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
    assert sent["table_id"] == tid and sent["seat"] == seat
    assert sent["view"] == mine["view"]
    assert sent["view"]["seats"][1 - seat]["hand"] is None
    assert "deck" not in sent["view"] and "bag" not in sent["view"]
    assert sent["events"] == mine["events"]


def test_serve_refuses_a_bad_hint_time() -> None:
    from .cli_helpers import invoke

    for bad in ("0", "-1", "61"):
        result = invoke("serve", "--hint-seconds", bad)
        assert result.exit_code != 0
        assert "--hint-seconds must be more than 0 and at most 60" in result.stderr


def test_a_hint_worker_that_dies_is_replaced() -> None:
    from concurrent.futures.process import BrokenProcessPool

    from alhambra.server.hints import HintPool
    from alhambra.state import GameConfig

    state, events = new_game(GameConfig(players=2), 5)
    seat = state.to_act
    assert seat is not None
    seen = [dict(e.to_dict(), text=e.describe()) for e in events]
    pool = HintPool(seconds=600.0)
    try:
        fut = pool.submit("t1", seat, view(state, seat), seen, 1)
        executor = pool._pool
        assert executor is not None
        procs = wait_for(lambda: list((executor._processes or {}).values()), timeout=30)
        for proc in procs:
            proc.kill()  # the worker crashes in the middle of a search
        wait_for(fut.done, timeout=30)
        assert isinstance(fut.exception(), BrokenProcessPool)
        wait_for(lambda: not pool.busy("t1"), timeout=10)
        pool.seconds = 0.2
        again = pool.submit("t1", seat, view(state, seat), seen, 2)
        assert again.result(timeout=60) in view(state, seat)["legal_actions"]
    finally:
        pool.close()


def test_the_narrator_names_market_squares_by_currency_and_scores_dirk() -> None:
    from alhambra.server.replay import Narrator as _Narrator
    from alhambra.state import GameConfig as _Config

    n = _Narrator(_Config(players=2), ["Ada", "Bo"], ["blue", "green", "orange", "yellow"])
    said = n.words("player 1 uses the vizier: buys G8sw from square 2")
    assert said == "Ada uses the vizier: buys Garden 8 (walls south, west) from the dirham square"
    assert "square" not in n.words("player 2 receives T13e from square 4").replace("florin square", "")
    counts = {"garden": [1, 0, 2]}  # a third entry: Dirk was scored too
    text = n.event({"type": "RoundScored", "round": 1, "points": [1, 0], "counts": counts, "neutral_points": 8})
    assert text == "Scoring round 1: Ada +1, Bo +0, Dirk +8"
    # without the market's currencies the square keeps its number
    assert "square 3" in _Narrator(_Config(players=2), ["Ada", "Bo"]).words("from square 3")
