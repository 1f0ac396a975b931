"""Observation tensors and texts built only from :func:`alhambra.view.view`.

:class:`ObservationEncoder` turns one seat's view (plus the partial token sequence of the
decision in progress, see :mod:`alhambra.research.encoding`) into a flat ``float32`` vector with
every entry in ``[0, 1]``. It never touches a :class:`~alhambra.state.GameState`: whatever the
view hides (the order of the deck and of the tile bag, other seats' hands) cannot leak.

Seats are ordered *relative to the viewer*: block 0 is the viewer, block 1 the next seat in turn
order, and so on (a spectator, viewer ``None``, sees seat 0 first). Sections, in order (``n``
players, ``H`` card codes, ``T`` tile codes, ``K`` keywords, ``G = 2 * grid + 1``, ``k`` the
building kinds of the game's ruleset: 6 in Alhambra, 9 in Granada):

=================  =================  ==========================================================
section            size               content
=================  =================  ==========================================================
``seat``           n                  one-hot of the viewer's own seat number
``to_act``         n + 1              relative seat that decides now; 1 if that is the viewer
``decision``       4                  choose action / place tiles / a module's choice / none
``progress``       14                 actions this turn, turn, rounds scored, scoring cards
                                      drawn, deck and bag size, outcome (2), stage (4), limit
``market``         4 * (6 + k + T)    per square: tile present, kind (k), price, walls (4);
                                      then the tile as a one-hot over tile codes
``display``        H                  cards in the display by code
``discard``        H                  discard pile by code
``hand``           H                  the viewer's hand by code (zero for a spectator)
``seats``          (5 + 2k) * n       score, hand size, longest wall, Alhambra kinds (k),
                                      reserve kinds (k), Alhambra size, reserve size
``reserve``        T                  the viewer's reserve board as a multi-hot over tile codes
``waiting``        T                  tiles the deciding seat still has to place (or bought this
                                      turn and will place), by tile code
``neutral``        2 + k              2-player neutral player: present, kinds (k), score
``modules``        m * n              per-seat flags of module views: every key a module
                                      names in ``observation_flags``, in module order
``module_counts``  c * n              per-seat counts of module views (cards or pieces held in
                                      a module): every key a module names in
                                      ``observation_counts``, divided by its most, in module
                                      order (0 entries when no module names one)
``kind_points``    6k or 0            only when a module of the game replaces the scoring table
                                      (``Module.kind_points``, new score cards; 0 entries in
                                      every other game): per kind the points of round 1 (1st),
                                      round 2 (1st, 2nd) and round 3 (1st, 2nd, 3rd), from the
                                      view's ``kind_points``, divided by 21
``prefix``         K + 6 + H + 2T     the partial decision: keyword, square, cards, first and
                   (+ E + P)          second tile, ``far`` and its x coordinate; then one entry
                                      per token of the types only modules use (``item``,
                                      ``seat``, ``kind``, ``currency``, ``count``, words: E)
                                      and, when some grammar has a position before its last
                                      argument, the chosen position (P = 3: present, x, y;
                                      ``reserve`` and ``neutral`` then join the E entries)
``alhambras``      n * (6+k) * G * G  per seat a grid around the fountain with 6 + k channels:
                                      occupied, fountain, kind (k), wall N/E/S/W
=================  =================  ==========================================================

The information-state tensor (:meth:`ObservationEncoder.encode` with ``hands``) appends
``hands`` (``n * H``): every seat's hand by card code. Hands are public knowledge in Alhambra
(starting money is dealt face up, money is taken from the display by face, payments are seen),
so :class:`PublicHands` reconstructs them from the public events alone.

Counts are divided by a fixed scale and clipped to ``[0, 1]`` (scores by 300, tiles by 12...).
Tiles beyond the grid (``grid`` = 7 by default, wider than any Alhambra seen in thousands of
random games) still count in the ``seats`` kinds; only the picture misses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..components import EAST, NORTH, SOUTH, WEST, ComponentSet, letters_to_walls
from ..engine import build_components
from ..events import Event
from ..hooks import hook_users, modules_of
from ..state import GameConfig
from .encoding import ActionCodec, TokenKind

__all__ = ["DEFAULT_GRID", "ObservationEncoder", "PublicHands", "render_view"]

DEFAULT_GRID: Final = 7
"""Half-width of the Alhambra grids in the observation."""

_SCORE_SCALE: Final = 300.0
_POINTS_SCALE: Final = 21.0
"""The most a place of a kind scores in the base table (tower, round 3): ``kind_points`` entries are divided by it."""
_PLACES: Final = 6
"""Entries per kind in ``kind_points``: 1 place in round 1, 2 in round 2, 3 in round 3."""
_COUNT_SCALE: Final = 12.0
_DECISIONS: Final = ("ChooseAction", "PlaceTiles")
_STAGES: Final = ("turn", "between_turns", "final_distribution", "over")
_WALL_CHANNELS: Final = ((NORTH, 8), (EAST, 9), (SOUTH, 10), (WEST, 11))
"""Wall bits and their grid channel with the six kinds of Alhambra (channel ``2 + k + i`` in general)."""
_EXTRA_PREFIX_KINDS: Final = (TokenKind.ITEM, TokenKind.SEAT, TokenKind.KIND, TokenKind.CURRENCY, TokenKind.COUNT, TokenKind.WORD)

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class _Tile:
    kind: int
    price: int
    walls: int


@dataclass
class ObservationEncoder:
    """Flat observation tensors of one game configuration (see the module docstring)."""

    config: GameConfig
    codec: ActionCodec
    grid: int = DEFAULT_GRID
    module_flags: tuple[tuple[str, str], ...] = ()
    """(module id, view key) pairs whose value is a per-seat list of flags
    (:meth:`~alhambra.hooks.Module.observation_flags`)."""
    module_counts: tuple[tuple[str, str, int], ...] = ()
    """(module id, view key, most) triples whose value is a per-seat list of whole numbers
    (:meth:`~alhambra.hooks.Module.observation_counts`)."""
    sections: dict[str, tuple[int, int]] = field(init=False)
    """Name -> (start, end) of every section of the observation tensor."""
    size: int = field(init=False)
    """Length of the observation tensor."""
    info_size: int = field(init=False)
    """Length of the information-state tensor (observation plus every seat's hand)."""

    def __post_init__(self) -> None:
        comp = build_components(self.config)
        self._tiles: dict[str, _Tile] = {}
        for tt in comp.tiles:
            self._tiles[tt.code] = _Tile(comp.kinds.index(tt.kind) if tt.kind in comp.kinds else -1, tt.price, tt.walls)
        nk = self._nk = len(comp.kinds)
        self._sq = 6 + nk  # per market square: present, kinds, price, walls (4)
        self._seat_size = 5 + 2 * nk
        self._channels = 6 + nk
        self._walls = tuple((bit, 2 + nk + i) for i, (bit, _) in enumerate(_WALL_CHANNELS))
        self._card: dict[str, int] = {c: i for i, c in enumerate(self.codec.card_codes)}
        self._tile: dict[str, int] = {c: i for i, c in enumerate(self.codec.tile_codes)}
        self._money_total = float(sum(1 for c in comp.cards if c.kind != "scoring"))
        # a module's scoring table (new score cards) is part of the observation; without one the
        # section is empty and every other game's tensor is unchanged
        self._kind_points = bool(self.config.modules) and bool(hook_users(self.config, "kind_points"))
        n = self.config.players
        h = len(self.codec.card_codes)
        t = len(self.codec.tile_codes)
        g = 2 * self.grid + 1
        k = len(self.codec.keywords)
        codec = self.codec
        self._keyword: dict[str, int] = {kw: i for i, kw in enumerate(codec.keywords)}
        self._positions = any(arg in ("cell", "target") for forms in codec.grammars.values() for f in forms for arg in f[:-1])
        extra_kinds = set(_EXTRA_PREFIX_KINDS) | ({TokenKind.RESERVE, TokenKind.NEUTRAL} if self._positions else set())
        self._extra: dict[int, int] = {}
        for tok, kind in enumerate(codec.kinds):
            if kind in extra_kinds:
                self._extra[tok] = len(self._extra)
        prefix = k + 6 + h + 2 * t + len(self._extra) + (3 if self._positions else 0)
        layout = [
            ("seat", n),
            ("to_act", n + 1),
            ("decision", 4),
            ("progress", 14),
            ("market", 4 * (self._sq + t)),
            ("display", h),
            ("discard", h),
            ("hand", h),
            ("seats", self._seat_size * n),
            ("reserve", t),
            ("waiting", t),
            ("neutral", 2 + nk),
            ("modules", len(self.module_flags) * n),
            ("module_counts", len(self.module_counts) * n),
            ("kind_points", _PLACES * nk if self._kind_points else 0),
            ("prefix", prefix),
            ("alhambras", n * self._channels * g * g),
        ]
        self.sections = {}
        pos = 0
        for name, size in layout:
            self.sections[name] = (pos, pos + size)
            pos += size
        self.size = pos
        self.sections["hands"] = (pos, pos + n * h)
        self.info_size = pos + n * h
        self._comp: ComponentSet = comp

    @property
    def channels(self) -> int:
        """Channels of each seat's grid in ``alhambras``: occupied, fountain, one per building
        kind of the game, four walls (12 in Alhambra, 15 in Granada)."""
        return self._channels

    @classmethod
    def for_config(cls, config: GameConfig, codec: ActionCodec, grid: int = DEFAULT_GRID) -> ObservationEncoder:
        """An encoder whose module section covers the per-seat flags every module of ``config``
        names (:meth:`~alhambra.hooks.Module.observation_flags`) and the per-seat counts
        (:meth:`~alhambra.hooks.Module.observation_counts`)."""
        mods = modules_of(config)
        flags = tuple((m.id, key) for m in mods for key in m.observation_flags(config))
        counts = tuple((m.id, key, most) for m in mods for key, most in m.observation_counts(config))
        return cls(config, codec, grid, flags, counts)

    # ------------------------------------------------------------------ encoding
    def encode(
        self,
        view: Mapping[str, Any] | None,
        prefix: Sequence[int] = (),
        hands: Sequence[Mapping[str, int]] | None = None,
        out: FloatArray | None = None,
    ) -> FloatArray:
        """The observation tensor of a view (``hands``: also the information-state part).

        ``view`` None (no game yet, e.g. an OpenSpiel state still dealing) gives zeros. ``out``
        may be a preallocated array of the right size (it is overwritten).
        """
        size = self.size if hands is None else self.info_size
        if out is None:
            out = np.zeros(size, np.float32)
        else:
            if out.shape != (size,):
                raise ValueError(f"out must have shape ({size},)")
            out.fill(0.0)
        if view is None:
            return out
        n = self.config.players
        viewer = view["viewer"]
        base = 0 if viewer is None else int(viewer)

        def rel(seat: int) -> int:
            return (seat - base) % n

        sec = self.sections
        if viewer is not None:
            out[sec["seat"][0] + base] = 1.0
        to_act = view["to_act"]
        s0 = sec["to_act"][0]
        if to_act is not None:
            out[s0 + rel(to_act)] = 1.0
            out[s0 + n] = 1.0 if to_act == viewer else 0.0
        pending = view["pending"]
        d0 = sec["decision"][0]
        if pending is None:
            out[d0 + 3] = 1.0
        elif pending["type"] in _DECISIONS:
            out[d0 + _DECISIONS.index(pending["type"])] = 1.0
        else:
            out[d0 + 2] = 1.0
        p0 = sec["progress"][0]
        limit = view["turn_limit"]
        out[p0] = min(int(pending.get("actions", 0)) if pending else 0, 4) / 4
        out[p0 + 1] = view["turn"] / (limit if limit else 400)
        out[p0 + 2] = view["rounds_scored"] / 3
        out[p0 + 3] = view["scoring_cards_drawn"] / 2
        out[p0 + 4] = view["deck_count"] / self._money_total
        out[p0 + 5] = view["bag_count"] / max(1, len(self._tile))
        out[p0 + 6] = 1.0 if view["outcome"] == "finished" else 0.0
        out[p0 + 7] = 1.0 if view["outcome"] == "truncated" else 0.0
        if view["stage"] in _STAGES:
            out[p0 + 8 + _STAGES.index(view["stage"])] = 1.0
        out[p0 + 12] = 1.0 if limit else 0.0
        out[p0 + 13] = 1.0 if viewer is None else 0.0

        t_count = len(self._tile)
        m0 = sec["market"][0]
        for i, sq in enumerate(view["market"]):
            code = sq["tile"]
            if code is None:
                continue
            self._tile_features(out, m0 + self._sq * i, code)
            out[m0 + 4 * self._sq + i * t_count + self._tile[code]] = 1.0
        self._count_cards(out, sec["display"][0], (c for c in view["display"] if c is not None), 4.0)
        self._count_cards(out, sec["discard"][0], view["discard"], 3.0)
        seats = view["seats"]
        if viewer is not None:
            self._count_cards(out, sec["hand"][0], seats[viewer]["hand"] or (), 3.0)
            r0 = sec["reserve"][0]
            for code in seats[viewer]["reserve"]:
                out[r0 + self._tile[code]] = 1.0
        st0 = sec["seats"][0]
        a0 = sec["alhambras"][0]
        changed = view.get("walls")  # tiles whose walls a module changed: their walls now
        g = 2 * self.grid + 1
        plane = g * g
        for seat in seats:
            r = rel(seat["seat"])
            b = st0 + self._seat_size * r
            out[b] = seat["score"] / _SCORE_SCALE
            out[b + 1] = seat["hand_count"] / 40
            out[b + 2] = seat["longest_wall"] / 40
            for cell in seat["alhambra"]:
                tile = self._tiles[cell["tile"]]
                if tile.kind >= 0:
                    out[b + 3 + tile.kind] += 1.0 / _COUNT_SCALE
                x, y = cell["x"] + self.grid, cell["y"] + self.grid
                if 0 <= x < g and 0 <= y < g:
                    at = a0 + r * self._channels * plane + y * g + x
                    out[at] = 1.0
                    out[at + plane * (1 if tile.kind < 0 else 2 + tile.kind)] = 1.0
                    tw = letters_to_walls(changed[cell["tile"]]) if changed and cell["tile"] in changed else tile.walls
                    for bit, ch in self._walls:
                        if tw & bit:
                            out[at + plane * ch] = 1.0
            for code in seat["reserve"]:
                kind = self._tiles[code].kind
                if kind >= 0:  # a module's tile of no building kind (a bazaar) counts in no kind
                    out[b + 3 + self._nk + kind] += 1.0 / _COUNT_SCALE
            out[b + 3 + 2 * self._nk] = (len(seat["alhambra"]) - 1) / max(1, t_count)
            out[b + 4 + 2 * self._nk] = len(seat["reserve"]) / max(1, t_count)
        if pending is not None:
            w0 = sec["waiting"][0]
            for code in pending.get("tiles", pending.get("bought", ())):
                if code in self._tile:
                    out[w0 + self._tile[code]] += 0.25
        neutral = view["neutral"]
        if neutral is not None:
            n0 = sec["neutral"][0]
            out[n0] = 1.0
            for code in neutral["tiles"]:
                kind = self._tiles[code].kind
                if kind >= 0:
                    out[n0 + 1 + kind] += 1.0 / _COUNT_SCALE
            out[n0 + 1 + self._nk] = neutral["score"] / _SCORE_SCALE
        mo0 = sec["modules"][0]
        for i, (mod, key) in enumerate(self.module_flags):
            flags = view["module_views"].get(mod, {}).get(key, ())
            for seat, flag in enumerate(flags):
                if flag:
                    out[mo0 + i * n + rel(seat)] = 1.0
        mc0 = sec["module_counts"][0]
        for i, (mod, key, most) in enumerate(self.module_counts):
            counts = view["module_views"].get(mod, {}).get(key, ())
            for seat, k in enumerate(counts):
                out[mc0 + i * n + rel(seat)] = min(1.0, k / most) if most > 0 else 0.0
        if self._kind_points:
            self._points(out, sec["kind_points"][0], view.get("kind_points"))
        if prefix:
            self._prefix(out, sec["prefix"][0], prefix)
        if hands is not None:
            h0 = sec["hands"][0]
            h = len(self._card)
            for seat, hand in enumerate(hands):
                start = h0 + rel(seat) * h
                for code, k in hand.items():
                    out[start + self._card[code]] += k / 3.0
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _tile_features(self, out: FloatArray, at: int, code: str) -> None:
        tile = self._tiles[code]
        out[at] = 1.0
        if tile.kind >= 0:
            out[at + 1 + tile.kind] = 1.0
        out[at + 1 + self._nk] = tile.price / 13
        for i, (bit, _) in enumerate(_WALL_CHANNELS):
            if tile.walls & bit:
                out[at + 2 + self._nk + i] = 1.0

    def _points(self, out: FloatArray, at: int, table: Sequence[Mapping[str, Sequence[int]]] | None) -> None:
        """The view's ``kind_points`` (per round, per kind, 1st, 2nd ... place): per kind six
        entries, round ``r`` giving its first ``r`` places."""
        if not table:
            return
        for ki, kind in enumerate(self._comp.kinds):
            b = at + _PLACES * ki
            for r, per_kind in enumerate(table[:3]):
                for place, v in enumerate(list(per_kind.get(kind, ()))[: r + 1]):
                    out[b + r * (r + 1) // 2 + place] = v / _POINTS_SCALE

    def _count_cards(self, out: FloatArray, at: int, codes: Iterable[str], scale: float) -> None:
        step = 1.0 / scale
        index = self._card
        for code in codes:
            i = index.get(code)
            if i is not None:
                out[at + i] += step

    def _prefix(self, out: FloatArray, at: int, prefix: Sequence[int]) -> None:
        codec = self.codec
        k = len(codec.keywords)
        h = len(self._card)
        t = len(self._tile)
        tiles_seen = 0
        far_x = 0
        extra = at + k + 6 + h + 2 * t
        position = extra + len(self._extra)
        for tok in prefix:
            kind = codec.kinds[tok]
            payload = codec.payloads[tok]
            slot = self._extra.get(tok)
            if slot is not None:
                out[extra + slot] = 1.0
            elif kind == TokenKind.KEYWORD:
                out[at + self._keyword[str(payload)]] = 1.0
            elif kind == TokenKind.SQUARE:
                assert isinstance(payload, int)
                out[at + k + payload - 1] = 1.0
            elif kind == TokenKind.CARD:
                out[at + k + 4 + self._card[str(payload)]] += 1.0 / 9
            elif kind == TokenKind.TILE:
                out[at + k + 4 + h + tiles_seen * t + self._tile[str(payload)]] = 1.0
                tiles_seen = min(tiles_seen + 1, 1)
            elif kind == TokenKind.FAR:
                out[at + k + 4 + h + 2 * t] = 1.0
            elif kind == TokenKind.X:
                assert isinstance(payload, int)
                far_x = payload
                out[at + k + 5 + h + 2 * t] = (payload + codec.reach) / (2 * codec.reach)
            if self._positions:
                if kind == TokenKind.CELL:
                    assert isinstance(payload, tuple)
                    self._position(out, position, payload[0], payload[1])
                elif kind == TokenKind.Y:
                    assert isinstance(payload, int)
                    self._position(out, position, far_x, payload)

    def _position(self, out: FloatArray, at: int, x: int, y: int) -> None:
        reach = self.codec.reach
        out[at] = 1.0
        out[at + 1] = (x + reach) / (2 * reach)
        out[at + 2] = (y + reach) / (2 * reach)


class PublicHands:
    """Every seat's hand by card code, read from the public events only.

    Starting money is dealt face up (``GameStarted``), money is taken by face (an event with a
    ``seat`` and ``cards``: ``MoneyTaken``, a module's public ``CardsReceived``; every event is
    read as a spectator sees it, so a secret gift adds nothing) and payments are seen by the table (an event with a ``seat`` and a
    ``payment``: ``BuildingBought`` and any module's purchase event).
    """

    __slots__ = ("hands",)

    def __init__(self, players: int) -> None:
        self.hands: list[dict[str, int]] = [{} for _ in range(players)]

    def copy(self) -> PublicHands:
        """An independent copy."""
        new = PublicHands(0)
        new.hands = [dict(h) for h in self.hands]
        return new

    def update(self, events: Iterable[Event]) -> None:
        """Read more events (in order)."""
        for e in events:
            data = e.seen_by(None).to_dict()  # what the table sees (a secret gift: its count only)
            if data["type"] == "GameStarted":
                for seat, cards in enumerate(data["starting_money"]):
                    self.hands[seat] = {}
                    self._add(seat, cards, 1)
                continue
            who = data.get("seat")
            if not isinstance(who, int) or not 0 <= who < len(self.hands):
                continue
            if isinstance(data.get("cards"), list):
                self._add(who, data["cards"], 1)
            if isinstance(data.get("payment"), list):
                self._add(who, data["payment"], -1)

    def _add(self, seat: int, codes: Iterable[str], sign: int) -> None:
        hand = self.hands[seat]
        for code in codes:
            k = hand.get(code, 0) + sign
            if k:
                hand[code] = k
            else:
                hand.pop(code, None)


# ---------------------------------------------------------------------------------- text
def render_view(view: Mapping[str, Any], prefix_text: str = "") -> str:
    """A plain-text picture of a view: market, display, every seat's Alhambra and reserve."""
    lines: list[str] = []
    viewer = view["viewer"]
    who = "spectator" if viewer is None else f"player {viewer + 1}"
    status = view["outcome"] or view["stage"]
    to_act = view["to_act"]
    lines.append(f"Alhambra, {view['players']} players, turn {view['turn']} ({status}); view of {who}")
    if to_act is not None:
        pending = view["pending"] or {}
        lines.append(f"waiting for player {to_act + 1}: {pending.get('type', '?')}" + (f"  [chosen: {prefix_text}]" if prefix_text else ""))
    market = "  ".join(f"{sq['square']}:{sq['currency'][0]} {sq['tile'] or '--'}" for sq in view["market"])
    lines.append(f"market   {market}")
    lines.append("display  " + " ".join(c or "--" for c in view["display"]))
    counts = f"deck {view['deck_count']}  bag {view['bag_count']}  discard {len(view['discard'])}"
    lines.append(f"{counts}  rounds scored {view['rounds_scored']}")
    for r, table in enumerate(view.get("kind_points") or (), 1):  # a module's scoring table
        lines.append(f"points round {r}: " + "  ".join(f"{kind} {'/'.join(map(str, pts))}" for kind, pts in table.items()))
    if view["neutral"] is not None:
        lines.append(f"neutral  score {view['neutral']['score']}  tiles {' '.join(view['neutral']['tiles'])}")
    for seat in view["seats"]:
        s = seat["seat"]
        hand = " ".join(seat["hand"]) if seat["hand"] is not None else f"{seat['hand_count']} cards"
        mark = "*" if s == to_act else " "
        lines.append(f"{mark}player {s + 1}: score {seat['score']}  wall {seat['longest_wall']}  hand {hand}")
        if seat["reserve"]:
            lines.append("   reserve " + " ".join(seat["reserve"]))
        lines.extend("   " + row for row in _grid_rows(seat["alhambra"]))
    return "\n".join(lines)


def _grid_rows(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    at = {(c["x"], c["y"]): c["tile"] for c in cells}
    rows = ["      " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows.append(f"{y:>5} " + "".join(f"{at.get((x, y), '.'):^7}" for x in range(min(xs), max(xs) + 1)))
    return rows
