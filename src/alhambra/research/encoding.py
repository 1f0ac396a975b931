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
``vizier buy 2 b5+b2``             ``vizier buy``, ``square 2``, ``card b5``, ``card b2``, ``done``
``vizier pass`` / ``vizier wake``  ``vizier pass`` / ``vizier wake``
=================================  ==============================================================

The sequence is read off the action's text notation (:mod:`alhambra.actions`): the keyword
(one or two words) is one token, then every argument word becomes tokens by its form: a market
square number, a tile code, a position ``x,y``, ``reserve``/``neutral``, or a card list
(``b7+b2``, cards in the notation's canonical order, closed by ``done``). Decoding joins the
words again and parses them with :func:`~alhambra.actions.parse_action`, so the bijection
between engine actions and token sequences is exactly the notation's own round trip.

Positions: ``cell x,y`` tokens cover the window ``-window..window`` on both axes around the
fountain (default 12, so 625 tokens). A position outside the window is spelled
``far``, ``x X``, ``y Y`` with ``X`` and ``Y`` in ``-reach..reach``, where ``reach`` is the number
of building tiles in the game (54 in the base game). That always suffices: every tile of an
Alhambra is joined to the fountain by a chain of tiles, so a tile at ``(x, y)`` needs at least
``|x| + |y|`` building tiles in the Alhambra, and a free place next to an Alhambra of ``k`` tiles
is at most ``k + 1`` steps away while one tile (the one being placed) is not in it.

Every token sequence of a legal action is prefix-free (keywords fix the number of arguments, card
lists end with ``done``), so the legal actions of a state form a prefix tree
(:class:`DecisionTree`): the legal tokens after a partial sequence are the children of its node,
and a sequence that reaches a leaf is exactly one engine action.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from ..actions import Action, parse_action, registered_keywords
from ..engine import build_components
from ..hooks import modules_of
from ..state import GameConfig

__all__ = [
    "CORE_KEYWORDS",
    "DEFAULT_WINDOW",
    "ActionCodec",
    "DecisionTree",
    "TokenKind",
    "codec_for",
]

CORE_KEYWORDS: Final = ("take", "buy", "place", "redesign build", "redesign remove", "redesign exchange", "end")
"""Keywords of the core actions, in token order."""

DEFAULT_WINDOW: Final = 12
"""Half-width of the window of ``cell x,y`` tokens around the fountain."""

_XY_RE: Final = re.compile(r"^(-?\d+),(-?\d+)$")


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


@dataclass(frozen=True)
class ActionCodec:
    """The token vocabulary of one game configuration and the action <-> tokens bijection.

    Build it with :func:`codec_for` (cached per configuration). ``names[i]`` is the readable
    name of token ``i``; ``kinds[i]`` its :class:`TokenKind`; ``payloads[i]`` what it carries
    (keyword text, square number, card or tile code, ``(x, y)`` or a coordinate).
    """

    config: GameConfig
    window: int = DEFAULT_WINDOW
    names: tuple[str, ...] = field(init=False)
    kinds: tuple[str, ...] = field(init=False)
    payloads: tuple[object, ...] = field(init=False)
    keywords: tuple[str, ...] = field(init=False)
    card_codes: tuple[str, ...] = field(init=False)
    tile_codes: tuple[str, ...] = field(init=False)
    reach: int = field(init=False)
    index: dict[tuple[str, object], int] = field(init=False, repr=False, compare=False)
    _memo: dict[Action, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        comp = build_components(self.config)
        mods = {m.id for m in modules_of(self.config)}
        module_keywords = sorted(k for k in registered_keywords() if k.split()[0] in mods)
        keywords = CORE_KEYWORDS + tuple(module_keywords)
        cards: list[str] = []
        for c in comp.cards:
            if c.kind != "scoring" and c.code not in cards:
                cards.append(c.code)
        tiles: list[str] = []
        for t in comp.tiles:
            if t.kind != "fountain" and t.code not in tiles:
                tiles.append(t.code)
        if set(cards) & set(tiles):  # pragma: no cover - codes are disjoint by construction
            raise ValueError("card and tile codes overlap; the token encoding would be ambiguous")
        reach = len(tiles)
        w = self.window
        entries: list[tuple[str, str, object]] = []
        entries += [(k, TokenKind.KEYWORD, k) for k in keywords]
        entries += [(f"square {i}", TokenKind.SQUARE, i) for i in range(1, 5)]
        entries += [(f"card {c}", TokenKind.CARD, c) for c in cards]
        entries.append(("done", TokenKind.DONE, None))
        entries += [(f"tile {t}", TokenKind.TILE, t) for t in tiles]
        entries += [(f"cell {x},{y}", TokenKind.CELL, (x, y)) for y in range(-w, w + 1) for x in range(-w, w + 1)]
        entries.append(("reserve", TokenKind.RESERVE, None))
        entries.append(("neutral", TokenKind.NEUTRAL, None))
        entries.append(("far", TokenKind.FAR, None))
        entries += [(f"x {v}", TokenKind.X, v) for v in range(-reach, reach + 1)]
        entries += [(f"y {v}", TokenKind.Y, v) for v in range(-reach, reach + 1)]
        object.__setattr__(self, "names", tuple(e[0] for e in entries))
        object.__setattr__(self, "kinds", tuple(e[1] for e in entries))
        object.__setattr__(self, "payloads", tuple(e[2] for e in entries))
        object.__setattr__(self, "keywords", keywords)
        object.__setattr__(self, "card_codes", tuple(cards))
        object.__setattr__(self, "tile_codes", tuple(tiles))
        object.__setattr__(self, "reach", reach)
        object.__setattr__(self, "index", {(kind, payload): i for i, (_, kind, payload) in enumerate(entries)})
        object.__setattr__(self, "_memo", {})

    # ------------------------------------------------------------------ sizes
    @property
    def num_tokens(self) -> int:
        """Size of the integer action space."""
        return len(self.names)

    def token(self, kind: str, payload: object = None) -> int:
        """The id of a token by kind and payload (``token("square", 2)``)."""
        return self.index[(kind, payload)]

    # ------------------------------------------------------------------ encode
    def encode(self, action: Action) -> tuple[int, ...]:
        """The token sequence of an engine action (raises ``ValueError`` if it has none)."""
        got = self._memo.get(action)
        if got is None:
            got = self._encode_text(str(action))
            if len(self._memo) > 200_000:
                self._memo.clear()
            self._memo[action] = got
        return got

    def _encode_text(self, text: str) -> tuple[int, ...]:
        words = text.split()
        index = self.index
        for n in (2, 1):
            key = " ".join(words[:n])
            if len(words) >= n and (TokenKind.KEYWORD, key) in index:
                out = [index[(TokenKind.KEYWORD, key)]]
                rest = words[n:]
                break
        else:
            raise ValueError(f"{text!r}: no keyword token (is its module's keyword registered?)")
        tiles = set(self.tile_codes)
        for word in rest:
            if word.isdigit():
                tok = index.get((TokenKind.SQUARE, int(word)))
                if tok is None:
                    raise ValueError(f"{text!r}: no token for square {word}")
                out.append(tok)
            elif word in tiles:
                out.append(index[(TokenKind.TILE, word)])
            elif word in ("reserve", "neutral"):
                out.append(index[(word, None)])
            elif (m := _XY_RE.match(word)) is not None:
                out += self.cell_tokens(int(m.group(1)), int(m.group(2)))
            else:
                for code in word.split("+"):
                    tok = index.get((TokenKind.CARD, code))
                    if tok is None:
                        raise ValueError(f"{text!r}: no token for {code!r}")
                    out.append(tok)
                out.append(index[(TokenKind.DONE, None)])
        return tuple(out)

    def cell_tokens(self, x: int, y: int) -> list[int]:
        """Tokens of a position: one ``cell`` token inside the window, else ``far``, ``x``, ``y``."""
        w = self.window
        if -w <= x <= w and -w <= y <= w:
            return [self.index[(TokenKind.CELL, (x, y))]]
        if not (-self.reach <= x <= self.reach and -self.reach <= y <= self.reach):
            raise ValueError(f"position {x},{y} is beyond any Alhambra of this game")
        return [self.index[(TokenKind.FAR, None)], self.index[(TokenKind.X, x)], self.index[(TokenKind.Y, y)]]

    # ------------------------------------------------------------------ decode
    def decode(self, tokens: Sequence[int]) -> Action:
        """The engine action of a complete token sequence (raises ``ValueError`` on junk)."""
        words = self.words(tokens)
        if words is None:
            raise ValueError(f"incomplete token sequence {self.describe(tokens)!r}")
        return parse_action(" ".join(words))

    def words(self, tokens: Sequence[int]) -> list[str] | None:
        """The notation words of a token sequence; None when a card list or ``far`` is unfinished."""
        if not tokens or self.kinds[tokens[0]] != TokenKind.KEYWORD:
            raise ValueError("a token sequence starts with a keyword")
        words = [str(self.payloads[tokens[0]])]
        cards: list[str] | None = None
        far: list[int] | None = None
        for t in tokens[1:]:
            kind = self.kinds[t]
            payload = self.payloads[t]
            if cards is not None:
                if kind == TokenKind.CARD:
                    cards.append(str(payload))
                    continue
                if kind == TokenKind.DONE and cards:
                    words.append("+".join(cards))
                    cards = None
                    continue
                raise ValueError(f"{self.names[t]!r} inside a card list")
            if far is not None:
                if kind == (TokenKind.X if not far else TokenKind.Y):
                    assert isinstance(payload, int)
                    far.append(payload)
                    if len(far) == 2:
                        words.append(f"{far[0]},{far[1]}")
                        far = None
                    continue
                raise ValueError(f"{self.names[t]!r} inside a far position")
            if kind == TokenKind.CARD:
                cards = [str(payload)]
            elif kind in (TokenKind.SQUARE, TokenKind.TILE):
                words.append(str(payload))
            elif kind == TokenKind.CELL:
                assert isinstance(payload, tuple)
                words.append(f"{payload[0]},{payload[1]}")
            elif kind in (TokenKind.RESERVE, TokenKind.NEUTRAL):
                words.append(kind)
            elif kind == TokenKind.FAR:
                far = []
            else:
                raise ValueError(f"unexpected token {self.names[t]!r}")
        if cards is not None or far is not None:
            return None
        return words

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
    return ActionCodec(GameConfig(config.players, config.modules), window)
