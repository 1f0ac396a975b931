"""The engine's rooms and the module boundary.

* A module package (``src/alhambra/modules/<id>/``) takes engine names only from
  :mod:`alhambra.engine.services`, the one list of what modules may call; its tests may also
  drive games through the package's public face (``alhambra.engine``), but never reach into a
  room other than ``services``.
* No room of the engine package grows past the line limit, and the rooms import each other
  without a circle.
* ``alhambra.engine`` still offers every name it offered as one file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

import alhambra.engine as engine
from alhambra.engine import caches, services
from alhambra.state import GameConfig

SRC = Path(__file__).resolve().parents[1] / "src" / "alhambra"
MODULES = SRC / "modules"
ENGINE = SRC / "engine"
ROOM_LIMIT = 600
"""Lines a room of the engine may hold at most."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in ``path`` that reaches the engine: ``module`` is the
    absolute name imported from (``alhambra.engine``, ``alhambra.engine.flow``...)."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, node.module] if node.module else base)
            names = [mod] + [f"{mod}.{a.name}" for a in node.names]
        for name in names:
            if name == "alhambra.engine" or name.startswith("alhambra.engine."):
                target = name if isinstance(node, ast.Import) else names[0]
                if target == "alhambra":
                    target = "alhambra.engine"
                found.append((node.lineno, target))
                break
    return found


def boundary_breaches() -> list[str]:
    """``file:line: module`` for every engine import of a module package that is not allowed."""
    bad = []
    for path in sorted(MODULES.rglob("*.py")):
        in_tests = "tests" in path.relative_to(MODULES).parts
        for line, target in engine_imports(path):
            allowed = target == "alhambra.engine.services" or (in_tests and target == "alhambra.engine")
            if not allowed:
                bad.append(f"{path.relative_to(SRC.parent)}:{line}: {target}")
    return bad


def test_modules_take_engine_names_only_from_services() -> None:
    bad = boundary_breaches()
    assert not bad, "a module imports the engine outside alhambra.engine.services:\n" + "\n".join(bad)


def test_the_boundary_scan_sees_every_form_of_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan resolves relative imports and catches a room, the package and ``import engine``."""
    fake = MODULES / "zz_probe" / "module.py"
    cases = {
        "from ...engine import module_random": "alhambra.engine",
        "from ...engine.flow import _advance": "alhambra.engine.flow",
        "from ... import engine": "alhambra.engine",
        "import alhambra.engine.supply": "alhambra.engine.supply",
        "from alhambra.engine.services import add_points": "alhambra.engine.services",
        "from ...engine.services import add_points": "alhambra.engine.services",
        "from ...hooks import Module": None,
    }
    for source, want in cases.items():
        monkeypatch.setattr(Path, "read_text", lambda self, encoding=None, s=source: s)
        got = engine_imports(fake)
        assert got == ([] if want is None else [(1, want)]), source
    monkeypatch.undo()
    assert engine_imports(MODULES / "vizier" / "module.py")  # a real module is seen


def test_services_names_what_modules_use() -> None:
    """Every name a module imports from services exists there, and services offers only
    public names that the package offers too."""
    for name in services.__all__:
        assert not name.startswith("_")
        assert getattr(services, name) is getattr(engine, name)
    used = set()
    for path in MODULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine.services"):
                used |= {a.name for a in node.names}
    assert used, "no module imports from services"
    assert used <= set(services.__all__)


def room_sizes() -> dict[str, int]:
    return {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in sorted(ENGINE.glob("*.py"))}


def test_no_engine_room_exceeds_the_line_limit() -> None:
    sizes = room_sizes()
    assert len(sizes) >= 10 and "core.py" in sizes and "services.py" in sizes
    big = {name: n for name, n in sizes.items() if n > ROOM_LIMIT}
    assert not big, f"engine rooms above {ROOM_LIMIT} lines: {big}"


def test_the_rooms_import_each_other_without_a_circle() -> None:
    rooms = {p.stem for p in ENGINE.glob("*.py")} - {"__init__"}
    deps: dict[str, set[str]] = {}
    for room in rooms:
        deps[room] = {t.rsplit(".", 1)[-1] for _, t in engine_imports(ENGINE / f"{room}.py") if t != "alhambra.engine"} & rooms
    assert deps["core"] and not deps["caches"]
    done: set[str] = set()

    def visit(room: str, path: tuple[str, ...]) -> None:
        assert room not in path, "import circle: " + " -> ".join((*path, room))
        if room not in done:
            for dep in deps[room]:
                visit(dep, (*path, room))
            done.add(room)

    for room in sorted(rooms):
        visit(room, ())


def test_the_package_keeps_the_names_of_the_single_file() -> None:
    """The names callers, policies and tests imported from the one-file engine."""
    names = (
        "PASSIVE_HOOKS PAYMENTS REDESIGN_KINDS action_kinds add_points apply apply_unchecked build_components building_counts "
        "can_buy check_options check_purchase dearest_buildings draw_card finish_turn_action kind_forms kind_points "
        "legal_actions module_deal module_draw module_random money_of new_game pay_for_offer pay_for_purchase payment_value "
        "plain_flow purchase_options put_on_market redesign_options refill_display refill_market spend_cards unbuilt_tiles "
        "winners _PLAIN _buy_actions _check_payment _enumerate_payments _list_takes _match_cards _place_actions "
        "_plain_payment _redesign_actions _score_round _stuck _tables _take_actions _users _window_actions"
    ).split()
    missing = [n for n in names if not hasattr(engine, n)]
    assert not missing
    assert set(engine.__all__) <= set(dir(engine))


def test_the_package_exports_every_service_as_the_same_object() -> None:
    """``engine.__all__`` is one literal list (ruff rejects ``__all__ += services.__all__``): it
    must hold every name modules may call, and each is the services' own object."""
    from alhambra.engine import services

    assert set(services.__all__) <= set(engine.__all__)
    assert all(getattr(engine, n) is getattr(services, n) for n in services.__all__)
    assert len(engine.__all__) == len(set(engine.__all__)) and engine.__all__ == sorted(engine.__all__, key=lambda n: (n.upper() != n, n))


