"""Medina: the tiles, the rulebook's penalties (examples and notes), scoring in play (with the
neutral player), buying, placing, redesigning and handing out medinas, persistence and views."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import BuildFromReserve, BuyBuilding, MoveToReserve, PlaceBuilding
from alhambra.components import KINDS, letters_to_walls
from alhambra.events import BuildingBought, BuildingPlaced, GameEnded, MarketTileAwarded, RoundScored
from alhambra.hooks import available_modules, load_module
from alhambra.modules.medina import MEDINA_KIND, MODULE, built, medina_tiles, participants, penalties, round_penalties
from alhambra.state import ChooseAction, PlaceTiles
from alhambra.testing import build_tiles as build, check_conservation, set_hand, take_first

from .helpers import ID, MEDINAS, build_row, fresh, give_neutral, medina_codes, reserve, score_next_round

# the walls of the facts file (shared/data/expansion-facts.md, Medina): 2:W+S 3:E+S 4:N+E
# 5:N+W 6:E 7:W 8:S 9:N 10:none
FACT_WALLS = {2: "ws", 3: "es", 4: "ne", 5: "nw", 6: "e", 7: "w", 8: "s", 9: "n", 10: ""}


# ---------------------------------------------------------------------------------- data
def test_nine_medina_tiles_priced_2_to_10_with_the_walls_of_the_facts_file() -> None:
    tiles = medina_tiles()
    assert [t.code for t in tiles] == list(MEDINAS)
    assert [t.price for t in tiles] == list(range(2, 11))
    assert all(t.kind == MEDINA_KIND == "medina" and t.module == ID and t.in_bag for t in tiles)
    assert MEDINA_KIND not in KINDS  # no building kind: it counts for no majority
    assert {t.price: t.walls for t in tiles} == {p: letters_to_walls(w) for p, w in FACT_WALLS.items()}
    assert ID in available_modules() and load_module(ID) is MODULE
    assert MODULE.component_assumptions == ()  # walls and prices are the facts file's (M), no guess


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_medinas_are_shuffled_into_the_bag_at_setup(players: int) -> None:
    where: dict[str, int] = dict.fromkeys(("bag", "market", "neutral"), 0)
    for seed in range(8):
        state, _ = new_game(GameConfig(players=players, modules=(ID,)), seed)
        check_conservation(state)
        bag, market, neutral = (medina_codes(state, ids) for ids in (state.bag, state.market, state.neutral or []))
        assert sorted(bag + market + neutral, key=MEDINAS.index) == list(MEDINAS)
        assert len(state.bag) + 4 + len(state.neutral or []) == 54 + 9
        assert all(not p.reserve and len(p.city) == 1 for p in state.players)
        where["bag"] += len(bag)
        where["market"] += len(market)
        where["neutral"] += len(neutral)
    assert where["market"] > 0, "medinas come onto the market like buildings"
    if players == 2:
        assert where["neutral"] > 0, "the neutral player's tiles may include medinas"


def test_medina_codes_in_the_notation() -> None:
    assert parse_action("buy 1 b5") == BuyBuilding(1, ("b5",))  # a medina on square 1 is bought like any tile
    for code in MEDINAS:
        for text in (f"place {code} 1,0", f"place {code} reserve", f"place {code.lower()} -1,2"):
            action = parse_action(text)
            assert isinstance(action, PlaceBuilding) and action.tile == code
            assert parse_action(str(action)) == action
    assert parse_action("redesign remove M3es") == MoveToReserve("M3es")


# ---------------------------------------------------------------------------------- the penalties
def test_rulebook_example_two_without_a_medina_split_nine_and_six_third_place_stays() -> None:
    # players A and B have no medina, C and D some: "-11 -11 -3 0" in the 3rd scoring
    assert penalties([0, 0, 2, 3], [0, 0, 5, 8], 3) == [-11, -11, -3, 0]


def test_rulebook_example_a_tie_on_the_count_goes_to_the_dearer_medina() -> None:
    # C has built the fewest and loses 9; A and B have 3 each, A's dearest is 8: A loses 3, B 6
    assert penalties([3, 3, 1], [8, 7, 9], 3) == [-3, -6, -9]
    assert penalties([3, 3, 1, 2], [8, 7, 9, 6], 3) == [0, -3, -9, -6]


def test_rulebook_examples_with_real_alhambras() -> None:
    state = fresh(players=4)
    a, b, c, d = range(4)
    build_row(state, c, ["M2sw", "M5nw"])
    build_row(state, d, ["M3es", "M8s", "M4ne"])
    assert round_penalties(state, 3) == [-11, -11, -3, 0]
    state = fresh(players=3)
    build_row(state, a, ["M2sw", "M5nw", "M8s"])
    build_row(state, b, ["M3es", "M4ne", "M7w"])
    build_row(state, c, ["M10"])
    assert built(state, a) == [2, 5, 8] and built(state, c) == [10]
    assert round_penalties(state, 3) == [-3, -6, -9]
    assert round_penalties(state, 2) == [0, -3, -6]
    assert round_penalties(state, 1) == [0, 0, -3]


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([0, 1, 1], [-4, 0, 0]),  # one without: the place (3) and 1 more
        ([0, 0, 1], [-3, -3, 0]),  # two split 3: 2 each (rounded up), 1 more each
        ([0, 0, 0], [-2, -2, -2]),  # three split 3: 1 each, 1 more each
        ([0, 0, 0, 0, 0, 0], [-2] * 6),
        ([1, 2, 3], [-3, 0, 0]),  # nobody without: only the fewest loses
    ],
)
def test_note_first_scoring_all_without_a_medina_split_three_rounded_up(counts: list[int], expected: list[int]) -> None:
    dearest = [9 - i if c else 0 for i, c in enumerate(counts)]
    assert penalties(counts, dearest, 1) == expected


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([0, 1, 2], [-8, -3, 0]),  # one without: 6 and 2 more; the next fewest 3
        ([0, 0, 1], [-7, -7, 0]),  # two split 6 + 3 = 9: 5 each (rounded up), 2 more each
        ([0, 0, 0, 2], [-5, -5, -5, 0]),  # three split 9: 3 each, 2 more each
        ([0, 0, 0, 0, 0], [-4] * 5),  # five split 9: 2 each (rounded up), 2 more each
        ([1, 2, 3], [-6, -3, 0]),
    ],
)
def test_note_second_scoring_two_or_more_without_split_six_and_three(counts: list[int], expected: list[int]) -> None:
    dearest = [9 - i if c else 0 for i, c in enumerate(counts)]
    assert penalties(counts, dearest, 2) == expected


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([0, 1, 2, 3], [-12, -6, -3, 0]),  # one without: 9 and 3 more
        ([0, 0, 1, 2], [-11, -11, -3, 0]),  # two split 9 + 6 (8 each), the third place stays 3
        ([0, 0, 0, 1], [-9, -9, -9, 0]),  # three split 18: 6 each, 3 more each
        ([0, 0, 0, 0, 1], [-8, -8, -8, -8, 0]),  # four split 18: 5 each (rounded up)
        ([0, 0, 0, 0, 0], [-7] * 5),  # five split 18: 4 each (rounded up)
        ([0] * 6, [-6] * 6),  # six split 18: 3 each
        ([2, 1, 3], [-6, -9, -3]),
    ],
)
def test_note_third_scoring_two_without_split_nine_and_six_three_or_more_split_eighteen(counts: list[int], expected: list[int]) -> None:
    dearest = [9 - i if c else 0 for i, c in enumerate(counts)]
    assert penalties(counts, dearest, 3) == expected


def test_a_tie_on_the_count_the_cheaper_dearest_medina_ranks_as_fewer() -> None:
    assert penalties([1, 1], [4, 9], 2) == [-6, -3]
    assert penalties([1, 1], [9, 4], 2) == [-3, -6]
    assert penalties([2, 2, 2], [5, 10, 7], 3) == [-9, -3, -6]
    # the count comes first: one dear medina ranks below two cheap ones
    assert penalties([1, 2], [10, 3], 1) == [-3, 0]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_penalties_for_every_number_of_participants_follow_the_ranking(players: int) -> None:
    """Random distributions of the nine real medinas: the places are taken from the fewest, the
    penalties sum to the round's table (split shares rounded up), and a participant never loses
    less than one who has more medinas (or as many, with a dearer one)."""
    rng = random.Random(players)
    for _ in range(300):
        owner = [rng.randrange(players + 2) for _ in range(9)]  # players + 2: left in the bag
        rows = [[p for p, o in zip(range(2, 11), owner, strict=True) if o == s] for s in range(players)]
        counts, dearest = [len(r) for r in rows], [max(r, default=0) for r in rows]
        for rnd in (1, 2, 3):
            got = penalties(counts, dearest, rnd)
            assert len(got) == players and all(v <= 0 for v in got)
            extra = (1, 2, 3)[rnd - 1]
            without = [i for i in range(players) if counts[i] == 0]
            table = ((3,), (6, 3), (9, 6, 3))[rnd - 1]
            if without:
                share = -(-sum(table[: len(without)]) // len(without))
                assert {got[i] for i in without} == {-share - extra}
            ranked = sorted(range(players), key=lambda i: (counts[i], dearest[i]))
            for better, worse in itertools.pairwise(ranked):
                assert got[worse] >= got[better]
            with_ = [i for i in ranked if counts[i] > 0]
            for place, i in enumerate(with_, len(without)):
                assert got[i] == -(table[place] if place < len(table) else 0)


# ---------------------------------------------------------------------------------- scoring in play
def check_round(before: list[int], event: RoundScored, scores: list[int]) -> None:
    """A round's points are its majorities, walls and module points; the scores grew by them."""
    n = len(scores)
    for s in range(n):
        kinds = sum(v[s] for v in event.kinds.values())
        assert event.points[s] == kinds + event.walls[s] + sum(v[s] for v in event.extra.values())
        assert scores[s] == before[s] + event.points[s]
    assert list(event.scores) == scores


