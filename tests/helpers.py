"""Shared helpers for the core test suite: building situations, invariants and an
independent re-statement of the building rules (the "oracle").

Situations are built by editing a *copy* of a real game state while keeping every card and tile
accounted for exactly once (cards and tiles are moved, never invented), so the conservation
invariants below still hold for hand-made positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from alhambra import city as geo
from alhambra.actions import Action
from alhambra.components import EAST, NORTH, SOUTH, WEST, letters_to_walls
from alhambra.engine import new_game
from alhambra.state import ChooseAction, GameConfig, GameState, PlaceTiles

# ------------------------------------------------------------------------------ geometry
# A tiny "walls table" for pure geometry tests: tile id == wall mask, so any mask 0-15 is a tile.
WALLS16: tuple[int, ...] = tuple(range(16))


def m(letters: str) -> int:
    """Wall mask from letters (``"ne"``); also the tile id in :data:`WALLS16`."""
    return letters_to_walls(letters)


def cells_of(layout: Mapping[tuple[int, int], str | int]) -> dict[int, int]:
    """Cells for :data:`WALLS16` from ``{(x, y): "walls"}`` (a string of wall letters or a mask)."""
    out: dict[int, int] = {}
    for (x, y), w in layout.items():
        out[geo.pos(x, y)] = w if isinstance(w, int) else m(w)
    return out


def grid(text: str) -> dict[int, int]:
    """Cells for :data:`WALLS16` from a picture: one token per cell, ``.`` empty, ``F`` the fountain
    at (0, 0) (mandatory), ``o`` an open tile, otherwise wall letters like ``ns``. Rows go south."""
    rows = [r.split() for r in text.strip().splitlines()]
    fx = fy = None
    for y, row in enumerate(rows):
        for x, tok in enumerate(row):
            if tok == "F":
                fx, fy = x, y
    assert fx is not None and fy is not None, "picture needs an F"
    layout: dict[tuple[int, int], str | int] = {}
    for y, row in enumerate(rows):
        for x, tok in enumerate(row):
            if tok == ".":
                continue
            layout[(x - fx, y - fy)] = 0 if tok in ("F", "o") else tok
    return cells_of(layout)


# --------------------------------------------------------------------- state manipulation
def new_state(players: int = 3, seed: int = 1, **config: object) -> GameState:
    """A fresh game (setup done, waiting for the starting player's action)."""
    state, _ = new_game(GameConfig(players=players, **config), seed)  # type: ignore[arg-type]
    return state


def card_codes(state: GameState, ids: Iterable[int]) -> list[str]:
    return [state.components.cards[c].code for c in ids]


def _take_card(state: GameState, code: str, keep: set[int]) -> int:
    """Remove one card with ``code`` from the deck, discard, display or a hand (in that order of
    preference, never a card in ``keep``) and return its id."""
    cards = state.components.cards
    for pile in (state.deck, state.discard):
        for i, c in enumerate(pile):
            if cards[c].code == code and c not in keep:
                del pile[i]
                return c
    for i, c in enumerate(state.display):
        if c >= 0 and cards[c].code == code and c not in keep:
            replacement = next((d for d in state.deck if cards[d].is_money and cards[d].code != code), None)
            assert replacement is not None
            state.deck.remove(replacement)
            state.display[i] = replacement
            return c
    for p in state.players:
        for i, c in enumerate(p.hand):
            if cards[c].code == code and c not in keep:
                del p.hand[i]
                return c
    raise AssertionError(f"no free card {code}")


def set_hand(state: GameState, seat: int, codes: Iterable[str]) -> None:
    """Give ``seat`` exactly these money cards; its old cards go to the bottom of the deck."""
    old = state.players[seat].hand
    state.players[seat].hand = []
    state.deck[0:0] = old
    keep: set[int] = set()
    got = []
    for code in codes:
        c = _take_card(state, code, keep)
        keep.add(c)
        got.append(c)
    state.players[seat].hand = got


def set_display(state: GameState, codes: Iterable[str | None]) -> None:
    """Lay these cards on the display slots (None: empty); the old ones go under the deck."""
    old = [c for c in state.display if c >= 0]
    state.display = [-1] * len(state.display)
    state.deck[0:0] = old
    keep: set[int] = set()
    new = []
    for code in codes:
        if code is None:
            new.append(-1)
            continue
        c = _take_card(state, code, keep)
        keep.add(c)
        new.append(c)
    state.display = new


def _take_tile(state: GameState, code: str) -> int:
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
        return t
    if t in state.market:
        i = state.market.index(t)
        state.market[i] = state.bag.pop()
        return t
    if state.neutral is not None and t in state.neutral:
        state.neutral.remove(t)
        state.neutral.append(state.bag.pop())
        return t
    for p in state.players:
        if t in p.reserve:
            p.reserve.remove(t)
            return t
    raise AssertionError(f"tile {code} is not free")


def set_market(state: GameState, codes: Iterable[str | None]) -> None:
    """Put these tiles on market squares 1-4 (None: empty); old market tiles go back to the bag
    (at the bottom, so the next draws are unchanged)."""
    old = [t for t in state.market if t >= 0]
    state.market = [-1] * len(state.market)
    state.bag[0:0] = old
    new = []
    for code in codes:
        new.append(-1 if code is None else _take_tile(state, code))
    state.market = new


def set_city(state: GameState, seat: int, layout: Mapping[tuple[int, int], str]) -> None:
    """Build these tiles (by code) into ``seat``'s Alhambra next to its fountain."""
    city = state.players[seat].city
    for (x, y), code in layout.items():
        assert geo.pos(x, y) not in city
        city[geo.pos(x, y)] = _take_tile(state, code)


def set_reserve(state: GameState, seat: int, codes: Iterable[str]) -> None:
    """Put these tiles (by code) on ``seat``'s reserve board."""
    for code in codes:
        state.players[seat].reserve.append(_take_tile(state, code))


def set_bag_top(state: GameState, codes: Iterable[str]) -> None:
    """Make these tiles the next ones drawn from the bag, first code drawn first."""
    ids = [_take_tile(state, c) for c in codes]
    state.bag.extend(reversed(ids))


def empty_bag_into_reserve(state: GameState, seat: int, keep: int = 0) -> None:
    """Move every bag tile but the next ``keep`` ones onto a reserve board (keeps tiles accounted)."""
    moved = state.bag[: len(state.bag) - keep]
    del state.bag[: len(state.bag) - keep]
    state.players[seat].reserve.extend(moved)


def tile_codes(state: GameState, ids: Iterable[int]) -> list[str]:
    return [state.components.tiles[t].code for t in ids]


def city_codes(state: GameState, seat: int) -> dict[tuple[int, int], str]:
    return {geo.xy(q): state.components.tiles[t].code for q, t in state.players[seat].city.items()}


# ---------------------------------------------------------------------------- invariants
def all_card_locations(state: GameState) -> list[int]:
    out = list(state.deck) + [c for c in state.display if c >= 0] + list(state.discard) + list(state.removed)
    for p in state.players:
        out += p.hand
    return out


def all_tile_locations(state: GameState) -> list[int]:
    ids = state.components.tile_ids
    out = list(state.bag) + [t for t in state.market if t >= 0]
    for p in state.players:
        out += list(p.city.values()) + list(p.reserve)
    out += state.neutral or []
    for pend in state.pending:
        if isinstance(pend, PlaceTiles):
            out += [ids[c] for c in pend.tiles]
        elif isinstance(pend, ChooseAction):
            out += [ids[c] for c in pend.bought]
    return out


def check_conservation(state: GameState) -> None:
    """Every card and every tile (fountains included) is in exactly one place."""
    cards = all_card_locations(state)
    dup = [c for c, k in Counter(cards).items() if k > 1]
    assert not dup, f"cards in two places: {dup}"
    assert sorted(cards) == list(range(len(state.components.cards))), "a card is missing"
    phys = state.components.physical  # two-sided tiles (Granada): each physical tile once, on either face
    tiles = [phys(t) for t in all_tile_locations(state)]
    dup = [t for t, k in Counter(tiles).items() if k > 1]
    assert not dup, f"tiles in two places: {dup}"
    assert sorted(tiles) == sorted({phys(t) for t in range(len(state.components.tiles))}), "a tile is missing"


def check_cities(state: GameState) -> None:
    """Every Alhambra obeys every building rule and keeps its fountain at the origin."""
    walls = state.components.tile_walls
    for s, p in enumerate(state.players):
        assert p.city.get(geo.ORIGIN) == state.components.fountains[s]
        assert geo.validate_layout(p.city, walls, geo.ORIGIN) == [], (s, geo.validate_layout(p.city, walls, geo.ORIGIN))


def card_id(state: GameState, code: str) -> int:
    """Id of the first card with this code (scoring cards: ``S1``, ``S2``)."""
    return next(i for i, c in enumerate(state.components.cards) if c.code == code)


def put_on_deck_top(state: GameState, code: str) -> int:
    """Move a card that is in the draw pile to its top (the end of the list); return its id."""
    cards = state.components.cards
    c = next(c for c in reversed(state.deck) if cards[c].code == code)
    state.deck.remove(c)
    state.deck.append(c)
    return c


def set_neutral(state: GameState, codes: Iterable[str]) -> None:
    """Give the neutral player (2-player game) exactly these tiles; old ones go back to the bag."""
    assert state.neutral is not None
    old = state.neutral
    state.neutral = []
    state.bag[0:0] = old
    state.neutral = [_take_tile(state, c) for c in codes]


def first_take(state: GameState) -> Action:
    """The first ``take`` action of a turn: after exact payments the turn goes on until an action
    that is not an exact purchase (the rulebook gives no "end"), and taking money is the usual one."""
    from alhambra.actions import TakeMoney
    from alhambra.engine import legal_actions

    return next(a for a in legal_actions(state) if isinstance(a, TakeMoney))


def play(state: GameState, *actions: Action | str | Callable[[GameState], Action], seat: int | None = None) -> tuple[GameState, list]:
    """Apply actions one after the other with the checked ``apply``: action objects, notation,
    or a function of the state that picks the action (e.g. :func:`first_take`)."""
    from alhambra.actions import parse_action
    from alhambra.engine import apply

    events: list = []
    for a in actions:
        act = parse_action(a) if isinstance(a, str) else a if isinstance(a, Action) else a(state)
        state, evs = apply(state, act, seat)
        events += evs
    return state, events


def names(events: Iterable[object]) -> list[str]:
    """Event class names, in order."""
    return [type(e).__name__ for e in events]


# ------------------------------------------------------------------ independent geometry oracle
# A deliberately simple re-statement of the building rules, sharing no code with alhambra.city.
# Layouts are {(x, y): wall mask}; the fountain (mask 0) is at (0, 0).
_STEP = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0)}
_BACK = {NORTH: SOUTH, EAST: WEST, SOUTH: NORTH, WEST: EAST}


