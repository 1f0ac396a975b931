"""The default text notation of actions (``Action.notation``): the keyword, then one word per field."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from alhambra import actions
from alhambra.actions import Action, BuyBuilding, EndTurn, PlaceBuilding, parse_action, register_parser
from alhambra.hooks import load_module


@dataclass(frozen=True, slots=True)
class _Every(Action):
    keyword = "notation_test every"
    grammar = ("seat", "kind", "cards", "cell", "word:up|down", "target", "count")
    seat: int
    kind: str
    cards: tuple[str, ...]
    cell: tuple[int, int]
    way: str
    target: tuple[int, int] | str
    count: int


@dataclass(frozen=True, slots=True)
class _Nothing(Action):
    keyword = "notation_test nothing"
    grammar = ()


@dataclass(frozen=True, slots=True)
class _Packed(Action):
    """One field for three words: the default cannot write it."""

    keyword = "notation_test packed"
    grammar = ("kind", "kind", "kind")
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _PackedWritten(_Packed):
    keyword = "notation_test packed"

    def notation(self) -> str:
        return "notation_test packed " + " ".join(self.kinds)


def test_the_default_writes_the_keyword_then_each_field_by_its_grammar_type() -> None:
    assert str(_Every(2, "tower", ("b7", "b2"), (1, -2), "up", (0, 3), 4)) == "notation_test every 2 tower b7+b2 1,-2 up 0,3 4"
    assert _Every(1, "garden", ("y9",), (0, 0), "down", "reserve", 0).notation() == "notation_test every 1 garden y9 0,0 down reserve 0"
    assert str(_Nothing()) == "notation_test nothing"
    # the core's actions use it
    assert str(BuyBuilding(2, ("b7", "b2"))) == "buy 2 b7+b2"
    assert str(PlaceBuilding("G8sw", (1, -2))) == "place G8sw 1,-2"
    assert str(PlaceBuilding("G8sw", "neutral")) == "place G8sw neutral"
    assert str(EndTurn()) == "end"


def test_a_class_whose_fields_do_not_pair_with_its_grammar_must_write_its_own() -> None:
    def parse(words: list[str]) -> Action:
        return _PackedWritten(tuple(words))

    with pytest.raises(ValueError, match=r"_Packed has 1 field\(s\) \['kinds'\] for 3 grammar entries.*override notation"):
        register_parser("notation_test packed", parse, _Packed)
    with pytest.raises(TypeError, match="override notation"):
        _Packed(("tower", "garden", "pavilion")).notation()
    assert "notation_test packed" not in actions.registered_keywords()
    register_parser("notation_test packed", parse, _PackedWritten)
    try:
        action = parse_action("notation_test packed tower garden pavilion")
        assert str(action) == "notation_test packed tower garden pavilion"
    finally:
        actions._PARSERS.pop("notation_test packed")
        actions._CLASSES.pop("notation_test packed")


def test_module_actions_keep_their_notation() -> None:
    """Module actions use the default, or their own where one field stands for several words."""
    load_module("street_traders")
    load_module("master_builders")
    texts = ("trader choose pavilion garden tower", "trader place 1,-2", "trader exchange tower garden")
    texts += ("builder build mb3 G8sw 0,-1", "builder skip")
    for text in texts:
        assert str(parse_action(text)) == text
