"""What the "Score a real game" page needs to draw its forms and score offline."""

from __future__ import annotations

from typing import Any

from ..hooks import available_modules, load_module
from ..rulesets import game_ids, ruleset
from .table import MAX_SCORE, _kind_limits

__all__ = ["companion_catalogue"]


def companion_catalogue() -> dict[str, Any]:
    """The games (kinds, names, their wall word, scoring rule and table, how many tiles of each
    kind) and every module that takes part in scoring (its fields and its ``browser_data``)."""
    games = []
    for g in game_ids():
        r = ruleset(g)
        games.append(
            {
                "id": r.id,
                "title": r.title,
                "kinds": list(r.kinds),
                "kind_names": [r.kind_names[k] for k in r.kinds],
                "wall_name": r.wall_name,
                "scoring": r.scoring,
                "points": {k: [list(row) for row in rows] for k, rows in r.points.items()},
                "limits": _kind_limits(r),
                "max_wall": sum(bin(t.walls).count("1") for t in r.tiles),
            }
        )
    modules = []
    for mid in available_modules():
        m = load_module(mid)
        hooks = m.companion()
        if hooks is None:
            continue
        modules.append(
            {
                "id": mid,
                "title": m.title,
                "games": list(m.games),
                "table_fields": [f.to_json() for f in hooks.table_fields],
                "seat_fields": [f.to_json() for f in hooks.seat_fields],
                "data": hooks.browser_data(),
            }
        )
    return {"games": games, "modules": modules, "max_score": MAX_SCORE}
