"""The JSON API of the table server, driven through the real app (TestClient, SQLite file)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from alhambra.record import GameRecord, replay

from .server_helpers import auth, client, create, play_random, two_people, wait_for

BOTH_BACKENDS = True  # the c tests run on SQLite and on PostgreSQL + Redis (conftest.py)


def test_openapi_documents_the_play_endpoints(c: Any) -> None:
    spec = c.get("/openapi.json").json()
    paths = spec["paths"]
    for p in (
        "/api/tables",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/view",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/undo",
        "/api/tables/{table_id}/record",
    ):
        assert p in paths, p
    undocumented = [f"{m.upper()} {p}" for p, ops in paths.items() for m, op in ops.items() if not op.get("description")]
    assert undocumented == []  # every endpoint says what it does (its docstring)
    assert "HTTPBearer" in spec["components"]["securitySchemes"]
    assert set(spec["components"]["schemas"]["ActionRequest"]["required"]) == {"action", "version"}


def test_catalogues_list_modules_and_bots(c: Any) -> None:
    mods = c.get("/api/modules").json()
    assert {m["id"] for m in mods} >= {"vizier", "currency_exchange"}
    assert all(m["title"] and m["description"] for m in mods)
    bots = c.get("/api/bots").json()
    assert [b["id"] for b in bots][:2] == ["random", "greedy"]
    assert (bots[-1]["id"], bots[-1]["label"]) == ("mcts:learned", "Learned")  # the experimental level, listed last
    cat = c.get("/api/catalogue?players=3").json()
    assert cat["tiles"]["G8sw"] == {"kind": "garden", "price": 8, "walls": "sw", "module": None}
    assert c.get("/api/catalogue?players=9").status_code == 422
    assert c.get("/api/catalogue?modules=nope").status_code == 422


def test_create_gives_one_secret_link_per_person_seat(c: Any) -> None:
    data = create(c, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "person"}], name="Friday")
    tid = data["table"]["id"]
    seats = data["seats"]
    assert [s["kind"] for s in seats] == ["person", "bot", "person"]
    assert seats[1]["token"] is None and seats[1]["invite_url"] is None
    assert seats[0]["token"] != seats[2]["token"]
    for s in (seats[0], seats[2]):
        # the token travels in the URL fragment, which browsers never send to the server
        assert s["invite_url"].endswith(f"/table/{tid}#seat={s['token']}")
    assert data["spectator_url"].endswith(f"/table/{tid}")
    info = c.get(f"/api/tables/{tid}").json()
    assert info["status"] == "waiting" and info["players"] == 3 and info["name"] == "Friday"
    assert "token" not in str(info) and seats[0]["token"] not in str(info)
    assert info["seats"][1]["name"] == "Beginner bot"


def test_unnamed_bots_of_one_level_are_numbered(c: Any) -> None:
    seats = [
        {"kind": "person"},
        *[{"kind": "bot", "bot": "random"}] * 2,
        {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "random", "name": "Rex"},
    ]
    info = c.get(f"/api/tables/{create(c, seats)['table']['id']}").json()
    assert [s["name"] for s in info["seats"]][1:] == ["Beginner bot 1", "Beginner bot 2", "Easy bot", "Rex"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"seats": [{"kind": "person"}]}, "seats"),
        ({"seats": [{"kind": "person"}] * 7}, "seats"),
        ({"seats": [{"kind": "alien"}, {"kind": "person"}]}, "kind"),
        ({"seats": [{"kind": "bot", "bot": "godlike"}, {"kind": "person"}]}, "unknown bot level"),
        ({"seats": [{"kind": "person", "bot": "greedy"}, {"kind": "person"}]}, "cannot have a bot"),
        ({"seats": [{"kind": "person"}] * 2, "modules": ["nope"]}, "unknown module"),
        ({"seats": [{"kind": "person"}] * 2, "colour": "red"}, "colour"),
        ({"seats": [{"kind": "person", "name": "x" * 41}, {"kind": "person"}]}, "name"),
        ({"seats": "two"}, "seats"),
        ({"seats": [{"kind": "person"}] * 2, "modules": ["vizier"], "options": {"vizier": {"nap": True}}}, "no option 'nap'"),
        ({"seats": [{"kind": "person"}] * 2, "options": {"vizier": {"nap": True}}}, "does not use"),
    ],
)
def test_bad_table_requests_get_a_clear_422(c: Any, body: dict[str, Any], fragment: str) -> None:
    r = c.post("/api/tables", json=body)
    assert r.status_code == 422
    assert fragment in r.json()["detail"]


def test_malformed_and_oversized_bodies_are_refused(c: Any) -> None:
    r = c.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    r = c.post("/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: the body arrives chunked, and is cut off as it streams
        for _ in range(200):
            yield b"[" * 1024

    r = c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    assert c.get("/api/tables/../../etc/passwd").status_code == 404
    assert c.get("/api/tables/zzz'--/view").status_code == 404
    assert c.get("/api/tables/abc/view").json()["detail"] == "there is no table 'abc'"


def test_join_rules(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "person"}])
    tid = data["table"]["id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    other = create(c, [{"kind": "person"}, {"kind": "bot"}])
    # private table: no free seats for strangers; tokens are checked
    assert c.post(f"/api/tables/{tid}/join", json={}).status_code == 403
    assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth("not-a-real-token")).status_code == 401
    assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(other["seats"][0]["token"])).status_code == 403
    r = c.post(f"/api/tables/{tid}/join", json={"name": "  <b>Ann</b>\u0007 "}, headers=auth(t0))
    assert r.status_code == 200 and r.json()["seat"] == 0
    assert r.json()["table"]["seats"][0]["name"] == "<b>Ann</b>"  # stored as text; the client escapes it
    assert r.json()["table"]["status"] == "waiting"
    # no action before everybody has joined
    v = c.get(f"/api/tables/{tid}/view", headers=auth(t0)).json()
    if v["view"]["to_act"] == 0:
        r = c.post(f"/api/tables/{tid}/actions", json={"action": v["view"]["legal_actions"][0], "version": 0}, headers=auth(t0))
        assert r.status_code == 409 and "joined" in r.json()["detail"]
    assert c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}, headers=auth(t1)).json()["table"]["status"] == "playing"


def test_public_tables_are_listed_and_open_seats_can_be_claimed(c: Any) -> None:
    seats = [{"kind": "person"}, {"kind": "person", "open": True}, {"kind": "person", "open": True}, {"kind": "bot"}]
    data = create(c, seats, public=True, name="Open game")
    tid = data["table"]["id"]
    assert [s["invite_url"] is not None for s in data["seats"]] == [True, False, False, False]  # open seats have no link
    create(c, [{"kind": "person"}, {"kind": "person"}])  # private: never listed
    create(c, [{"kind": "person"}, {"kind": "person"}], public=True)  # public, but only invited people: not open
    listed = c.get("/api/tables?which=open").json()
    assert [t["id"] for t in listed] == [tid]
    assert c.get("/api/tables?which=everything").status_code == 422
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Stranger"})
    assert r.status_code == 200
    claimed = r.json()
    # the creator's own seat (0) is never given to a stranger: the first open seat is 1
    assert claimed["seat"] == 1 and claimed["token"] and claimed["invite_url"].endswith(claimed["token"])
    assert c.get(f"/api/tables/{tid}/view", headers=auth(data["seats"][0]["token"])).json()["seat"] == 0
    assert c.get(f"/api/tables/{tid}/view", headers=auth(claimed["token"])).json()["seat"] == 1
    assert c.post(f"/api/tables/{tid}/join", json={}).json()["seat"] == 2
    r = c.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 409 and "open for strangers" in r.json()["detail"]
    assert c.get("/api/tables?which=open").json() == []
    assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(data["seats"][0]["token"])).json()["seat"] == 0
    assert [t["id"] for t in c.get("/api/tables?which=playing").json()] == [tid]


def test_open_seats_need_a_public_table(c: Any) -> None:
    r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person", "open": True}]})
    assert r.status_code == 422 and "public" in r.json()["detail"]


def test_views_show_only_what_a_seat_may_see(c: Any) -> None:
    tid, tokens = two_people(c)
    spectator = c.get(f"/api/tables/{tid}/view").json()
    assert spectator["seat"] is None
    assert all(s["hand"] is None for s in spectator["view"]["seats"])
    assert spectator["view"]["legal_actions"] == [] and spectator["final_actions"] == []
    to_act = spectator["view"]["to_act"]
    for seat, tok in enumerate(tokens):
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
        assert mine["seat"] == seat
        hands = [s["hand"] for s in mine["view"]["seats"]]
        assert hands[seat] and hands[1 - seat] is None
        assert bool(mine["view"]["legal_actions"]) == (seat == to_act)
        assert set(mine["final_actions"]) <= set(mine["view"]["legal_actions"])
        # every legal action also as structured data from the declared grammar, in the same order
        assert [a["notation"] for a in mine["actions"]] == mine["view"]["legal_actions"]
        assert all(a["keyword"] == "take" and a["args"][0]["type"] == "cards" for a in mine["actions"] if a["notation"].startswith("take "))
    assert spectator["actions"] == []
    assert spectator["events"][0]["type"] == "GameStarted"
    assert "seed" not in str(spectator)


def test_actions_are_checked_and_versioned(c: Any) -> None:
    tid, tokens = two_people(c)
    v = c.get(f"/api/tables/{tid}/view").json()
    seat = v["view"]["to_act"]
    me, other = auth(tokens[seat]), auth(tokens[1 - seat])
    mine = c.get(f"/api/tables/{tid}/view", headers=me).json()
    legal = mine["view"]["legal_actions"]
    post = c.post
    url = f"/api/tables/{tid}/actions"
    assert post(url, json={"action": legal[0], "version": 0}).status_code == 401
    r = post(url, json={"action": legal[0], "version": 0}, headers=other)
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]
    r = post(url, json={"action": "fly to the moon", "version": 0}, headers=me)
    assert r.status_code == 422 and "unknown action" in r.json()["detail"]
    r = post(url, json={"action": "buy 9 b1", "version": 0}, headers=me)
    assert r.status_code == 422 and "market square 9" in r.json()["detail"]
    assert post(url, json={"action": legal[0]}, headers=me).status_code == 422
    assert post(url, json={"action": legal[0], "version": "0"}, headers=me).status_code == 422
    assert post(url, json={"action": "x" * 201, "version": 0}, headers=me).status_code == 422
    r = post(url, json={"action": legal[0], "version": 5}, headers=me)
    assert r.status_code == 409 and "stale version" in r.json()["detail"]
    # nothing above changed the game
    assert c.get(f"/api/tables/{tid}").json()["version"] == 0
    r = post(url, json={"action": legal[0], "version": 0}, headers=me)
    assert r.status_code == 200 and r.json() == {"version": 1, "status": "playing"}
    # the same move again on the old version is stale
    assert post(url, json={"action": legal[0], "version": 0}, headers=me).status_code == 409
    after = c.get(f"/api/tables/{tid}/view").json()
    assert after["version"] == 1
    assert any(e["type"] in ("MoneyTaken", "BuildingBought", "AlhambraRedesigned") for e in after["events"])


def _non_final_move(c: Any, tid: str, tokens: list[str]) -> tuple[int, dict[str, Any], str]:
    """Play final moves until the seat to act has a move that ends nothing; return it."""
    rng = random.Random(5)
    for _ in range(200):
        spect = c.get(f"/api/tables/{tid}/view").json()
        seat = spect["view"]["to_act"]
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        quiet = [a for a in mine["view"]["legal_actions"] if a not in mine["final_actions"]]
        if quiet:
            return seat, mine, quiet[0]
        action = rng.choice(mine["view"]["legal_actions"])
        c.post(f"/api/tables/{tid}/actions", json={"action": action, "version": mine["version"]}, headers=auth(tokens[seat]))
    raise AssertionError("no quiet move found")


def test_undo_within_the_turn_until_something_is_revealed(c: Any) -> None:
    tid, tokens = two_people(c)
    seat, before, quiet = _non_final_move(c, tid, tokens)
    me = auth(tokens[seat])
    assert before["can_undo"] is False
    r = c.post(f"/api/tables/{tid}/actions", json={"action": quiet, "version": before["version"]}, headers=me)
    assert r.status_code == 200
    mid = c.get(f"/api/tables/{tid}/view", headers=me).json()
    assert mid["can_undo"] is True
    # the other seat cannot undo it, a stale version is refused
    assert c.post(f"/api/tables/{tid}/undo", json={"version": mid["version"]}, headers=auth(tokens[1 - seat])).status_code == 409
    assert c.post(f"/api/tables/{tid}/undo", json={"version": before["version"]}, headers=me).status_code == 409
    r = c.post(f"/api/tables/{tid}/undo", json={"version": mid["version"]}, headers=me)
    assert r.status_code == 200 and r.json()["version"] == mid["version"] + 1
    back = c.get(f"/api/tables/{tid}/view", headers=me).json()
    assert back["version"] == mid["version"] + 1
    assert back["view"] == before["view"]  # exactly the position before the move
    assert back["events"] == before["events"] and back["epoch"] == before["epoch"] + 1
    assert back["can_undo"] is False
    # a final move (ends the turn / reveals) can never be taken back
    final = back["final_actions"][0]
    assert c.post(f"/api/tables/{tid}/actions", json={"action": final, "version": back["version"]}, headers=me).status_code == 200
    after = c.get(f"/api/tables/{tid}/view", headers=me).json()
    assert after["can_undo"] is False
    r = c.post(f"/api/tables/{tid}/undo", json={"version": after["version"]}, headers=me)
    assert r.status_code == 409


def test_a_whole_game_against_a_bot_and_its_record(c: Any) -> None:
    data = create(c, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tid, tok = data["table"]["id"], data["seats"][0]["token"]
    assert c.get(f"/api/tables/{tid}/record").status_code == 409
    c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok))
    last = play_random(c, tid, [tok, None], random.Random(1))
    assert last["view"]["outcome"] == "finished"
    assert any(e["type"] == "GameEnded" for e in last["events"])
    rec = c.get(f"/api/tables/{tid}/record")
    assert rec.status_code == 200
    state, _ = replay(GameRecord.from_json(rec.json()))
    assert state.outcome == "finished"
    assert list(state.scores) == [s["score"] for s in last["view"]["seats"]]
    assert len(rec.json()["actions"]) == last["version"]
    r = c.post(f"/api/tables/{tid}/actions", json={"action": "end", "version": last["version"]}, headers=auth(tok))
    assert r.status_code == 409 and "over" in r.json()["detail"]
    # the names are frozen with the game
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Someone else"}, headers=auth(tok))
    assert r.status_code == 409 and "names stay" in r.json()["detail"]
    assert c.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Ann"
    assert c.post(f"/api/tables/{tid}/join", json={"name": "Ann"}, headers=auth(tok)).status_code == 200  # the same name is fine


def test_bot_tables_play_by_themselves(c: Any) -> None:
    """A table of bots plays on its own while someone watches it (see test_server_bots.py)."""
    data = create(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    tid = data["table"]["id"]
    assert data["table"]["status"] == "playing"
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello"})
        done = wait_for(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "finished", timeout=120, step=0.05)
    assert done
    state, _ = replay(GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json()))
    assert state.outcome == "finished"


def test_modules_are_played_through_the_server(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], modules=["vizier", "currency_exchange"])
    tid, tok = data["table"]["id"], data["seats"][0]["token"]
    c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok))
    v = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
    assert v["view"]["modules"] == ["currency_exchange", "vizier"]
    assert "vizier" in v["view"]["module_views"]
    last = play_random(c, tid, [tok, None], random.Random(2))
    assert last["table"]["status"] == "finished"


def test_table_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    from alhambra.server.limits import RateLimit

    now = [0.0]
    bucket = RateLimit(6, burst=3, clock=lambda: now[0])
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(10.0)  # 6 a minute: one every 10 s
    assert bucket.take("b") == 0.0  # another client has its own bucket
    now[0] = 10.0
    assert bucket.take("a") == 0.0 and bucket.take("a") > 0
    with client(tmp_path / "rate.db") as c:
        codes = [c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]}).status_code for _ in range(25)]
        assert codes[:20] == [201] * 20 and codes[20:] == [429] * 5
        r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]})
        assert r.status_code == 429 and "too many new tables" in r.json()["detail"] and int(r.headers["retry-after"]) >= 1
