"""Medina: nine medina tiles in the bag; the players with the fewest built medinas lose points.

Flow (plug-in hooks):

* ``extra_tiles`` declares the nine medinas (kind ``"medina"``, prices 2-10, ``in_bag=True``):
  the core shuffles them into the bag, they come onto the market like any building and are
  bought, placed, redesigned and handed out at the end like buildings. A medina is no building
  kind: it counts for no majority.
* ``round_points`` after the majorities of every scoring round: the participants (the players
  and, with 2 players, the neutral player) are ranked from the fewest medinas built in the
  Alhambra; a tie on the count goes to the dearer medina (the cheaper one ranks as fewer). The
  fewest lose 3 (round 1); 6 / 3 (round 2); 9 / 6 / 3 (round 3). Players without any medina
  share the places they take (the sum of their penalties split, rounded up) and each loses
  1 / 2 / 3 more. The neutral player's share is his (the last entry, see ``Module.round_points``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from ...components import ComponentSet, TileType, letters_to_walls, walls_to_letters
from ...engine.services import unbuilt_tiles
from ...hooks import Module
from ...state import ChooseAction, GameConfig, GameState, PlaceTiles

MODULE_ID: Final = "medina"
MEDINA_KIND: Final = "medina"
"""``TileType.kind`` of a medina (not one of the six building kinds: it counts for no majority)."""


@dataclass(frozen=True, slots=True)
class MedinaData:
    """The module's data file, read once."""

    tiles: tuple[tuple[int, int], ...]
    """(price, walls mask) of each medina tile."""
    penalties: tuple[tuple[int, ...], ...]
    """Per round (index 0-2): the points lost by the fewest, second fewest ... (positive numbers)."""
    without: tuple[int, ...]
    """Per round: what each participant without any medina loses more."""


@cache
def data() -> MedinaData:
    """Read ``components.json`` (the nine tiles, the penalties) and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    tiles = tuple((int(t["price"]), letters_to_walls(str(t["walls"]))) for t in raw["tiles"])
    if len({p for p, _ in tiles}) != len(tiles):
        raise ValueError("medina: two medina tiles share a price")
    pen = raw["penalties"]
    penalties = tuple(tuple(int(v) for v in pen[f"round{r}"]) for r in (1, 2, 3))
    if [len(p) for p in penalties] != [1, 2, 3] or any(v < 0 for p in penalties for v in p):
        raise ValueError("medina: round r takes points from r places (numbers of points lost, not negative)")
    without = tuple(int(raw["without_medina"][f"round{r}"]) for r in (1, 2, 3))
    return MedinaData(tiles, penalties, without)


def medina_code(price: int, walls: int) -> str:
    """Tile code of a medina: ``M`` + price + wall letters (``M2sw``)."""
    return f"M{price}{walls_to_letters(walls)}"


def medina_tiles() -> list[TileType]:
    """The nine medina tiles (in the bag with the buildings)."""
    return [TileType(medina_code(p, w), MEDINA_KIND, p, w, module=MODULE_ID, in_bag=True) for p, w in data().tiles]


def penalties(counts: Sequence[int], dearest: Sequence[int], round_no: int) -> list[int]:
    """Points each participant loses (as negative numbers) in scoring round ``round_no``.

    ``counts[i]`` medinas built by participant ``i``, ``dearest[i]`` the price of the dearest
    (0 without any). Participants are ranked by (count, dearest) ascending; each takes the next
    place(s). Equal ranks (every participant without a medina; equal counts and prices cannot
    happen with real tiles) split the penalties of their places, rounded up. Every participant
    without a medina loses the round's extra points too.

    >>> penalties([0, 0, 2, 3], [0, 0, 5, 8], 3)  # the rulebook's example: A, B without any
    [-11, -11, -3, 0]
    """
    d = data()
    places = d.penalties[round_no - 1]
    keys = [(c, p if c > 0 else 0) for c, p in zip(counts, dearest, strict=True)]
    out = [0] * len(keys)
    place = 0
    for key in sorted(set(keys)):
        tied = [i for i, k in enumerate(keys) if k == key]
        lost = sum(places[place : place + len(tied)])
        share = -(-lost // len(tied))  # rounded up
        for i in tied:
            out[i] = -share - (d.without[round_no - 1] if key[0] == 0 else 0)
        place += len(tied)
    return out


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per game's components: which tile ids are medinas (their prices, 0 for other tiles)."""

    comp: ComponentSet
    price: tuple[int, ...]


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    got = _TABLES.get(id(comp))
    if got is None or got.comp is not comp:
        got = _TABLES[id(comp)] = _Tables(comp, tuple(t.price if t.module == MODULE_ID else 0 for t in comp.tiles))
    return got


def built(state: GameState, seat: int) -> list[int]:
    """Prices of the medinas built by ``seat`` (``-1``: the neutral player, all his tiles), ascending.
    A medina under a building site is not built yet (``engine.unbuilt_tiles``)."""
    price = _tables(state.components).price
    tiles: Sequence[int] = (state.neutral or []) if seat < 0 else list(state.players[seat].city.values())
    out = [price[t] for t in tiles if price[t]]
    if out and state.config.modules != (MODULE_ID,):
        unbuilt = unbuilt_tiles(state, seat)
        if unbuilt:
            out = [price[t] for t in tiles if price[t] and t not in unbuilt]
    return sorted(out)


def participants(state: GameState) -> list[int]:
    """The seats ranked in medina scoring: every player, then ``-1`` for the neutral player (2 players)."""
    return list(range(state.config.players)) + ([-1] if state.neutral is not None else [])


