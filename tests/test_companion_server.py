"""The companion's server routes: the catalogue the page draws its forms from, the scoring of a
posted table (the same answer as ``alhambra score --json``), the page and its service worker."""

from __future__ import annotations

import json
from pathlib import Path

from alhambra.companion import parse_table, score_table
from alhambra.hooks import available_modules, load_module

from .server_helpers import client


def test_catalogue_lists_the_games_and_every_scoring_module(tmp_path: Path) -> None:
    with client(tmp_path / "c.sqlite3") as c:
        data = c.get("/api/companion").json()
    assert [g["id"] for g in data["games"]] == ["alhambra", "granada"]
    alhambra = data["games"][0]
    assert alhambra["points"]["tower"] == [[6], [13, 6], [21, 13, 6]] and alhambra["limits"]["tower"] == 11
    scoring = sorted(m for m in available_modules() if load_module(m).companion() is not None)
    assert [m["id"] for m in data["modules"]] == scoring
    for m in data["modules"]:
        assert m["script"], f"{m['id']} scores in Python but has no ui/companion.js"
        assert m["seat_fields"] or m["table_fields"]


def test_a_posted_table_is_scored_like_the_command_line(tmp_path: Path) -> None:
    doc = {
        "round": 2,
        "players": [{"name": "Kim", "buildings": {"tower": 4}}, {"name": "Nina", "buildings": {"tower": 4}}, {"buildings": {}}],
    }
    with client(tmp_path / "c.sqlite3") as c:
        r = c.post("/api/score", content=json.dumps(doc))
        assert r.status_code == 200, r.text
        assert r.json() == score_table(parse_table(doc)).to_json()
        assert [s["kinds"]["tower"]["points"] for s in r.json()["seats"]] == [9, 9, 0]
        bad = c.post("/api/score", content=json.dumps({**doc, "round": 5}))
        assert bad.status_code == 422 and "'round'" in bad.text
        deep = c.post("/api/score", content="[" * 5000)
        assert deep.status_code == 422 and "nested" in deep.text


def test_the_page_and_its_service_worker_are_served(tmp_path: Path) -> None:
    with client(tmp_path / "c.sqlite3") as c:
        page = c.get("/score")
        assert page.status_code == 200 and "/static/score.js" in page.text
        sw = c.get("/score-sw.js")
        assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
        assert "/api/companion" in sw.text
        assert c.get("/modules/medina/ui/companion.js").status_code == 200
        assert 'id: "score-night-link"' in c.get("/static/lobby.js").text  # the lobby's part of the front end


def test_a_posted_layout_is_checked_like_the_command_line(tmp_path: Path) -> None:
    layout = {"tiles": [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 1, "y": 0, "kind": "tower", "price": 12}]}
    with client(tmp_path / "c.sqlite3") as c:
        r = c.post("/api/layout", content=json.dumps(layout))
        assert r.status_code == 200 and r.json()["valid"] and r.json()["buildings"]["tower"] == 1
        bad = c.post(
            "/api/layout",
            content=json.dumps({"tiles": [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 2, "y": 0, "kind": "tower", "price": 12}]}),
        )
        assert bad.status_code == 200 and [v["rule"] for v in bad.json()["violations"]] == ["adjacent"]
        granada = c.post(
            "/api/layout?game=granada",
            content=json.dumps({"tiles": [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 2, "y": 0, "kind": "school", "price": 2}]}),
        )
        assert "joined to the city" in granada.text and "Alhambra" not in granada.text
        unread = c.post("/api/layout", content=json.dumps({"tiles": [{"x": 9999, "y": 0, "kind": "fountain"}]}))
        assert unread.status_code == 422 and "off any real table" in unread.text
