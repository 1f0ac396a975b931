"""Live updates over WebSocket: every seat and spectator gets its own view after each change,
and a reconnecting client gets exactly the table back."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from .server_helpers import auth, create, receive, two_people

# On SQLite and on PostgreSQL + Redis. The server promises no order between the ack of a move
# and the update it causes (the update goes out from the hub, through Redis when configured), so
# _until keeps what it skips for the next wait on the same socket.
BOTH_BACKENDS = True

_SKIPPED: dict[int, list[dict[str, Any]]] = {}


@pytest.fixture(autouse=True)
def _fresh_backlog() -> Any:
    """Socket ids are reused between tests: each test starts with no kept messages."""
    _SKIPPED.clear()
    yield
    _SKIPPED.clear()


def _hello(ws: Any, token: str | None = None, **since: int) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, **since})
    msg: dict[str, Any] = receive(ws)
    return msg


def _until(ws: Any, pred: Any) -> dict[str, Any]:
    """The first message on ``ws`` that ``pred`` accepts; the ones skipped are kept for later waits."""
    skipped = _SKIPPED.setdefault(id(ws), [])
    for i, msg in enumerate(skipped):
        if pred(msg):
            return skipped.pop(i)
    for _ in range(50):
        got: dict[str, Any] = receive(ws)
        if pred(got):
            return got
        skipped.append(got)
    raise AssertionError("no such message")


def test_every_watcher_gets_its_own_update(c: Any) -> None:
    tid, tokens = two_people(c)
    url = f"/ws/tables/{tid}"
    with c.websocket_connect(url) as w0, c.websocket_connect(url) as w1, c.websocket_connect(url) as spect:
        m0, m1, ms = _hello(w0, tokens[0]), _hello(w1, tokens[1]), _hello(spect)
        for m, seat in ((m0, 0), (m1, 1), (ms, None)):
            assert m["type"] == "state" and m["seat"] == seat and m["version"] == 0
            assert [s["hand"] is not None for s in m["view"]["seats"]] == [seat == 0, seat == 1]
        seat = ms["view"]["to_act"]
        ws_me = (w0, w1)[seat]
        legal = (m0, m1)[seat]["view"]["legal_actions"]
        ws_me.send_json({"type": "action", "action": legal[0], "version": 0, "id": "a1"})
        got = {}
        for name, ws in (("w0", w0), ("w1", w1), ("spect", spect)):
            msg = _until(ws, lambda m: m.get("type") == "update")
            got[name] = msg
            assert msg["version"] == 1
            assert msg["event_start"] == len(ms["events"])
            assert msg["events"] and msg["events"][0]["type"] in ("MoneyTaken", "BuildingBought", "AlhambraRedesigned")
        ack = _until(ws_me, lambda m: m.get("type") == "ack")
        assert ack == {"type": "ack", "version": 1, "id": "a1"}
        assert got["w0"]["view"]["seats"][0]["hand"] is not None and got["w0"]["view"]["seats"][1]["hand"] is None
        assert got["w1"]["view"]["seats"][1]["hand"] is not None and got["w1"]["view"]["seats"][0]["hand"] is None
        assert all(s["hand"] is None for s in got["spect"]["view"]["seats"])
        # errors come back as messages; nothing changes
        ws_me.send_json({"type": "action", "action": legal[0], "version": 0, "id": 7})
        err = _until(ws_me, lambda m: m.get("type") == "error")
        assert err["status"] == 409 and "stale" in err["detail"] and err["id"] == 7
        spect.send_json({"type": "action", "action": "end", "version": 1})
        assert _until(spect, lambda m: m.get("type") == "error")["status"] == 403
        spect.send_text("not json")
        assert _until(spect, lambda m: m.get("type") == "error")["status"] == 400
        spect.send_json({"type": "dance"})
        assert _until(spect, lambda m: m.get("type") == "error")["status"] == 400
        spect.send_json({"type": "ping"})
        assert _until(spect, lambda m: m.get("type") in ("pong", "error")) == {"type": "pong"}


def test_reconnecting_restores_the_table_exactly(c: Any) -> None:
    tid, tokens = two_people(c)
    url = f"/ws/tables/{tid}"
    with c.websocket_connect(url) as ws:
        first = _hello(ws, tokens[0])
    # the game moves on while the client is away
    for _ in range(3):
        v = c.get(f"/api/tables/{tid}/view").json()
        seat = v["view"]["to_act"]
        mine = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        r = c.post(
            f"/api/tables/{tid}/actions",
            json={"action": mine["view"]["legal_actions"][-1], "version": mine["version"]},
            headers=auth(tokens[seat]),
        )
        assert r.status_code == 200
    now = c.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    with c.websocket_connect(url) as ws:
        again = _hello(ws, tokens[0], epoch=first["epoch"], events=len(first["events"]))
    assert again["type"] == "update" and again["version"] == 3
    assert first["events"] + again["events"] == now["events"]
    assert again["view"] == now["view"] and again["final_actions"] == now["final_actions"]
    with c.websocket_connect(url) as ws:
        fresh = _hello(ws, tokens[0])
    assert fresh["type"] == "state" and fresh["events"] == now["events"] and fresh["view"] == now["view"]
    # a client whose log does not fit (wrong epoch) gets the whole state
    with c.websocket_connect(url) as ws:
        other = _hello(ws, tokens[0], epoch=99, events=2)
    assert other["type"] == "state" and other["events"] == now["events"]


def test_bad_hellos_are_refused(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "bot"}])
    tid = data["table"]["id"]
    other = create(c, [{"kind": "person"}, {"kind": "bot"}])
    cases = [
        ({"type": "hello", "token": "x" * 30}, 401),
        ({"type": "hello", "token": other["seats"][0]["token"]}, 403),
        ({"type": "hello", "token": 5}, 400),
        ({"type": "action"}, 400),
    ]
    for hello, status in cases:
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json(hello)
            msg = receive(ws)
            assert msg["type"] == "error" and msg["status"] == status
            with pytest.raises(WebSocketDisconnect):
                receive(ws)
    with c.websocket_connect("/ws/tables/nosuchtable") as ws:
        ws.send_json({"type": "hello"})
        assert receive(ws)["status"] == 404
    # hostile hellos: a number too long to convert, nesting too deep for the parser
    for text in ('{"type": "hello", "epoch": ' + "9" * 5000 + "}", '{"type": "hello", "x": ' + "[" * 2000 + "]" * 2000 + "}"):
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_text(text)
            msg = receive(ws)
            assert msg["type"] == "error" and msg["status"] == 400
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4400


def test_hostile_messages_get_an_error_and_the_socket_stays_open(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "bot"}])
    tid, tok = data["table"]["id"], data["seats"][0]["token"]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert _hello(ws, tok)["type"] == "state"
        for text in ('{"type": "ping", "id": ' + "7" * 5000 + "}", "[" * 2000 + "]" * 2000, '{"type": "action", "version": 1e999}'):
            ws.send_text(text)
            msg = _until(ws, lambda m: m["type"] not in ("state", "update"))  # a change may come in between
            assert msg["type"] == "error" and msg["status"] in (400, 422), msg
        ws.send_json({"type": "ping", "id": 3})
        assert _until(ws, lambda m: m["type"] not in ("state", "update")) == {"type": "pong", "id": 3}


def test_bot_moves_reach_the_person_live(c: Any) -> None:
    data = create(c, [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
    tid, tok = data["table"]["id"], data["seats"][0]["token"]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        first = _hello(ws, tok)
        assert first["table"]["status"] == "waiting"
        c.post(f"/api/tables/{tid}/join", json={"name": "Ann"}, headers=auth(tok))
        started = _until(ws, lambda m: m["table"]["status"] == "playing")
        assert started["table"]["seats"][0]["name"] == "Ann"
        # play until the bot has moved at least once while we watch
        msg = started
        for _ in range(40):
            if msg["view"]["to_act"] == 0 and msg["view"]["legal_actions"]:
                ws.send_json({"type": "action", "action": msg["final_actions"][0], "version": msg["version"]})
            msg = _until(ws, lambda m: m.get("type") in ("update", "state"))
            if any(e.get("seat") == 1 and e["type"] != "TurnStarted" for e in msg["events"]):
                break
        else:
            raise AssertionError("the bot never moved")


def test_joining_reaches_every_page_watching_before(c: Any) -> None:
    """Pages open before the players join get the new seats and status after each join (the
    messages cached for the old seats must not be sent again)."""
    data = create(c, [{"kind": "person"}, {"kind": "person"}])
    tid = data["table"]["id"]
    tokens = [s["token"] for s in data["seats"]]
    url = f"/ws/tables/{tid}"
    with c.websocket_connect(url) as w0, c.websocket_connect(url) as w1:
        for ws, tok in ((w0, tokens[0]), (w1, tokens[1])):
            assert _hello(ws, tok)["table"]["status"] == "waiting"
        for seat, tok in enumerate(tokens):
            assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
            for ws in (w0, w1):
                msg = receive(ws)
                assert [s["joined"] for s in msg["table"]["seats"]] == [True, seat == 1]
                assert msg["table"]["status"] == ("playing" if seat == 1 else "waiting")


def test_a_watcher_learns_that_the_last_person_joined(c: Any) -> None:
    """Joining keeps the version: the message a seat was sent before must not be sent again
    (it said "waiting" and the seat could never play)."""
    data = create(c, [{"kind": "person"}, {"kind": "person"}])
    tid = data["table"]["id"]
    tokens = [s["token"] for s in data["seats"]]
    assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tokens[0])).status_code == 200
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        first = _hello(ws, tokens[0])
        assert first["table"]["status"] == "waiting"
        assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tokens[1])).status_code == 200
        msg = _until(ws, lambda m: m.get("type") in ("state", "update"))
        assert msg["table"]["status"] == "playing"
        assert [s["joined"] for s in msg["table"]["seats"]] == [True, True]
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:  # and so does a page loaded afresh
        assert _hello(ws, tokens[0])["table"]["status"] == "playing"