def round_penalties(state: GameState, round_no: int) -> list[int]:
    """What every participant (:func:`participants` order) loses in round ``round_no`` now."""
    rows = [built(state, s) for s in participants(state)]
    return penalties([len(r) for r in rows], [r[-1] if r else 0 for r in rows], round_no)


# ---------------------------------------------------------------------------------- bots
LATER_ROUND_WEIGHT: Final = 0.6
"""Bot estimate: share of a later round's penalty (at today's standing) counted now."""
WAITING_SHARE: Final = 1.0
"""A medina bought and waiting to be placed counts as built (it nearly always can be)."""
RESERVE_SHARE: Final = 0.5
"""A medina on the reserve board counts half (it may still be built)."""


class Medina(Module):
    """Medina."""

    id = MODULE_ID
    title = "Medina"
    summary = "Medina tiles: whoever has built the fewest loses points in every scoring."
    description = (
        "Nine medina tiles are shuffled into the tile bag and bought like buildings. After the majorities of every "
        "scoring round, whoever has built the fewest medinas loses points (3; then 6 and 3; then 9, 6 and 3); "
        "a tie goes to the dearer medina, and a player without any medina loses 1, 2 or 3 more."
    )
    assumptions = (
        "Only medinas built in the Alhambra count, not those on the reserve board (the rulebook: 'built Medinas').",
        "With 2 players the neutral player takes part in the ranking with the medinas among his tiles and loses "
        "points like a player; he can take one of the penalty places.",
        "A tie on the number of medinas goes to the player whose dearest medina is dearer (the cheaper one ranks as "
        "having fewer); every medina has its own price, so no tie remains among players with medinas.",
        "Players without any medina share the penalties of the places they take, rounded up (the rulebook's notes for "
        "each round); each of them loses the round's extra 1, 2 or 3 points besides.",
        "Scores may go below 0 (the rulebook sets no floor for medinas).",
        "A medina is no building kind: it counts for no majority, never holds a treasure chest or a citizen, and is "
        "no neighbour a bazaar scores; it is otherwise placed and redesigned like any building tile.",
        "A game stopped by a turn limit scores only the rounds played, as without the module.",
    )
    component_assumptions = ()

    # ----- components -------------------------------------------------------------------
    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """The nine medinas (kind ``medina``, prices 2-10), shuffled into the bag by the core."""
        return medina_tiles()

    # ----- scoring ----------------------------------------------------------------------
    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Every participant's penalty: the players', then the neutral player's (2 players)."""
        return round_penalties(state, round_no)

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Expected medina penalties per seat over the rounds to come: the standing now (built
        medinas, plus those bought and waiting, plus half of those on the reserve board, each at
        the dearest price it could have), the next round in full and later rounds in part."""
        left = 3 - state.rounds_scored
        if left <= 0 or state.outcome is not None:
            return None
        n = state.config.players
        price = _tables(state.components).price
        counts: list[float] = []
        dearest: list[int] = []
        seats = participants(state)
        for s in seats:
            tiles = list(state.neutral or []) if s < 0 else list(state.players[s].city.values())
            unbuilt = unbuilt_tiles(state, s) if state.config.modules != (MODULE_ID,) else ()
            if unbuilt:  # a medina under a building site is not built yet
                tiles = [t for t in tiles if t not in unbuilt]
            c = float(sum(1 for t in tiles if price[t]))
            top = max((price[t] for t in tiles if price[t]), default=0)
            if s >= 0:
                for t in state.players[s].reserve:
                    if price[t]:
                        c += RESERVE_SHARE
                        top = max(top, price[t])
            counts.append(c)
            dearest.append(top)
        tile_ids = state.components.tile_ids
        for top_ in state.pending:
            codes = top_.bought if isinstance(top_, ChooseAction) else top_.tiles if isinstance(top_, PlaceTiles) else ()
            for code in codes:
                p = price[tile_ids[code]]
                if p:
                    counts[top_.seat] += WAITING_SHARE
                    dearest[top_.seat] = max(dearest[top_.seat], p)
        out = [0.0] * n
        first = state.rounds_scored + 1
        for r in range(first, 4):
            w = 1.0 if r == first else LATER_ROUND_WEIGHT
            got = _float_penalties(counts, dearest, r)
            for i in range(n):
                out[i] += w * got[i]
        return out

    # ----- views ------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: per participant (the players, then the neutral player) the medinas built
        (tile codes, cheapest first); the penalty table; the round scored next and what each
        participant would lose in it now."""
        code = {p: medina_code(p, w) for p, w in data().tiles}
        rows = [{"seat": s, "medinas": [code[p] for p in built(state, s)]} for s in participants(state)]
        nxt = state.rounds_scored + 1 if state.rounds_scored < 3 and state.outcome is None else None
        d = data()
        return {
            "participants": rows,
            "penalties": [list(p) for p in d.penalties],
            "without_medina": list(d.without),
            "next": nxt,
            "now": round_penalties(state, nxt) if nxt is not None else None,
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """No state slice: the medinas lie in the Alhambras."""
        return None


def _float_penalties(counts: Sequence[float], dearest: Sequence[int], round_no: int) -> list[float]:
    """:func:`penalties` for estimated (fractional) counts: a count below 1 ranks as none."""
    whole = [int(c) if c >= 1 else 0 for c in counts]
    return [float(v) for v in penalties(whole, [d if w else 0 for d, w in zip(dearest, whole, strict=True)], round_no)]


MODULE: Final = Medina()
