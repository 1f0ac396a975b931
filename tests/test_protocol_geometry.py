"""The geometry protocol (issue 25): walls a module changes (``GameState.walls``,
``engine.set_walls``, ``engine.city_problem``), module actions in the placement step
(``Module.place_actions``, ``engine.place_waiting``) beside the target veto (``target_problem``),
the removal veto of redesigns (``Module.removal_problem``) and the chained wall points
(``Module.wall_points``, ``engine.wall_points``), tested through probe modules registered for
the test only. The real modules (magical buildings, city walls...) are tested in their folders.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from alhambra import city as geo, hooks
from alhambra.actions import Action, MoveToReserve, PlaceBuilding, need_words, register_parser
from alhambra.components import EAST, NORTH, WEST
from alhambra.engine import (
    action_kinds,
    apply,
    apply_unchecked,
    city_problem,
    legal_actions,
    new_game,
    place_waiting,
    redesign_options,
    set_walls,
    wall_points,
)
from alhambra.errors import IllegalAction, IllegalPlacement, WrongPhase
from alhambra.events import Event, RoundScored
from alhambra.hooks import Module, hook_users
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import ChooseAction, GameConfig, GameState, PlaceTiles
from alhambra.testing import build_tiles, check_conservation, score_next_round
from alhambra.view import view


# ---------------------------------------------------------------------------------- probes
@dataclass(frozen=True, slots=True)
class ProbeSeal(Action):
    """Put a waiting tile into the reserve with a north wall added (a probe of place_actions)."""

    module = "zz_seal"
    keyword = "probe seal"
    grammar = ("tile",)
    tile: str


def _parse_seal(words: list[str]) -> Action:
    need_words(words, 1, "probe seal TILE")
    return ProbeSeal(words[0])


register_parser("probe seal", _parse_seal, ProbeSeal)


class SealModule(Module):
    """Waiting tiles go to the reserve only through its own action, which adds a north wall."""

    id = "zz_seal"

    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        return [ProbeSeal(code) for code in sorted(set(pending.tiles))]

    def target_problem(self, state: GameState, seat: int, tile: int, target: str) -> str | None:
        return "sealed first" if target == "reserve" else None

    def check(self, state: GameState, action: Action) -> None:
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, PlaceTiles):
            raise WrongPhase("nothing waits")
        assert isinstance(action, ProbeSeal)
        if action.tile not in top.tiles:
            raise IllegalAction(f"{action.tile} does not wait")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        assert isinstance(action, ProbeSeal)
        t = state.components.tile_ids[action.tile]
        set_walls(state, t, state.walls[t] | NORTH)
        place_waiting(state, action.tile, "reserve", events)


class KeepModule(Module):
    """The tiles in ``kept`` never leave an Alhambra in a redesign."""

    id = "zz_keep"
    kept: ClassVar[set[str]] = set()

    def removal_problem(self, state: GameState, seat: int, tile: int, position: int, incoming: int | None = None) -> str | None:
        return "kept" if state.components.tile_code[tile] in self.kept else None


class DoubleWalls(Module):
    id = "zz_wall_a"

    def wall_points(self, state: GameState, seat: int, round_no: int, points: int) -> int:
        return 2 * points


class PlusOneWall(Module):
    id = "zz_wall_b"

    def wall_points(self, state: GameState, seat: int, round_no: int, points: int) -> int:
        return points + round_no


class NothingModule(Module):
    id = "zz_none"


PROBES = {m.id: m for m in (SealModule(), KeepModule(), DoubleWalls(), PlusOneWall(), NothingModule())}


@pytest.fixture(autouse=True)
def probes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for mid, m in PROBES.items():
        monkeypatch.setitem(hooks._CACHE, mid, m)
    yield
    for key in [k for k in hooks._BY_CONFIG if any(m in PROBES for m in k)]:
        del hooks._BY_CONFIG[key]
    for key in [k for k in hooks._USERS if any(m in PROBES for m in k[0])]:
        del hooks._USERS[key]


def game(*modules: str, players: int = 3, seed: int = 5) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=modules), seed)
    return state


def tile_with(state: GameState, walls: int, exclude: tuple[int, ...] = ()) -> str:
    """A base tile in the bag with exactly these printed walls."""
    comp = state.components
    return next(comp.tile_code[t] for t in state.bag if comp.tile_walls[t] == walls and comp.tiles[t].module is None and t not in exclude)


# ---------------------------------------------------------------------------------- P1: walls in the state
def test_changed_walls_are_what_every_building_rule_and_the_wall_score_read() -> None:
    state = game()
    comp = state.components
    assert state.walls is comp.tile_walls  # nothing changed: the printed walls themselves
    code = tile_with(state, 0)
    build_tiles(state, 0, {(1, 0): code})
    t = comp.tile_ids[code]
    open_tile = tile_with(state, 0, (t,))
    an = state.players[0].analysis(state.walls)
    assert geo.pos(2, 0) in an.spots(0)
    assert geo.longest_wall(state.players[0].city, state.walls) == 0
    set_walls(state, t, EAST)
    assert state.walls is not comp.tile_walls and comp.tile_walls[t] == 0  # the printed walls stay
    # the frontier now needs a west wall east of the tile: a wall-less tile no longer fits there
    assert geo.pos(2, 0) not in state.players[0].analysis(state.walls).spots(0)
    assert geo.placement_problem(state.players[0].city, state.walls, WEST, geo.pos(2, 0)) == "on_foot"  # only across the wall
    assert wall_points(state, 0, 1) == 1
    assert city_problem(state, 0) is None
    # a wall against the fountain's open side breaks the rules: the check says so, with the place
    set_walls(state, t, WEST)
    why = city_problem(state, 0)
    assert why is not None and "both have a wall" in why
    set_walls(state, t, EAST)
    # JSON and the view carry the changed walls, and only them
    assert state.changed_walls() == {code: "e"}
    again = state_from_json(state_to_json(state))
    assert again.walls == state.walls and state_to_json(again) == state_to_json(state)
    assert view(state, 0)["walls"] == {code: "e"}
    assert "walls" not in view(game(), 0) and "walls" not in state_to_json(game())
    assert open_tile != code


def test_placements_and_redesigns_follow_the_changed_walls() -> None:
    state = game(players=2)
    comp = state.components
    seat = state.current
    code = tile_with(state, 0)
    t = comp.tile_ids[code]
    state.bag.remove(t)
    state.players[seat].reserve.append(t)
    set_walls(state, t, NORTH | EAST | WEST)  # only its south side is open now
    builds = {a.target for a in redesign_options(state, seat, "build") if a.tile == code}  # type: ignore[attr-defined]
    assert builds == {(0, -1)}  # north of the fountain only, its open side towards it
    state = apply(state, next(a for a in legal_actions(state, "redesign-build") if a.tile == code))[0]  # type: ignore[attr-defined]
    assert state.players[seat].city[geo.pos(0, -1)] == t
    assert wall_points(state, seat, 1) == 3


# ---------------------------------------------------------------------------------- P2: placement-step actions
def test_module_actions_join_the_placement_step_and_move_the_tile() -> None:
    state = game("zz_seal")
    while not isinstance(state.pending[-1], PlaceTiles):
        acts = legal_actions(state)
        buy = [a for a in acts if type(a).__name__ == "BuyBuilding"]
        state = apply(state, buy[0] if buy else acts[0])[0]
    top = state.pending[-1]
    assert isinstance(top, PlaceTiles)
    code = top.tiles[0]
    acts = legal_actions(state)
    assert ProbeSeal(code) in acts and "zz_seal" in action_kinds(state)
    assert legal_actions(state, "zz_seal") == [ProbeSeal(c) for c in sorted(set(top.tiles))]
    # the target veto: no core "place ... reserve"
    assert PlaceBuilding(code, "reserve") not in acts
    with pytest.raises(IllegalAction, match="sealed first"):
        apply(state, PlaceBuilding(code, "reserve"))
    t = state.components.tile_ids[code]
    after, events = apply(state, ProbeSeal(code))
    assert t in after.players[top.seat].reserve and after.walls[t] & NORTH
    assert any(type(e).__name__ == "BuildingPlaced" for e in events)
    check_conservation(after)
    with pytest.raises(WrongPhase):
        place_waiting(after, "Zz9", "reserve", None)


# ---------------------------------------------------------------------------------- P3: removal veto
def test_a_removal_veto_takes_removals_and_exchanges_off_the_lists_and_is_checked() -> None:
    state = game("zz_keep", players=2)
    comp = state.components
    cheap = tile_with(state, 0)
    dear = tile_with(state, 0, (comp.tile_ids[cheap],))
    KeepModule.kept = {dear}
    seat = state.current
    build_tiles(state, seat, {(1, 0): cheap, (-1, 0): dear})
    spare = next(t for t in state.bag if comp.tile_walls[t] == 0 and comp.tile_code[t] not in (cheap, dear))
    state.bag.remove(spare)
    state.players[seat].reserve.append(spare)
    assert state.pending[-1] == ChooseAction(seat)
    removes = {a.tile for a in redesign_options(state, seat, "remove")}  # type: ignore[attr-defined]
    assert cheap in removes and dear not in removes
    exchanged = {a.city_tile for a in redesign_options(state, seat, "exchange")}  # type: ignore[attr-defined]
    assert cheap in exchanged and dear not in exchanged
    with pytest.raises(IllegalPlacement, match="kept"):
        apply(state, MoveToReserve(dear))
    apply(state, MoveToReserve(cheap))


# ---------------------------------------------------------------------------------- P5: wall points
def test_wall_points_are_chained_in_id_order_into_the_round() -> None:
    state = game("zz_wall_b", "zz_wall_a")
    build_tiles(state, 0, {(1, 0): tile_with(state, NORTH)})
    base = geo.longest_wall(state.players[0].city, state.walls)
    assert base == 1
    assert wall_points(state, 0, 2) == 2 * base + 2  # zz_wall_a doubles, then zz_wall_b adds the round
    assert view(state, 0)["seats"][0]["wall_points"] == 2 * base + 1
    state, events = score_next_round(state)
    rs = next(e for e in events if isinstance(e, RoundScored))
    assert rs.walls[0] == 2 * base + 1 and rs.walls[1] == 1  # seat 1 has no wall: 0 doubled, +1


# ---------------------------------------------------------------------------------- free when unused
def test_the_new_hooks_cost_nothing_when_unused() -> None:
    config = GameConfig(players=3, modules=("zz_none",))
    for hook in ("place_actions", "removal_problem", "wall_points"):
        assert hook_users(config, hook) == ()
    for hook in ("place_actions", "removal_problem", "wall_points"):
        assert any(hook in f.hooks for f in hooks.FACETS)
    plain, _ = new_game(GameConfig(players=3), 11)
    probed, _ = new_game(config, 11)
    rng = random.Random(11)
    while not plain.is_over:
        a, b = legal_actions(plain), legal_actions(probed)
        assert a == b
        pick = a[int(rng.random() * len(a))]
        apply_unchecked(plain, pick)
        apply_unchecked(probed, pick)
        assert plain.walls is plain.components.tile_walls
    assert probed.scores == plain.scores


# ---------------------------------------------------------------------------------- places modules fill
def test_spots_with_filled_places_match_the_rules_place_by_place() -> None:
    """``city.legal_spots_filled`` (the memoised spots, corrected near the filled places) gives
    exactly the places where ``placement_problem_filled`` allows a tile, for random Alhambras
    with random filled places (camps) next to them, every wall mask."""
    rng = random.Random(7)
    gained = lost = 0
    for _ in range(40):
        walls = [rng.randrange(16) if rng.random() < 0.3 else 0 for _ in range(40)]  # compact Alhambras
        walls[0] = 0
        cells = {geo.ORIGIN: 0}
        for t in range(1, rng.randrange(8, 30)):
            spots = geo.legal_spots(cells, walls, walls[t])
            if spots:
                cells[rng.choice(spots)] = t
        free = geo.frontier(cells)
        filled = set(rng.sample(free, len(free) // 2))
        for mask in range(16):
            plain = geo.legal_spots(cells, walls, mask)
            exact = [q for q in free if geo.placement_problem_filled(cells, walls, mask, q, filled) is None]
            assert geo.legal_spots_filled(cells, walls, mask, filled, plain) == exact
            assert geo.legal_spots_filled(cells, walls, mask, ()) == plain
            gained += len(set(exact) - set(plain))
            lost += len(set(plain) - set(exact) - filled)
    assert gained > 10 and lost > 10  # both corrections happen: areas of filled places alone, holes they close
