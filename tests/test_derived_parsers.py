"""Parsers derived from the declared grammar (``register_action``): every keyword reads what it
writes, a wrong word count gives the usage the grammar derives, a bad word of any grammar type
is a ``NotationError`` that names it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game
from alhambra.actions import (
    GRAMMAR_TYPES,
    Action,
    BuyBuilding,
    BuyItem,
    action_classes,
    action_data,
    parse_action,
    register_action,
    registered_keywords,
    usage,
)
from alhambra.errors import NotationError
from alhambra.hooks import available_modules, load_module
from tests.test_all_modules import all_modules

for _m in available_modules():
    load_module(_m)

EXAMPLES: dict[str, tuple[str, ...]] = {
    "take": ("take b3+g2",),
    "buy": ("buy 2 b7+b2", "buy Zo2 o4"),
    "place": ("place G8sw 1,-2", "place G8sw reserve", "place G8sw neutral"),
    "turn": ("turn S2nw b2+b1",),
    "redesign build": ("redesign build G8sw 1,-2",),
    "redesign remove": ("redesign remove G8sw",),
    "redesign exchange": ("redesign exchange T9ne G8sw",),
    "end": ("end",),
    "pass": ("pass",),
    "culture develop": ("culture develop",),
    "bonus play": ("bonus play T12",),
    "bonus pass": ("bonus pass",),
    "site keep": ("site keep b",),
    "camp place": ("camp place L6w 2,0",),
    "camp build": ("camp build L5s 0,-2",),
    "camp remove": ("camp remove L6w",),
    "camp exchange": ("camp exchange L8ne L4e",),
    "cara move": ("cara move cara3 forward", "cara move cara8 side"),
    "cara stay": ("cara stay",),
    "character bid": ("character bid 7",),
    "character pass": ("character pass",),
    "character pay": ("character pay cy+y8",),
    "character keep": ("character keep",),
    "character swap": ("character swap",),
    "character dancer": ("character dancer 4",),
    "character beggar": ("character beggar",),
    "character go": ("character go",),
    "character patron": ("character patron 1", "character patron Zg2"),
    "character change": ("character change g3 b1",),
    "character miser": ("character miser g6",),
    "character skip": ("character skip",),
    "character wise": ("character wise pavilion",),
    "character build": ("character build Qs3 0,-3",),
    "character remove": ("character remove Xg13",),
    "character exchange": ("character exchange Qs3 Xg13",),
    "character redesign": ("character redesign",),
    "gate take": ("gate take",),
    "gate place": ("gate place G8sw 1,0 w",),
    "gate build": ("gate build P5nw 2,0 w",),
    "gate turn": ("gate turn Xa11 1,0 w es",),
    "wall build": ("wall build cwne Qs1", "wall build cwne fountain"),
    "certificate store": ("certificate store y",),
    "certificate decline": ("certificate decline",),
    "falcon": ("falcon Fr2 0,-2 b1",),
    "falcon done": ("falcon done",),
    "magic place": ("magic place Xg13 2,2 nes",),
    "magic build": ("magic build Xg13 0,-3 new",),
    "magic exchange": ("magic exchange Xg13 A8e nes",),
    "builder build": ("builder build mo3 Qt1 0,-1",),
    "builder remove": ("builder remove mg3 S7w",),
    "builder exchange": ("builder exchange mg3 G10w S7w",),
    "builder skip": ("builder skip",),
    "builder use": ("builder use mb3",),
    "sultan claim": ("sultan claim",),
    "sultan decline": ("sultan decline",),
    "sultan keep": ("sultan keep",),
    "sultan reveal": ("sultan reveal",),
    "sultan mark": ("sultan mark chambers",),
    "square take": ("square take pavilion",),
    "trader choose": ("trader choose pavilion seraglio arcades",),
    "trader place": ("trader place 0,-1",),
    "trader move": ("trader move garden",),
    "trader take": ("trader take pavilion",),
    "trader exchange": ("trader exchange pavilion seraglio",),
    "trader skip": ("trader skip",),
    "thief": ("thief o9",),
    "chest put": ("chest put 1,-1",),
    "vizier buy": ("vizier buy 2 g7", "vizier buy Zg2 g8"),
    "vizier wake": ("vizier wake",),
    "watchtower place": ("watchtower place Wg1 -7,-2 se",),
    "watchtower return": ("watchtower return Wa1",),
}
"""One written action of every form of every keyword (a new keyword must add its own)."""

HAND_WRITTEN: dict[str, str] = {
    "wall build": "usage: wall build CARD TILE (e.g. wall build cwne G8sw, or wall build cwn fountain)",
    "trader choose": "usage: trader choose KIND KIND KIND",
}
"""The keywords whose parser is still written by hand (their usage as written there)."""


def test_every_keyword_has_examples_of_every_form() -> None:
    # the package's keywords (tests and examples such as guild_seals may register their own)
    ours = [k for k in registered_keywords() if all(c.__module__.startswith("alhambra.") for c in action_classes(k))]
    assert sorted(EXAMPLES) == ours
    for keyword, texts in EXAMPLES.items():
        forms = {type(parse_action(text)) for text in texts}
        assert forms == set(action_classes(keyword)), keyword


@pytest.mark.parametrize("keyword", sorted(EXAMPLES))
def test_every_keyword_reads_what_it_writes(keyword: str) -> None:
    for text in EXAMPLES[keyword]:
        action = parse_action(text)
        assert type(action).keyword == keyword
        assert str(action) == text
        assert parse_action(str(action)) == action
        assert action_data(action)["notation"] == text
        assert parse_action(keyword.upper() + text[len(keyword) :]) == action  # the keyword in any case


@pytest.mark.parametrize("keyword", sorted(EXAMPLES))
def test_a_wrong_word_count_gives_the_usage_of_the_grammar(keyword: str) -> None:
    expected = HAND_WRITTEN.get(keyword) or "usage: " + " or ".join(dict.fromkeys(usage(cls) for cls in action_classes(keyword)))
    longest = max(len(cls.grammar) for cls in action_classes(keyword))
    for text in (EXAMPLES[keyword][0] + " 1", keyword + " x" * (longest + 2)):
        with pytest.raises(NotationError) as e:
            parse_action(text)
        assert str(e.value) == expected


def test_derived_usage_lines() -> None:
    """Types by name; a type that repeats by its fields; a few fixed words as they are written."""
    cases = {
        "buy": "usage: buy SQUARE CARDS or buy ITEM CARDS",
        "place": "usage: place TILE X,Y|reserve|neutral",
        "redesign exchange": "usage: redesign exchange RESERVE_TILE CITY_TILE",
        "end": "usage: end",
        "cara move": "usage: cara move ITEM forward|side",
        "gate turn": "usage: gate turn TILE X,Y n|e|s|w WALLS",
        "trader exchange": "usage: trader exchange GIVE TAKE",
        "character patron": "usage: character patron SQUARE or character patron ITEM",
        "chest put": "usage: chest put X,Y",
        "site keep": "usage: site keep CURRENCY",
        "falcon": "usage: falcon ITEM X,Y CARD",
    }
    for keyword, line in cases.items():
        with pytest.raises(NotationError) as e:
            parse_action(keyword + " a b c d e f")
        assert str(e.value) == line


# ---------------------------------------------------------------------------------- every type
@dataclass(frozen=True, slots=True)
class _Every(Action):
    keyword = "derived_test every"
    grammar = (*GRAMMAR_TYPES, "word:up|down")
    square: int
    cards: tuple[str, ...]
    card: str
    tile: str
    target: tuple[int, int] | str
    cell: tuple[int, int]
    item: str
    seat: int
    kind: str
    currency: str
    count: int
    amount: int
    way: str


LABELS = (
    "SQUARE", "CARDS", "CARD", "TILE", "X,Y|reserve|neutral", "X,Y", "ITEM", "SEAT", "KIND", "CURRENCY", "COUNT", "AMOUNT", "up|down",
)  # fmt: skip
GOOD = ("2", "b7+b2", "b7", "G8sw", "reserve", "1,-2", "Zo2", "3", "tower", "g", "0", "12", "up")
BAD: dict[str, tuple[str, str]] = {
    "square": ("5", "there is no market square 5"),
    "cards": ("b7+", "bad card list 'b7+'"),
    "card": ("b7+b2", "bad card 'b7+b2'"),
    "tile": ("8G", "bad tile code '8G'"),
    "target": ("north", "bad position 'north'"),
    "cell": ("reserve", "bad position 'reserve'"),
    "item": ("9lamp", "bad item '9lamp'"),
    "seat": ("7", "bad seat '7'"),
    "kind": ("castle", "unknown building kind 'castle'"),
    "currency": ("r", "bad currency 'r'"),
    "count": ("10", "bad count '10'"),
    "amount": ("0", "bad amount '0'"),
    "word:up|down": ("sideways", "bad way 'sideways' (one of up|down)"),
}


@pytest.fixture
def every() -> Iterator[None]:
    register_action(_Every)
    try:
        yield
    finally:
        from alhambra import actions

        actions._PARSERS.pop(_Every.keyword)
        actions._CLASSES.pop(_Every.keyword)


def test_the_derived_parser_reads_every_type_into_the_fields(every: None) -> None:
    text = "derived_test every " + " ".join(GOOD)
    action = parse_action(text)
    assert action == _Every(2, ("b7", "b2"), "b7", "G8sw", "reserve", (1, -2), "Zo2", 3, "tower", "g", 0, 12, "up")
    assert str(action) == text
    assert parse_action("DERIVED_TEST EVERY 02 B2+b7 B7 g8SW Reserve (1,-2) Zo2 3 Tower G 0 12 UP") == action
    assert [arg["type"] for arg in action_data(action)["args"]] == list(_Every.grammar)
    with pytest.raises(NotationError, match=re.escape("usage: derived_test every " + " ".join(LABELS))):
        parse_action("derived_test every 2")


@pytest.mark.parametrize("arg_type", list(BAD))
def test_a_bad_word_of_each_type_is_named(every: None, arg_type: str) -> None:
    word, message = BAD[arg_type]
    words = list(GOOD)
    words[_Every.grammar.index(arg_type)] = word
    with pytest.raises(NotationError, match=re.escape(message)):
        parse_action("derived_test every " + " ".join(words))


def test_forms_of_one_keyword_are_told_apart_by_their_words() -> None:
    assert parse_action("buy 2 b7+b2") == BuyBuilding(2, ("b7", "b2"))
    assert parse_action("buy Zo2 b7") == BuyItem("Zo2", ("b7",))
    # no form reads the word: both reasons are given
    with pytest.raises(NotationError, match=r"bad market square '!x' .*; or bad item '!x'"):
        parse_action("buy !x b7")
    # a form that reads further gives its reason alone
    with pytest.raises(NotationError, match=r"^bad card list 'b7\+'"):
        parse_action("buy 2 b7+")


@dataclass(frozen=True, slots=True)
class _Written(Action):
    keyword = "derived_test written"
    grammar = ("kind", "kind")
    kinds: tuple[str, ...]

    def notation(self) -> str:
        return "derived_test written " + " ".join(self.kinds)


def test_register_action_refuses_what_it_cannot_derive() -> None:
    with pytest.raises(ValueError, match="writes its own notation"):
        register_action(_Written)
    with pytest.raises(ValueError, match="no grammar type 'colour'"):
        register_action(_Every, colour=str.lower)
    with pytest.raises(ValueError, match="needs the action classes"):
        register_action()
    with pytest.raises(ValueError, match="keyword is 'buy'"):
        register_action(_Every, BuyItem)
    assert "derived_test written" not in registered_keywords() and _Every.keyword not in registered_keywords()


def test_a_module_narrows_a_type_with_its_own_reader() -> None:
    with pytest.raises(NotationError, match="'P8' is not a camp"):
        parse_action("camp place P8 1,1")
    with pytest.raises(NotationError, match="'Wx1' is not a watchtower"):
        parse_action("watchtower return Wx1")
    # their codes read in any case, as the core's tile codes do
    assert str(parse_action("camp place l6W 2,0")) == "camp place L6w 2,0"
    assert str(parse_action("watchtower place wG1 -7,-2 SE")) == "watchtower place Wg1 -7,-2 se"
    with pytest.raises(NotationError, match="one master-builder card"):
        parse_action("builder use mb3+mg3")
    with pytest.raises(NotationError, match="no caravanserai card"):
        parse_action("cara move cara9 side")


# ---------------------------------------------------------------------------------- random games
@pytest.mark.parametrize(("players", "seed", "steps", "minimum"), [(2, 11, 1500, 40), (4, 12, 600, 30)])
def test_every_legal_action_of_random_games_reads_back(players: int, seed: int, steps: int, minimum: int) -> None:
    """Random games with every module: each legal action of every state round-trips through its
    notation (the same class, the same value)."""
    config = GameConfig(players=players, modules=all_modules(players))
    state, _ = new_game(config, seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(steps):
        if state.is_over:
            break
        acts = legal_actions(state)
        for action in acts:
            again = parse_action(str(action))
            assert again == action and type(again) is type(action), str(action)
            seen.add(type(action).keyword)
        state, _ = apply(state, rng.choice(acts), state.to_act)
    assert len(seen) >= minimum, sorted(seen)  # most keywords come up