def test_a_scoring_round_in_play_takes_the_penalties() -> None:
    state = fresh(players=4, seed=5)
    s = state.current
    order = [(s + i) % 4 for i in range(4)]
    build_row(state, order[0], ["M2sw", "M6e"])
    build_row(state, order[1], ["M3es", "A6sw"])
    build_row(state, order[2], ["G10"])  # no medina
    reserve(state, order[3], ["M9n"])  # on the reserve board: not built, does not count
    before = list(state.scores)
    state, r1 = score_next_round(state)
    assert r1.round == 1
    want = [0] * 4
    want[order[2]] = want[order[3]] = -3  # two without: 3 split (2 each) and 1 more each
    assert r1.extra[ID] == tuple(want)
    check_round(before, r1, state.scores)
    check_conservation(state)
    # second round: order[1] builds a second medina; the two seats without still share
    build(state, order[1], {(0, 1): "M4ne"})
    before = list(state.scores)
    state, r2 = score_next_round(state)
    assert r2.round == 2
    want = [0] * 4
    want[order[2]] = want[order[3]] = -7  # 6 + 3 split (5 each), 2 more each
    assert r2.extra[ID] == tuple(want)
    check_round(before, r2, state.scores)


def test_scores_go_below_zero() -> None:
    state = fresh(players=3, seed=2)
    s = state.current
    a, b = (s + 1) % 3, (s + 2) % 3
    build_row(state, a, ["M2sw"])
    build_row(state, b, ["M5nw"])
    state, r1 = score_next_round(state)
    assert r1.extra[ID][s] == -4 and r1.points[s] == -4 + r1.walls[s]
    assert state.scores[s] == r1.walls[s] - 4 < 0
    state, r2 = score_next_round(state)
    assert r2.extra[ID][s] == -8 and r2.extra[ID][a] == -3  # M2 is cheaper than M5
    assert state.scores[s] < -4