def oracle_ok(layout: Mapping[tuple[int, int], int]) -> bool:
    """True if the layout obeys every building rule."""
    if layout.get((0, 0)) != 0:
        return False
    for (x, y), w in layout.items():
        for side, (dx, dy) in _STEP.items():
            n = layout.get((x + dx, y + dy))
            if n is not None and bool(w & side) != bool(n & _BACK[side]):
                return False
    seen = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        x, y = todo.pop()
        for side, (dx, dy) in _STEP.items():
            q = (x + dx, y + dy)
            if not layout[(x, y)] & side and q in layout and q not in seen:
                seen.add(q)
                todo.append(q)
    if len(seen) != len(layout):
        return False
    xs = [x for x, _ in layout]
    ys = [y for _, y in layout]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    outside = {(x0, y0)}
    todo = [(x0, y0)]
    while todo:
        x, y = todo.pop()
        for dx, dy in _STEP.values():
            q = (x + dx, y + dy)
            if x0 <= q[0] <= x1 and y0 <= q[1] <= y1 and q not in layout and q not in outside:
                outside.add(q)
                todo.append(q)
    return all((x, y) in layout or (x, y) in outside for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))


def oracle_touching(layout: Mapping[tuple[int, int], int]) -> set[tuple[int, int]]:
    """Empty cells sharing a side with the layout."""
    out = set()
    for x, y in layout:
        for dx, dy in _STEP.values():
            if (x + dx, y + dy) not in layout:
                out.add((x + dx, y + dy))
    return out


