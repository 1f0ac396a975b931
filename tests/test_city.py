"""Geometry of one Alhambra (alhambra.city): building rules, redesign checks, longest wall.

Layouts are drawn as small pictures (see ``tests.helpers.grid``): one token per cell, ``.`` is
empty, ``F`` the fountain at (0, 0), ``o`` a tile without walls, otherwise the tile's walled
sides (``ne`` = walls north and east). x grows east (left to right), y grows south (downwards).
The walls table is ``WALLS16`` (tile id == wall mask).
"""

from __future__ import annotations

import random

import pytest

from alhambra import city as geo
from alhambra.city import RULE_MESSAGES, Violation
from tests.helpers import WALLS16, cells_of, grid, m

W = WALLS16
ORIGIN = geo.ORIGIN


def place(cells: dict[int, int], x: int, y: int, walls: str) -> str | None:
    return geo.placement_problem(cells, W, m(walls), geo.pos(x, y))


def build_in_order(steps: list[tuple[int, int, str]]) -> dict[int, int]:
    """Build tiles one by one from a lone fountain, asserting each step is legal."""
    cells = {ORIGIN: 0}
    for x, y, walls in steps:
        assert place(cells, x, y, walls) is None, (x, y, walls)
        cells[geo.pos(x, y)] = m(walls)
    assert geo.validate_layout(cells, W, ORIGIN) == []
    return cells


# ----------------------------------------------------------------------------- positions
def test_pos_and_xy_round_trip() -> None:
    for x in (-300, -1, 0, 1, 7, 300):
        for y in (-300, -2, 0, 5, 300):
            assert geo.xy(geo.pos(x, y)) == (x, y)
    assert geo.xy(ORIGIN) == (0, 0)
    # east is +1, south is +1 in y
    assert geo.pos(1, 0) - ORIGIN == 1
    assert geo.xy(geo.pos(0, 1)) == (0, 1)


def test_frontier_is_every_empty_side_neighbour() -> None:
    cells = grid(
        """
        F o
        """
    )
    got = {geo.xy(p) for p in geo.frontier(cells)}
    assert got == {(0, -1), (1, -1), (2, 0), (1, 1), (0, 1), (-1, 0)}
    assert geo.frontier(cells) == sorted(geo.frontier(cells))


# ------------------------------------------------------- the "NOT allowed" pictures: placing
def test_wall_joined_to_open_side_is_refused() -> None:
    cells = grid("F")
    # the fountain is open on every side: a tile with a west wall may not touch it from the east
    assert place(cells, 1, 0, "w") == "walls_match"
    assert place(cells, 0, -1, "s") == "walls_match"
    # an open side joined to a wall is just as wrong
    cells = grid("F e")
    assert place(cells, 2, 0, "") == "walls_match"
    assert place(cells, 2, 0, "n") == "walls_match"
    # both walled: fine as far as this rule goes (but see the on-foot rule)
    assert place(cells, 2, 0, "w") == "on_foot"


def test_matching_walls_on_every_side_are_needed() -> None:
    cells = grid(
        """
        F  e
        o  .
        """
    )
    # (1, 1) touches (1, 0) from the south (open) and (0, 1) from the east (open)
    assert place(cells, 1, 1, "") is None
    assert place(cells, 1, 1, "e") is None
    assert place(cells, 1, 1, "n") == "walls_match"
    assert place(cells, 1, 1, "w") == "walls_match"


def test_tower_not_reachable_on_foot_is_refused() -> None:
    # The rulebook picture: the tower touches the Alhambra only by walled sides.
    cells = grid(
        """
        F  s
        e  .
        """
    )
    # (1, 1): its north neighbour has a south wall, its west neighbour an east wall
    assert place(cells, 1, 1, "nw") == "on_foot"
    assert place(cells, 1, 1, "nwe") == "on_foot"
    # one open joined side is enough
    cells2 = grid(
        """
        F  o
        e  .
        """
    )
    assert place(cells2, 1, 1, "w") is None


def test_joined_only_at_a_corner_is_refused() -> None:
    cells = grid("F")
    assert place(cells, 1, 1, "") == "adjacent"
    assert place(cells, -1, -1, "nesw") == "adjacent"
    assert place(cells, 5, 0, "") == "adjacent"


def test_occupied_place_is_refused() -> None:
    cells = grid("F o")
    assert place(cells, 0, 0, "") == "occupied"
    assert place(cells, 1, 0, "") == "occupied"


