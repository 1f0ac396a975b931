"""Module state slices as declared value types (alhambra.slices): JSON, view and rebuild by default."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from alhambra.engine import new_game
from alhambra.errors import NotationError
from alhambra.hooks import Module, available_modules, load_module
from alhambra.serialize import state_from_json, state_to_json
from alhambra.slices import ModuleState, check_state_type, module_slice, slice_reader
from alhambra.state import GameConfig
from alhambra.view import view


@dataclass(frozen=True, slots=True)
class Inner:
    code: str
    n: int


@dataclass(frozen=True, slots=True)
class Sample(ModuleState):
    module = "sample"
    flags: tuple[bool, ...]
    pairs: tuple[tuple[int, int], ...]
    owner: int | None
    seen: frozenset[str]
    inner: tuple[Inner, ...] = ()
    ratio: float = 0.5

    def check(self) -> None:
        if any(n < 0 for n, _ in self.pairs):
            raise ValueError("negative pair")


GOOD = Sample((True, False), ((1, 2), (3, 4)), None, frozenset({"b", "a"}), (Inner("x", 2),), 1.0)


def test_the_json_form_is_plain_and_round_trips() -> None:
    data = GOOD.to_dict()
    assert data == {
        "flags": [True, False],
        "pairs": [[1, 2], [3, 4]],
        "owner": None,
        "seen": ["a", "b"],
        "inner": [{"code": "x", "n": 2}],
        "ratio": 1.0,
    }
    assert Sample.from_dict(json.loads(json.dumps(data))) == GOOD
    assert Sample.from_dict({"flags": [], "pairs": [], "owner": 2, "seen": []}) == Sample((), (), 2, frozenset())


@pytest.mark.parametrize(
    ("junk", "reason"),
    [
        (None, "expected an object"),
        ({"flags": [1], "pairs": [], "owner": None, "seen": []}, r"true or false at flags\[0\]"),
        ({"flags": [], "pairs": [[1]], "owner": None, "seen": []}, "expected 2 entries"),
        ({"flags": [], "pairs": [], "owner": True, "seen": []}, "whole number"),
        ({"flags": [], "pairs": [], "owner": None}, "missing seen"),
        ({"flags": [], "pairs": [], "owner": None, "seen": [], "x": 1}, "unknown x"),
        ({"flags": [], "pairs": [[-1, 0]], "owner": None, "seen": []}, "negative pair"),
        ({"flags": [], "pairs": [], "owner": None, "seen": [], "inner": [{"code": 3, "n": 1}]}, r"inner\[0\]\.code"),
    ],
)
def test_junk_is_refused_naming_the_module_and_the_place(junk: Any, reason: str) -> None:
    with pytest.raises(NotationError, match=f"bad sample state .*{reason}"):
        Sample.from_dict(junk)


def test_a_field_type_that_has_no_json_form_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Bad(ModuleState):
        module = "bad"
        things: list[int]

    with pytest.raises(TypeError, match="things"):
        check_state_type(Bad)
    check_state_type(Sample)


def test_every_declared_module_state_type_is_well_formed() -> None:
    declared = [load_module(m) for m in available_modules() if load_module(m).state_type is not None]
    assert {m.id for m in declared} >= {"vizier", "change", "exchange_certificates", "new_score_cards", "bazaars"}
    for m in declared:
        assert m.state_type is not None and m.state_type.module == m.id
        check_state_type(m.state_type)


def test_module_slice_checks_the_type() -> None:
    state, _ = new_game(GameConfig(players=3, modules=("vizier",)), 5)
    kind = load_module("vizier").state_type
    assert kind is not None
    assert module_slice(state, "vizier", kind) is state.mods["vizier"] is kind.of(state)
    with pytest.raises(TypeError, match="not a Sample"):
        module_slice(state, "vizier", Sample)
    read = slice_reader("vizier", kind)
    assert read(state) is state.mods["vizier"] and "vizier" in (read.__doc__ or "")
    with pytest.raises(TypeError, match="not a Sample"):
        slice_reader("vizier", Sample)(state)
    state.mods["vizier"] = GOOD
    with pytest.raises(TypeError, match="not a VizierState"):
        kind.of(state)


def test_the_defaults_give_view_json_and_rebuild() -> None:
    """The vizier writes none of view, slice_to_json, slice_from_json, slice_from_view."""
    vizier = load_module("vizier")
    for hook in ("view", "slice_to_json", "slice_from_json", "slice_from_view"):
        assert getattr(type(vizier), hook) is getattr(Module, hook)
    state, _ = new_game(GameConfig(players=3, modules=("vizier",)), 5)
    v = view(state, 1)["module_views"]["vizier"]
    assert v == {"awake": [True, True, True]}
    assert vizier.slice_from_view(json.loads(json.dumps(v)), state.config) == state.mods["vizier"]
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert back.mods["vizier"] == state.mods["vizier"]
    with pytest.raises(NotationError, match="bad vizier state"):
        vizier.slice_from_json({"awake": [1, 0]})


def test_a_module_without_a_declared_type_keeps_the_old_defaults() -> None:
    class Old(Module):
        id = "old"

    state, _ = new_game(GameConfig(players=2), 1)
    assert Old().view(state, 0) == {} and Old().slice_from_json({"a": 1}) is None and Old().slice_from_view({}, state.config) is None


def test_register_module_loads_a_module_kept_elsewhere_and_refuses_a_taken_id() -> None:
    from alhambra.errors import ConfigError
    from alhambra.hooks import register_module

    class Elsewhere(Module):
        id = "elsewhere_sample"

    class Taken(Module):
        id = "vizier"

    mod = Elsewhere()
    register_module(mod)
    register_module(mod)  # again: the same object is fine
    assert load_module("elsewhere_sample") is mod
    state, _ = new_game(GameConfig(players=2, modules=("elsewhere_sample",)), 3)
    assert state.config.modules == ("elsewhere_sample",)
    for bad in (Taken(), type("Other", (Module,), {"id": "elsewhere_sample"})()):
        with pytest.raises(ConfigError, match="taken"):
            register_module(bad)
