"""Tables do not pile up: idle tables leave memory and come back from the database, abandoned
tables expire, and the creator may delete a table before it starts (watchers closed with 4410);
older databases gain the creator-token column. On SQLite and on PostgreSQL + Redis (the older
database's columns are SQLite's case: PostgreSQL's schema is Alembic's from the start)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from alhambra.server import create_app
from alhambra.server.db import Database
from tests.server_helpers import auth, create, receive, two_people, wait_for

BOTH_BACKENDS = True  # every test with the store fixture runs on SQLite and on PostgreSQL + Redis (conftest.py)


@contextmanager
def app_client(store: dict[str, Any] | Path, **options: Any) -> Iterator[TestClient]:
    """A TestClient over ``store`` (the ``store`` fixture's options, or a SQLite file) whose
    janitor runs only when the test calls ``run_once`` (no timing)."""
    where = {"database_url": f"sqlite:///{store}"} if isinstance(store, Path) else store
    app = create_app(**{**where, "bot_delay": 0.0, "housekeeping_interval": 3600, **options})
    with TestClient(app) as c:
        yield c


def _janitor(c: TestClient) -> Any:
    return c.app.state.janitor  # type: ignore[attr-defined]


def _in_memory(c: TestClient) -> set[str]:
    return set(c.app.state.service.tables)  # type: ignore[attr-defined]


def test_idle_tables_are_evicted_and_reload_on_access(store: dict[str, Any]) -> None:
    with app_client(store, evict_after=0.2) as c:
        tid, tokens = two_people(c)
        watched, _ = two_people(c)
        first = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
        seat = first["view"]["to_act"]
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        r = c.post(f"/api/tables/{tid}/actions", json={"action": mine["final_actions"][0], "version": 0}, headers=auth(tokens[seat]))
        assert r.status_code == 200
        before = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
        with c.websocket_connect(f"/ws/tables/{watched}") as ws:
            ws.send_json({"type": "hello"})
            receive(ws)
            time.sleep(0.3)
            evicted, expired = _janitor(c).run_once()
            assert tid in evicted and watched not in evicted and expired == []
            assert tid not in _in_memory(c) and watched in _in_memory(c)  # a watched table stays
        after = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()  # loaded again
        assert tid in _in_memory(c)
        assert after["version"] == before["version"] == 1
        assert after["view"] == before["view"] and after["events"] == before["events"]
        # and the game goes on
        rng = random.Random(3)
        for _ in range(10):
            msg = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[after["view"]["to_act"]])).json()
            tok = tokens[msg["view"]["to_act"]]
            mine = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
            r = c.post(
                f"/api/tables/{tid}/actions",
                json={"action": rng.choice(mine["view"]["legal_actions"]), "version": mine["version"]},
                headers=auth(tok),
            )
            assert r.status_code == 200, r.text
        assert c.get(f"/api/tables/{tid}").json()["version"] == 11


def test_a_bot_table_waiting_for_its_bot_is_not_evicted(store: dict[str, Any]) -> None:
    with app_client(store, evict_after=0.05, bot_delay=3600) as c:
        data = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        tid, tok = data["table"]["id"], data["seats"][0]["token"]
        c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok))
        msg = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
        if msg["view"]["to_act"] == 0:  # let the bot be the one to act
            c.post(f"/api/tables/{tid}/actions", json={"action": msg["final_actions"][0], "version": msg["version"]}, headers=auth(tok))
        time.sleep(0.1)
        assert tid not in _janitor(c).run_once()[0]  # its bot move waits (an hour's bot delay)


def test_abandoned_tables_expire(store: dict[str, Any]) -> None:
    with app_client(store, expire_waiting=0.3, expire_idle=3600) as c:
        waiting = create(c, [{"kind": "person"}, {"kind": "person"}])["table"]["id"]
        started, _ = two_people(c)
        with c.websocket_connect(f"/ws/tables/{waiting}") as ws:
            ws.send_json({"type": "hello"})
            assert receive(ws)["table"]["status"] == "waiting"
            time.sleep(0.4)
            _, expired = _janitor(c).run_once()
            assert expired == [waiting]
            msg = receive(ws)
            assert msg["type"] == "error" and msg["status"] == 410
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4410
        assert c.get(f"/api/tables/{waiting}").status_code == 404
        assert c.get(f"/api/tables/{started}").json()["status"] == "playing"
    with app_client(store, expire_idle=0.3) as c:
        bots = create(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["table"]["id"]
        with c.websocket_connect(f"/ws/tables/{bots}") as ws:  # watch it to the end
            ws.send_json({"type": "hello"})
            wait_for(lambda: c.get(f"/api/tables/{bots}").json()["status"] == "finished", timeout=120, step=0.05)
        time.sleep(0.4)
        _, expired = _janitor(c).run_once()
        assert expired == [started]  # unfinished and idle; the finished game is kept
        assert c.get(f"/api/tables/{started}").status_code == 404
        assert c.get(f"/api/tables/{bots}/record").status_code == 200


def test_the_creator_deletes_a_table_before_it_starts(store: dict[str, Any]) -> None:
    with app_client(store) as c:
        data = create(c, [{"kind": "person"}, {"kind": "person"}])
        tid, creator = data["table"]["id"], data["creator_token"]
        seat_token = data["seats"][0]["token"]
        assert isinstance(creator, str) and len(creator) >= 24 and creator not in {s["token"] for s in data["seats"]}
        r = c.delete(f"/api/tables/{tid}")
        assert r.status_code == 401 and "creator token" in r.json()["detail"]
        for wrong in (seat_token, "x" * 30):
            r = c.delete(f"/api/tables/{tid}", headers=auth(wrong))
            assert r.status_code == 403 and "creator" in r.json()["detail"]
        svc = c.app.state.service  # type: ignore[attr-defined]
        held = svc.table(tid)  # as a request in flight would hold it
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": seat_token})
            receive(ws)
            r = c.delete(f"/api/tables/{tid}", headers=auth(creator))
            assert r.status_code == 204 and r.content == b""
            assert receive(ws) == {"type": "error", "status": 410, "detail": "this table was deleted"}
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4410
        assert c.get(f"/api/tables/{tid}").status_code == 404
        assert c.delete(f"/api/tables/{tid}", headers=auth(creator)).status_code == 404
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(seat_token)).status_code == 404
        svc.tables[tid] = held  # even a request that still holds the deleted table gets 404
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(seat_token)).status_code == 404
        del svc.tables[tid]
        # once the game has started it stays
        started = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        sid = started["table"]["id"]
        assert c.post(f"/api/tables/{sid}/join", json={}, headers=auth(started["seats"][0]["token"])).status_code == 200
        r = c.delete(f"/api/tables/{sid}", headers=auth(started["creator_token"]))
        assert r.status_code == 409 and "started" in r.json()["detail"]
        assert c.get(f"/api/tables/{sid}").status_code == 200


def test_an_older_database_gains_the_creator_column(tmp_path: Path) -> None:
    db_file = tmp_path / "old.sqlite3"
    with app_client(db_file) as c:
        tid = create(c, [{"kind": "person"}, {"kind": "person"}])["table"]["id"]
    engine = create_engine(f"sqlite:///{db_file}")
    with engine.begin() as conn:  # the schema before creator tokens
        conn.execute(text("ALTER TABLE game_tables DROP COLUMN creator_token_hash"))
        conn.execute(text("DROP TABLE alembic_version"))  # and before Alembic (tests/test_server_migrations.py)
        conn.execute(text("DROP INDEX ix_game_tables_status_updated"))
        conn.execute(text("DROP INDEX ix_game_tables_created"))
        conn.execute(text("ALTER TABLE game_tables DROP COLUMN epoch"))
    engine.dispose()
    db = Database(f"sqlite:///{db_file}")
    assert db.table(tid) is not None and db.table(tid).creator_token_hash is None  # type: ignore[union-attr]
    db.close()
    with app_client(db_file) as c:
        r = c.delete(f"/api/tables/{tid}", headers=auth("y" * 30))
        assert r.status_code == 403  # an old table has no creator token: nobody can delete it
        new = create(c, [{"kind": "person"}, {"kind": "person"}])
        assert c.delete(f"/api/tables/{new['table']['id']}", headers=auth(new["creator_token"])).status_code == 204


def test_a_stale_copy_of_an_evicted_table_is_brought_up_to_date_on_conflict(store: dict[str, Any]) -> None:
    """A request that held a table across its eviction writes on an old copy: the database
    refuses it (409) and the copy is reloaded in place (as when another server process wrote
    first), so the next request and its watchers see the stored state."""
    with app_client(store) as c:
        tid, tokens = two_people(c)
        svc = c.app.state.service  # type: ignore[attr-defined]
        old = svc.table(tid)
        del svc.tables[tid]  # evicted while a request still holds ``old``
        seat = c.get(f"/api/tables/{tid}/view").json()["view"]["to_act"]
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        action = {"action": mine["final_actions"][0], "version": 0}
        assert c.post(f"/api/tables/{tid}/actions", json=action, headers=auth(tokens[seat])).status_code == 200
        svc.tables[tid] = old  # the old copy comes back (at version 0)
        assert old.snap.version == 0
        r = c.post(f"/api/tables/{tid}/actions", json=action, headers=auth(tokens[seat]))
        assert r.status_code == 409 and "changed meanwhile" in r.json()["detail"]
        assert svc.tables.get(tid) is old and old.snap.version == 1  # loaded again from the database
        assert c.get(f"/api/tables/{tid}").json()["version"] == 1


def test_a_restart_loads_only_the_games_where_a_bot_answers_a_person(store: dict[str, Any]) -> None:
    with app_client(store) as c:
        people, _ = two_people(c)
        waiting = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        mixed = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        assert c.post(f"/api/tables/{mixed['table']['id']}/join", json={}, headers=auth(mixed["seats"][0]["token"])).status_code == 200
        bots = create(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["table"]["id"]
    with app_client(store) as c:
        assert _in_memory(c) == {mixed["table"]["id"]}  # the others wait in the database
        assert c.get(f"/api/tables/{waiting['table']['id']}").json()["status"] == "waiting"  # loaded on access
        assert c.get(f"/api/tables/{people}").json()["status"] == "playing"
        with c.websocket_connect(f"/ws/tables/{bots}") as ws:  # watched: the table of bots plays on
            ws.send_json({"type": "hello"})
            wait_for(lambda: c.get(f"/api/tables/{bots}").json()["version"] > 5, timeout=30, step=0.02)


def test_the_janitor_runs_by_itself(store: dict[str, Any]) -> None:
    app = create_app(**store, bot_delay=0.0, evict_after=0.1, housekeeping_interval=0.05)
    with TestClient(app) as c:
        tid, _ = two_people(c)
        assert tid in _in_memory(c)
        wait_for(lambda: tid not in _in_memory(c), timeout=30, step=0.02)
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