def test_legal_placements_are_accepted() -> None:
    cells = grid("F")
    for x, y in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        assert place(cells, x, y, "") is None
    # walls facing away from the Alhambra are fine
    assert place(cells, 1, 0, "nes") is None
    assert place(cells, 0, -1, "new") is None
    assert {geo.xy(p) for p in geo.legal_spots(cells, W, m("nes"))} == {(1, 0)}
    assert geo.legal_spots(cells, W, m("nesw")) == []


def test_closing_a_ring_around_an_empty_cell_is_refused() -> None:
    # The "Arcades" picture: a ring of tiles with matching open sides around the empty (1, 1);
    # the tile that would close the ring is refused, everywhere else is still fine.
    cells = build_in_order([(1, 0, ""), (2, 0, ""), (2, 1, ""), (2, 2, ""), (1, 2, "")])
    assert place(cells, 0, 1, "") == "no_holes"
    assert place(cells, 0, 1, "w") == "no_holes"
    assert place(cells, 0, 1, "e") == "no_holes"  # a wall facing the hole does not help
    # the hole cell itself may be filled, and the ring may be continued elsewhere
    assert place(cells, 1, 1, "") is None
    assert place(cells, 0, -1, "") is None
    assert place(cells, 3, 1, "") is None
    # once the would-be hole is filled, the closing tile is legal
    filled = dict(cells)
    filled[geo.pos(1, 1)] = 0
    assert place(filled, 0, 1, "") is None


def test_closing_a_ring_from_another_side_is_refused() -> None:
    # the same ring built the other way round, closed on the east of the empty (1, 1)
    cells = build_in_order([(0, 1, ""), (0, 2, ""), (1, 2, ""), (1, 0, ""), (2, 0, "")])
    assert place(cells, 2, 1, "") == "no_holes"
    # (2, 2) leaves the gap at (2, 1) open: fine
    assert place(cells, 2, 2, "") is None


def test_enclosing_a_two_cell_area_is_refused() -> None:
    # ring around the empty cells (1, 1) and (2, 1)
    cells = build_in_order([(1, 0, ""), (2, 0, ""), (3, 0, ""), (3, 1, ""), (3, 2, ""), (2, 2, ""), (0, 1, ""), (0, 2, "")])
    assert place(cells, 1, 2, "") == "no_holes"
    # filling one of the two cells first does not help: the other is still enclosed
    one = dict(cells)
    one[geo.pos(2, 1)] = 0
    assert geo.validate_layout(one, W, ORIGIN) == []
    assert place(one, 1, 2, "") == "no_holes"
    both = dict(one)
    both[geo.pos(1, 1)] = 0
    assert place(both, 1, 2, "") is None


def test_enclosing_a_large_area_is_refused() -> None:
    # a ring of tiles from the fountain round a 3x2 empty area
    steps = [(x, 0, "") for x in range(1, 5)]
    steps += [(4, y, "") for y in range(1, 4)]
    steps += [(x, 3, "") for x in range(3, -1, -1)]
    steps += [(0, 2, "")]
    cells = build_in_order(steps)
    # empty inside: (1..3, 1..2) -- six cells; (0, 1) would close them in
    assert place(cells, 0, 1, "") == "no_holes"
    assert place(cells, 2, 1, "") is None  # filling inside is fine


def test_filling_a_notch_is_not_a_hole() -> None:
    cells = build_in_order([(1, 0, ""), (2, 0, ""), (0, 1, ""), (2, 1, "")])
    # (1, 1) is a notch open to the south: filling it closes nothing
    assert place(cells, 1, 1, "") is None
    # and the U may grow around it as long as the notch stays open
    assert place(cells, 2, 2, "") is None


def test_hole_detection_ignores_walls() -> None:
    # walls do not matter for holes: an area enclosed by walled tiles is still a hole
    cells = build_in_order([(1, 0, "s"), (2, 0, ""), (2, 1, "w"), (2, 2, ""), (1, 2, "n")])
    assert place(cells, 0, 1, "e") == "no_holes"


# ------------------------------------------------------------------------------- removal
def test_fountain_is_never_removable_or_exchangeable() -> None:
    cells = grid("F o")
    assert geo.removal_problem(cells, W, ORIGIN, ORIGIN) == "fountain"
    assert geo.exchange_problem(cells, W, ORIGIN, 0, ORIGIN) == "fountain"
    an = geo.CityAnalysis(cells, W, ORIGIN)
    assert ORIGIN not in an.removable()
    assert not an.exchange_ok(ORIGIN, 0)