def test_two_players_the_neutral_player_ranks_and_his_penalty_is_his() -> None:
    state = fresh(players=2, seed=3)
    s = state.current
    o = 1 - s
    assert participants(state) == [0, 1, -1]
    build_row(state, s, ["M4ne"])
    build_row(state, o, ["M9n"])
    give_neutral(state, ["M2sw", "P2new", "S3esw", "C5nsw"])
    assert built(state, -1) == [2]
    state, r1 = score_next_round(state)
    assert r1.extra[ID] == (0, 0, -3)  # all have one; Dirk's is the cheapest: his place
    assert len(r1.points) == 2 and r1.points[s] == r1.walls[s] + sum(v[s] for v in r1.kinds.values())
    dirk_kinds = sum(v[2] for v in r1.kinds.values())
    assert r1.neutral_points == dirk_kinds - 3 and r1.neutral_score == state.neutral_score == r1.neutral_points


def test_two_players_a_player_and_the_neutral_player_without_medinas_share() -> None:
    state = fresh(players=2, seed=3)
    s = state.current
    o = 1 - s
    build_row(state, o, ["M9n", "M3es"])
    give_neutral(state, ["P2new", "S3esw"])
    state, r1 = score_next_round(state)
    want = [0, 0, -3]
    want[s] = -3  # the player and Dirk split 3 (2 each), 1 more each
    assert r1.extra[ID] == tuple(want)
    assert r1.neutral_points == sum(v[2] for v in r1.kinds.values()) - 3
    give_neutral(state, ["P2new", "S3esw"])  # he drew tiles after the scoring: none of them a medina now
    state, r2 = score_next_round(state)
    want = [0, 0, -7]
    want[s] = -7
    assert r2.extra[ID] == tuple(want)
    assert state.neutral_score == r1.neutral_points + r2.neutral_points


