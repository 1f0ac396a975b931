"""The modules' front-end plug-ins as the server offers them: ``GET /api/modules`` says which
module has one (and what it assumes), ``/modules/<id>/ui/<file>`` serves only the files of
that module's ``ui/`` folder, with the right content types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from alhambra.hooks import available_modules, load_module
from alhambra.server.app import module_ui_dir, module_ui_file

from .server_helpers import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with client(tmp_path_factory.mktemp("ui") / "db.sqlite3") as cl:
        yield cl


def test_api_modules_says_which_module_has_a_plug_in(c: Any) -> None:
    mods = {m["id"]: m for m in c.get("/api/modules").json()}
    assert set(mods) == set(available_modules())
    for mid, m in mods.items():
        module = load_module(mid)
        assert set(m) >= {"id", "title", "description", "assumptions", "component_assumptions", "ui", "ui_css"}
        assert m["assumptions"] == list(module.assumptions)
        assert m["component_assumptions"] == list(getattr(module, "component_assumptions", ()))
        assert m["ui"] == (module_ui_dir(module) / "ui.js").is_file()
        assert m["ui_css"] == (module_ui_dir(module) / "ui.css").is_file()
    for mid in ("vizier", "currency_exchange"):
        assert mods[mid]["ui"] is True and mods[mid]["ui_css"] is True
        assert mods[mid]["assumptions"]


def test_a_modules_ui_files_are_served_with_their_content_types(c: Any) -> None:
    r = c.get("/modules/vizier/ui/ui.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert "registerModule" in r.text
    src = Path(__file__).resolve().parents[1] / "src/alhambra/modules/vizier/ui/ui.js"
    assert r.text == src.read_text(encoding="utf-8")
    css = c.get("/modules/currency_exchange/ui/ui.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert css.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "path",
    [
        "/modules/vizier/ui/missing.js",  # no such file
        "/modules/vizier/ui/",  # no file at all
        "/modules/nope/ui/ui.js",  # no such module
        "/modules/vizier/ui/README.md",  # not a front-end file type (and not in ui/)
        "/modules/vizier/ui/..%2Fmodule.py",  # traversal, encoded slash
        "/modules/vizier/ui/%2E%2E/module.py",  # traversal, encoded dots
        "/modules/vizier/ui/..%2F..%2Fhooks.py",
        "/modules/vizier/ui/%2E%2E%2F__init__.py",
        "/modules/vizier/ui/..%5Cmodule.py",  # a backslash
        "/modules/vizier/ui/.hidden.js",  # hidden files
        "/modules/vizier/ui/ui.js%00.css",  # a NUL byte
        "/modules/..%2Fserver/ui/static%2Fapp.js",  # traversal in the module id
        "/modules/vizier/ui/%2Fetc%2Fpasswd",  # an absolute path
    ],
)
def test_only_files_of_the_ui_folder_are_served(c: Any, path: str) -> None:
    r = c.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text[:200])
    assert "detail" in r.json()


def test_module_ui_file_checks_every_part_of_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert module_ui_file("vizier", "ui.js") == module_ui_dir(load_module("vizier")).resolve() / "ui.js"
    for bad in ("../module.py", "..", "a/../../module.py", "/etc/passwd", "ui.js/", "", "x\\..\\module.py", "ui.py", "../ui/ui.js"):
        assert module_ui_file("vizier", bad) is None, bad
    assert module_ui_file("not_a_module", "ui.js") is None
    # a folder of images is fine; a link that leads out of the folder is not followed
    ui = tmp_path / "mod" / "ui"
    (ui / "images").mkdir(parents=True)
    (ui / "images" / "card.svg").write_text("<svg/>")
    (tmp_path / "secret.js").write_text("secret")
    (ui / "leak.js").symlink_to(tmp_path / "secret.js")
    monkeypatch.setattr("alhambra.server.app.module_ui_dir", lambda _m: ui)
    assert module_ui_file("vizier", "images/card.svg") == (ui / "images" / "card.svg").resolve()
    assert module_ui_file("vizier", "leak.js") is None
    assert module_ui_file("vizier", "images") is None