def test_removal_that_disconnects_is_refused() -> None:
    cells = grid("F o o")
    assert geo.removal_problem(cells, W, geo.pos(1, 0), ORIGIN) == "on_foot"
    assert geo.removal_problem(cells, W, geo.pos(2, 0), ORIGIN) is None


def test_removal_that_strands_a_tile_behind_walls_is_refused() -> None:
    # (1, 1) still touches (0, 1) after (1, 0) goes, but only across a back-to-back wall
    cells = grid(
        """
        F  o
        e  w
        """
    )
    assert geo.validate_layout(cells, W, ORIGIN) == []
    assert geo.removal_problem(cells, W, geo.pos(1, 0), ORIGIN) == "on_foot"
    assert geo.removal_problem(cells, W, geo.pos(1, 1), ORIGIN) is None
    assert geo.removal_problem(cells, W, geo.pos(0, 1), ORIGIN) is None


def test_removal_that_creates_a_hole_is_refused() -> None:
    cells = grid(
        """
        o o o o
        o F o o
        o o o o
        """
    )
    assert geo.validate_layout(cells, W, ORIGIN) == []
    # (1, 0) has tiles on all four sides: taking it out leaves an enclosed space
    assert geo.removal_problem(cells, W, geo.pos(1, 0), ORIGIN) == "no_holes"
    # edge and corner tiles may go
    assert geo.removal_problem(cells, W, geo.pos(2, 0), ORIGIN) is None
    assert geo.removal_problem(cells, W, geo.pos(-1, -1), ORIGIN) is None
    an = geo.CityAnalysis(cells, W, ORIGIN)
    assert geo.pos(1, 0) not in an.removable()
    assert geo.pos(2, 0) in an.removable()


def test_removal_of_a_missing_tile_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        geo.removal_problem(grid("F"), W, geo.pos(1, 0), ORIGIN)


# ------------------------------------------------------------------------------ exchange
def test_exchange_must_keep_walls_matching() -> None:
    cells = grid("F o o")
    p = geo.pos(1, 0)
    assert geo.exchange_problem(cells, W, p, m("w"), ORIGIN) == "walls_match"
    assert geo.exchange_problem(cells, W, p, m("e"), ORIGIN) == "walls_match"
    assert geo.exchange_problem(cells, W, p, m("ns"), ORIGIN) is None
    assert geo.exchange_problem(cells, W, p, m(""), ORIGIN) is None
    # at the end of the row, a wall facing outwards is fine
    end = geo.pos(2, 0)
    assert geo.exchange_problem(cells, W, end, m("nes"), ORIGIN) is None
    assert geo.exchange_problem(cells, W, end, m("w"), ORIGIN) == "walls_match"
    an = geo.CityAnalysis(cells, W, ORIGIN)
    assert an.exchange_ok(end, m("nes"))
    assert not an.exchange_ok(end, m("w"))


def test_exchange_keeps_walls_matching_with_walled_neighbours() -> None:
    cells = grid(
        """
        F  o
        e  w
        """
    )
    # (0, 1) has a wall towards (1, 1): its replacement needs one too
    q = geo.pos(0, 1)
    assert geo.exchange_problem(cells, W, q, m("es"), ORIGIN) is None
    assert geo.exchange_problem(cells, W, q, m("s"), ORIGIN) == "walls_match"
    assert geo.exchange_problem(cells, W, q, m("ne"), ORIGIN) == "walls_match"


# ------------------------------------------------------------------------- longest wall
def rulebook_wall_picture() -> dict[int, int]:
    """An Alhambra like the rulebook's wall picture (see test below)."""
    return grid(
        """
        nw  n   ne
        sw  F   e
        .   es  ws
        """
    )


def test_rulebook_wall_of_eight() -> None:
    # Outer wall of 8: (-1,0) south + west, (-1,-1) west + north, (0,-1) north, (1,-1) north +
    # east, (1,0) east. A separate, shorter wall of 2: the south walls of (0,1) and (1,1). The
    # wall between (0,1) (east) and (1,1) (west) is back to back: internal, never counted.
    cells = rulebook_wall_picture()
    assert geo.validate_layout(cells, W, ORIGIN) == []
    segs = set(geo.outer_wall_segments(cells, W))
    internal = ((1, 1), (1, 2))
    assert internal not in segs and (internal[1], internal[0]) not in segs
    assert ((0, 2), (1, 2)) in segs and ((1, 2), (2, 2)) in segs
    assert len(segs) == 10
    assert geo.longest_wall(cells, W) == 8