def test_two_players_a_bought_medina_given_to_the_neutral_player_counts_for_him() -> None:
    state = fresh(players=2, seed=3, market=("M8s", "S5sw", "A6sw", "C7sw"))
    s = state.current
    set_hand(state, s, ["b9"])
    state, _ = apply(state, parse_action("buy 1 b9"), s)  # overpaid: the turn's action is over
    assert state.pending[-1] == PlaceTiles(s, ("M8s",), True, "bought")
    assert built(state, -1) == []  # fresh: the neutral player starts without a medina
    state, _ = apply(state, parse_action("place M8s neutral"), s)
    assert built(state, -1) == [8]
    assert view(state, None)["module_views"][ID]["participants"][2] == {"seat": -1, "medinas": ["M8s"]}
    check_conservation(state)


# ---------------------------------------------------------------------------------- buying and building
def test_a_medina_is_bought_on_its_market_square_and_built_like_a_building() -> None:
    state = fresh(players=3, seed=4, market=("M5nw", "S5sw", "A6sw", "C7sw"))
    s = state.current
    set_hand(state, s, ["b5", "g2"])
    state, events = apply(state, parse_action("buy 1 b5"), s)
    assert events == [BuildingBought(s, 1, "M5nw", ("b5",), True)]
    assert state.pending[-1] == ChooseAction(s, 1, ("M5nw",))  # exact: another action
    state, _ = take_first(state)
    assert state.pending[-1] == PlaceTiles(s, ("M5nw",), False, "bought")
    places = {a.target for a in legal_actions(state) if isinstance(a, PlaceBuilding)}
    # walls north and west: it joins the fountain with its open east or south side (west or north of it)
    assert places == {"reserve", (-1, 0), (0, -1)}
    state, events = apply(state, parse_action("place M5nw -1,0"), s)
    assert events[0] == BuildingPlaced(s, "M5nw", (-1, 0))
    assert built(state, s) == [5]
    assert view(state, None)["module_views"][ID]["participants"][s]["medinas"] == ["M5nw"]
    check_conservation(state)


