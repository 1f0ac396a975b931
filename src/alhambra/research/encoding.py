"""A fixed-size integer action space for Alhambra, built from sub-decisions ("tokens").

An engine action such as ``buy 2 b7+b2`` is a compound move. Learning agents and tree search
want one small, fixed set of integer actions instead, so every engine action is spelled as a
short sequence of *tokens*, one sub-decision each:

=================================  ==============================================================
engine action                      token sequence
=================================  ==============================================================
``take b3+g2``                     ``take``, ``card b3``, ``card g2``, ``done``
``buy 2 b7+b2``                    ``buy``, ``square 2``, ``card b7``, ``card b2``, ``done``
``place G8sw 1,-2``                ``place``, ``tile G8sw``, ``cell 1,-2``
``place G8sw reserve``             ``place``, ``tile G8sw``, ``reserve``
``place G8sw neutral``             ``place``, ``tile G8sw``, ``neutral``
``redesign build G8sw 1,-2``       ``redesign build``, ``tile G8sw``, ``cell 1,-2``
``redesign remove G8sw``           ``redesign remove``, ``tile G8sw``
``redesign exchange T9ne G8sw``    ``redesign exchange``, ``tile T9ne``, ``tile G8sw``
``end``                            ``end``
=================================  ==============================================================

The sequence follows the action class's declared grammar (:mod:`alhambra.actions`: ``keyword``
and ``grammar``, the types of the argument words): the keyword (one or two words) is one token,
then every argument word is spelled by its declared type, never guessed from its shape:

=================  =================================================================
type               tokens
=================  =================================================================
``square``         ``square 1`` ... ``square 4``
``cards``          ``card X`` per card (canonical order), then ``done``
``card``           ``card X``
``tile``           ``tile X``
``cell``           ``cell x,y``, or ``far``, ``x X``, ``y Y`` (see below)
``target``         a ``cell`` position, ``reserve`` or ``neutral``
``item``           ``item X`` (the items of the modules, :meth:`Module.notation_items`)
``seat``           ``seat 1`` ... ``seat 6``
``kind``           ``kind pavilion`` ... ``kind tower``
``currency``       ``currency b`` ... ``currency y``
``count``          ``count 0`` ... ``count 9``
``word:a|b``       ``a`` or ``b`` (the word itself)
=================  =================================================================

A module's actions enter the action space the same way: their keywords are tokens after the
core's, and their argument types add the tokens they need (tokens of the types ``item`` ...
``word`` exist only when some keyword of the configuration uses them). Decoding reads the
tokens back into words by the grammar and parses them with
:func:`~alhambra.actions.parse_action`, so the bijection between engine actions and token
sequences is the notation's own round trip. A keyword whose grammar cannot be encoded (an
unknown type, a word that is already a token name, forms of one keyword that the tokens cannot
tell apart) is refused when the codec is built.

Positions: ``cell x,y`` tokens cover the window ``-window..window`` on both axes around the
fountain (default 12, so 625 tokens). A position outside the window is spelled
``far``, ``x X``, ``y Y`` with ``X`` and ``Y`` in ``-reach..reach``, where ``reach`` is the number
of building tiles in the game (54 in the base game). That always suffices: every tile of an
Alhambra is joined to the fountain by a chain of tiles, so a tile at ``(x, y)`` needs at least
``|x| + |y|`` building tiles in the Alhambra, and a free place next to an Alhambra of ``k`` tiles
is at most ``k + 1`` steps away while one tile (the one being placed) is not in it.

Every token sequence of a legal action is prefix-free: a keyword's grammar fixes its arguments,
card lists end with ``done``, a position is one ``cell`` or exactly three tokens, and the forms
of one keyword must differ by the first token of the first argument where they differ (checked
when the codec is built). So the legal actions of a state form a prefix tree
(:class:`DecisionTree`): the legal tokens after a partial sequence are the children of its node,
and a sequence that reaches a leaf is exactly one engine action.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from ..actions import Action, action_classes, grammar_words, keyword_order, parse_action
from ..components import CURRENCY_LETTERS, KINDS
from ..engine import build_components
from ..hooks import modules_of
from ..state import GameConfig

__all__ = [
    "CORE_KEYWORDS",
    "DEFAULT_WINDOW",
    "MAX_SEATS",
    "ActionCodec",
    "DecisionTree",
    "TokenKind",
    "codec_for",
]


def _core_keywords() -> tuple[str, ...]:
    return tuple(k for k in keyword_order() if any(c.module is None and not c.two_sided for c in action_classes(k)))


CORE_KEYWORDS: Final = _core_keywords()
"""Keywords of the core actions, in token order (their registration order)."""

DEFAULT_WINDOW: Final = 12
"""Half-width of the window of ``cell x,y`` tokens around the fountain."""

MAX_AMOUNT: Final = 99
"""``amount`` tokens go from 1 to this (a bid)."""

MAX_SEATS: Final = 6
"""``seat`` tokens go from 1 to this (the vocabulary does not depend on the player count)."""

_XY_RE: Final = re.compile(r"^(-?\d+),(-?\d+)$")
_ITEM_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


class TokenKind:
    """The kinds of token (the ``kind`` of :attr:`ActionCodec.kinds`)."""

    KEYWORD: Final = "keyword"
    SQUARE: Final = "square"
    CARD: Final = "card"
    DONE: Final = "done"
    TILE: Final = "tile"
    CELL: Final = "cell"
    RESERVE: Final = "reserve"
    NEUTRAL: Final = "neutral"
    FAR: Final = "far"
    X: Final = "x"
    Y: Final = "y"
    ITEM: Final = "item"
    SEAT: Final = "seat"
    KIND: Final = "kind"
    CURRENCY: Final = "currency"
    COUNT: Final = "count"
    AMOUNT: Final = "amount"
    WORD: Final = "word"


_K = TokenKind
_FIRST: Final[dict[str, frozenset[str]]] = {
    "square": frozenset({_K.SQUARE}),
    "cards": frozenset({_K.CARD}),
    "card": frozenset({_K.CARD}),
    "tile": frozenset({_K.TILE}),
    "target": frozenset({_K.CELL, _K.FAR, _K.RESERVE, _K.NEUTRAL}),
    "cell": frozenset({_K.CELL, _K.FAR}),
    "item": frozenset({_K.ITEM}),
    "seat": frozenset({_K.SEAT}),
    "kind": frozenset({_K.KIND}),
    "currency": frozenset({_K.CURRENCY}),
    "count": frozenset({_K.COUNT}),
    "amount": frozenset({_K.AMOUNT}),
}
"""The kinds of token an argument of each type can start with."""

_ONE_TOKEN: Final[dict[str, str]] = {
    "square": _K.SQUARE,
    "card": _K.CARD,
    "tile": _K.TILE,
    "item": _K.ITEM,
    "seat": _K.SEAT,
    "kind": _K.KIND,
    "currency": _K.CURRENCY,
    "count": _K.COUNT,
    "amount": _K.AMOUNT,
}
"""Types spelled by exactly one token of one kind."""

_INT_PAYLOAD: Final = frozenset({"square", "seat", "count", "amount"})

_EXTRA_TOKENS: Final[dict[str, tuple[tuple[str, str, object], ...]]] = {
    "seat": tuple((f"seat {i}", _K.SEAT, i) for i in range(1, MAX_SEATS + 1)),
    "kind": tuple((f"kind {k}", _K.KIND, k) for k in KINDS),
    "currency": tuple((f"currency {c}", _K.CURRENCY, c) for c in CURRENCY_LETTERS),
    "count": tuple((f"count {i}", _K.COUNT, i) for i in range(10)),
    "amount": tuple((f"amount {i}", _K.AMOUNT, i) for i in range(1, MAX_AMOUNT + 1)),
}
"""Tokens of the types the core actions do not use, added when some keyword uses the type."""


def _first(arg_type: str) -> set[tuple[str, object]]:
    """The first tokens of a type as (kind, payload) pairs; payload None means any."""
    words = grammar_words(arg_type)
    if words:
        return {(_K.WORD, w) for w in words}
    return {(k, None) for k in _FIRST[arg_type]}


def _overlap(a: str, b: str) -> bool:
    return any(ka == kb and (pa is None or pb is None or pa == pb) for ka, pa in _first(a) for kb, pb in _first(b))


def _check_forms(keyword: str, forms: Sequence[tuple[str, ...]]) -> None:
    """Raise ``ValueError`` unless token sequences tell the forms of ``keyword`` apart."""
    for i, f in enumerate(forms):
        for t in f:
            if t not in _FIRST and not grammar_words(t):
                raise ValueError(f"the token encoding cannot spell argument type {t!r} of {keyword!r} (grammar {f})")
        for g in forms[:i]:
            at = next((j for j, (a, b) in enumerate(zip(f, g, strict=False)) if a != b), min(len(f), len(g)))
            if at == len(f) or at == len(g):
                raise ValueError(f"forms {g} and {f} of {keyword!r}: one is a prefix of the other, so their tokens would be too")
            if _overlap(f[at], g[at]):
                raise ValueError(f"forms {g} and {f} of {keyword!r}: argument {at + 1} ({g[at]} or {f[at]}) starts with the same tokens")


@dataclass(frozen=True)
class ActionCodec:
    """The token vocabulary of one game configuration and the action <-> tokens bijection.

    Build it with :func:`codec_for` (cached per configuration). ``names[i]`` is the readable
    name of token ``i``; ``kinds[i]`` its :class:`TokenKind`; ``payloads[i]`` what it carries
    (keyword text, square number, card or tile code, ``(x, y)``, a coordinate, an item, a
    word...). ``grammars`` maps every keyword of the configuration to its forms (declared
    grammars). Raises ``ValueError`` when a keyword of the configuration cannot be encoded.
    """

    config: GameConfig
    window: int = DEFAULT_WINDOW
    names: tuple[str, ...] = field(init=False)
    kinds: tuple[str, ...] = field(init=False)
    payloads: tuple[object, ...] = field(init=False)
    keywords: tuple[str, ...] = field(init=False)
    grammars: dict[str, tuple[tuple[str, ...], ...]] = field(init=False, repr=False, compare=False)
    card_codes: tuple[str, ...] = field(init=False)
    tile_codes: tuple[str, ...] = field(init=False)
    items: tuple[str, ...] = field(init=False)
    reach: int = field(init=False)
    index: dict[tuple[str, object], int] = field(init=False, repr=False, compare=False)
    _classes: dict[str, frozenset[type[Action]]] = field(init=False, repr=False, compare=False)
    _memo: dict[Action, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        comp = build_components(self.config)
        mods = modules_of(self.config)
        ids = {m.id for m in mods}
        core: list[str] = []
        added: list[str] = []
        grammars: dict[str, tuple[tuple[str, ...], ...]] = {}
        classes: dict[str, frozenset[type[Action]]] = {}
        for kw in keyword_order():
            mine = [cls for cls in action_classes(kw) if (cls.module is None and (comp.twins or not cls.two_sided)) or cls.module in ids]
            if not mine:
                continue
            forms: list[tuple[str, ...]] = []
            for cls in mine:
                if cls.grammar not in forms:
                    forms.append(cls.grammar)
            _check_forms(kw, forms)
            grammars[kw] = tuple(forms)
            classes[kw] = frozenset(mine)
            (core if any(cls.module is None for cls in mine) else added).append(kw)
        keywords = tuple(core) + tuple(sorted(added))
        used = {arg for forms in grammars.values() for f in forms for arg in f}
        cards: list[str] = []
        for c in comp.cards:
            if c.kind != "scoring" and c.code not in cards:
                cards.append(c.code)
        for m in mods:
            for token in m.payment_tokens(self.config):  # money held outside the hand (coins, credit...)
                if token in cards:
                    raise ValueError(f"module {m.id!r}: payment token {token!r} is also a card code")
                cards.append(token)
        tiles: list[str] = []
        for t in comp.tiles:
            if t.kind != "fountain" and t.code not in tiles:
                tiles.append(t.code)
        if set(cards) & set(tiles):  # pragma: no cover - codes are disjoint by construction
            raise ValueError("card and tile codes overlap; the token encoding would be ambiguous")
        items: list[str] = []
        if "item" in used:
            for m in mods:
                for item in m.notation_items(self.config):
                    if not isinstance(item, str) or not _ITEM_RE.match(item):
                        raise ValueError(f"module {m.id!r}: bad item {item!r} (a word starting with a letter)")
                    if item in items:
                        raise ValueError(f"module {m.id!r}: item {item!r} is listed twice (items must be unique)")
                    items.append(item)
        reach = len(tiles)
        w = self.window
        entries: list[tuple[str, str, object]] = []
        entries += [(k, _K.KEYWORD, k) for k in keywords]
        entries += [(f"square {i}", _K.SQUARE, i) for i in range(1, 5)]
        entries += [(f"card {c}", _K.CARD, c) for c in cards]
        entries.append(("done", _K.DONE, None))
        entries += [(f"tile {t}", _K.TILE, t) for t in tiles]
        entries += [(f"cell {x},{y}", _K.CELL, (x, y)) for y in range(-w, w + 1) for x in range(-w, w + 1)]
        entries.append(("reserve", _K.RESERVE, None))
        entries.append(("neutral", _K.NEUTRAL, None))
        entries.append(("far", _K.FAR, None))
        entries += [(f"x {v}", _K.X, v) for v in range(-reach, reach + 1)]
        entries += [(f"y {v}", _K.Y, v) for v in range(-reach, reach + 1)]
        entries += [(f"item {i}", _K.ITEM, i) for i in items]
        for arg_type, extra in _EXTRA_TOKENS.items():
            if arg_type in used:
                entries += extra
        words: list[str] = []
        for kw in keywords:
            for f in grammars[kw]:
                for arg in f:
                    words += [x for x in grammar_words(arg) if x not in words]
        taken = {e[0] for e in entries}
        for x in words:
            if x in taken:
                raise ValueError(f"the word {x!r} of a grammar is also the token {x!r}; choose another word")
        entries += [(x, _K.WORD, x) for x in words]
        object.__setattr__(self, "names", tuple(e[0] for e in entries))
        object.__setattr__(self, "kinds", tuple(e[1] for e in entries))
        object.__setattr__(self, "payloads", tuple(e[2] for e in entries))
        object.__setattr__(self, "keywords", keywords)
        object.__setattr__(self, "grammars", grammars)
        object.__setattr__(self, "card_codes", tuple(cards))
        object.__setattr__(self, "tile_codes", tuple(tiles))
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "reach", reach)
        object.__setattr__(self, "index", {(kind, payload): i for i, (_, kind, payload) in enumerate(entries)})
        object.__setattr__(self, "_classes", classes)
        object.__setattr__(self, "_memo", {})

    # ------------------------------------------------------------------ sizes
    @property
    def num_tokens(self) -> int:
        """Size of the integer action space."""
        return len(self.names)

    def token(self, kind: str, payload: object = None) -> int:
        """The id of a token by kind and payload (``token("square", 2)``)."""
        return self.index[(kind, payload)]

    def max_tokens(self, cards: int = 0) -> int:
        """The most tokens any action of the configuration takes when each card list holds at
        most ``cards`` cards (read off the grammars: a position takes up to 3 tokens, a card
        list its cards and ``done``, any other argument 1)."""
        longest = 0
        for forms in self.grammars.values():
            for f in forms:
                n = 1 + sum(3 if t in ("cell", "target") else cards + 1 if t == "cards" else 1 for t in f)
                longest = max(longest, n)
        return longest

    # ------------------------------------------------------------------ encode
    def encode(self, action: Action) -> tuple[int, ...]:
        """The token sequence of an engine action (raises ``ValueError`` if it has none)."""
        got = self._memo.get(action)
        if got is None:
            got = self._encode(action)
            if len(self._memo) > 200_000:
                self._memo.clear()
            self._memo[action] = got
        return got

    def _encode(self, action: Action) -> tuple[int, ...]:
        cls = type(action)
        keyword = cls.keyword
        text = action.notation()
        if cls not in self._classes.get(keyword, ()):
            raise ValueError(f"{text!r}: {cls.__name__} (keyword {keyword!r}) is not an action of this configuration")
        words = text.split()
        n = len(keyword.split())
        if " ".join(words[:n]) != keyword:
            raise ValueError(f"{text!r} does not start with its keyword {keyword!r}")
        args = words[n:]
        if len(args) != len(cls.grammar):
            raise ValueError(f"{text!r}: {len(args)} argument words, but the grammar of {cls.__name__} is {cls.grammar}")
        out = [self.index[(_K.KEYWORD, keyword)]]
        for arg_type, word in zip(cls.grammar, args, strict=True):
            out += self._spell(arg_type, word, text)
        return tuple(out)

    def _spell(self, arg_type: str, word: str, text: str) -> list[int]:
        index = self.index
        tok: int | None = None
        if arg_type == "cards":
            out: list[int] = []
            for code in word.split("+"):
                tok = index.get((_K.CARD, code))
                if tok is None:
                    raise ValueError(f"{text!r}: no token for card {code!r}")
                out.append(tok)
            out.append(index[(_K.DONE, None)])
            return out
        if arg_type in ("target", "cell"):
            if arg_type == "target" and word in (_K.RESERVE, _K.NEUTRAL):
                return [index[(word, None)]]
            m = _XY_RE.match(word)
            if m is None:
                raise ValueError(f"{text!r}: {word!r} is not a {arg_type}")
            return self.cell_tokens(int(m.group(1)), int(m.group(2)))
        kind = _ONE_TOKEN.get(arg_type)
        if kind is not None:
            payload: object = word
            if arg_type in _INT_PAYLOAD:
                payload = int(word) if word.isdigit() else None
            tok = index.get((kind, payload))
        elif word in grammar_words(arg_type):
            tok = index.get((_K.WORD, word))
        if tok is None:
            raise ValueError(f"{text!r}: no token for {arg_type} {word!r}")
        return [tok]

    def cell_tokens(self, x: int, y: int) -> list[int]:
        """Tokens of a position: one ``cell`` token inside the window, else ``far``, ``x``, ``y``."""
        w = self.window
        if -w <= x <= w and -w <= y <= w:
            return [self.index[(_K.CELL, (x, y))]]
        if not (-self.reach <= x <= self.reach and -self.reach <= y <= self.reach):
            raise ValueError(f"position {x},{y} is beyond any Alhambra of this game")
        return [self.index[(_K.FAR, None)], self.index[(_K.X, x)], self.index[(_K.Y, y)]]

    # ------------------------------------------------------------------ decode
    def decode(self, tokens: Sequence[int]) -> Action:
        """The engine action of a complete token sequence (raises ``ValueError`` on junk)."""
        words = self.words(tokens)
        if words is None:
            raise ValueError(f"incomplete token sequence {self.describe(tokens)!r}")
        return parse_action(" ".join(words))

    def words(self, tokens: Sequence[int]) -> list[str] | None:
        """The notation words of a token sequence, read by the keyword's grammar; None while
        an argument is unfinished (a card list without ``done``, ``far`` without both
        coordinates) or arguments are missing."""
        if not tokens or self.kinds[tokens[0]] != _K.KEYWORD:
            raise ValueError("a token sequence starts with a keyword")
        keyword = str(self.payloads[tokens[0]])
        words = [keyword]
        forms: Sequence[tuple[str, ...]] = self.grammars[keyword]
        pos = 1
        arg = 0
        while True:
            live = [f for f in forms if len(f) > arg]
            if not live:
                if pos < len(tokens):
                    raise ValueError(f"unexpected token {self.names[tokens[pos]]!r} after a complete action")
                return words
            if pos == len(tokens):
                return None
            tok = tokens[pos]
            key = (self.kinds[tok], self.payloads[tok])
            arg_type = next((f[arg] for f in live if self._starts(f[arg], key)), None)
            if arg_type is None:
                expected = " or ".join(sorted({f[arg] for f in live}))
                raise ValueError(f"unexpected token {self.names[tok]!r} (expected {expected})")
            forms = [f for f in live if f[arg] == arg_type]
            word, pos = self._read(arg_type, tokens, pos)
            if word is None:
                return None
            words.append(word)
            arg += 1

    @staticmethod
    def _starts(arg_type: str, key: tuple[str, object]) -> bool:
        kind, payload = key
        words = grammar_words(arg_type)
        if words:
            return kind == _K.WORD and payload in words
        return kind in _FIRST[arg_type]

    def _read(self, arg_type: str, tokens: Sequence[int], pos: int) -> tuple[str | None, int]:
        """The word of the argument starting at ``tokens[pos]`` and the position after it."""
        kinds, payloads = self.kinds, self.payloads
        kind = kinds[tokens[pos]]
        payload = payloads[tokens[pos]]
        if arg_type == "cards":
            cards: list[str] = []
            while pos < len(tokens):
                t = tokens[pos]
                if kinds[t] == _K.CARD:
                    cards.append(str(payloads[t]))
                elif kinds[t] == _K.DONE:
                    return "+".join(cards), pos + 1
                else:
                    raise ValueError(f"{self.names[t]!r} inside a card list")
                pos += 1
            return None, pos
        if kind == _K.FAR:
            xy: list[int] = []
            for expected in (_K.X, _K.Y):
                pos += 1
                if pos == len(tokens):
                    return None, pos
                t = tokens[pos]
                if kinds[t] != expected:
                    raise ValueError(f"{self.names[t]!r} inside a far position")
                value = payloads[t]
                assert isinstance(value, int)
                xy.append(value)
            return f"{xy[0]},{xy[1]}", pos + 1
        if kind == _K.CELL:
            assert isinstance(payload, tuple)
            return f"{payload[0]},{payload[1]}", pos + 1
        if kind in (_K.RESERVE, _K.NEUTRAL):
            return kind, pos + 1
        return str(payload), pos + 1

    def describe(self, tokens: Iterable[int]) -> str:
        """Token names joined by `` | `` (for logs and strings)."""
        return " | ".join(self.names[t] for t in tokens)

    # ------------------------------------------------------------------ decisions
    def tree(self, actions: Iterable[Action]) -> DecisionTree:
        """The prefix tree of these (legal) actions."""
        return DecisionTree(self, actions)


Node = dict[int, "Node | Action"]


class DecisionTree:
    """The legal actions of one decision as a prefix tree of tokens (immutable once built)."""

    __slots__ = ("_legal", "codec", "root", "size")

    def __init__(self, codec: ActionCodec, actions: Iterable[Action]) -> None:
        self.codec = codec
        self.root: Node = {}
        self.size = 0
        self._legal: dict[tuple[int, ...], list[int]] = {}
        for action in actions:
            self._insert(codec.encode(action), action)

    def _insert(self, tokens: tuple[int, ...], action: Action) -> None:
        node = self.root
        for t in tokens[:-1]:
            nxt = node.get(t)
            if nxt is None:
                nxt = node[t] = {}
            elif not isinstance(nxt, dict):
                raise ValueError(f"token sequences are not prefix-free: {nxt} and {action}")
            node = nxt
        if tokens[-1] in node:
            raise ValueError(f"two actions share the token sequence of {action}")
        node[tokens[-1]] = action
        self.size += 1

    def node(self, prefix: Sequence[int]) -> Node | Action | None:
        """The subtree (or the complete action) reached by ``prefix``; None if it leaves the tree."""
        node: Node | Action = self.root
        for t in prefix:
            if not isinstance(node, dict):
                return None
            nxt = node.get(t)
            if nxt is None:
                return None
            node = nxt
        return node

    def legal(self, prefix: Sequence[int] = ()) -> list[int]:
        """The tokens that extend ``prefix`` towards some legal action, ascending."""
        key = tuple(prefix)
        got = self._legal.get(key)
        if got is None:
            node = self.node(key)
            got = sorted(node) if isinstance(node, dict) else []
            self._legal[key] = got
        return got

    def actions(self, prefix: Sequence[int] = ()) -> list[Action]:
        """Every legal action whose token sequence starts with ``prefix``."""
        node = self.node(prefix)
        if node is None:
            return []
        out: list[Action] = []
        stack: list[Node | Action] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, dict):
                stack.extend(n.values())
            else:
                out.append(n)
        return out


@lru_cache(maxsize=64)
def codec_for(config: GameConfig, window: int = DEFAULT_WINDOW) -> ActionCodec:
    """The (cached) codec of a configuration; the turn limit does not change the vocabulary."""
    return _codec(dataclasses.replace(config, turn_limit=None), window)


@lru_cache(maxsize=64)
def _codec(config: GameConfig, window: int) -> ActionCodec:
    return ActionCodec(config, window)
