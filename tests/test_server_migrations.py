"""Schema migrations (Alembic): a database made before Alembic upgrades without losing a table,
a row or a move, and plays on; `alhambra db upgrade` does it from the command line; an empty
PostgreSQL database gets the same schema."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from alhambra.server import create_app
from alhambra.server.migrate import current_revision, head_revision, upgrade

from .scale_helpers import fresh_pg
from .server_helpers import auth

OLD_SQL = Path(__file__).parent / "data" / "server_db_before_alembic.sql"


def _old_file(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.executescript(OLD_SQL.read_text())
    con.close()
    return path


def _counts(path: Path) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("game_tables", "seats", "actions")}
    finally:
        con.close()


def test_a_file_from_before_alembic_upgrades_on_start_and_plays_on(tmp_path: Path) -> None:
    path = _old_file(tmp_path / "old.sqlite3")
    before = _counts(path)
    assert before == {"game_tables": 3, "seats": 6, "actions": 154}
    con = sqlite3.connect(path)
    rows = {name: (tid, status, version) for tid, name, status, version in con.execute("SELECT id, name, status, version FROM game_tables")}
    con.close()
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0.0)) as c:
        for name, (tid, status, version) in rows.items():
            info = c.get(f"/api/tables/{tid}").json()
            assert (info["name"], info["status"], info["version"]) == (name, status, version)
        fin = rows["finished"][0]
        record = c.get(f"/api/tables/{fin}/record").json()
        assert len(record["actions"]) == 143  # every move of the finished game, in a record that replays
        assert c.get(f"/api/tables/{fin}/replay").status_code == 200
        tid, _status, version = rows["playing"]
        view = c.get(f"/api/tables/{tid}/view").json()
        assert view["epoch"] == 1  # its one undo, counted by revision 0002
        assert view["version"] == version and len(view["events"]) > 10
    assert _counts(path) == before
    engine = create_engine(f"sqlite:///{path}")
    assert current_revision(engine) == head_revision() == "0004"
    names = {i["name"] for i in inspect(engine).get_indexes("game_tables")}
    assert {"ix_game_tables_status_updated", "ix_game_tables_created"} <= names
    engine.dispose()


def test_db_upgrade_command_migrates_once(tmp_path: Path) -> None:
    path = _old_file(tmp_path / "old.sqlite3")
    cmd = [sys.executable, "-m", "alhambra", "db", "upgrade", "--database-url", f"sqlite:///{path}"]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip().endswith("upgraded from pre-alembic to revision 0004")
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and again.stdout.strip().endswith("already at revision 0004")
    bad = subprocess.run([*cmd[:-1], "nosuchdb://x"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("alhambra: error: cannot upgrade the database") and bad.stdout == ""


def test_a_file_older_still_gets_its_missing_columns_first(tmp_path: Path) -> None:
    """A file from before hints and creator tokens (pre-baseline columns) upgrades too."""
    path = _old_file(tmp_path / "older.sqlite3")
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE game_tables DROP COLUMN hints")
    con.execute("ALTER TABLE game_tables DROP COLUMN creator_token_hash")
    con.commit()
    con.close()
    shutil.copy(path, tmp_path / "copy.sqlite3")
    engine = create_engine(f"sqlite:///{path}")
    assert upgrade(engine) == ("pre-alembic", "0004")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM game_tables WHERE hints IS NULL")).scalar() == 3
    engine.dispose()
    assert _counts(path) == _counts(tmp_path / "copy.sqlite3")


def test_postgresql_gets_the_same_schema_and_plays(tmp_path: Path) -> None:
    with fresh_pg() as url:
        engine = create_engine(url)
        assert upgrade(engine) == (None, "0004")
        assert upgrade(engine) == ("0004", "0004")
        assert set(inspect(engine).get_table_names()) == {"alembic_version", "game_tables", "seats", "actions"}
        engine.dispose()
        with TestClient(create_app(url, bot_delay=0.0)) as c:
            r = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]}).json()
            tid, tok = r["table"]["id"], r["seats"][0]["token"]
            assert c.post(f"/api/tables/{tid}/join", json={}, headers=auth(tok)).status_code == 200
            view = c.get(f"/api/tables/{tid}/view", headers=auth(tok)).json()
            if view["view"]["to_act"] == 0:
                act = {"action": view["view"]["legal_actions"][0], "version": view["version"]}
                assert c.post(f"/api/tables/{tid}/actions", json=act, headers=auth(tok)).status_code == 200
            assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"


def test_a_file_made_with_the_rematch_column_but_before_alembic_upgrades(tmp_path: Path) -> None:
    """create_all of a version with rematches but without Alembic: revision 0003 finds its column
    there; revision 0004 keeps one rematch of a table that got two (a race of two processes before
    it) and makes the column unique."""
    path = _old_file(tmp_path / "rematch.sqlite3")
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE game_tables ADD COLUMN rematch_of VARCHAR(32)")
    con.execute("CREATE INDEX ix_game_tables_rematch_of ON game_tables (rematch_of)")
    ids = sorted(r[0] for r in con.execute("SELECT id FROM game_tables WHERE name <> 'finished'"))
    (fin,) = con.execute("SELECT id FROM game_tables WHERE name = 'finished'").fetchone()
    con.execute("UPDATE game_tables SET rematch_of = ? WHERE name <> 'finished'", (fin,))
    con.commit()
    con.close()
    engine = create_engine(f"sqlite:///{path}")
    assert upgrade(engine) == ("pre-alembic", "0004")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM game_tables WHERE rematch_of IS NOT NULL")).scalars().all() == [ids[0]]
    index = next(i for i in inspect(engine).get_indexes("game_tables") if i["name"] == "ix_game_tables_rematch_of")
    assert index["unique"]
    engine.dispose()
    assert _counts(path) == {"game_tables": 3, "seats": 6, "actions": 154}
