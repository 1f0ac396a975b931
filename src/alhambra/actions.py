"""Actions: immutable, imperative values with a compact text notation that round-trips.

Notation (one action per line; squares and display slots are numbered 1-4)::

    take b3+g2                 take money cards from the display (by face)
    buy 2 b7+b2                buy the tile on market square 2, paying blue 7 and blue 2
    place G8sw 1,-2            build a bought tile at x=1, y=-2 (x east, y south of the fountain)
    place G8sw reserve         put a bought tile on the reserve board
    place G8sw neutral         give a bought tile to the neutral player (2-player game)
    turn S2nw b2+b1            turn a waiting two-sided tile over (Granada), paying 3 of one currency
    redesign build G8sw 1,-2   reserve board -> Alhambra
    redesign remove G8sw       Alhambra -> reserve board
    redesign exchange T9ne G8sw  reserve tile T9ne takes the place of G8sw in the Alhambra
    buy Zo2 o4                 buy something a module offers (an item token starts with a letter)
    end                        pass the turn when no other action is possible
    pass                       between turns: make no out-of-turn move

Modules register their own keywords (one or two words starting with the module's own word).
:func:`parse_action` reads any of them; ``str(action)`` writes it.

Declared grammar
----------------
Every action class declares its notation: ``keyword`` (one or two words) and ``grammar``, the
types of the argument words after the keyword, in notation order (:data:`GRAMMAR_TYPES`). The
notation of an action is always the keyword followed by exactly one word per grammar entry.
Readers of the notation (the research token encoding, user interfaces) use the grammar instead
of guessing what a word is from its shape; :func:`grammars_of` gives them back.

The parser is derived from the declaration too: :func:`register_action` registers a keyword's
classes and builds its parser, one reader per grammar type (:func:`parse_square`,
:func:`parse_cards`, :func:`parse_tile`, ...) whose values fill the dataclass fields in order, as
the default :meth:`Action.notation` writes them, so notation -> parse -> notation round-trips by
construction; a wrong word count is ``usage: <keyword> <ARG> ...`` derived from the grammar. A
module may give its own reader for a type (``register_action(PlaceCamp, tile=_camp_word)``: only
its camps). :func:`register_parser` takes a hand-written parser for what a grammar cannot decide
(a class that writes its own notation, or forms whose words overlap).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from .components import CURRENCY_LETTERS, KINDS, MARKET_SIZE
from .errors import NotationError
from .values import Value, fast_init

Target = tuple[int, int] | str
"""Where a tile goes: ``(x, y)`` in the Alhambra, ``"reserve"`` or ``"neutral"``."""

_PARSERS: dict[str, Callable[[list[str]], Action]] = {}
_CLASSES: dict[str, tuple[type[Action], ...]] = {}

GRAMMAR_TYPES: Final = ("square", "cards", "card", "tile", "target", "cell", "item", "seat", "kind", "currency", "count", "amount")
"""The argument types of a grammar (besides ``word:a|b|c``), each one notation word:

* ``square``: a market square, 1-4;
* ``cards``: a card list ``a+b`` (canonical order);
* ``card``: one card code;
* ``tile``: a building tile code;
* ``target``: ``x,y``, ``reserve`` or ``neutral``;
* ``cell``: ``x,y``;
* ``item``: an offer's item (a word starting with a letter; modules list theirs with
  :meth:`~alhambra.hooks.Module.notation_items`);
