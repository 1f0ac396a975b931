"""The declared grammar of actions and how the token encoding reads it.

A test module (registered for the duration of a test only) declares actions with every argument
type the core does not use, and a keyword with two forms (like protocol 2's ``buy SQUARE CARDS``
and ``buy ITEM CARDS``), so the encoding is checked beyond the actions that exist today.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import actions, hooks, new_game, parse_action, view  # noqa: E402
from alhambra.actions import (  # noqa: E402
    GRAMMAR_TYPES,
    Action,
    action_classes,
    check_grammar,
    grammar_of,
    grammars_of,
    parse_cards,
    register_parser,
    registered_keywords,
)
from alhambra.errors import NotationError  # noqa: E402
from alhambra.hooks import Module, available_modules, load_module  # noqa: E402
from alhambra.research.encoding import ActionCodec, TokenKind, codec_for  # noqa: E402
from alhambra.research.observation import ObservationEncoder  # noqa: E402
from alhambra.state import GameConfig, GameState  # noqa: E402

TEST_ID = "grammar_test"


# ---------------------------------------------------------------------------------- registry
def test_every_registered_keyword_declares_its_grammar() -> None:
    for m in available_modules():
        load_module(m)
    keywords = registered_keywords()
    assert {"take", "buy", "place", "redesign build", "redesign remove", "redesign exchange", "end", "vizier buy"} <= set(keywords)
    for kw in keywords:
        forms = grammars_of(kw)
        assert forms, kw
        for cls in action_classes(kw):
            assert cls.keyword == kw
            check_grammar(cls.grammar)
    assert grammar_of("take") == ("cards",)
    assert grammars_of("buy") == (("square", "cards"), ("item", "cards"))
    assert grammar_of("place") == ("tile", "target")
    assert grammar_of("redesign build") == ("tile", "cell")
    assert grammar_of("redesign remove") == ("tile",)
    assert grammar_of("redesign exchange") == ("tile", "tile")
    assert grammar_of("end") == ()
    assert grammars_of("vizier buy") == (("square", "cards"), ("item", "cards"))
    assert grammar_of("pass") == grammar_of("vizier wake") == ()


@dataclass(frozen=True, slots=True)
class _Undeclared(Action):
    keyword = "grammar_test undeclared"

    def notation(self) -> str:
        return "grammar_test undeclared"


@dataclass(frozen=True, slots=True)
class _BadType(Action):
    keyword = "grammar_test bad"
    grammar = ("colour",)

    def notation(self) -> str:
        return "grammar_test bad red"


def test_register_parser_needs_a_declared_grammar() -> None:
    def parse(w: list[str]) -> Action:
        return _Undeclared()

    with pytest.raises(ValueError, match="needs the action classes"):
        register_parser("grammar_test undeclared", parse)
    with pytest.raises(ValueError, match="does not declare its grammar"):
        register_parser("grammar_test undeclared", parse, _Undeclared)
    with pytest.raises(ValueError, match="keyword is"):
        register_parser("grammar_test other", parse, _BadType)
    with pytest.raises(ValueError, match="unknown argument type 'colour'"):
        register_parser("grammar_test bad", parse, _BadType)
    with pytest.raises(ValueError, match="bad keyword"):
        register_parser("Grammar Test Bad Words", parse, _BadType)
    with pytest.raises(ValueError, match="bad word type"):
        check_grammar(("word:Up|down",))
    with pytest.raises(ValueError, match="bad word type"):
        check_grammar(("word:up|up",))
    check_grammar((*GRAMMAR_TYPES, "word:up|down"))
    assert "grammar_test bad" not in registered_keywords()


# ---------------------------------------------------------------------------------- a test module
@dataclass(frozen=True, slots=True)
class GrammarTestMove(Action):
    """Every argument type the core does not use, and a position before the last argument
    (written by the default notation)."""

    module = TEST_ID
    keyword = "grammar_test move"
    grammar = ("seat", "kind", "currency", "count", "word:up|down", "cell", "card", "target")
    seat: int
    kind: str
    currency: str
    count: int
    way: str
    cell: tuple[int, int]
    card: str
    target: tuple[int, int] | str


@dataclass(frozen=True, slots=True)
class GrammarTestBuySquare(Action):
    module = TEST_ID
    keyword = "grammar_test buy"
    grammar = ("square", "cards")
    square: int
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GrammarTestBuyItem(Action):
    module = TEST_ID
    keyword = "grammar_test buy"
    grammar = ("item", "cards")
    item: str
    payment: tuple[str, ...]


def _parse_move(w: list[str]) -> Action:
    if len(w) != 8:
        raise NotationError("usage: grammar_test move SEAT KIND CURRENCY COUNT up|down X,Y CARD TARGET")
    return GrammarTestMove(int(w[0]), w[1], w[2], int(w[3]), w[4], actions.parse_xy(w[5]), w[6], actions.parse_target(w[7]))


def _parse_buy(w: list[str]) -> Action:
    if len(w) != 2:
        raise NotationError("usage: grammar_test buy SQUARE|ITEM CARDS")
    if w[0].isdigit():
        return GrammarTestBuySquare(int(w[0]), parse_cards(w[1]))
    return GrammarTestBuyItem(w[0], parse_cards(w[1]))


class GrammarTestModule(Module):
    id = TEST_ID
    items: tuple[str, ...] = ("Lamp", "Rug")

    def notation_items(self, config: GameConfig) -> list[str]:
        return list(self.items)

    def observation_flags(self, config: GameConfig) -> tuple[str, ...]:
        return ("ready",)

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        return {"ready": [seat == 1 for seat in range(state.config.players)]}


@pytest.fixture
def test_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[GrammarTestModule]:
    """The test module, loadable and with its keywords registered, for one test."""
    module = GrammarTestModule()
    monkeypatch.setitem(hooks._CACHE, TEST_ID, module)
    monkeypatch.setattr(hooks, "_BY_CONFIG", {})
    register_parser("grammar_test move", _parse_move, GrammarTestMove)
    register_parser("grammar_test buy", _parse_buy, GrammarTestBuySquare, GrammarTestBuyItem)
    try:
        yield module
    finally:
        for kw in ("grammar_test move", "grammar_test buy"):
            actions._PARSERS.pop(kw, None)
            actions._CLASSES.pop(kw, None)


CONFIG = GameConfig(players=3, modules=(TEST_ID,))


def test_a_module_keyword_enters_the_action_space_by_its_grammar(test_module: GrammarTestModule) -> None:
    base = codec_for(GameConfig(players=3))
    codec = ActionCodec(CONFIG)
    # the base tokens keep their ids; the module's keywords and argument tokens come after
    assert codec.names[: len(base.keywords)] == base.keywords
    assert codec.keywords == (*base.keywords, "grammar_test buy", "grammar_test move")
    assert codec.grammars["grammar_test buy"] == (("square", "cards"), ("item", "cards"))
    assert codec.items == ("Lamp", "Rug")
    extra = [n for n in codec.names if n not in base.names]
    assert extra == [
        "grammar_test buy",
        "grammar_test move",
        "item Lamp",
        "item Rug",
        *(f"seat {i}" for i in range(1, 7)),
        "kind pavilion",
        "kind seraglio",
        "kind arcades",
        "kind chambers",
        "kind garden",
        "kind tower",
        "currency b",
        "currency g",
        "currency o",
        "currency y",
        *(f"count {i}" for i in range(10)),
        "up",
        "down",
    ]
    assert len(set(codec.names)) == codec.num_tokens

    def names(text: str) -> list[str]:
        return [codec.names[t] for t in codec.encode(parse_action(text))]

    assert names("grammar_test move 2 garden o 7 down -1,20 b3 reserve") == [
        "grammar_test move",
        "seat 2",
        "kind garden",
        "currency o",
        "count 7",
        "down",
        "far",
        "x -1",
        "y 20",
        "card b3",
        "reserve",
    ]
    assert names("grammar_test buy 3 b7+b2") == ["grammar_test buy", "square 3", "card b7", "card b2", "done"]
    assert names("grammar_test buy Rug o4") == ["grammar_test buy", "item Rug", "card o4", "done"]
    # the core's token sequences are unchanged
    assert names("buy 2 b7+b2") == ["buy", "square 2", "card b7", "card b2", "done"]
    assert names("place G8sw 1,-2") == ["place", "tile G8sw", "cell 1,-2"]

    sample = [
        parse_action(t)
        for t in (
            "grammar_test move 2 garden o 7 down -1,20 b3 reserve",
            "grammar_test move 2 garden o 7 down -1,20 b3 0,1",
            "grammar_test move 2 garden o 7 up 0,0 b3 neutral",
            "grammar_test move 6 tower b 0 up 3,3 y9 30,-30",
            "grammar_test buy 3 b7+b2",
            "grammar_test buy 3 b7",
            "grammar_test buy Rug o4",
            "grammar_test buy Lamp o4+o3",
            "buy 3 b7",
            "take b3+g2",
        )
    ]
    seqs = [codec.encode(a) for a in sample]
    for a, seq in zip(sample, seqs, strict=True):
        assert codec.decode(seq) == a
        for k in range(1, len(seq)):
            assert codec.words(seq[:k]) is None
            assert seq[:k] not in seqs
    tree = codec.tree(sample)
    assert tree.size == len(sample)
    for a, seq in zip(sample, seqs, strict=True):
        assert tree.node(seq) == a


def test_tokens_outside_the_grammar_are_refused(test_module: GrammarTestModule) -> None:
    codec = ActionCodec(CONFIG)
    kw = codec.token(TokenKind.KEYWORD, "grammar_test buy")
    with pytest.raises(ValueError, match=r"unexpected token 'tile G8sw' \(expected item or square\)"):
        codec.words([kw, codec.token(TokenKind.TILE, "G8sw")])
    with pytest.raises(ValueError, match="after a complete action"):
        codec.words([codec.token(TokenKind.KEYWORD, "end"), codec.token(TokenKind.DONE)])
    move = codec.encode(parse_action("grammar_test move 2 garden o 7 down -1,20 b3 reserve"))
    with pytest.raises(ValueError, match="inside a far position"):
        codec.words([*move[:7], codec.token(TokenKind.Y, 3)])
    with pytest.raises(ValueError, match="no token for item 'Carpet'"):
        codec.encode(GrammarTestBuyItem("Carpet", ("o4",)))
    with pytest.raises(ValueError, match="no token for square '5'"):
        codec.encode(GrammarTestBuySquare(5, ("o4",)))
    with pytest.raises(ValueError, match="not an action of this configuration"):
        codec_for(GameConfig(players=3)).encode(GrammarTestBuySquare(1, ("o4",)))


def test_the_codec_refuses_grammars_it_cannot_encode(test_module: GrammarTestModule, monkeypatch: pytest.MonkeyPatch) -> None:
    # an argument type the encoding has no tokens for (declared after registration)
    monkeypatch.setattr(GrammarTestMove, "grammar", ("seat", "colour"))
    with pytest.raises(ValueError, match="cannot spell argument type 'colour' of 'grammar_test move'"):
        ActionCodec(CONFIG)
    # a word that is already a token's name
    monkeypatch.setattr(GrammarTestMove, "grammar", ("word:reserve|other",))
    with pytest.raises(ValueError, match="the word 'reserve' of a grammar is also the token"):
        ActionCodec(CONFIG)
    monkeypatch.setattr(GrammarTestMove, "grammar", ("seat",))
    ActionCodec(CONFIG)
    # forms of one keyword that the tokens cannot tell apart
    monkeypatch.setattr(GrammarTestBuyItem, "grammar", ("square", "card"))
    with pytest.raises(ValueError, match=r"argument 2 \(cards or card\) starts with the same tokens"):
        ActionCodec(CONFIG)
    monkeypatch.setattr(GrammarTestBuyItem, "grammar", ("square",))
    with pytest.raises(ValueError, match="one is a prefix of the other"):
        ActionCodec(CONFIG)
    monkeypatch.setattr(GrammarTestBuyItem, "grammar", ("square", "target"))
    ActionCodec(CONFIG)  # cards and a target start differently
    # items must be words, unique
    monkeypatch.setattr(GrammarTestBuyItem, "grammar", ("item", "cards"))
    monkeypatch.setattr(test_module, "items", ("Lamp", "Lamp"))
    with pytest.raises(ValueError, match="listed twice"):
        ActionCodec(CONFIG)
    monkeypatch.setattr(test_module, "items", ("7up",))
    with pytest.raises(ValueError, match="bad item '7up'"):
        ActionCodec(CONFIG)


def test_max_tokens_reads_the_grammars(test_module: GrammarTestModule) -> None:
    base = codec_for(GameConfig(players=2))
    assert base.max_tokens() == 5  # place TILE far x y
    assert base.max_tokens(cards=3) == 6  # buy SQUARE c c c done
    assert base.max_tokens(cards=9) == 1 + 1 + 10
    codec = ActionCodec(CONFIG)
    assert codec.max_tokens() == 1 + 5 + 3 + 1 + 3


def test_observation_reads_module_flags_and_the_grammar(test_module: GrammarTestModule) -> None:
    codec = ActionCodec(CONFIG)
    enc = ObservationEncoder.for_config(CONFIG, codec)
    base = ObservationEncoder.for_config(GameConfig(players=3), codec_for(GameConfig(players=3)))
    assert enc.module_flags == ((TEST_ID, "ready"),)
    assert enc.sections["modules"][1] - enc.sections["modules"][0] == 3
    extra = sum(1 for k in codec.kinds if k in ("item", "seat", "kind", "currency", "count", "word"))
    p0, p1 = enc.sections["prefix"]
    b0, b1 = base.sections["prefix"]
    # two more keywords, a token per module-only argument, reserve/neutral and a chosen position
    # (the move has positions before its last argument)
    assert (p1 - p0) - (b1 - b0) == 2 + extra + 2 + 3
    spans = sorted(enc.sections.values())
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert end == start

    state, _ = new_game(CONFIG, 4)
    move = codec.encode(parse_action("grammar_test move 2 garden o 7 down -1,20 b3 reserve"))
    for viewer in range(3):
        obs = enc.encode(view(state, viewer), move[:-1])
        flags = obs[slice(*enc.sections["modules"])]
        assert list(flags) == [1.0 if (viewer + r) % 3 == 1 else 0.0 for r in range(3)]  # relative seats
    part = enc.encode(view(state, 0), move[:-1])[p0:p1]
    k = len(codec.keywords)
    h = len(codec.card_codes)
    t = len(codec.tile_codes)
    assert part[codec.keywords.index("grammar_test move")] == 1.0
    extra_kinds = ("reserve", "neutral", "item", "seat", "kind", "currency", "count", "word")
    extra_tokens = [i for i, kind in enumerate(codec.kinds) if kind in extra_kinds]
    slots = [extra_tokens.index(tok) for tok in move[1:6]]
    at = k + 6 + h + 2 * t
    assert [part[at + s] for s in slots] == [1.0] * 5  # seat, kind, currency, count, word
    x, y = -1, 20
    position = part[p1 - p0 - 3 :]
    assert list(position) == pytest.approx([1.0, (x + codec.reach) / (2 * codec.reach), (y + codec.reach) / (2 * codec.reach)])
    assert part.sum() == pytest.approx(1 + 5 + 1 + (x + codec.reach) / (2 * codec.reach) + 1 / 9 + sum(position))


def test_max_game_length_counts_the_modules_between_turns() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from alhambra.openspiel import max_game_length

    base = GameConfig(players=3, turn_limit=10)
    vizier = GameConfig(players=3, modules=("vizier",), turn_limit=10)
    longest = codec_for(base).max_tokens()
    assert max_game_length(vizier) - max_game_length(base) == 10 * longest * load_module("vizier").max_actions_between_turns(vizier)
    assert load_module("currency_exchange").max_actions_between_turns(base) == 0
