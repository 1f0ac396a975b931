"""No outbound channel of the server leaks hidden information.

Two complementary checks:

* **non-interference**: the message a viewer gets (view, legal and final actions, undo flag,
  events) is byte-identical for two states that differ only in what the viewer may not know
  (the seed, the order of the draw pile and of the tile bag, the other seats' hands);
* **every channel of a whole game**: each HTTP response, WebSocket message, error message and
  log line a seat receives or the server writes is scanned for the seed, the other seats'
  tokens and hands, and any run of the hidden draw pile or tile bag order.

On SQLite only (a whole game, ~20 s): every message is made by ``message()`` whatever the storage,
and what crosses Redis is a table id (``scale.Coordinator.publish``).
"""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from alhambra.server.db import Database
from alhambra.server.service import SeatSpec, Snapshot, TableService, message
from alhambra.state import GameState

from .server_helpers import auth, client, receive


def _perturb(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """Same public facts, different hidden ones."""
    alt = state.copy()
    alt.seed = rng.randrange(1 << 60)
    rng.shuffle(alt.deck)
    rng.shuffle(alt.bag)
    money = alt.components.card_is_money
    for s, p in enumerate(alt.players):
        if s == viewer:
            continue
        for i, card in enumerate(p.hand):
            swaps = [j for j, d in enumerate(alt.deck) if money[d] and d != card]
            if money[card] and swaps and rng.random() < 0.7:
                j = rng.choice(swaps)
                p.hand[i], alt.deck[j] = alt.deck[j], card
    return alt


@pytest.mark.parametrize("modules", [(), ("currency_exchange", "vizier")])
def test_messages_do_not_depend_on_hidden_facts(tmp_path: Path, modules: tuple[str, ...]) -> None:
    svc = TableService(Database(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    table, tokens = svc.create_table([SeatSpec("person"), SeatSpec("person"), SeatSpec("person")], modules)
    for tok in tokens.values():
        svc.join(table.id, tok, None)
    rng = random.Random(3)
    checked = 0
    for step in range(400):
        snap = table.snap
        if snap.status == "finished":
            break
        if step % 7 == 0:
            for viewer in (None, 0, 1, 2):
                want = json.dumps(message(table, snap, viewer))
                for _ in range(2):
                    alt_state = _perturb(snap.state, viewer, rng)
                    assert alt_state.deck != snap.state.deck or len(snap.state.deck) < 2
                    alt = Snapshot(snap.version, alt_state, snap.events, snap.n_events, snap.epoch, snap.record, snap.status, snap.seats)
                    assert json.dumps(message(table, alt, viewer)) == want
                    checked += 1
        seat = snap.state.to_act
        assert seat is not None
        legal = message(table, snap, seat)["view"]["legal_actions"]
        svc.submit(table.id, seat, rng.choice(legal), snap.version)
    assert checked > 100
    svc.db.close()


def _lists(obj: Any) -> list[list[Any]]:
    out: list[list[Any]] = []
    if isinstance(obj, list):
        out.append(obj)
        for x in obj:
            out += _lists(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            out += _lists(x)
    return out


def _hands(obj: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, value) of a key named hand."""
    out: list[tuple[str, Any]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "hand":
                out.append((path, v))
            out += _hands(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, x in enumerate(obj):
            out += _hands(x, f"{path}[{i}]")
    return out


class _Secrets:
    """The hidden facts of the running game, read from the server's own state."""

    def __init__(self, app: Any, tid: str, tokens: list[str]) -> None:
        self.table = app.state.service.table(tid)
        self.tokens = tokens
        self._runs_of: GameState | None = None
        self._runs: list[tuple[int, set[tuple[str, ...]]]] = []

    def check(self, text: str, seat: int | None) -> None:
        table = self.table
        state = table.snap.state
        if state.is_over:
            return  # the record (with its seed) is public once the game is over
        assert str(table.seed) not in text, "the seed leaked"
        for s, tok in enumerate(self.tokens):
            if s != seat:
                assert tok not in text, f"seat {s}'s token leaked"
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = text
        for path, hand in _hands(data):
            if hand is not None:
                assert seat is not None and path.endswith(f"seats[{seat}]"), f"a hand leaked at {path}"
        if self._runs_of is not state:
            deck = [state.card_code(c) for c in reversed(state.deck)]
            bag = [state.tile_code(t) for t in reversed(state.bag)]
            # tiles are unique, so 3 bag tiles in a row is already a leak; card faces repeat, so
            # a run of 6 is needed to rule out chance (a hand listed in order can match a short run)
            self._runs = [(k, {tuple(seq[i : i + k]) for i in range(len(seq) - k + 1)}) for seq, k in ((bag, 3), (deck, 6))]
            self._runs_of = state
        for k, runs in self._runs:
            for lst in _lists(data):
                strs = [x for x in lst if isinstance(x, str)]
                for i in range(len(strs) - k + 1):
                    window = tuple(strs[i : i + k])
                    assert window not in runs, f"hidden order leaked: {window}"


def test_no_channel_leaks_during_a_whole_game(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    rng = random.Random(8)
    with client(tmp_path / "db.sqlite3") as c:
        created = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]}).json()
        tid = created["table"]["id"]
        tokens = [s["token"] for s in created["seats"][:2]]
        secrets = _Secrets(c.app, tid, tokens)
        seen = 0

        def got(text: str, seat: int | None) -> None:
            nonlocal seen
            secrets.check(text, seat)
            seen += 1

        for s, tok in enumerate(tokens):
            got(c.post(f"/api/tables/{tid}/join", json={"name": f"P{s}"}, headers=auth(tok)).text, s)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws0, c.websocket_connect(f"/ws/tables/{tid}") as wss:
            ws0.send_json({"type": "hello", "token": tokens[0]})
            wss.send_json({"type": "hello"})
            for _ in range(600):
                got(c.get(f"/api/tables/{tid}").text, None)
                spect = c.get(f"/api/tables/{tid}/view")
                got(spect.text, None)
                msg = spect.json()
                if msg["table"]["status"] == "finished":
                    break
                seat = msg["view"]["to_act"]
                if seat == 2:
                    continue  # the bot plays by itself
                me = auth(tokens[seat])
                mine = c.get(f"/api/tables/{tid}/view", headers=me)
                got(mine.text, seat)
                view = mine.json()
                # hostile or mistaken requests: their error messages are outbound too
                other = auth(tokens[1 - seat])
                for r in (
                    c.post(f"/api/tables/{tid}/actions", json={"action": "take y9", "version": view["version"]}, headers=other),
                    c.post(f"/api/tables/{tid}/actions", json={"action": "buy 1 b9+b9+b9", "version": view["version"]}, headers=me),
                    c.post(f"/api/tables/{tid}/undo", json={"version": view["version"]}, headers=me),
                    c.get(f"/api/tables/{tid}/record", headers=me),
                ):
                    got(r.text, seat)
                if not view["view"]["legal_actions"]:
                    continue
                action = rng.choice(view["view"]["legal_actions"])
                got(c.post(f"/api/tables/{tid}/actions", json={"action": action, "version": view["version"]}, headers=me).text, seat)
                if seat == 0:
                    got(json.dumps(receive(ws0)), 0)
                got(json.dumps(receive(wss)), None)
        for rec in caplog.records:
            got(rec.getMessage(), None)
    assert seen > 300