* ``seat``: a seat number, 1-based;
* ``kind``: a building kind word (``pavilion`` ... ``tower``);
* ``currency``: a currency letter (``b``, ``g``, ``o``, ``y``);
* ``count``: a small number, 0-9;
* ``amount``: a number of coins, 1-99 (a bid);
* ``word:a|b|c``: one of these fixed lower-case words.
"""

WORD_PREFIX: Final = "word:"
_WORD_RE: Final = re.compile(r"^[a-z][a-z0-9_-]*$")
_KEYWORD_RE: Final = re.compile(r"^[a-z][a-z0-9_-]*( [a-z][a-z0-9_-]*)?$")


def grammar_words(arg_type: str) -> tuple[str, ...]:
    """The words of a ``word:a|b|c`` type (empty for any other type)."""
    if not arg_type.startswith(WORD_PREFIX):
        return ()
    return tuple(arg_type[len(WORD_PREFIX) :].split("|"))


def check_grammar(grammar: tuple[str, ...]) -> None:
    """Raise ``ValueError`` unless every entry is one of :data:`GRAMMAR_TYPES` or ``word:a|b|c``."""
    if not isinstance(grammar, tuple):
        raise ValueError(f"a grammar is a tuple of argument types, not {grammar!r}")
    for t in grammar:
        if not isinstance(t, str):
            raise ValueError(f"bad argument type {t!r} in grammar {grammar!r}")
        if t.startswith(WORD_PREFIX):
            words = grammar_words(t)
            if not all(_WORD_RE.match(w) for w in words) or len(set(words)) != len(words):
                raise ValueError(f"bad word type {t!r} (write word:a|b|c with distinct lower-case words)")
        elif t not in GRAMMAR_TYPES:
            raise ValueError(f"unknown argument type {t!r} in grammar {grammar!r} (known: {', '.join(GRAMMAR_TYPES)}, word:a|b|c)")


class Action(Value):
    """Base of every action. ``str(action)`` is its notation.

    Subclasses declare ``keyword`` and ``grammar`` (see the module docstring): the notation is
    the keyword followed by one word per grammar entry.
    """

    __slots__ = ()
    registry: ClassVar[dict[str, type[Value]]] = {}
    keyword: ClassVar[str] = ""
    """The notation's keyword (one or two lower-case words)."""
    grammar: ClassVar[tuple[str, ...]] = ()
    """The types of the argument words after the keyword, in notation order."""
    two_sided: ClassVar[bool] = False
    """True for a core action that exists only in games with two-sided tiles (turning over,
    Granada): encodings of a game without them leave it out."""
    declines: ClassVar[bool] = False
    """True for an action that turns down what a module offers (pass, skip, decline): statistics
    of how often a module is used do not count it as a use."""

    def notation(self) -> str:
        """The action in text notation.

        The default writes the ``keyword``, then the dataclass fields in declaration order, one
        word per field, which pair one to one with the ``grammar`` entries: a ``cards`` field
        (a tuple of card codes) is joined by ``+`` (``b7+b2``), a ``target`` or ``cell`` field
        goes through :func:`format_target` (``1,-2``, ``reserve``), any other is written with
        ``str`` (``2``, ``G8sw``). A class whose fields do not pair with its grammar that way
        (one field for several words, say) must override this method (and register a hand-written
        parser): :func:`register_parser` refuses it otherwise.
        """
        cls = type(self)
        writer = _WRITERS.get(cls)
        if writer is None:
            writer = _WRITERS[cls] = _default_writer(cls)
        return writer(self)

    def __str__(self) -> str:
        return self.notation()


def _check_actions(keyword: str, actions: tuple[type[Action], ...]) -> None:
    """Raise ``ValueError`` unless ``actions`` are action classes of ``keyword`` with good grammars."""
    if not _KEYWORD_RE.match(keyword):
        raise ValueError(f"bad keyword {keyword!r} (one or two lower-case words)")
    if not actions:
        raise ValueError(f"register_parser({keyword!r}, ...) needs the action classes it parses, which declare the grammar")
    for cls in actions:
        if not (isinstance(cls, type) and issubclass(cls, Action)):
            raise ValueError(f"{cls!r} is not an Action class")
        if cls.keyword != keyword:
            raise ValueError(f"{cls.__name__}.keyword is {cls.keyword!r}, not {keyword!r}: declare keyword and grammar on the class")
        if not any("grammar" in vars(c) for c in cls.__mro__ if c is not Action):
            raise ValueError(f"{cls.__name__} does not declare its grammar (a tuple of argument types, () for none)")
        check_grammar(cls.grammar)
        if cls.notation is Action.notation:
            try:
                _default_writer(cls)
            except TypeError as e:
                raise ValueError(str(e)) from None


def register_parser(keyword: str, parser: Callable[[list[str]], Action], *actions: type[Action]) -> None:
    """Make ``parse_action`` read lines starting with ``keyword`` (one or two words) with a
    hand-written ``parser``; :func:`register_action` derives the parser from the grammar instead,
    which is what most actions want.

    ``parser`` gets the words after the keyword and returns one of ``actions``: the action
    classes written with this keyword (at least one). Each declares ``keyword`` (the same) and
    ``grammar``; classes of one keyword may have different grammars (``buy SQUARE CARDS`` and
    ``buy ITEM CARDS``). Registering a keyword again replaces its parser and classes.
    Raises ``ValueError`` for a keyword without classes or with a missing or bad grammar.
    """
    _check_actions(keyword, actions)
    _PARSERS[keyword] = parser
    _CLASSES[keyword] = tuple(actions)


