"""Property tests: random games for 2-6 players and random Alhambras.

Random choices come from a ``random.Random`` whose seed hypothesis draws, so a failure shrinks
to a (players, seed, choice seed) triple that replays exactly. Runtime is kept to about a
minute in total.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from alhambra import city as geo
from alhambra.actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    PlaceBuilding,
    TakeMoney,
    canonical_cards,
    parse_action,
)
from alhambra.components import CURRENCIES, CURRENCY_LETTERS
from alhambra.engine import action_kinds, apply, apply_unchecked, kind_forms, legal_actions, new_game, winners
from alhambra.errors import IllegalAction
from alhambra.events import AlhambraRedesigned, BuildingBought, Event, GameEnded
from alhambra.policies import kind_random
from alhambra.record import GameRecord, replay
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import ChooseAction, GameConfig, GameState, PlaceTiles
from alhambra.view import view
from tests.helpers import (
    WALLS16,
    check_cities,
    check_conservation,
    layout_of,
    oracle_longest_wall,
    oracle_ok,
    oracle_removable,
    oracle_spots,
    oracle_touching,
)

PLAYERS = st.integers(min_value=2, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MONEY_CODES = [f"{c}{v}" for c in CURRENCY_LETTERS for v in range(1, 10)]


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def events_round_trip(events: list[Event]) -> None:
    for e in events:
        data = json.loads(json.dumps(e.to_dict()))
        assert Event.from_dict(data) == e, e
        assert isinstance(e.describe(), str)


def actions_round_trip(actions: list[Action]) -> None:
    for a in actions:
        assert parse_action(str(a)) == a, a
        assert Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a, a


# ----------------------------------------------------------------- engine vs the oracle
def check_against_oracle(state: GameState, acts: list[Action]) -> None:
    """Placement and redesign actions are exactly those the independent oracle allows."""
    top = state.pending[-1]
    seat = top.seat
    comp = state.components
    layout = layout_of(state, seat)
    walls = comp.tile_walls
    if isinstance(top, PlaceTiles):
        for code in set(top.tiles):
            listed = {a.target for a in acts if isinstance(a, PlaceBuilding) and a.tile == code}
            expected: set[Any] = set(oracle_spots(layout, walls[comp.tile_ids[code]])) | {"reserve"}
            if top.neutral and state.neutral is not None:
                expected.add("neutral")
            assert listed == expected, code
        return
    assert isinstance(top, ChooseAction)
    p = state.players[seat]
    reserve = {comp.tiles[t].code for t in p.reserve}
    by_pos = {geo.xy(q): comp.tiles[t].code for q, t in p.city.items()}
    builds = {(a.tile, a.target) for a in acts if isinstance(a, BuildFromReserve)}
    assert builds == {(c, xy) for c in reserve for xy in oracle_spots(layout, walls[comp.tile_ids[c]])}
    removes = {a.tile for a in acts if isinstance(a, MoveToReserve)}
    assert removes == {by_pos[xy] for xy in oracle_removable(layout)}
    exchanges = {(a.reserve_tile, a.city_tile) for a in acts if isinstance(a, ExchangeTiles)}
    expected_ex = {(r, by_pos[xy]) for r in reserve for xy in layout if xy != (0, 0) and oracle_ok({**layout, xy: walls[comp.tile_ids[r]]})}
    assert exchanges == expected_ex


# -------------------------------------------------------------------- illegal candidates
def candidates(state: GameState, rng: random.Random) -> Iterator[Action]:
    """Random, mostly illegal, actions of every core type."""
    comp = state.components
    top = state.pending[-1]
    p = state.players[top.seat]
    xs = [geo.xy(q)[0] for q in p.city]
    ys = [geo.xy(q)[1] for q in p.city]

    def somewhere() -> tuple[int, int]:
        return rng.randint(min(xs) - 2, max(xs) + 2), rng.randint(min(ys) - 2, max(ys) + 2)

    all_tiles = sorted(comp.tile_ids)
    display = [comp.cards[c].code for c in state.display if c >= 0]
    hand = [comp.cards[c].code for c in p.hand]
    city = [comp.tiles[t].code for t in p.city.values()]
    reserve = [comp.tiles[t].code for t in p.reserve] or all_tiles
    if display:
        yield TakeMoney(canonical_cards(rng.sample(display, rng.randint(1, len(display)))))
    yield TakeMoney(canonical_cards(rng.sample(MONEY_CODES, rng.randint(1, 3))))
    if hand:
        yield BuyBuilding(rng.randint(1, 4), canonical_cards(rng.sample(hand, rng.randint(1, min(4, len(hand))))))
    yield BuyBuilding(rng.choice([0, 5, rng.randint(1, 4)]), canonical_cards(rng.sample(MONEY_CODES, 2)))
    yield EndTurn()
    waiting = list(top.tiles) if isinstance(top, PlaceTiles) else all_tiles
    yield PlaceBuilding(rng.choice(waiting), somewhere())
    yield PlaceBuilding(rng.choice(waiting), rng.choice(["reserve", "neutral"]))
    yield PlaceBuilding(rng.choice(all_tiles), somewhere())
    yield BuildFromReserve(rng.choice(reserve), somewhere())
    yield MoveToReserve(rng.choice([*city, rng.choice(all_tiles)]))
    yield ExchangeTiles(rng.choice(reserve), rng.choice([*city, rng.choice(all_tiles)]))


# ----------------------------------------------------------------------------- the games
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_random_games_keep_every_invariant(players: int, seed: int, choice_seed: int) -> None:
    state, events = new_game(GameConfig(players=players), seed)
    rng = random.Random(choice_seed)
    events_round_trip(events)
    check_conservation(state)
    check_cities(state)
    scores = list(state.scores)
    neutral_score = state.neutral_score
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 3000
        acts = legal_actions(state)
        assert acts, "a running game always offers a legal action"
        assert len(set(acts)) == len(acts), "no action is listed twice"
        assert state.to_act == state.pending[-1].seat
        if isinstance(state.pending[-1], ChooseAction):
            assert state.to_act == state.current
        # generating by kind gives the same actions
        by_kind = [a for kind in action_kinds(state) for a in legal_actions(state, kind)]
        assert sorted(map(str, by_kind)) == sorted(map(str, acts))
        by_form = [a for kind in action_kinds(state) for form in kind_forms(state, kind) for a in legal_actions(state, form)]
        assert sorted(map(str, by_form)) == sorted(map(str, acts))
        actions_round_trip(rng.sample(acts, min(8, len(acts))))
        legal = set(acts)
        before = dumps(state_to_json(state))
        # a few legal actions are accepted; random other actions are refused, never crash
        for a in rng.sample(acts, min(3, len(acts))):
            apply(state, a)
        for a in candidates(state, rng):
            if a in legal:
                apply(state, a)
                continue
            try:
                apply(state, a)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{a} is not in legal_actions but apply accepted it")
        if rng.random() < 0.25:
            check_against_oracle(state, acts)
        assert dumps(state_to_json(state)) == before, "apply changed its input"
        action = rng.choice(acts)
        state, events = apply(state, action, seat=state.to_act)
        events_round_trip(events)
        check_conservation(state)
        check_cities(state)
        assert all(new >= old for new, old in zip(state.scores, scores, strict=True)), "scores never fall"
        assert state.neutral_score >= neutral_score
        scores = list(state.scores)
        neutral_score = state.neutral_score
    assert state.outcome == "finished"
    assert isinstance(events[-1], GameEnded) and events[-1].scores == tuple(state.scores)
    assert state.rounds_scored == len(state.removed) + 1
    assert legal_actions(state) == []


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_state_json_round_trip_and_replay(players: int, seed: int, choice_seed: int) -> None:
    config = GameConfig(players=players)
    state, _ = new_game(config, seed)
    rng = random.Random(choice_seed)
    actions: list[Action] = []
    while not state.is_over:
        data = state_to_json(state)
        if rng.random() < 0.1:
            # continue from the rebuilt state: what follows must not notice
            rebuilt = state_from_json(json.loads(json.dumps(data)))
            assert state_to_json(rebuilt) == data
            assert legal_actions(rebuilt) == legal_actions(state)
            state = rebuilt
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state, _ = apply(state, action)
    final = state_to_json(state)
    assert state_to_json(state_from_json(json.loads(json.dumps(final)))) == final
    record = GameRecord(config, seed, actions)
    again, _ = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert state_to_json(again) == final


def hidden_variant(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """The same game as seen by ``viewer``, with every hidden fact changed where possible."""
    other = state.copy()
    other.seed = state.seed + 1
    rng.shuffle(other.deck)
    rng.shuffle(other.bag)
    comp = state.components
    for seat, p in enumerate(other.players):
        if seat == viewer or not p.hand:
            continue
        money = [i for i, c in enumerate(other.deck) if comp.card_is_money[c]]
        if len(money) < len(p.hand):
            continue
        picked = rng.sample(money, len(p.hand))
        new_hand = [other.deck[i] for i in picked]
        for i, c in zip(picked, p.hand, strict=True):
            other.deck[i] = c
        p.hand = new_hand
    check_conservation(other)
    return other


def assert_end_view_hides_nothing_else(state: GameState, mine: dict[str, Any], other: dict[str, Any]) -> None:
    """Once the game is over the hands are shown (the rules hand out the last market tiles by the
    money held): ``final_money`` tells each seat's money per currency, and nothing else of the
    hidden facts reaches the view."""
    assert state.outcome is not None
    comp = state.components
    assert mine["final_money"] == [
        {
            cur: sum(comp.card_value[c] for c in p.hand if comp.card_is_money[c] and comp.card_currency[c] == i)
            for i, cur in enumerate(CURRENCIES)
        }
        for p in state.players
    ]
    assert dumps({**mine, "final_money": None}) == dumps({**other, "final_money": None})


def walk_keys(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from walk_keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from walk_keys(v)


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_views_leak_nothing(players: int, seed: int, choice_seed: int) -> None:
    state, _ = new_game(GameConfig(players=players), seed)
    rng = random.Random(choice_seed)
    checked = 0
    changed_hands = 0
    while not state.is_over:
        if rng.random() < 0.08:
            for viewer in [*range(players), None]:
                other = hidden_variant(state, -1 if viewer is None else viewer, rng)
                mine = view(state, viewer)
                text = dumps(mine)
                assert text == dumps(view(other, viewer)), viewer
                assert not {"seed", "deck", "bag"} & set(walk_keys(mine))
                checked += 1
            # the hidden facts really were different, and a seat sees its own new hand
            other = hidden_variant(state, -1, rng)
            for seat in range(players):
                if sorted(other.players[seat].hand) != sorted(state.players[seat].hand):
                    changed_hands += 1
                    mine_entry = view(other, seat)["seats"][seat]
                    assert sorted(mine_entry["hand"]) == sorted(other.card_code(c) for c in other.players[seat].hand)
        apply_unchecked(state, rng.choice(legal_actions(state)))
    mine = view(state, 0)
    assert_end_view_hides_nothing_else(state, mine, view(hidden_variant(state, 0, rng), 0))
    assert checked == 0 or changed_hands > 0


def test_many_random_games_quickly() -> None:
    """Breadth: 400 whole games on the fast path (2-6 players, with and without the two
    modules, uniform and kind-random players), checked at the end; together they must reach
    every corner of the flow (reshuffles, final awards, redesigns, ...: 300 games reach the
    rarest, the neutral player's tiles, over a hundred times)."""
    seen: Counter[str] = Counter()
    module_sets: list[tuple[str, ...]] = [(), ("vizier",), ("currency_exchange",), ("currency_exchange", "vizier")]
    for i in range(400):
        players = 2 + i % 5
        seed = 10_000 + i
        config = GameConfig(players=players, modules=module_sets[i % 4])
        state, events = new_game(config, seed)
        rng = random.Random(seed)
        actions: list[Action] = []
        while not state.is_over:
            action = kind_random(state, rng) if i % 3 else rng.choice(legal_actions(state))
            actions.append(action)
            events += apply_unchecked(state, action)
        seen.update(type(e).__name__ for e in events)
        seen.update(e.how for e in events if isinstance(e, AlhambraRedesigned))
        seen.update("exact" for e in events if isinstance(e, BuildingBought) and e.exact)
        check_conservation(state)
        check_cities(state)
        assert state.outcome == "finished" and state.market_exhausted
        assert state.rounds_scored == len(state.removed) + 1
        history = state.score_history
        assert history and list(history[-1]) == state.scores
        for earlier, later in pairwise(history):
            assert all(b >= a for a, b in zip(earlier, later, strict=True))
        assert events[-1] == GameEnded("finished", tuple(state.scores), winners(state))
        if i % 50 == 0:
            again, _ = replay(GameRecord(config, seed, actions))
            assert state_to_json(again) == state_to_json(state)
    for name in (
        "DeckReshuffled",
        "ScoringCardDrawn",
        "NeutralTilesReceived",
        "MarketTileAwarded",
        "build",
        "remove",
        "exchange",
        "exact",
    ):
        assert seen[name] > 0, name


# ---------------------------------------------------------------------- random Alhambras
GROWTH = st.lists(
    st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=15), st.booleans()),
    max_size=30,
)


