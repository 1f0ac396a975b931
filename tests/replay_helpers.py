"""A finished game for the replay tests, played through the API by random legal moves of
person seats (independent of how the server schedules its bots)."""

from __future__ import annotations

import random
from typing import Any

from .server_helpers import auth


def finished_game(http: Any, names: list[str], modules: tuple[str, ...] = (), seed: int = 1, public: bool = False) -> str:
    """Create a table of person seats with these names, join them all and play random legal
    actions until the game is over (``public``: listed among the public tables); returns the table id. ``http`` is a TestClient or an
    httpx client on the server."""
    seats = [{"kind": "person", "name": n} for n in names]
    r = http.post("/api/tables", json={"seats": seats, "modules": list(modules), "public": public})
    assert r.status_code == 201, r.text
    tid: str = r.json()["table"]["id"]
    tokens = [s["token"] for s in r.json()["seats"]]
    for tok in tokens:
        assert http.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
    rng = random.Random(seed)
    for _ in range(5000):
        msg = http.get(f"/api/tables/{tid}/view").json()
        if msg["table"]["status"] == "finished":
            return tid
        seat = msg["view"]["to_act"]
        mine = http.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        action = rng.choice(mine["view"]["legal_actions"])
        r = http.post(f"/api/tables/{tid}/actions", json={"action": action, "version": mine["version"]}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")