def oracle_spots(layout: Mapping[tuple[int, int], int], walls: int) -> set[tuple[int, int]]:
    return {p for p in oracle_touching(layout) if oracle_ok({**layout, p: walls})}


def oracle_removable(layout: Mapping[tuple[int, int], int]) -> set[tuple[int, int]]:
    return {p for p in layout if p != (0, 0) and oracle_ok({q: w for q, w in layout.items() if q != p})}


def oracle_longest_wall(layout: Mapping[tuple[int, int], int]) -> int:
    """Longest trail of outer wall segments, by exhaustive search."""
    edges: list[tuple[tuple[int, int], tuple[int, int]]] = []
    corners = {
        NORTH: ((0, 0), (1, 0)),
        EAST: ((1, 0), (1, 1)),
        SOUTH: ((0, 1), (1, 1)),
        WEST: ((0, 0), (0, 1)),
    }
    for (x, y), w in layout.items():
        for side, (dx, dy) in _STEP.items():
            if w & side and (x + dx, y + dy) not in layout:
                (ax, ay), (bx, by) = corners[side]
                edges.append(((x + ax, y + ay), (x + bx, y + by)))
    at: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(edges):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    best = 0
    used = [False] * len(edges)

    def walk(v: tuple[int, int], n: int) -> None:
        nonlocal best
        best = max(best, n)
        for i in at[v]:
            if not used[i]:
                used[i] = True
                a, b = edges[i]
                walk(b if a == v else a, n + 1)
                used[i] = False

    for v in at:
        walk(v, 0)
    return best


def layout_of(state: GameState, seat: int) -> dict[tuple[int, int], int]:
    """A seat's Alhambra as ``{(x, y): wall mask}``."""
    walls = state.components.tile_walls
    return {geo.xy(q): walls[t] for q, t in state.players[seat].city.items()}