def test_clear_caches_empties_every_cache_and_games_go_on() -> None:
    from alhambra.engine import apply, legal_actions, new_game
    from alhambra.state import GameConfig

    state, _ = new_game(GameConfig(players=3), 5)
    first = legal_actions(state)
    assert caches._COMPONENT_CACHE and caches._TABLES
    engine.clear_caches()
    assert not caches._COMPONENT_CACHE and not caches._TABLES and caches._LAST_TABLES == [None]
    assert not caches._TAKE_MEMO and caches._PLAIN == {(): True}
    again = legal_actions(state)
    assert again == first
    new, _ = apply(state, again[0])
    assert new.turn >= state.turn


def test_every_hook_is_in_one_facet_and_passivity_comes_from_the_facets() -> None:
    from alhambra.hooks import FACETS, PASSIVE_HOOKS, Module

    hooks = {
        name
        for name, value in vars(Module).items()
        if callable(value) and not name.startswith("_") and not getattr(value, "__final__", False)  # @final: a helper
    }
    listed = [h for facet in FACETS for h in facet.hooks]
    assert len(listed) == len(set(listed)), "a hook is in two facets"
    assert set(listed) == hooks, f"hooks without a facet: {sorted(hooks - set(listed))}; unknown: {sorted(set(listed) - hooks)}"
    assert len({f.name for f in FACETS}) == len(FACETS)
    assert engine.PASSIVE_HOOKS is PASSIVE_HOOKS
    assert {h for f in FACETS if f.passive for h in f.hooks} == PASSIVE_HOOKS
    # the hooks that act while a turn is played are never passive
    for hook in ("perform", "turn_ending", "tile_drawn", "offers", "placement_problem", "interrupt_actions", "extra_cards"):
        assert hook not in PASSIVE_HOOKS
    for hook in ("setup", "round_points", "view", "bot_values", "slice_to_json"):
        assert hook in PASSIVE_HOOKS


def test_a_module_is_passive_exactly_when_it_overrides_only_passive_facets() -> None:
    from alhambra.hooks import Module
    from alhambra.state import GameConfig

    class Scorer(Module):
        id = "zz_scorer"

        def round_points(self, state: Any, round_no: int) -> list[int] | None:
            return None

    class Actor(Scorer):
        id = "zz_actor"

        def turn_ending(self, state: Any, events: list[Any]) -> None:
            return None

    assert engine.common._passive(Scorer())
    assert not engine.common._passive(Actor())
    assert engine.plain_flow(GameConfig(players=3, modules=("medina", "new_score_cards")))
    assert not engine.plain_flow(GameConfig(players=3, modules=("vizier",)))


def test_no_engine_room_builds_code_from_strings() -> None:
    """The end-of-turn conditions are plain functions and the plain flow a closure (no eval/exec)."""
    rooms = Path(engine.__file__).parent
    for path in sorted(rooms.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(eval|exec)\(", text), path.name


def test_the_plain_end_of_turn_of_any_shape_does_the_declared_work() -> None:
    from alhambra.engine import flow

    state, _ = engine.new_game(GameConfig(players=3), 4)
    refills = [s for s in flow.END_OF_TURN if s.work and any(w.run in (flow._refill_the_market, flow.refill_display) for w in s.work)]
    for run in (flow._compile_plain(tuple(refills)), flow._PLAIN_END_OF_TURN):  # no repeating step; the usual shape
        trial = state.copy()
        trial.display[1] = -1
        gone = trial.market[2]
        trial.market[2] = -1
        trial.bag.append(gone)
        events: list[Any] = []
        run(trial, events)
        assert -1 not in trial.display and -1 not in trial.market
        assert [type(e).__name__ for e in events][:1] == ["TurnEnded"]