Reader = Callable[[str], Any]
"""Reads one argument word into a field value; raises :class:`NotationError` naming the word."""


def register_action(*actions: type[Action], **readers: Reader) -> None:
    """Make ``parse_action`` read the keyword of ``actions`` with the parser their grammar derives.

    Each grammar entry is read by its type's reader (:data:`READERS`; ``word:a|b|c`` takes one
    of its words, in any case) and the values fill the dataclass fields in declaration order,
    as the default notation writes them. ``readers`` replaces the reader of a grammar type for
    these classes (``tile=camp_code``: a module's narrower check with its own message). A wrong
    word count is ``usage: <keyword> <ARG> ...`` (:func:`usage`). Classes of one keyword with
    different grammars (``buy SQUARE CARDS``, ``buy ITEM CARDS``) are tried in the order given:
    the first whose readers take every word wins, so give forms whose words cannot be confused.
    Raises ``ValueError`` as :func:`register_parser` does, for an unknown type in ``readers``,
    and for a class that writes its own notation (it needs a hand-written parser).
    """
    if not actions:
        raise ValueError("register_action() needs the action classes, which declare keyword and grammar")
    keyword = actions[0].keyword
    _check_actions(keyword, actions)
    for name in readers:
        if name not in GRAMMAR_TYPES:
            raise ValueError(f"no grammar type {name!r} to give a reader for (known: {', '.join(GRAMMAR_TYPES)})")
    for cls in actions:
        if cls.notation is not Action.notation:
            raise ValueError(
                f"{cls.__name__} writes its own notation: its parser cannot be derived from the grammar "
                "(register a hand-written one with register_parser)"
            )
    _PARSERS[keyword] = _derived_parser(actions, readers)
    _CLASSES[keyword] = tuple(actions)


def registered_keywords() -> list[str]:
    """Every keyword ``parse_action`` reads (one or two words), sorted; modules add theirs when loaded."""
    return sorted(_PARSERS)


def keyword_order() -> list[str]:
    """Every registered keyword in registration order (the core's first, in their table order)."""
    return list(_PARSERS)


def action_classes(keyword: str) -> tuple[type[Action], ...]:
    """The action classes written with a registered keyword (``KeyError`` for an unknown one)."""
    return _CLASSES[keyword]


def grammars_of(keyword: str) -> tuple[tuple[str, ...], ...]:
    """The distinct grammars of a registered keyword, one per form, in registration order."""
    out: list[tuple[str, ...]] = []
    for cls in _CLASSES[keyword]:
        if cls.grammar not in out:
            out.append(cls.grammar)
    return tuple(out)


def grammar_of(keyword: str) -> tuple[str, ...]:
    """The grammar of a registered keyword with one form (``ValueError`` if it has several:
    use :func:`grammars_of`; ``KeyError`` for an unknown keyword)."""
    forms = grammars_of(keyword)
    if len(forms) != 1:
        raise ValueError(f"{keyword!r} has {len(forms)} forms: {forms} (use grammars_of)")
    return forms[0]


