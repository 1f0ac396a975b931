"""The incremental Alhambra analysis against a from-scratch computation, after every move.

``PlayerState.build`` and ``unbuild`` update the cached :class:`~alhambra.city.CityAnalysis`
(``with_tile`` / ``without_tile``) instead of starting again. Random games check it after every
move that changed an Alhambra: the frontier and its wall facts, the places for every wall
pattern (``legal_spots``: the building rules one place at a time), the removable tiles
(``removal_problem``: flood fills, no articulation points), the neighbour facts of every tile and
the cut tiles must be what a from-scratch computation gives.

CI plays a few games of each kind (a few seconds); ``ALHAMBRA_DIFF_GAMES=N`` plays ``N`` games
of each kind instead (``ALHAMBRA_DIFF_GAMES=1000 pytest tests/test_city_incremental.py`` for
the thorough run).
"""

from __future__ import annotations

import os
import random

import pytest

from alhambra import city as geo
from alhambra.engine import apply_unchecked, legal_actions, new_game
from alhambra.policies import kind_random, uniform_random
from alhambra.state import GameConfig, GameState
from tests.helpers import WALLS16, grid

GAMES = int(os.environ.get("ALHAMBRA_DIFF_GAMES", "0"))
ORIGIN = geo.ORIGIN


def _requirements(cells: dict[int, int], walls: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    out: dict[int, tuple[int, int]] = {}
    for p in cells:
        if p == ORIGIN:
            continue
        known = need = 0
        for side, d, opp in geo._NEIGHBOURS:
            t = cells.get(p + d)
            if t is not None:
                known |= side
                if walls[t] & opp:
                    need |= side
        out[p] = (known, need)
    return out


def _frontier_info(cells: dict[int, int], walls: tuple[int, ...]) -> list[tuple[int, int, int]]:
    out = []
    for q in geo.frontier(cells):
        known, need = 0, 0
        for side, d, opp in geo._NEIGHBOURS:
            t = cells.get(q + d)
            if t is not None:
                known |= side
                if walls[t] & opp:
                    need |= side
        if known != need:
            out.append((q, known, need))
    return out


def check(an: geo.CityAnalysis, cells: dict[int, int], walls: tuple[int, ...]) -> None:
    """Every fact of ``an`` against a from-scratch computation for ``cells``."""
    assert an.cells == cells
    assert an.frontier == geo.frontier(cells)
    assert an.frontier_info() == _frontier_info(cells, walls)
    for mask in range(16):
        assert an.spots(mask) == geo.legal_spots(cells, walls, mask), mask
    assert an.removable() == [p for p in sorted(cells) if geo.removal_problem(cells, walls, p, ORIGIN) is None]
    assert an.requirements == _requirements(cells, walls)
    assert (an._cut, an._clean) == geo._cut_tiles(cells, walls, ORIGIN)


def play(state: GameState, rng: random.Random, policy: str, every: float, shared_replay: bool = False) -> int:
    """Play to the end, checking each changed Alhambra with probability ``every`` (else its
    analysis is left unasked, so the next change starts from an analysis that knows less).
    Returns the number of checks."""
    walls = state.components.tile_walls
    choose = kind_random if policy == "kinds" else uniform_random
    start = state.copy()
    actions = []
    checks = 0
    before = [dict(p.city) for p in state.players]
    while not state.is_over:
        a = choose(state, rng)
        actions.append(a)
        apply_unchecked(state, a, events=False)
        for s, p in enumerate(state.players):
            if p.city != before[s]:
                before[s] = dict(p.city)
                if rng.random() < every:
                    check(p.analysis(walls), p.city, walls)
                    checks += 1
    if shared_replay:
        # the same moves again inside the same block: changes are found in the analyses' caches
        state = start
        for a in actions:
            assert a in legal_actions(state)
            apply_unchecked(state, a, events=False)
            for p in state.players:
                check(p.analysis(walls), p.city, walls)
    return checks


CASES = [
    # (players, policy, share of changes checked, modules)
    (4, "kinds", 1.0, ()),
    (2, "uniform", 1.0, ()),
    (3, "uniform", 0.5, ()),
    (5, "kinds", 0.3, ()),
    (3, "uniform", 1.0, ("master_builders",)),
]


@pytest.mark.parametrize(("players", "policy", "every", "modules"), CASES)
def test_incremental_analysis_matches_a_fresh_one_after_every_move(
    players: int, policy: str, every: float, modules: tuple[str, ...]
) -> None:
    games = GAMES or 2
    checks = 0
    for g in range(games):
        seed = 1000 * players + g
        state, _ = new_game(GameConfig(players=players, modules=modules), seed)
        checks += play(state, random.Random(seed), policy, every)
    assert checks > 20 * games


def test_incremental_analysis_inside_a_search_block() -> None:
    games = max(1, GAMES // 10) if GAMES else 1
    for g in range(games):
        with geo.shared_analyses():
            state, _ = new_game(GameConfig(players=2), 77 + g)
            play(state, random.Random(g), "uniform", 1.0, shared_replay=True)


# --------------------------------------------------------------------- the local arguments
def test_a_tile_hanging_off_one_tile_makes_that_tile_cut_and_its_removal_undoes_it() -> None:
    cells = grid("F o")
    an = geo.CityAnalysis(cells, WALLS16, ORIGIN)
    assert an.removable() == [geo.pos(1, 0)]
    two = an.with_tile(geo.pos(2, 0), 0)
    assert two is not None and two._cut == frozenset({geo.pos(1, 0)}) and two._clean
    assert two.removable() == [geo.pos(2, 0)]
    back = two.without_tile(geo.pos(2, 0))
    assert back is not None and back._cut == frozenset() and back.removable() == [geo.pos(1, 0)]


def test_closing_a_loop_is_recomputed_and_an_exchange_keeps_the_cut_tiles() -> None:
    # F o      a 2x2 block closed by (0, 1): every tile but the fountain is removable again
    # . o
    an = geo.CityAnalysis(grid("F o\n. o"), WALLS16, ORIGIN)
    assert an.removable() == [geo.pos(1, 1)]
    closed = an.with_tile(geo.pos(0, 1), 0)
    assert closed is not None and closed._cut is None  # several joins: not decided locally
    cells = grid("F o\no o")
    check(closed, cells, WALLS16)
    # a tile with the same open sides towards its neighbours keeps the paths on foot
    swapped = closed.with_tile(geo.pos(1, 1), geo.EAST | geo.SOUTH)
    assert swapped is not None and swapped._cut is closed._cut
    check(swapped, {**cells, geo.pos(1, 1): geo.EAST | geo.SOUTH}, WALLS16)


def test_no_update_for_the_fountain_or_a_missing_tile() -> None:
    an = geo.CityAnalysis(grid("F o"), WALLS16, ORIGIN)
    assert an.with_tile(ORIGIN, 0) is None
    assert an.without_tile(ORIGIN) is None
    assert an.without_tile(geo.pos(5, 5)) is None


def test_undoing_a_change_gives_back_the_analysis_before_it() -> None:
    an = geo.CityAnalysis(grid("F o"), WALLS16, ORIGIN)
    assert an.spots(0) and an.removable()  # facts learnt before the change are kept
    p = geo.pos(2, 0)
    added = an.with_tile(p, 0)
    assert added is not None and added is not an
    assert added.without_tile(p) is an
    # and the other way again: the change itself is found without a new analysis
    assert an.with_tile(p, 0) is added
    # an exchange is undone by exchanging back
    swapped = an.with_tile(geo.pos(1, 0), geo.SOUTH)
    assert swapped is not None and swapped.cells[geo.pos(1, 0)] == geo.SOUTH
    assert swapped.with_tile(geo.pos(1, 0), 0) is an
    # a removal is undone by building the same tile on the same place
    removed = an.without_tile(geo.pos(1, 0))
    assert removed is not None and removed.cells == grid("F")
    assert removed.with_tile(geo.pos(1, 0), 0) is an
    # only one step each way is kept: an analysis two changes back is not held
    further = an.with_tile(p, 0)
    assert further is not None and further._back is not None and further._back[2] is an and an._back is None