def test_a_medina_is_paid_in_its_square_currency_only() -> None:
    state = fresh(players=3, seed=4, market=("P4es", "M5nw", "A6sw", "C7sw"))
    s = state.current
    set_hand(state, s, ["b5", "g3", "g2"])
    buys = {str(a) for a in legal_actions(state) if str(a).startswith("buy 2")}
    assert buys == {"buy 2 g3+g2"}
    state, events = apply(state, parse_action("buy 2 g3+g2"), s)
    assert events == [BuildingBought(s, 2, "M5nw", ("g3", "g2"), True)]


def test_redesign_a_medina_out_of_the_alhambra_and_back() -> None:
    state = fresh(players=3, seed=6)
    s = state.current
    build(state, s, {(1, 0): "M3es"})
    reserve(state, s, ["M8s"])
    assert MoveToReserve("M3es") in legal_actions(state)
    assert any(isinstance(a, BuildFromReserve) and a.tile == "M8s" for a in legal_actions(state))
    state, _ = apply(state, MoveToReserve("M3es"), s)
    assert built(state, s) == [] and state.components.tile_ids["M3es"] in state.players[s].reserve
    assert view(state, s)["module_views"][ID]["participants"][s]["medinas"] == []
    check_conservation(state)
    state, _ = take_first(state)
    assert state.current != s


def test_a_medina_left_on_the_market_is_handed_out_at_the_end_and_scored_in_round_three() -> None:
    state = fresh(players=3, seed=7, market=("P4es", "M5nw", "A6sw", "C7sw"))
    s = state.current
    a, b = (s + 1) % 3, (s + 2) % 3
    build_row(state, b, ["M2sw", "M3es"])
    state.players[b].reserve.extend(state.bag)  # the bag is empty: the next refill ends the game
    state.bag.clear()
    set_hand(state, s, ["b9"])
    set_hand(state, a, ["g7"])  # the most green money: square 2's medina
    state, events = apply(state, parse_action("buy 1 b9"), s)
    state, events = apply(state, parse_action("place P4es reserve"), s)
    assert MarketTileAwarded(a, 2, "M5nw") in events
    assert state.pending[-1] == PlaceTiles(a, ("M5nw",), False, "final")
    state, events = apply(state, parse_action("place M5nw -1,0"), a)
    final = [e for e in events if isinstance(e, RoundScored)]
    assert len(final) == 1 and final[0].round == 3
    want = [0] * 3
    want[s] = -12  # no medina: 9 and 3 more
    want[a] = -6  # M5 on its own: second fewest
    want[b] = -3  # two built (the medinas on its reserve board do not count): third fewest
    assert final[0].extra[ID] == tuple(want)
    assert isinstance(events[-1], GameEnded) and state.outcome == "finished"
    check_conservation(state)


# ---------------------------------------------------------------------------------- persistence and views
def test_json_round_trip_and_public_views() -> None:
    state = fresh(players=2, seed=8)
    s = state.current
    build_row(state, s, ["M4ne", "M10"])
    reserve(state, 1 - s, ["M7w"])
    give_neutral(state, ["M2sw", "P2new"])
    back = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert state_to_json(back) == state_to_json(state)
    assert legal_actions(back) == legal_actions(state)
    assert ID not in state.mods  # no state slice: the medinas lie in the Alhambras
    views = [view(state, v)["module_views"][ID] for v in (None, 0, 1)]
    assert views[0] == views[1] == views[2]
    got = views[0]
    assert got["participants"] == [
        {"seat": 0, "medinas": ["M4ne", "M10"] if s == 0 else []},
        {"seat": 1, "medinas": ["M4ne", "M10"] if s == 1 else []},
        {"seat": -1, "medinas": ["M2sw"]},
    ]
    assert got["penalties"] == [[3], [6, 3], [9, 6, 3]] and got["without_medina"] == [1, 2, 3]
    assert got["next"] == 1 and got["now"] == round_penalties(state, 1)
    # the player without a built medina (his M7 is on the reserve board) loses 3 and 1 more
    assert got["now"] == [-4 if i == 1 - s else 0 for i in range(2)] + [0]
    assert MODULE.slice_from_view(got, state.config) is None
