"""The core never names a module: no ``.py``, ``.js`` or ``.html`` file of ``src/alhambra``
outside ``src/alhambra/modules/`` holds a string literal equal to a module id ('vizier',
"currency_exchange", ...). Modules are reached through hooks and the front-end plug-ins only."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "alhambra"
MODULES = SRC / "modules"

MODULE_IDS = (
    "vizier",
    "currency_exchange",
    "bonus_cards",
    "squares",
    "city_gates",
    "diamonds",
    "characters",
    "camps",
    "city_walls",
    "thieves",
    "change",
    "street_traders",
    "treasure_chamber",
    "master_builders",
    "invaders",
    "bazaars",
    "new_score_cards",
    "power_of_the_sultan",
    "caravanserai",
    "art_of_the_moors",
    "falconers",
    "watchtowers",
    "building_sites",
    "exchange_certificates",
    "magical_buildings",
    "medina",
)
"""Every Big Box module id, implemented or planned."""

LITERAL = re.compile(r"""(['"])(""" + "|".join(MODULE_IDS) + r""")\1""")


def core_files() -> list[Path]:
    """Every .py, .js and .html file of the package outside the modules' folder."""
    return sorted(p for p in SRC.rglob("*") if p.suffix in {".py", ".js", ".html"} and p.is_file() and MODULES not in p.parents)


def module_names_in_core() -> list[str]:
    """``file:line: literal`` for every quoted module id in a core file."""
    found = []
    for path in core_files():
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in LITERAL.finditer(line):
                found.append(f"{path.relative_to(SRC.parent)}:{no}: {m.group(0)}")
    return found


def test_no_core_file_names_a_module() -> None:
    found = module_names_in_core()
    assert not found, "the core names modules (use hooks or plug-ins instead):\n" + "\n".join(found)


def test_the_scan_sees_the_core_and_finds_literals() -> None:
    names = {p.relative_to(SRC).as_posix() for p in core_files()}
    assert {"engine/core.py", "engine/flow.py", "server/app.py", "server/static/app.js", "server/static/index.html"} <= names
    assert not any(n.startswith("modules/") for n in names)
    assert LITERAL.search("if 'vizier' in config.modules") and LITERAL.search('x = "change"')
    assert not LITERAL.search('"vizier buy"') and not LITERAL.search("'changes'") and not LITERAL.search("vizier")
