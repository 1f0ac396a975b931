"""The README says what the engine does (issue 24, item 6: it once described skipped players, a
``VizierOffer`` pending and a ``vizier pass`` action that no longer exist)."""

from __future__ import annotations

import re
from pathlib import Path

import alhambra.modules.vizier as vizier_module
from alhambra import parse_action, state
from alhambra.errors import NotationError

README = (Path(vizier_module.__file__).parent / "README.md").read_text(encoding="utf-8")


def test_every_notation_example_of_the_readme_parses() -> None:
    examples = re.findall(r"`((?:vizier (?:buy|wake)|pass)[^`]*)`", README)
    assert "vizier buy 2 b5+b2" in examples and "pass" in examples and "vizier wake" in examples
    for text in examples:
        if "SQUARE" in text or "ITEM" in text:
            continue
        assert str(parse_action(text)) == text
    try:
        parse_action("vizier pass")
    except NotationError:
        pass
    else:  # pragma: no cover - would make the README wrong again
        raise AssertionError("'vizier pass' parses: the README says the core's pass answers")
    assert "vizier pass" not in README


def test_every_class_the_readme_names_exists() -> None:
    names = set(re.findall(r"`([A-Z][A-Za-z]+)\(", README)) | set(re.findall(r'"type": "([A-Za-z]+)"', README))
    assert names, "the README names the pendings and events it uses"
    for name in names:
        assert hasattr(vizier_module, name) or hasattr(state, name), f"README names {name}, which does not exist"
    assert "VizierOffer" not in README


def test_the_readme_asks_every_awake_player_as_the_rulebook_and_the_engine_do() -> None:
    """Rulebook, Vizier's favour: "The other players may then decide again whether they want to
    use their vizier." The engine asks every awake player, also one who cannot pay exactly
    (``test_every_awake_player_is_asked_even_without_exact_money_sleepers_are_not``); the README
    must not say such a player is skipped."""
    text = " ".join(README.split())
    assert "The other players may then decide again" in text
    assert "also when it cannot pay any tile exactly" in text
    assert "is skipped without being asked" not in text