def test_separate_walls_are_not_added_up() -> None:
    # two separate walls of 4 and 3: the longest counts, not the sum
    cells = grid(
        """
        new .   .
        w   F   e
        .   .   es
        """
    )
    assert geo.validate_layout(cells, W, ORIGIN) == []
    # west wall: (-1,-1) west, north, east + (-1,0) west = 4; east wall: (1,0) east + (1,1) east, south = 3
    assert geo.longest_wall(cells, W) == 4


def test_back_to_back_walls_never_count() -> None:
    cells = grid(
        """
        F  e  w
        """
    )
    # back-to-back walls make (2, 0) unreachable, but longest_wall does not care about legality
    assert geo.outer_wall_segments(cells, W) == []
    assert geo.longest_wall(cells, W) == 0


def test_closed_ring_of_wall_counts_every_segment() -> None:
    cells = grid(
        """
        nw  n   ne
        w   F   e
        sw  s   es
        """
    )
    assert geo.validate_layout(cells, W, ORIGIN) == []
    assert geo.longest_wall(cells, W) == 12
    bigger = grid(
        """
        nw  n   n   ne
        w   F   o   e
        sw  s   s   es
        """
    )
    assert geo.longest_wall(bigger, W) == 14


def test_walls_joined_at_a_corner_are_continuous() -> None:
    # one tile: north and east walls meet at its corner
    assert geo.longest_wall(grid("F ne"), W) == 2
    # north and south walls of one tile do not touch
    assert geo.longest_wall(grid("F ns"), W) == 1
    # two tiles touching only at a corner: the south wall of (1, 0) and the east wall of (0, 1)
    # meet at the corner point (1, 1) around the empty (1, 1) cell: one wall of 2
    cells = grid(
        """
        F  s
        e  .
        """
    )
    assert geo.longest_wall(cells, W) == 2
    # walls that end one cell apart are not joined
    cells = grid(
        """
        F  o  s
        e  .  .
        """
    )
    assert geo.longest_wall(cells, W) == 1


