"""An engine game as a table file: what players at a real table would enter for a round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import city as geo
from ..components import walls_to_letters
from ..state import GameState
from .table import companion_of

__all__ = ["export_table"]


def _counts(state: GameState, tiles: Sequence[int]) -> tuple[dict[str, int], dict[str, int]]:
    comp = state.components
    counts = dict.fromkeys(comp.kinds, 0)
    dearest: dict[str, int] = {}
    for t in tiles:
        tt = comp.tiles[t]
        if tt.kind in counts:
            counts[tt.kind] += 1
            dearest[tt.kind] = max(dearest.get(tt.kind, 0), tt.price)
    return counts, dearest


def _layout(state: GameState, seat: int) -> list[dict[str, Any]] | None:
    """The seat's Alhambra as layout tiles; None when a module's tile is in it that its module
    cannot give as layout tiles (``CompanionHooks.export_tiles``)."""
    comp = state.components
    out: list[dict[str, Any]] = []
    given: set[str] = set()
    for m in state.config.modules:
        hooks = companion_of(m)
        tiles = hooks.export_tiles(state, seat) if hooks is not None else None
        if tiles is not None:
            out += tiles
            given.add(m)
    for q, t in sorted(state.players[seat].city.items()):
        tt = comp.tiles[t]
        x, y = geo.xy(q)
        if tt.module:
            if tt.module not in given:
                return None
            continue
        if tt.kind == "fountain" or tt.price == 0:
            out.append({"x": x, "y": y, "kind": "fountain"})
        else:
            out.append({"x": x, "y": y, "kind": tt.kind, "price": tt.price, "walls": walls_to_letters(state.walls[t])})
    return out


def export_table(
    state: GameState,
    round_no: int,
    scores_before: Sequence[int] | None = None,
    neutral_tiles: Sequence[int] | None = None,
    tiles: bool = False,
) -> dict[str, Any]:
    """The table document of scoring round ``round_no`` of ``state`` (taken right after it).

    ``scores_before``: the players' scores before the round (default: none). ``neutral_tiles``:
    the neutral player's tiles when he was scored (he gets more right after; default: his tiles
    now). ``tiles``: give each Alhambra as tiles where every tile is a base-game tile.
    """
    comp = state.components
    rules_id = state.config.game
    n = state.config.players
    players: list[dict[str, Any]] = []
    for s in range(n):
        city = state.players[s].city
        counts, dearest = _counts(state, list(city.values()))
        p: dict[str, Any] = {"name": f"player {s + 1}"}
        layout = _layout(state, s) if tiles else None
        if layout is not None:
            p["tiles"] = layout
        else:
            p["buildings"] = counts
            p["wall"] = geo.longest_wall(city, state.walls)
            if comp.ruleset is not None and comp.ruleset.scoring != "table":
                p["dearest"] = dearest
        if scores_before is not None:
            p["score"] = scores_before[s]
        players.append(p)
    doc: dict[str, Any] = {"game": rules_id, "round": round_no, "modules": list(state.config.modules), "players": players}
    neutral: dict[str, Any] | None = None
    if state.neutral is not None:
        ntiles = list(state.neutral if neutral_tiles is None else neutral_tiles)
        counts, dearest = _counts(state, ntiles)
        neutral = {"buildings": counts}
        if comp.ruleset is not None and comp.ruleset.scoring != "table":
            neutral["dearest"] = dearest
        doc["neutral"] = neutral
    table: dict[str, Any] = {}
    if neutral_tiles is not None and state.neutral is not None:  # the modules read his tiles as they were scored
        state = state.copy()
        state.neutral = list(neutral_tiles)
    for m in state.config.modules:
        hooks = companion_of(m)
        if hooks is None:
            continue
        tab, seats = hooks.export(state, round_no)
        if tab:
            table[m] = tab
        for i, values in enumerate(seats):
            if not values:
                continue
            target = players[i] if i < n else neutral
            if target is not None:
                target.setdefault("modules", {})[m] = values
    if table:
        doc["table"] = table
    return doc
