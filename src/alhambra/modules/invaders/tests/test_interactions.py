"""The invaders with the modules whose rules touch them: building sites (a site is never bought
exactly, so it never takes a scout), medina and bazaar tiles (no scout shows their kind), a
medina's negative score (the floor keeps it) and the new score cards (the invasion follows
whatever the round scored)."""

from __future__ import annotations

from alhambra import apply, parse_action
from alhambra.components import KINDS
from alhambra.events import Event, RoundScored
from alhambra.modules.invaders import MODULE, InvasionRevealed, InvasionScouted, invaders
from alhambra.modules.invaders.module import data
from alhambra.state import GameState
from alhambra.testing import check_conservation, score_next_round, set_hand

from .helpers import fresh, set_scouts, set_top


def _scouted(events: list[Event]) -> list[InvasionScouted]:
    return [e for e in events if isinstance(e, InvasionScouted)]


def test_a_building_site_bought_for_exactly_half_takes_no_scout() -> None:
    state = fresh(modules=("building_sites",))  # market: P4es blue, S5sw green, A6sw orange, C7sw yellow
    set_scouts(state, ["arcades", "pavilion"])
    seat = state.current
    set_hand(state, seat, ["o3", "b4"])
    state, events = apply(state, parse_action("buy site3 o3"), seat)  # half of 6, exactly
    assert not _scouted(events)
    assert invaders(state).scouts == ("arcades", "pavilion") and invaders(state).top is None
    check_conservation(state)


def test_the_same_tile_bought_in_full_with_exact_money_takes_the_scout() -> None:
    state = fresh(modules=("building_sites",))
    set_scouts(state, ["arcades", "pavilion"])
    seat = state.current
    set_hand(state, seat, ["o6"])
    state, events = apply(state, parse_action("buy 3 o6"), seat)
    assert [e.kind for e in _scouted(events)] == ["arcades"]


def test_no_scout_shows_a_medina_or_a_bazaar() -> None:
    scouts = set(data().scouts)
    assert scouts == set(KINDS)
    state = fresh(modules=("medina", "bazaars"))
    comp = state.components
    extra = {comp.tiles[t].kind for t in range(len(comp.tiles)) if comp.tiles[t].module in ("medina", "bazaars")}
    assert extra and not extra & scouts


def test_an_exactly_paid_medina_takes_no_scout() -> None:
    state = fresh(modules=("medina",), market=("M6e", "S5sw", "A6sw", "C7sw"))
    set_scouts(state, ["pavilion", "seraglio"])
    seat = state.current
    set_hand(state, seat, ["b6"])
    state, events = apply(state, parse_action("buy 1 b6"), seat)
    assert any(str(getattr(e, "tile", "")) == "M6e" for e in events)
    assert not _scouted(events)


def _final_invasion(state: GameState, events: list[Event]) -> InvasionRevealed:
    got = [e for e in events if isinstance(e, InvasionRevealed)]
    assert len(got) == 1
    return got[0]


def test_a_medina_score_below_0_stays_and_the_invasion_takes_nothing() -> None:
    state = fresh(modules=("medina",))
    set_top(state, "south")
    state.scores = [0, 0, 0]
    state, events = score_next_round(state)
    scored = next(e for e in events if isinstance(e, RoundScored))
    inv = _final_invasion(state, events)
    for s in range(3):
        if scored.scores[s] < 0:  # the fewest medinas: below 0 before the invasion
            assert inv.lost[s] == 0 and state.scores[s] == scored.scores[s]
        else:
            assert state.scores[s] == max(scored.scores[s] - inv.lost[s], 0)
    assert min(scored.scores) < 0, "somebody has the fewest medinas"


def test_with_new_score_cards_the_invasion_follows_the_round() -> None:
    state = fresh(modules=("new_score_cards",))
    set_top(state, "east")
    state, events = score_next_round(state)
    assert events.index(_final_invasion(state, events)) > events.index(next(e for e in events if isinstance(e, RoundScored)))
    assert MODULE.view(state, 0)["revealed"] == ["east"]
