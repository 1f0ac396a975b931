"""Rematch ("Play again" on the end screen): the same game, seats, names and bots, a fresh deal,
one new table however many players ask, each player's own new seat token, kept over a restart."""

from __future__ import annotations

import random
from pathlib import Path

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


def test_a_rematch_against_bots_starts_at_once_and_watchers_learn_of_it(tmp_path: Path) -> None:
    with client(tmp_path / "bots.sqlite3") as c:
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