def parse_action(text: str) -> Action:
    """Parse one action in text notation; raise :class:`NotationError` with the reason."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    for n in (2, 1):
        key = " ".join(words[:n]).lower()
        if len(words) >= n and key in _PARSERS:
            try:
                return _PARSERS[key](words[n:])
            except NotationError:
                raise
            except (ValueError, IndexError) as e:
                raise NotationError(f"cannot read {text.strip()!r}: {e}") from None
    raise NotationError(f"unknown action {words[0]!r} in {text.strip()!r}")


def card_sort_key(code: str) -> tuple[int, str, int]:
    """Canonical order of card codes: special cards first, then money by currency, high to low."""
    if code and code[0] in CURRENCY_LETTERS and code[1:].isdigit():
        return (1, code[0], -int(code[1:]))
    return (0, code, 0)


def canonical_cards(codes: Iterable[str]) -> tuple[str, ...]:
    """Card codes in canonical order."""
    return tuple(sorted(codes, key=card_sort_key))


_CARD_RE = re.compile(r"^[a-z][a-z0-9]*$")


def parse_cards(text: str) -> tuple[str, ...]:
    """Read ``b7+b2`` into canonical card codes."""
    parts = [p.strip().lower() for p in text.split("+")]
    if not parts or any(not _CARD_RE.match(p) for p in parts):
        raise NotationError(f"bad card list {text!r} (write cards like b7+b2)")
    return canonical_cards(parts)


def format_target(t: Target) -> str:
    """``(1, -2)`` -> ``1,-2``; names pass through."""
    if isinstance(t, str):
        return t
    return f"{t[0]},{t[1]}"


_WRITERS: dict[type[Action], Callable[[Action], str]] = {}
"""The default notation writer of each action class (made on first use)."""


_WORD_FORMATS: Final = {"cards": "'+'.join({})", "target": "_format_target({})", "cell": "_format_target({})"}
"""How the default notation writes a field of these grammar types (any other: as ``str`` does)."""


def _default_writer(cls: type[Action]) -> Callable[[Action], str]:
    """The writer of the default :meth:`Action.notation` for ``cls`` (``TypeError`` if its
    fields do not pair one to one with its grammar).

    The writer is compiled from the class's fields (one f-string, as ``dataclasses`` writes its
    methods), so that the default costs no more than a hand-written ``notation``: the bots and
    the server write every legal action of a state.
    """
    names: list[str] = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
    if len(names) != len(cls.grammar):
        raise TypeError(
            f"{cls.__name__} has {len(names)} field(s) {names} for {len(cls.grammar)} grammar entries {cls.grammar}: "
            "the default notation writes one word per field, so override notation()"
        )
    words = [cls.keyword, *("{" + _WORD_FORMATS.get(t, "{}").format(f"a.{name}") + "}" for name, t in zip(names, cls.grammar, strict=True))]
    ns: dict[str, Any] = {"_format_target": format_target}
    exec(f"def write(a):\n    return f{' '.join(words)!r}", ns)  # keyword and field names are plain words
    writer: Callable[[Action], str] = ns["write"]
    return writer


def parse_xy(text: str) -> tuple[int, int]:
    """Read ``1,-2`` into ``(1, -2)``."""
    m = re.fullmatch(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?", text)
    if not m:
        raise NotationError(f"bad position {text!r} (write x,y like 1,-2)")
    return int(m.group(1)), int(m.group(2))


def parse_target(text: str) -> Target:
    """Read a position, ``reserve`` or ``neutral``."""
    low = text.lower()
    if low in ("reserve", "neutral"):
        return low
    return parse_xy(text)


_NUMBERS: Final = frozenset({"square", "seat", "count"})


def parse_tile(word: str) -> str:
    """A tile code as the notation writes it (first letter upper case, the rest lower case);
    :class:`NotationError` for a word that is no tile code."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", word):
        raise NotationError(f"bad tile code {word!r}")
    return word[0].upper() + word[1:].lower()


def _argument(arg_type: str, word: str) -> Any:
    if arg_type in _NUMBERS:
        return int(word)
    if arg_type == "cards":
        return word.split("+") if word else []
    if arg_type in ("target", "cell"):
        target = parse_target(word)
        return target if isinstance(target, str) else {"x": target[0], "y": target[1]}
    return word


def action_data(action: Action) -> dict[str, Any]:
    """An action as structured data, read with its declared grammar, for user interfaces that
    should not parse the notation: ``{"notation": "buy 2 b7+b2", "keyword": "buy", "args":
    [{"type": "square", "value": 2}, {"type": "cards", "value": ["b7", "b2"]}]}``. Values:
    ``square``, ``seat`` (1-based, as written) and ``count`` numbers; ``cards`` a list of codes;
    ``target`` and ``cell`` ``{"x", "y"}`` or the word (``reserve``, ``neutral``); any other type
    the word."""
    text = action.notation()
    cls = type(action)
    words = text.split()[len(cls.keyword.split()) :]
    args = [{"type": t, "value": _argument(t, w)} for t, w in zip(cls.grammar, words, strict=True)]
    return {"notation": text, "keyword": cls.keyword, "args": args}


def parse_kind(word: str) -> str:
    """Read a building kind word (any case, ``Garden``) into one of :data:`~alhambra.components.KINDS`."""
    kind = word.lower()
    if kind not in KINDS:
        raise NotationError(f"unknown building kind {word!r} (one of {', '.join(KINDS)})")
    return kind


def parse_square(word: str) -> int:
    """Read a market square number (1-4)."""
    if not word.isascii() or not word.isdigit():
        raise NotationError(f"bad market square {word!r} (a number 1-{MARKET_SIZE})")
    n = int(word)
    if not 1 <= n <= MARKET_SIZE:
        raise NotationError(f"there is no market square {n} (squares are 1-{MARKET_SIZE})")
    return n


