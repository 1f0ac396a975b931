"""``alhambra new-module ID``: the id checks, the files written, and a generated module that is
discovered like a built-in one and passes its own generated tests (in a pytest subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from alhambra.cli import app
from alhambra.scaffold import ScaffoldError, check_module_id, new_module, reserved_words

EXPECTED = {
    "__init__.py",
    "module.py",
    "components.json",
    "README.md",
    "ui/ui.js",
    "tests/__init__.py",
    "tests/test_night_market.py",
    "tests/test_random_games.py",
}

CONFTEST = '''"""Make the modules under ./ext discoverable the way built-in modules are."""
from pathlib import Path

import alhambra.modules

alhambra.modules.__path__.append(str(Path(__file__).parent / "ext"))
'''


FIRST_PARTY = "lint.isort.known-first-party = ['alhambra']"
"""Outside the tree ruff cannot tell that ``alhambra`` is the project's own package."""


def files_of(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_cli_writes_the_package(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new-module", "night_market", "--dest", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "night_market"
    assert files_of(folder) == EXPECTED
    assert "Created module 'night_market'" in result.output
    module = (folder / "module.py").read_text(encoding="utf-8")
    assert 'MODULE_ID: Final = "night_market"' in module
    assert "class NightMarketState" in module and "__ID__" not in module and "__CLASS__" not in module
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Night market (`night_market`)")
    for section in ("## The rules in our words", "## Interactions", "## Assumptions", "## Tests"):
        assert section in readme
    assert "registerModule(ID, { panel, seatBadges })" in (folder / "ui" / "ui.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("module_id", "reason"),
    [
        ("NightMarket", "snake_case"),
        ("night-market", "snake_case"),
        ("night__market", "snake_case"),
        ("2market", "snake_case"),
        ("market_", "snake_case"),
        ("", "snake_case"),
        ("vizier", "already exists"),
        ("change", "already exists"),
        ("take", "notation"),
        ("buy", "notation"),
        ("redesign", "notation"),
        ("reserve", "notation"),
        ("class", "reserved"),
        ("tests", "reserved"),
        ("x" * 41, "longer"),
    ],
)
def test_bad_ids_exit_2_with_a_reason_and_write_nothing(tmp_path: Path, module_id: str, reason: str) -> None:
    result = CliRunner().invoke(app, ["new-module", module_id, "--dest", str(tmp_path)])
    assert result.exit_code == 2
    assert reason in result.output
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "night_market").mkdir()
    (tmp_path / "night_market" / "mine.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(ScaffoldError, match="already exists"):
        new_module("night_market", tmp_path)
    assert files_of(tmp_path / "night_market") == {"mine.txt"}


def test_bad_titles_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new-module", "night_market", "--dest", str(tmp_path), "--title", 'A "quoted" title'])
    assert result.exit_code == 2
    assert "title" in result.output


def test_reserved_words_hold_the_core_and_module_keywords() -> None:
    words = reserved_words()
    assert {"take", "buy", "place", "redesign", "exchange", "neutral", "reserve"} <= words
    check_module_id("night_market", Path("/nonexistent"))  # a fresh name passes


def test_generated_module_passes_its_own_tests(tmp_path: Path) -> None:
    ext = tmp_path / "ext"
    ext.mkdir()
    folder = new_module("night_market", ext, "Night market")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            "--rootdir",
            str(tmp_path),
            str(folder / "tests"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout and "skipped" not in run.stdout


def test_generated_code_is_ruff_clean(tmp_path: Path) -> None:
    folder = new_module("night_market", tmp_path)
    root = Path(__file__).resolve().parent.parent
    for args in (["check"], ["format", "--check"]):
        run = subprocess.run(
            [sys.executable, "-m", "ruff", *args, "--config", str(root / "pyproject.toml"), "--config", FIRST_PARTY, str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stdout + run.stderr