def grow(steps: list[tuple[int, int, bool]]) -> dict[tuple[int, int], int]:
    """A legal layout grown from the fountain by the oracle (tiles that break a rule are skipped)."""
    layout = {(0, 0): 0}
    for idx, walls, open_tile in steps:
        spots = sorted(oracle_touching(layout))
        p = spots[idx % len(spots)]
        trial = {**layout, p: 0 if open_tile else walls}
        if oracle_ok(trial):
            layout = trial
    return layout


def cells(layout: dict[tuple[int, int], int]) -> dict[int, int]:
    return {geo.pos(x, y): w for (x, y), w in layout.items()}


@settings(max_examples=300, deadline=None)
@given(GROWTH)
def test_building_rules_agree_with_a_simple_oracle(steps: list[tuple[int, int, bool]]) -> None:
    layout = grow(steps)
    c = cells(layout)
    o = geo.ORIGIN
    assert geo.validate_layout(c, WALLS16, o) == []
    an = geo.CityAnalysis(c, WALLS16, o)
    for walls in range(16):
        expected = oracle_spots(layout, walls)
        assert {geo.xy(p) for p in geo.legal_spots(c, WALLS16, walls)} == expected
        assert {geo.xy(p) for p in an.spots(walls)} == expected
        for xy in oracle_touching(layout):
            problem = geo.placement_problem(c, WALLS16, walls, geo.pos(*xy))
            assert (problem is None) == (xy in expected)
            if problem is not None:
                assert geo.validate_layout({**c, geo.pos(*xy): walls}, WALLS16, o) != []
    removable = oracle_removable(layout)
    assert {geo.xy(p) for p in an.removable()} == removable
    for xy in layout:
        if xy == (0, 0):
            continue
        q = geo.pos(*xy)
        assert (geo.removal_problem(c, WALLS16, q, o) is None) == (xy in removable)
        for walls in range(16):
            ok = oracle_ok({**layout, xy: walls})
            assert (geo.exchange_problem(c, WALLS16, q, walls, o) is None) == ok
            assert an.exchange_ok(q, walls) == ok
    assert geo.longest_wall(c, WALLS16) == oracle_longest_wall(layout)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), st.integers(0, 15), max_size=7))
def test_longest_wall_of_any_layout_agrees_with_exhaustive_search(layout: dict[tuple[int, int], int]) -> None:
    # any arrangement, legal or not (physical layouts may be scored too)
    if not layout:
        return
    assert geo.longest_wall(cells(layout), WALLS16) == oracle_longest_wall(layout)
    assert (geo.validate_layout(cells({**layout, (0, 0): 0}), WALLS16, geo.ORIGIN) == []) == oracle_ok({**layout, (0, 0): 0})