def parse_card(word: str) -> str:
    """Read one card code (any case: ``B7`` is ``b7``)."""
    code = word.lower()
    if not _CARD_RE.match(code):
        raise NotationError(f"bad card {word!r} (name one card, like b7)")
    return code


_ITEM_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def parse_item(word: str) -> str:
    """Read an offer's item token (a word that starts with a letter, as written: ``Zo2``)."""
    if not _ITEM_RE.match(word):
        raise NotationError(f"bad item {word!r} (an item is a word that starts with a letter)")
    return word


def parse_currency(word: str) -> str:
    """Read a currency letter (``b``, ``g``, ``o`` or ``y``, any case)."""
    letter = word.lower()
    if len(letter) != 1 or letter not in CURRENCY_LETTERS:
        raise NotationError(f"bad currency {word!r} (a currency letter: {', '.join(CURRENCY_LETTERS)})")
    return letter


def _parse_number(word: str, what: str, low: int, high: int) -> int:
    if not word.isascii() or not word.isdigit() or not low <= int(word) <= high:
        raise NotationError(f"bad {what} {word!r} (a whole number from {low} to {high})")
    return int(word)


MAX_SEAT: Final = 6
"""The highest seat number (6 players)."""


def parse_seat(word: str) -> int:
    """Read a seat number, 1-based as written (1-6)."""
    return _parse_number(word, "seat", 1, MAX_SEAT)


def parse_count(word: str) -> int:
    """Read a small number, 0-9."""
    return _parse_number(word, "count", 0, 9)


def parse_amount(word: str) -> int:
    """Read a number of coins, 1-99 (a bid)."""
    return _parse_number(word, "amount", 1, 99)


READERS: Final[dict[str, Reader]] = {
    "square": parse_square,
    "cards": parse_cards,
    "card": parse_card,
    "tile": parse_tile,
    "target": parse_target,
    "cell": parse_xy,
    "item": parse_item,
    "seat": parse_seat,
    "kind": parse_kind,
    "currency": parse_currency,
    "count": parse_count,
    "amount": parse_amount,
}
"""The reader of each grammar type (besides ``word:a|b|c``): what a derived parser reads an
argument word with (:func:`register_action`)."""

_LABELS: Final = {"target": "X,Y|reserve|neutral", "cell": "X,Y"}
"""How a usage message writes these types (any other: its name in capitals)."""


def _word_reader(name: str, words: tuple[str, ...]) -> Reader:
    allowed = frozenset(words)
    choices = "|".join(words)

    def read(word: str) -> str:
        low = word.lower()
        if low not in allowed:
            raise NotationError(f"bad {name} {word!r} (one of {choices})")
        return low

    return read


