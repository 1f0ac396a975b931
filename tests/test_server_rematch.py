"""Rematch ("Play again" on the end screen): the same game, seats, names and bots, a fresh deal,
one new table however many players ask, each player's own new seat token, kept over a restart.
The whole-game test runs on SQLite (9 s); the rematch of a bot table and the race of two processes
run on PostgreSQL + Redis too."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from alhambra.server import create_app

from .server_helpers import auth, client, create, play_random, receive, wait_for


def test_a_finished_table_is_played_again_with_the_same_seats(tmp_path: Path) -> None:
    db = tmp_path / "rematch.sqlite3"
    with client(db) as c:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "person", "name": "Bo"}]
        data = create(c, seats, modules=["vizier"], name="Friday")
        tid = data["table"]["id"]
        tokens = [s["token"] for s in data["seats"]]
        for tok in (tokens[0], tokens[2]):
            assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
        # not before the end, not without a seat token
        r = c.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[0]))
        assert r.status_code == 409 and "not over" in r.json()["detail"]
        play_random(c, tid, tokens, random.Random(3))
        assert c.post(f"/api/tables/{tid}/rematch").status_code == 401
        assert c.post(f"/api/tables/{tid}/rematch", headers=auth("x" * 30)).status_code == 401
        first = c.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[2]))
        assert first.status_code == 200, first.text
        got = first.json()
        new = got["table"]
        assert new["id"] != tid and got["seat"] == 2 and got["url"].endswith(f"/table/{new['id']}#seat={got['token']}")
        assert new["name"] == "Friday" and new["modules"] == ["vizier"] and new["players"] == 3
        want = [("person", None, "Ann"), ("bot", "random", "Beginner bot"), ("person", None, "Bo")]
        assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == want
        assert [s["joined"] for s in new["seats"]] == [False, True, True]  # Bo asked: Bo has joined
        assert new["status"] == "waiting"
        assert c.get(f"/api/tables/{tid}").json()["rematch"] == new["id"]
        # the old token does not open the new table; the new one does, for the same seat
        assert c.get(f"/api/tables/{new['id']}/view", headers=auth(tokens[2])).status_code == 403
        assert c.get(f"/api/tables/{new['id']}/view", headers=auth(got["token"])).json()["seat"] == 2
        # Ann asks too: the same table, her own token; the game starts
        ann = c.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[0])).json()
        assert ann["table"]["id"] == new["id"] and ann["seat"] == 0 and ann["token"] not in (got["token"], tokens[0])
        assert ann["table"]["status"] == "playing"
        again = c.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[2])).json()
        assert again["token"] == got["token"] and again["table"]["id"] == new["id"]
        # a new game from its start
        view = c.get(f"/api/tables/{new['id']}/view", headers=auth(ann["token"])).json()
        assert view["view"]["rounds_scored"] == 0 and view["view"]["turn"] <= 2 and view["seat"] == 0
    # after a restart the old table still points at its rematch, and the tokens still work
    with client(db) as c:
        assert c.get(f"/api/tables/{tid}").json()["rematch"] == new["id"]
        assert c.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[0])).json()["token"] == ann["token"]


@pytest.mark.both_backends
def test_a_rematch_against_bots_starts_at_once_and_watchers_learn_of_it(store: dict[str, Any]) -> None:
    with TestClient(create_app(bot_delay=0.0, **store)) as c:
        data = create(c, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
        tid = data["table"]["id"]
        tok = data["seats"][0]["token"]
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
        play_random(c, tid, [tok, None], random.Random(5))
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello"})
            assert receive(ws)["table"]["rematch"] is None
            got = c.post(f"/api/tables/{tid}/rematch", headers=auth(tok)).json()
            assert got["table"]["status"] == "playing"
            # the spectator's end screen is told that a rematch waits
            msg = wait_for(lambda: (m := receive(ws))["table"]["rematch"] and m)
            assert msg["table"]["rematch"] == got["table"]["id"]


def test_two_processes_asked_at_once_make_one_rematch() -> None:
    """Two server processes on one PostgreSQL database (two services, each with its own copy
    of the finished table, both still without a rematch) asked at the same moment: both pass
    the check, both try to create the rematch, one table is stored (the unique ``rematch_of``)
    and both players get a seat at it."""
    import threading

    from alhambra.server.db import Database
    from alhambra.server.rematch import rematch
    from alhambra.server.service import SeatSpec, TableService

    from .scale_helpers import fresh_pg

    with fresh_pg() as url:
        dbs = [Database(url), Database(url)]
        try:
            a, b = (TableService(db) for db in dbs)
            table, tokens = a.create_table([SeatSpec("person", name="Ann"), SeatSpec("person", name="Bo")])
            for tok in tokens.values():
                a.join(table.id, tok, None)
            rng = random.Random(5)
            while (snap := table.snap).status != "finished":
                seat = snap.state.to_act
                assert seat is not None
                a.submit(table.id, seat, rng.choice(_legal(snap)), snap.version)
            assert b.table(table.id).snap.status == "finished" and b.table(table.id).rematch is None
            # both reach the creation before either stores its table
            barrier = threading.Barrier(2, timeout=30)
            for svc in (a, b):
                create = svc.create_table

                def both_at_once(*args: Any, _create: Any = create, **kwargs: Any) -> Any:
                    barrier.wait()
                    return _create(*args, **kwargs)

                svc.create_table = both_at_once  # type: ignore[method-assign]
            got: dict[int, tuple[str, int, str]] = {}

            def ask(svc: TableService, seat: int) -> None:
                new, s, tok = rematch(svc, table.id, tokens[seat])
                got[seat] = (new.id, s, tok)

            threads = [threading.Thread(target=ask, args=(svc, seat)) for svc, seat in ((a, 0), (b, 1))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert sorted(got) == [0, 1]
            assert got[0][0] == got[1][0]  # one rematch
            new_id = got[0][0]
            with dbs[0].engine.connect() as conn:
                made = conn.execute(text("SELECT id FROM game_tables WHERE rematch_of = :t"), {"t": table.id}).scalars().all()
            assert made == [new_id]
            assert a.table(table.id).rematch == b.table(table.id).rematch == new_id
            # each player holds the seat at it, through either process; both joined: it plays
            assert [a.seat_of(new_id, got[s][2]) for s in (0, 1)] == [0, 1]
            row = dbs[1].table(new_id)  # (each service's copy learns of the other's join only with Redis)
            assert row is not None and row.status == "playing"
        finally:
            for db in dbs:
                db.close()


def _legal(snap: Any) -> list[str]:
    from alhambra.engine import legal_actions

    return [str(x) for x in legal_actions(snap.state)]