def _longest_trail_by_brute_force(cells: dict[int, int]) -> int:
    """Every trail from every corner point, tried exhaustively (the oracle for small layouts)."""
    segs = [(a, b) for a, b in geo.outer_wall_segments(cells, W)]
    adj: dict[tuple[int, int], list[tuple[int, tuple[int, int]]]] = {}
    for i, (a, b) in enumerate(segs):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    best = 0

    def walk(v: tuple[int, int], used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        for i, u in adj[v]:
            if i not in used:
                walk(u, used | {i})

    for v in adj:
        walk(v, frozenset())
    return best


def test_a_short_branching_wall_does_not_hide_a_longer_ring() -> None:
    # Three tiles touching only at corners (a physical layout, not a legal Alhambra): the walled-in
    # tile is a ring of 4; the other two tiles' 5 walls meet at one corner point and branch there,
    # so their longest trail is only 3. More segments must not win over a longer trail.
    cells = cells_of({(1, 1): "nesw", (0, 0): "nw", (-1, -1): "nes"})
    assert _longest_trail_by_brute_force(cells) == 4
    assert geo.longest_wall(cells, W) == 4


@pytest.mark.parametrize("seed", range(4))
def test_longest_wall_matches_an_exhaustive_search_on_random_layouts(seed: int) -> None:
    import random

    rng = random.Random(seed)
    masks = ["", "n", "e", "s", "w", "ne", "es", "sw", "nw", "ns", "ew", "nes", "esw", "nsw", "new", "nesw"]
    for _ in range(300):
        layout = {(rng.randint(-3, 3), rng.randint(-3, 3)): rng.choice(masks) for _ in range(rng.randint(1, 12))}
        cells = cells_of(layout)
        assert geo.longest_wall(cells, W) == _longest_trail_by_brute_force(cells), layout


def test_longest_wall_through_a_crossing_point() -> None:
    # Two walled-in tiles touching diagonally (not a legal Alhambra, but a physical layout that
    # `alhambra score` may be asked about): the walls form a figure eight through the shared
    # corner, walked end to end without using a segment twice.
    cells = cells_of({(0, 0): "nesw", (1, 1): "nesw"})
    assert geo.longest_wall(cells, W) == 8
    # a closed square with two short arms at the crossing: arm, the whole square, arm
    cells = cells_of({(0, 0): "nesw", (1, 1): "nw"})
    assert geo.longest_wall(cells, W) == 6


def test_no_walls_no_points() -> None:
    assert geo.longest_wall(grid("F o o"), W) == 0
    assert geo.longest_wall(grid("F"), W) == 0


# ----------------------------------------------------------------------- validate_layout
def test_validate_layout_reports_each_rule_with_coordinates() -> None:
    assert geo.validate_layout(grid("F"), W, ORIGIN) == []
    assert geo.validate_layout(rulebook_wall_picture(), W, ORIGIN) == []

    # a walled side against the fountain's open side: the walls do not match, and the tile
    # cannot be entered without crossing that wall
    got = geo.validate_layout(grid("F w"), W, ORIGIN)
    assert got == [Violation("walls_match", 1, 0, RULE_MESSAGES["walls_match"]), Violation("on_foot", 1, 0, RULE_MESSAGES["on_foot"])]

    got = geo.validate_layout(cells_of({(0, 0): 0, (2, 2): 0}), W, ORIGIN)
    assert got == [Violation("adjacent", 2, 2, RULE_MESSAGES["adjacent"])]

    got = geo.validate_layout(grid("F e w"), W, ORIGIN)
    assert got == [Violation("on_foot", 2, 0, RULE_MESSAGES["on_foot"])]

    ring = grid(
        """
        F o o
        o . o
        o o o
        """
    )
    assert geo.validate_layout(ring, W, ORIGIN) == [Violation("no_holes", 1, 1, RULE_MESSAGES["no_holes"])]

    two = grid(
        """
        F o o o
        o . . o
        o o o o
        """
    )
    assert [(v.rule, v.x, v.y) for v in geo.validate_layout(two, W, ORIGIN)] == [("no_holes", 1, 1), ("no_holes", 2, 1)]


def test_validate_layout_reports_several_problems() -> None:
    cells = cells_of({(0, 0): 0, (0, 1): "n", (1, 0): "e", (2, 0): "w", (5, 5): 0})
    got = {(v.rule, v.x, v.y) for v in geo.validate_layout(cells, W, ORIGIN)}
    # (0, 1) has a north wall against the fountain's open south side: it cannot be entered either
    assert got == {("walls_match", 0, 1), ("on_foot", 0, 1), ("on_foot", 2, 0), ("adjacent", 5, 5)}


def test_validate_layout_with_the_fountain_elsewhere() -> None:
    f = geo.pos(3, 3)
    cells = cells_of({(3, 3): 0, (4, 3): "e", (5, 3): "w"})
    assert [(v.rule, v.x, v.y) for v in geo.validate_layout(cells, W, f)] == [("on_foot", 5, 3)]


def test_kind_counts() -> None:
    kinds = ["fountain", "tower", "tower", "garden"]
    cells = {geo.pos(0, 0): 0, geo.pos(1, 0): 1, geo.pos(2, 0): 2, geo.pos(3, 0): 3}
    assert geo.kind_counts(cells, kinds) == {"fountain": 1, "tower": 2, "garden": 1}


def test_a_ring_beside_a_longer_path_and_a_ring_that_wins() -> None:
    # a 3x3 ring of 12 around the fountain, and a separate wall of 1 to the east
    ring = {**grid("nw n ne\nw F e\nsw s es"), geo.pos(3, 0): m("n")}
    assert geo.longest_wall(ring, W) == 12
    # a path of 3 (north, east, south of one tile) beside a ring of 4 (a lone walled tile)
    cells = {ORIGIN: m("nes"), geo.pos(3, 0): m("nesw")}
    assert geo.longest_wall(cells, W) == 4


def test_longest_wall_of_paths_and_rings_is_the_full_search_on_random_layouts() -> None:
    # walls that never branch are walked one component at a time; anything else, and these,
    # must give what the search for the longest trail gives
    rng = random.Random(3)
    walked = 0
    for _ in range(3000):
        size = rng.choice((3, 4, 5))
        cells = {geo.pos(rng.randrange(size), rng.randrange(size)): rng.randrange(16) for _ in range(rng.randint(0, 12))}
        assert geo.longest_wall(cells, W) == geo._longest_wall_search(cells, W), cells
        ways: dict[tuple[int, int], int] = {}
        for a, b in geo.outer_wall_segments(cells, W):
            ways[a] = ways.get(a, 0) + 1
            ways[b] = ways.get(b, 0) + 1
        walked += all(v <= 2 for v in ways.values())
    assert walked > 1000  # most layouts take the walk, so it is what the test checks