def _field_names(cls: type[Action]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []


def _label(arg_type: str, name: str, repeated: bool) -> str:
    if arg_type.startswith(WORD_PREFIX):
        choices = "|".join(grammar_words(arg_type))
        return choices if len(choices) <= 24 else name.upper()
    if repeated:
        return name.upper()  # two tiles: RESERVE_TILE CITY_TILE, not TILE TILE
    return _LABELS.get(arg_type, arg_type.upper())


def usage(cls: type[Action]) -> str:
    """The usage line of an action class, from its grammar: ``buy SQUARE CARDS``,
    ``redesign exchange RESERVE_TILE CITY_TILE`` (a type that repeats is named by its fields),
    ``gate place TILE X,Y n|e|s|w``."""
    names = _field_names(cls) if cls.notation is Action.notation else []
    if len(names) != len(cls.grammar):
        names = [t.split(":")[0] for t in cls.grammar]
    labels = [_label(t, n, cls.grammar.count(t) > 1) for t, n in zip(cls.grammar, names, strict=True)]
    return " ".join([cls.keyword, *labels])


def _derived_parser(actions: tuple[type[Action], ...], readers: dict[str, Reader]) -> Callable[[list[str]], Action]:
    """The parser :func:`register_action` derives from the grammar of ``actions``."""
    forms: list[tuple[type[Action], tuple[Reader, ...]]] = []
    for cls in actions:
        fields = _field_names(cls)
        forms.append(
            (
                cls,
                tuple(
                    _word_reader(name, grammar_words(t)) if t.startswith(WORD_PREFIX) else readers.get(t, READERS[t])
                    for t, name in zip(cls.grammar, fields, strict=True)
                ),
            )
        )
    lines: list[str] = []
    for cls in actions:
        if usage(cls) not in lines:
            lines.append(usage(cls))
    message = "usage: " + " or ".join(lines)
    if len(forms) == 1:
        return _one_form(*forms[0], message)

    def parse(words: list[str]) -> Action:
        errors: list[str] = []
        best = -1
        for cls, form in forms:
            if len(form) != len(words):
                continue
            values: list[Any] = []
            try:
                for read, word in zip(form, words, strict=True):
                    values.append(read(word))
            except ValueError as e:  # NotationError too: the next form may read it
                if len(values) > best:
                    errors, best = [], len(values)
                if len(values) == best and str(e) not in errors:
                    errors.append(str(e))
                continue
            return cls(*values)
        raise NotationError("; or ".join(errors) if errors else message)

    return parse


def _one_form(cls: type[Action], form: tuple[Reader, ...], message: str) -> Callable[[list[str]], Action]:
    n = len(form)

    def parse(words: list[str]) -> Action:
        if len(words) != n:
            raise NotationError(message)
        return cls(*[read(word) for read, word in zip(form, words, strict=True)])

    return parse


def need_words(words: list[str], n: int, usage: str) -> None:
    """Raise :class:`NotationError` ``usage: ...`` unless there are exactly ``n`` argument words
    (for hand-written parsers, core and modules alike)."""
    if len(words) != n:
        raise NotationError(f"usage: {usage}")


@dataclass(frozen=True, slots=True)
class TakeMoney(Action):
    """Take money cards from the display: one card, or several money cards totalling at most 5."""

    keyword = "take"
    grammar = ("cards",)

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuyBuilding(Action):
    """Buy the tile on a market square (1-4) with these cards from the hand."""

    keyword = "buy"
    grammar = ("square", "cards")

    square: int
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuyItem(Action):
    """Buy something a module offers besides the market squares (``Module.offers``): a bazaar, a
    sultan card, treasure chests... ``item`` is the offer's token (it starts with a letter)."""

    keyword = "buy"
    grammar = ("item", "cards")

    item: str
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Action):
    """Place a tile that waits next to the Alhambra: into the Alhambra, the reserve, or to the neutral player."""

    keyword = "place"
    grammar = ("tile", "target")

    tile: str
    target: Target


@dataclass(frozen=True, slots=True)
class TurnOver(Action):
    """Turn a tile waiting to be placed over to its other face (two-sided tiles: Granada), paying
    the ruleset's turn-over cost with money of one currency; the tile must then be built."""

    keyword = "turn"
    grammar = ("tile", "cards")
    two_sided = True

    tile: str
    payment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildFromReserve(Action):
    """Redesign: build a tile from the reserve board into the Alhambra."""

    keyword = "redesign build"
    grammar = ("tile", "cell")

    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MoveToReserve(Action):
    """Redesign: take a tile out of the Alhambra onto the reserve board."""

    keyword = "redesign remove"
    grammar = ("tile",)

    tile: str


@dataclass(frozen=True, slots=True)
class ExchangeTiles(Action):
    """Redesign: a reserve tile takes exactly the place of a tile in the Alhambra, which goes to the reserve."""

    keyword = "redesign exchange"
    grammar = ("tile", "tile")

    reserve_tile: str
    city_tile: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Pass the turn: only when no other action is possible (every money card in the hands,
    nothing affordable, nothing to redesign)."""

    keyword = "end"
    grammar = ()


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Between turns: make no out-of-turn move now."""

    keyword = "pass"
    grammar = ()

    declines = True


for _cls in (TakeMoney, BuyBuilding, BuyItem, PlaceBuilding, TurnOver, BuildFromReserve, MoveToReserve, ExchangeTiles, EndTurn, Pass):
    fast_init(_cls)

register_action(TakeMoney)
register_action(BuyBuilding, BuyItem)  # a square is a number, an item starts with a letter
register_action(PlaceBuilding)
register_action(TurnOver)
register_action(BuildFromReserve)
register_action(MoveToReserve)
register_action(ExchangeTiles)
register_action(EndTurn)
register_action(Pass)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild any registered action from its JSON dict, checking it is well formed.

    The dict is read into an action and checked by a round trip through the text notation, so
    a field of the wrong type (``"cards": 5``) is a :class:`NotationError`, never a crash later.
    """
    action = Action.from_dict(data)
    try:
        again = parse_action(action.notation())
    except (NotationError, TypeError, ValueError, AttributeError, IndexError, KeyError):
        again = None
    if again != action:
        raise NotationError(f"malformed action {data!r}")
    return action
