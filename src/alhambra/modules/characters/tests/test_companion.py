"""The characters on the scoring companion: a round of an engine game with the Wise Man's half
building and the City Watch scores the same on the companion (Python and its inputs)."""

from __future__ import annotations

import json

from alhambra.companion import parse_table, score_table
from alhambra.companion.export import export_table
from alhambra.events import RoundScored
from alhambra.testing import build_tiles, scoring_card_next, take_first

from .helpers import act, fresh, give


def test_a_round_with_the_wise_man_and_the_city_watch_scores_the_same_on_the_companion() -> None:
    state = fresh(3)
    give(state, 1, "wise_man")
    give(state, 0, "city_watch")
    build_tiles(state, 0, {(1, 0): "P6n", (2, 0): "G10n", (3, 0): "T11n"})
    build_tiles(state, 2, {(1, 0): "T12"})
    scoring_card_next(state)
    before = tuple(state.scores)
    state, _ = take_first(state)
    state, events = act(state, "character wise tower")
    rnd = next(e for e in events if isinstance(e, RoundScored))
    assert rnd.counts["tower"][1] == 0.5 and rnd.extra["characters"][0] == rnd.walls[0] // 3 >= 1
    doc = json.loads(json.dumps(export_table(state, rnd.round, before)))
    assert doc["players"][1]["modules"]["characters"]["wise_man"] == "tower"
    result = score_table(parse_table(doc))
    for kind, pts in rnd.kinds.items():
        i = result.table.rules.kinds.index(kind)
        assert tuple(s.kinds[i].points for s in result.seats) == pts, kind
        assert tuple(s.kinds[i].count for s in result.seats) == rnd.counts[kind], kind
    assert result.seats[0].modules["characters"].points == rnd.extra["characters"][0]
    assert [s.total for s in result.seats] == list(state.scores)
