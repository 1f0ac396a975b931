"""Building sites at a real table: site tiles lying on buildings, per kind (they do not count)."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Tally
from ...components import KINDS
from ...state import GameState
from .module import sites_slice


class BuildingSitesCompanion(CompanionHooks):
    """Per player and the neutral player: site tiles on buildings of each kind."""

    seat_fields = tuple(Field(k, f"site tiles on a {k}", "count", 0, 8, neutral=True) for k in KINDS)

    def adjust_counts(self, tally: Tally, who: int, counts: dict[str, float]) -> list[str]:
        """A building under a site tile does not count (as ``Module.building_counts``)."""
        out: list[str] = []
        for k, v in tally.seats[who].items():
            cut = min(v, counts.get(k, 0))
            if v:
                counts[k] = counts.get(k, 0) - cut
                out.append(f"building sites: {cut} {k} not counted")
        return out

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Sites per kind on each participant's tiles."""
        comp = state.components
        n = state.config.players
        rows: list[dict[str, Any]] = [dict.fromkeys(KINDS, 0) for _ in range(n + (1 if state.neutral is not None else 0))]
        where = [set(state.players[s].city.values()) for s in range(n)] + ([set(state.neutral)] if state.neutral is not None else [])
        for site in sites_slice(state).sites:
            t = comp.tile_ids[site.tile]
            if comp.tiles[t].kind not in KINDS:
                continue  # a medina under a site: no building count changes (medina's export leaves it out)
            for i, tiles in enumerate(where):
                if t in tiles:
                    rows[i][comp.tiles[t].kind] += 1
        return {}, rows


COMPANION: Final = BuildingSitesCompanion()
