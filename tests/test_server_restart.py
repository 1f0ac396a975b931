"""Kill the real server process (SIGKILL) in the middle of a game, start it again on the same
database, and finish the game: no accepted action is lost and the record replays exactly.
SQLite's case (the embedded default); the kill -9 of a process over PostgreSQL + Redis, under
load, is test_server_scale.py's."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx

from alhambra.record import GameRecord, replay

from .server_helpers import ServerProcess, auth


def _play(server: ServerProcess, tid: str, token: str, rng: random.Random, acked: dict[int, str], steps: int) -> bool:
    """Play up to ``steps`` person moves (the bot answers by itself); True once the game is over."""
    http = server.http
    done = 0
    while done < steps:
        msg = http.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        if msg["table"]["status"] == "finished":
            return True
        legal = msg["view"]["legal_actions"]
        if not legal:
            time.sleep(0.002)
            continue
        action = rng.choice(legal)
        r = http.post(f"/api/tables/{tid}/actions", json={"action": action, "version": msg["version"]}, headers=auth(token))
        if r.status_code == 200:
            acked[r.json()["version"]] = action
            done += 1
        else:
            assert r.status_code == 409, r.text  # the bot moved first: fetch again
    return False


def test_kill_mid_game_restart_and_finish(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    rng = random.Random(11)
    acked: dict[int, str] = {}
    server = ServerProcess(db)
    created = server.http.post("/api/tables", json={"seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}).json()
    tid, token = created["table"]["id"], created["seats"][0]["token"]
    assert server.http.post(f"/api/tables/{tid}/join", json={}, headers=auth(token)).status_code == 200
    start_events = server.http.get(f"/api/tables/{tid}/view").json()["events"][:2]
    over = False
    for kill_round in range(3):
        over = _play(server, tid, token, rng, acked, steps=12)
        if over:
            break
        before = server.http.get(f"/api/tables/{tid}").json()["version"]
        # a move in flight when the process dies: either stored completely or not at all
        msg = server.http.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        if msg["view"]["legal_actions"]:
            body = {"action": msg["view"]["legal_actions"][0], "version": msg["version"]}
            url = f"{server.url}/api/tables/{tid}/actions"

            def fire(body: dict[str, object] = body, url: str = url) -> None:
                try:
                    r = httpx.post(url, json=body, headers=auth(token), timeout=5)
                except httpx.HTTPError:
                    return
                if r.status_code == 200:
                    acked[r.json()["version"]] = str(body["action"])

            t = threading.Thread(target=fire)
            t.start()
            time.sleep(0.001 * kill_round)
            server.kill()
            t.join()
        else:
            server.kill()
        server = ServerProcess(db)
        info = server.http.get(f"/api/tables/{tid}").json()
        assert info["status"] in ("playing", "finished")
        assert info["version"] >= max(before, *acked)  # nothing acknowledged was lost
        again = server.http.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        assert again["events"][:2] == start_events
        assert again["seat"] == 0 and again["view"]["seats"][0]["hand"] is not None
    while not over:
        over = _play(server, tid, token, rng, acked, steps=50)
    record = server.http.get(f"/api/tables/{tid}/record")
    final = server.http.get(f"/api/tables/{tid}/view").json()
    server.stop()
    assert record.status_code == 200
    rec = GameRecord.from_json(record.json())
    for version, action in acked.items():
        assert str(rec.actions[version - 1]) == action, (version, action)
    state, _ = replay(rec)
    assert state.outcome == "finished"
    assert list(state.scores) == [s["score"] for s in final["view"]["seats"]]
    assert len(rec.actions) == final["version"]
