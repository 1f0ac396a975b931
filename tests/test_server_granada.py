"""Granada through the table server's JSON API: the games list, the catalogue, a table of Granada
played to its end (on SQLite and on PostgreSQL + Redis), and modules refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from alhambra.record import GameRecord, replay

from .server_helpers import auth, create, play_random


def test_games_and_catalogue(c: Any) -> None:
    games = c.get("/api/games").json()
    assert [g["id"] for g in games] == ["alhambra", "granada"]
    granada = games[1]
    assert granada["marker"] is True and granada["wall_name"] == "moat" and granada["assumptions"]
    cat = c.get("/api/catalogue", params={"players": 3, "game": "granada"}).json()
    assert cat["title"] == "Granada" and len(cat["kinds"]) == 9 and cat["kind_names"][1] == "Bath house"
    assert cat["turn_over_cost"] == 3 and cat["wall_name"] == "moat"
    assert all("back" in t for code, t in cat["tiles"].items() if code != "F")
    r = c.get("/api/catalogue", params={"game": "chess"})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
    r = c.get("/api/catalogue", params={"game": "granada", "modules": "vizier"})
    assert r.status_code == 422 and "cannot be played with Granada" in r.json()["detail"]


@pytest.mark.both_backends  # the stored state of Granada (two-sided tiles, the marker) on both storages
def test_a_granada_table_plays_to_the_end(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], game="granada")
    tid, tok = data["table"]["id"], data["seats"][0]["token"]
    assert data["table"]["game"] == "granada"
    c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok))
    v = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()["view"]
    assert v["game"] == "granada" and v["market_face"] in ("even", "odd") and v["turned"] == []
    assert all(sq["back"] for sq in v["market"] if sq["tile"])
    assert c.get(f"/api/tables/{tid}/catalogue").json()["title"] == "Granada"
    last = play_random(c, tid, [tok, None], random.Random(3))
    assert last["view"]["outcome"] == "finished"
    state, _ = replay(GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json()))
    assert state.config.game == "granada" and list(state.scores) == [s["score"] for s in last["view"]["seats"]]


def test_granada_tables_refuse_modules_and_unknown_games(c: Any) -> None:
    r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}], "game": "granada", "modules": ["vizier"]})
    assert r.status_code == 422 and "cannot be played with Granada" in r.json()["detail"]
    r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}], "game": "go"})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
