"""Bots: they see only a view, rebuild consistent states, play legally, deterministically and
within their budgets, and never crash on a decision they do not know."""

from __future__ import annotations

import json
import logging
import random
from collections import Counter
from typing import Any

import pytest

from alhambra.actions import parse_action
from alhambra.bots import (
    DEFAULT_WEIGHTS,
    LEVELS,
    TUNED_WEIGHTS,
    Budget,
    EventLog,
    GreedyBot,
    MctsBot,
    MctsSettings,
    Observation,
    RandomBot,
    make_bot,
    observe,
)
from alhambra.bots.greedy import canonical_actions, dominated, evaluate, seat_values
from alhambra.bots.repetition import Repetition
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.engine import apply, apply_unchecked, legal_actions, new_game
from alhambra.policies import kind_random
from alhambra.record import GameRecord
from alhambra.state import GameConfig, GameState
from alhambra.testing import check_conservation, set_hand, set_market
from alhambra.view import view

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=3, modules=("currency_exchange", "vizier")),
    GameConfig(players=2, modules=("vizier",)),
    GameConfig(players=4, modules=("currency_exchange",)),
]


def tiny_mcts(iterations: int = 6) -> MctsBot:
    return MctsBot("mcts-test", MctsSettings(iterations=iterations, seconds=None))


def random_positions(config: GameConfig, seed: int, every: int = 7) -> list[tuple[GameState, tuple[dict[str, Any], ...]]]:
    """Positions of one random game (every ``every``-th decision) with the public history so far."""
    rng = random.Random(seed)
    state, events = new_game(config, seed)
    log = EventLog()
    log.extend(events)
    out = []
    k = 0
    while not state.is_over:
        if k % every == 0:
            out.append((state.copy(), tuple(log.dicts)))
        log.extend(apply_unchecked(state, kind_random(state, rng)))
        k += 1
    return out


def json_only(value: Any) -> bool:
    """True if ``value`` is built only of JSON data (no engine object can hide inside)."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list | tuple):
        return all(json_only(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_only(v) for k, v in value.items())
    return False


def play(config: GameConfig, bots: list[Any], seed: int) -> tuple[GameState, GameRecord]:
    """A whole game between bots through the checked ``apply``."""
    state, events = new_game(config, seed)
    log = EventLog()
    log.extend(events)
    record = GameRecord(config, seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(config.players)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        action = bot.choose(observe(state, seat, tuple(log.dicts)), bot.budget, rngs[seat])
        state, evs = apply(state, action, seat)  # raises on an illegal action
        log.extend(evs)
        record.actions.append(action)
    return state, record


# ---------------------------------------------------------------------------------- what a bot sees
def test_an_observation_is_only_the_view_and_public_events() -> None:
    state, events = new_game(GameConfig(players=3), 987654321)
    obs = observe(state, 1, events)
    assert set(Observation.__dataclass_fields__) == {"seat", "view", "events"}
    assert obs.view == view(state, 1)
    assert json_only(obs.view) and json_only(list(obs.events))
    text = json.dumps([obs.view, list(obs.events)])
    assert "987654321" not in text and "seed" not in text
    assert obs.view["seats"][0]["hand"] is None and obs.view["seats"][2]["hand"] is None
    assert [e["type"] for e in obs.events][:2] == ["GameStarted", "TurnStarted"]


def hidden_twin(state: GameState, rng: random.Random) -> GameState:
    """The same public position with other hidden facts: seed, bag order and draw-pile order."""
    twin = state.copy()
    twin.seed = state.seed + 12345
    rng.shuffle(twin.bag)
    rng.shuffle(twin.deck)
    return twin


@pytest.mark.parametrize("config", CONFIGS[:2], ids=["2p", "3p-modules"])
def test_hidden_facts_are_unreachable(config: GameConfig) -> None:
    """Two states that differ only in hidden facts give the same observation, so every bot
    makes the same choice in both; the real states' futures differ."""
    rng = random.Random(1)
    positions = random_positions(config, 11, every=19)
    checked = 0
    for state, events in positions[1:5]:
        seat = state.to_act
        assert seat is not None
        twin = hidden_twin(state, rng)
        assert twin.bag != state.bag or twin.deck != state.deck
        a, b = observe(state, seat, events), observe(twin, seat, events)
        assert a == b
        for bot in (RandomBot(), GreedyBot(), tiny_mcts()):
            first = bot.choose(a, bot.budget, random.Random(3))
            again = (
                type(bot)().choose(b, bot.budget, random.Random(3))
                if not isinstance(bot, MctsBot)
                else tiny_mcts().choose(b, bot.budget, random.Random(3))
            )
            assert first == again
            assert str(first) in a.legal
        checked += 1
    assert checked == 4


# ---------------------------------------------------------------------------------- tracker and sampler
@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-modules", "2p-vizier", "4p-exchange"])
def test_sampled_states_match_the_view_and_conserve_everything(config: GameConfig) -> None:
    rng = random.Random(2)
    trackers = [Tracker() for _ in range(config.players)]
    for state, events in random_positions(config, 3, every=5):
        seat = state.to_act
        assert seat is not None
        obs = observe(state, seat, events)
        sampler = Sampler(obs, trackers[seat])
        # opponents' hands are known exactly from the public history
        for s in range(config.players):
            real = Counter(state.card_code(c) for c in state.players[s].hand)
            assert (+sampler.tracker.hands[s]) == real
        one, two = sampler.sample(rng), sampler.sample(rng)
        for x in (one, two):
            check_conservation(x)
            assert x.seed != state.seed
            seen = view(x, seat)
            real_view = view(state, seat)
            seen["legal_actions"].sort()
            real_view["legal_actions"].sort()
            assert seen == real_view
        if len(state.bag) > 3:
            assert (one.bag, one.deck) != (two.bag, two.deck)


def test_scoring_cards_stay_in_their_piles_until_drawn() -> None:
    """Before any scoring, sampled draw piles hold both scoring cards below the cards drawn so
    far, scoring card 1 above scoring card 2 (piles 2 and 4)."""
    config = GameConfig(players=4)
    state, events = new_game(config, 8)
    obs = observe(state, state.to_act or 0, events)
    sampler = Sampler(obs)
    rng = random.Random(0)
    depths = {"S1": [], "S2": []}
    for _ in range(200):
        deck = sampler.sample(rng).deck
        top_first = [state.card_code(c) for c in reversed(deck)]
        for code in depths:
            depths[code].append(top_first.index(code))
    pile = len(state.deck) // 5
    assert min(depths["S1"]) >= pile - 1 and max(depths["S1"]) <= 2 * pile + 2
    assert min(depths["S2"]) >= 3 * pile - 1 and max(depths["S2"]) <= 4 * pile + 3


# ---------------------------------------------------------------------------------- evaluation and candidates
def test_dominated_overpayments_are_not_candidates() -> None:
    state, _ = new_game(GameConfig(players=2), 4)
    set_market(state, 1, "G8sw")
    set_hand(state, state.current, ["b8", "b6", "b2"])
    acts = legal_actions(state, "buy")
    pays = {str(a) for a in acts if str(a).startswith("buy 1")}
    assert pays == {"buy 1 b8+b6+b2", "buy 1 b8+b6", "buy 1 b8+b2", "buy 1 b8", "buy 1 b6+b2"}
    kept = {str(a) for a in canonical_actions(state, acts) if str(a).startswith("buy 1")}
    assert kept == {"buy 1 b8", "buy 1 b6+b2"}
    assert dominated(state, parse_action("buy 1 b8+b6"))


def test_evaluation_prefers_majorities_and_money() -> None:
    state, _ = new_game(GameConfig(players=2), 4)
    seat = state.current
    base = seat_values(state)[seat]
    richer = state.copy()
    set_hand(richer, seat, [*(richer.card_code(c) for c in richer.players[seat].hand), "y9"])
    assert seat_values(richer)[seat] > base
    built = state.copy()
    t = built.market[0]
    built.market[0] = -1
    walls = built.components.tile_walls
    built.players[seat].build(built.players[seat].analysis(walls).spots(walls[t])[0], t)
    assert evaluate(built, seat) > evaluate(state, seat)


def test_two_player_placements_offer_the_neutral_player() -> None:
    """In a 2-player game a bought tile may go to the neutral player; the bots consider it."""
    state, events = new_game(GameConfig(players=2), 14)
    log = EventLog()
    log.extend(events)
    rng = random.Random(0)
    while not any(str(a).endswith("neutral") for a in legal_actions(state)):
        log.extend(apply_unchecked(state, kind_random(state, rng)))
    obs = observe(state, state.to_act or 0, tuple(log.dicts))
    assert any(a.endswith("neutral") for a in obs.legal)
    assert any(str(a).endswith("neutral") for a in canonical_actions(Sampler(obs).sample(rng)))
    for bot in (GreedyBot(), tiny_mcts(20)):
        assert str(bot.choose(obs, bot.budget, random.Random(1))) in obs.legal


def test_greedy_places_bought_tiles_in_the_alhambra() -> None:
    """Greedy builds what it buys rather than parking it on the reserve board."""
    config = GameConfig(players=2)
    state, record = play(config, [GreedyBot(), GreedyBot()], 21)
    placed = [str(a) for a in record.actions if str(a).startswith("place")]
    to_reserve = [a for a in placed if a.endswith("reserve")]
    assert placed and len(to_reserve) <= len(placed) // 4
    assert all(len(p.city) > 12 for p in state.players)


# ---------------------------------------------------------------------------------- legality and determinism
@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-modules", "2p-vizier", "4p-exchange"])
def test_bots_only_play_legal_actions(config: GameConfig, caplog: pytest.LogCaptureFixture) -> None:
    """Whole games through the checked ``apply`` (an illegal action would raise), without a
    single fallback; every kind of decision of the configuration comes up."""
    kinds: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        for g in range(2):
            lineup: list[Any] = [GreedyBot(), tiny_mcts(4), RandomBot(), GreedyBot()][: config.players]
            if g:
                lineup.reverse()
            state, record = play(config, lineup, 40 + g)
            assert state.outcome == "finished"
            kinds.update(" ".join(str(a).split()[:2]) if str(a).startswith("vizier") else str(a).split()[0] for a in record.actions)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert {"take", "buy", "place"} <= set(kinds)
    if "vizier" in config.modules:
        assert kinds["pass"] + kinds["vizier buy"] > 0


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-modules", "2p-vizier", "4p-exchange"])
def test_bots_answer_odd_positions_of_random_games_legally(config: GameConfig, caplog: pytest.LogCaptureFixture) -> None:
    """Random play reaches positions bots rarely reach themselves (crowded reserves, vizier offers,
    the final distribution): every bot still answers each with one of the view's legal actions."""
    positions = random_positions(config, 77, every=9)
    kinds: set[str] = set()
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        for state, events in positions:
            seat = state.to_act
            assert seat is not None
            obs = observe(state, seat, events)
            kinds.add(obs.view["pending"]["type"])
            for bot in (GreedyBot(), tiny_mcts(3)):
                assert str(bot.choose(obs, bot.budget, random.Random(5))) in obs.legal
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert {"ChooseAction", "PlaceTiles"} <= kinds


def test_the_same_seed_gives_the_same_moves() -> None:
    config = GameConfig(players=2, modules=("vizier",), turn_limit=14)
    first = play(config, [tiny_mcts(10), GreedyBot()], 9)[1]
    again = play(config, [tiny_mcts(10), GreedyBot()], 9)[1]
    assert [str(a) for a in first.actions] == [str(a) for a in again.actions]
    other = play(config, [RandomBot(), RandomBot()], 9)[1]
    assert [str(a) for a in other.actions] == [str(a) for a in play(config, [RandomBot(), RandomBot()], 9)[1].actions]


def test_budgets_are_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seconds budget stops the search when the clock passes it (a fake clock that advances
    10 ms per reading, so the test does not depend on the machine's load); an iteration budget
    gives exactly that many iterations; whichever ends first wins."""
    import alhambra.bots.mcts as mcts
    import alhambra.bots.tree as tree

    state, events = new_game(GameConfig(players=3), 6)
    for _ in range(3):  # a position with a real choice
        events += apply_unchecked(state, legal_actions(state)[0])
    seat = state.to_act
    assert seat is not None
    obs = observe(state, seat, events)
    clock = [100.0]

    class FakeTime:
        @staticmethod
        def perf_counter() -> float:
            clock[0] += 0.01
            return clock[0]

    monkeypatch.setattr(mcts, "time", FakeTime)
    monkeypatch.setattr(tree, "time", FakeTime)  # the search's deadline (tree._grow)
    bot = MctsBot("m", MctsSettings(iterations=None, seconds=0.15))
    start = clock[0]
    bot.choose(obs, Budget(None, 0.15), random.Random(0))
    assert clock[0] - start <= 0.15 + 0.05  # stopped at the first reading past the deadline
    assert 1 < bot.last_iterations < 15  # about one iteration per 10 ms reading
    bot.choose(obs, Budget(25, None), random.Random(0))
    assert bot.last_iterations == 25
    bot.choose(obs, Budget(10_000, 0.05), random.Random(0))
    assert bot.last_iterations < 10_000
    monkeypatch.undo()
    greedy = GreedyBot()
    assert greedy.budget.seconds is None or greedy.budget.seconds <= 0.25  # greedy never searches
    assert str(greedy.choose(obs, greedy.budget, random.Random(0))) in obs.legal


def test_a_time_budget_counts_from_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time spent reading the observation comes out of the search's seconds."""
    import alhambra.bots.mcts as mcts

    state, events = new_game(GameConfig(players=2), 6)
    for _ in range(3):
        events += apply_unchecked(state, legal_actions(state)[0])
    assert state.to_act is not None
    obs = observe(state, state.to_act, events)
    clock = [100.0]

    class FakeTime:
        @staticmethod
        def perf_counter() -> float:
            return clock[0]

    real_base = Sampler.base

    def slow_base(self: Sampler) -> GameState:
        clock[0] += 0.3  # building the sampler "took" 0.3 s
        return real_base(self)

    seen: list[float | None] = []

    def fake_search(sampler: Sampler, settings: MctsSettings, rng: random.Random, weights: Any) -> tuple[dict[str, tuple[int, float]], int]:
        seen.append(settings.seconds)
        return {obs.legal[0]: (1, 0.5)}, 1

    monkeypatch.setattr(mcts, "time", FakeTime)
    monkeypatch.setattr(Sampler, "base", slow_base)
    monkeypatch.setattr(mcts, "search", fake_search)
    bot = MctsBot("m", MctsSettings(iterations=100, seconds=0.5))
    assert str(bot.choose(obs, Budget(100, 0.5), random.Random(0))) == obs.legal[0]
    assert seen == [pytest.approx(0.5 - 0.3 - mcts._ANSWER_RESERVE)]
    bot.choose(obs, Budget(100, None), random.Random(0))
    assert seen[-1] is None


def test_a_failing_decision_falls_back_and_is_logged(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A decision the bots cannot handle (here: the sampler breaks, as it would on a module it
    does not know) still gets a legal action, and the fallback is logged."""
    import alhambra.bots.greedy as greedy_mod
    import alhambra.bots.mcts as mcts_mod

    class Broken:
        def __init__(self, *args: Any) -> None:
            raise KeyError("unknown module pending")

    monkeypatch.setattr(greedy_mod, "Sampler", Broken)
    monkeypatch.setattr(mcts_mod, "Sampler", Broken)
    state, events = new_game(GameConfig(players=2), 3)
    obs = observe(state, state.to_act or 0, events)
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        for bot in (GreedyBot(), tiny_mcts()):
            action = bot.choose(obs, bot.budget, random.Random(0))
            assert str(action) in obs.legal
    assert sum("falls back" in r.getMessage() for r in caplog.records) == 2


# ---------------------------------------------------------------------------------- registry
def test_make_bot_specs_and_levels() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    normal = make_bot("mcts:normal")
    assert isinstance(normal, MctsBot) and normal.settings == LEVELS["normal"]
    assert isinstance(make_bot("mcts"), MctsBot) and make_bot("mcts").budget == normal.budget
    hard = make_bot("mcts:hard@seconds=none+iterations=50", workers=2)
    assert isinstance(hard, MctsBot)
    assert hard.budget == Budget(50, None) and hard.settings.workers == 2
    # hard evaluates with the tuned weights, the other levels and greedy with the defaults
    assert hard.weights == TUNED_WEIGHTS != DEFAULT_WEIGHTS
    assert normal.weights == DEFAULT_WEIGHTS and make_bot("mcts:easy").weights == DEFAULT_WEIGHTS  # type: ignore[attr-defined]
    assert make_bot("greedy").weights == DEFAULT_WEIGHTS  # type: ignore[attr-defined]
    assert MctsBot("m", LEVELS["hard"], DEFAULT_WEIGHTS).weights == DEFAULT_WEIGHTS  # an explicit choice wins
    assert LEVELS["easy"].iterations < LEVELS["normal"].iterations < LEVELS["hard"].iterations  # type: ignore[operator]
    for bad in ("mcts:impossible", "alphazero", "greedy:hard", "mcts@speed=3"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_parallel_search_uses_worker_processes() -> None:
    state, events = new_game(GameConfig(players=2), 12)
    obs = observe(state, state.to_act or 0, events)
    bot = make_bot("mcts:easy@seconds=none+iterations=40", workers=2)
    assert isinstance(bot, MctsBot)
    try:
        action = bot.choose(obs, bot.budget, random.Random(0))
    finally:
        bot.close()
    assert str(action) in obs.legal
    assert bot.last_iterations == 40


# ---------------------------------------------------------------------------------- rewards and sampling
def _ended(scores: list[int]) -> GameState:
    state, _ = new_game(GameConfig(players=len(scores)), 3)
    state.scores = list(scores)
    state.outcome = "finished"
    return state


def test_win_reward_counts_only_winning_and_rank_reward_counts_opponents_beaten() -> None:
    from alhambra.bots.greedy import DEFAULT_WEIGHTS
    from alhambra.bots.tree import _rewards

    win = MctsSettings(reward="win")
    rank = MctsSettings(reward="rank")
    state = _ended([50, 70, 60, 70])
    assert _rewards(state, win, DEFAULT_WEIGHTS) == [0.0, 0.5, 0.0, 0.5]  # two tied winners share
    assert _rewards(state, rank, DEFAULT_WEIGHTS) == pytest.approx([0.0, 2.5 / 3, 1 / 3, 2.5 / 3])
    # before the end both are soft; with two players they agree
    two, _ = new_game(GameConfig(players=2), 9)
    assert _rewards(two, win, DEFAULT_WEIGHTS) == pytest.approx(_rewards(two, rank, DEFAULT_WEIGHTS))
    four, _ = new_game(GameConfig(players=4), 9)
    soft = _rewards(four, win, DEFAULT_WEIGHTS)
    assert all(0.0 < r < 1.0 for r in soft) and sum(soft) <= 1.0 + 1e-9  # chances of beating everyone
    assert MctsSettings().reward == "win"


def _mid_game_sampler(players: int, seed: int = 7) -> Sampler:
    """A sampler for the seat to act after 20 random decisions of a fresh game."""
    state, events = new_game(GameConfig(players=players), seed)
    log = EventLog()
    log.extend(events)
    rng = random.Random(seed)
    for _ in range(20):
        log.extend(apply_unchecked(state, kind_random(state, rng)))
    assert state.to_act is not None
    return Sampler(observe(state, state.to_act, tuple(log.dicts)))


def _opponent_offers(node: Any, me: int, out: list[float]) -> list[float]:
    """For each opponent decision of a search tree: the mean number of candidates offered per
    selection (every child's ``avail`` counts the selections that offered it)."""
    for child in node.children.values():
        kids = list(child.children.values())
        if kids:
            picks = sum(k.visits for k in kids)
            if picks and kids[0].mover != me:
                out.append(sum(k.avail for k in kids) / picks)
            _opponent_offers(child, me, out)
    return out


def test_opponent_widening_narrows_opponents_only_with_three_or_more_players() -> None:
    from alhambra.bots.greedy import DEFAULT_WEIGHTS
    from alhambra.bots.tree import _grow

    plain = MctsSettings(iterations=300, seconds=None)
    narrow = MctsSettings(iterations=300, seconds=None, opponent_pw_c=0.01)
    # with 2 players the setting does nothing: the very same tree
    two = _mid_game_sampler(2)
    a, _ = _grow(two, plain, random.Random(1), DEFAULT_WEIGHTS)
    b, _ = _grow(two, narrow, random.Random(1), DEFAULT_WEIGHTS)
    assert {str(k): (c.visits, c.reward) for k, c in a.children.items()} == {str(k): (c.visits, c.reward) for k, c in b.children.items()}
    # with 4 players every opponent decision offers only its best legal reply by the prior
    four = _mid_game_sampler(4)
    me = four.obs.seat
    wide, _ = _grow(four, plain, random.Random(1), DEFAULT_WEIGHTS)
    tight, _ = _grow(four, narrow, random.Random(1), DEFAULT_WEIGHTS)
    assert max(_opponent_offers(wide, me, [])) > 1
    tight_offers = _opponent_offers(tight, me, [])
    assert tight_offers and all(x == 1 for x in tight_offers)
    # the searching seat's own decisions are still widened as before
    assert len(tight.children) > 1
    bot = make_bot("mcts:normal@opponent_pw_c=0.5")
    assert isinstance(bot, MctsBot) and bot.settings.opponent_pw_c == 0.5


def test_reward_is_a_bot_option() -> None:
    bot = make_bot("mcts:easy@reward=rank")
    assert isinstance(bot, MctsBot) and bot.settings.reward == "rank"
    with pytest.raises(ValueError, match="choose from rank, win"):
        make_bot("mcts:easy@reward=points")


def test_sampled_piles_are_random_on_top_and_complete() -> None:
    from alhambra.bots.tracker import TOP_CARDS, TOP_TILES

    state, events = new_game(GameConfig(players=3), 21)
    sampler = Sampler(observe(state, 0, events))
    rng = random.Random(5)
    tops: Counter[int] = Counter()
    bags: set[tuple[int, ...]] = set()
    for _ in range(300):
        s = sampler.sample(rng)
        code = state.components.card_code
        assert sorted(code[c] for c in s.deck) == sorted(code[c] for c in state.deck)  # same cards (ids of equal cards may differ)
        assert sorted(s.bag) == sorted(state.bag)
        tops[code[s.deck[-1]]] += 1
        bags.add(tuple(s.bag[-TOP_TILES:]))
    # the next card drawn can be any unseen card, roughly uniformly
    assert len(tops) > 0.8 * len({code[c] for c in state.deck}) and max(tops.values()) < 40
    assert len(bags) == 300
    assert TOP_CARDS >= 20 and TOP_TILES >= 12


def test_a_search_shares_the_analysis_of_equal_alhambras_and_nothing_outside() -> None:
    from alhambra import city as geo

    state, _ = new_game(GameConfig(players=2), 4)
    walls = state.components.tile_walls
    a = state.players[0].copy()
    b = state.players[1].copy()
    b.city = dict(a.city)
    b.cached = a.cached = None
    with geo.shared_analyses():
        assert a.analysis(walls) is b.analysis(walls)
        first = a.analysis(walls).spots(0)
    c = state.players[0].copy()
    c.cached = None
    assert c.analysis(walls) is not a.analysis(walls)
    assert c.analysis(walls).spots(0) == first
    # another thread does not see this thread's block; nested blocks end in order
    import threading

    seen: list[bool] = []
    with geo.shared_analyses():
        mine = geo.analysis_of(a.city, walls, geo.ORIGIN)
        with geo.shared_analyses():
            assert geo.analysis_of(a.city, walls, geo.ORIGIN) is not mine  # the inner block has its own
        assert geo.analysis_of(a.city, walls, geo.ORIGIN) is mine
        t = threading.Thread(target=lambda: seen.append(geo.analysis_of(a.city, walls, geo.ORIGIN) is mine))
        t.start()
        t.join()
    assert seen == [False]
    assert geo.analysis_of(a.city, walls, geo.ORIGIN) is not mine


@pytest.mark.parametrize("config", [GameConfig(players=3, modules=("vizier",)), GameConfig(players=4)], ids=["vizier", "base"])
def test_the_sampler_rebuilds_the_whole_pending_stack_and_module_slices(config: GameConfig) -> None:
    deep = 0
    for seed in range(6):
        for state, history in random_positions(config, seed, every=1):
            seat = state.to_act
            if seat is None:
                continue
            v = view(state, seat)
            assert v["pending_stack"] == [p.to_dict() for p in state.pending]
            if len(state.pending) > 1 or (state.mods and seed == 0):
                base = Sampler(observe(state, seat, history)).base()
                assert base.pending == state.pending
                assert base.mods == state.mods
                deep += len(state.pending) > 1
    assert deep > 0  # stacks deeper than one decision were met (final distribution, vizier)


# ---------------------------------------------------------------------------------- redesign cycles
REDESIGN_CYCLE = (
    "buy 1 b9;buy 2 g8;place T9ne 0,-1;place A7es 0,1;buy 3 o6+o3+o2;buy 4 y4;take o8;"
    "place P4es 0,1;place T11n 0,-1;take g7;buy 3 o8;take b9;place G8ne 1,-1;buy 2 g7+g4;"
    "take g5;place T11 -1,-1;buy 1 b9;take b8;place C9s 1,0;buy 2 g5;take g7;place S5sw -1,1;"
    "buy 1 b8;take b3+o2;place G8sw -1,1;buy 2 g7;place A6sw -2,-1;take b3+b1+b1;take y6;"
    "buy 1 b5+b3+b1;take g9;place T9nw -1,0;buy 4 y6;place C5nsw neutral;buy 2 g9;"
    "place T7new reserve;take b6;take o8;buy 1 b6+b2;place C7sw reserve;buy 3 o8+o2;take b4;"
    "place G10n 2,0;take o3+y2;buy 1 b4+b3;place P6n 3,0;take y9;take g3+o1;"
    "redesign exchange C7sw A6sw;buy 2 g3+g3;place A4nes 4,0;buy 4 y9;take o5;place A9 -2,-2;"
    "take y7;redesign build A6sw -3,-2;buy 4 y7;take y8;place C7ne reserve;take o9;"
    "redesign exchange C7ne G8ne;buy 3 o5+o3;place G6esw reserve;take y6;take y5;take b2+y2;"
    "take g8;redesign exchange G8ne A4nes;buy 2 g8+g2;place C9w -1,0;buy 4 y8+y2;take b4+y1;"
    "place G10w 2,1;take y3;buy 1 b4+b2;take g6;place C6es 4,1;buy 4 y5+y3+y2;take o7;"
    "place T10w -3,-3;buy 2 g6;place P5nw reserve;take g4+g1;redesign exchange P5nw T11n;"
    "redesign remove T9ne;redesign exchange T11n P6n;redesign build T9ne -3,-4;"
    "redesign exchange P6n T11n"
).split(";")
"""Seed 84, 2 players: 88 actions of two full-information greedy players. From action 84 on
(counting from 1) both only redesign, and from action 88 on each undoes its own previous
redesign (88 undoes 86, the next would undo 87, and so on for ever): the game would never end."""


def _cycle_state(k: int) -> tuple[GameState, EventLog]:
    state, events = new_game(GameConfig(players=2), 84)
    log = EventLog()
    log.extend(events)
    for text in REDESIGN_CYCLE[:k]:
        state, events = apply(state, parse_action(text), state.to_act)
        log.extend(events)
    return state, log


def _cycle_position(k: int) -> tuple[GameState, Observation]:
    state, log = _cycle_state(k)
    assert state.to_act is not None
    return state, observe(state, state.to_act, tuple(log.dicts))


def test_a_redesign_back_to_an_earlier_layout_is_recognised() -> None:
    _, obs = _cycle_position(83)
    assert not Repetition(obs).earlier  # the turn before took money: no run of redesigns yet
    # seat 2 exchanged P5nw for T11n (action 84), seat 1 removed T9ne from 0,-1 (action 85)
    _, obs = _cycle_position(85)
    rep = Repetition(obs)
    assert [a for a in obs.legal if rep.repeats(parse_action(a))] == ["redesign exchange T11n P5nw"]
    _, obs = _cycle_position(86)
    rep = Repetition(obs)
    assert [a for a in obs.legal if rep.repeats(parse_action(a))] == ["redesign build T9ne 0,-1"]
    assert not rep.repeats(parse_action("redesign build T9ne -3,-4"))  # a new place is progress
    # seat 2, two redesigns later: undoing its last one brings back the layout after action 84
    _, obs = _cycle_position(87)
    rep = Repetition(obs)
    assert len(rep.earlier) == 2
    assert [a for a in obs.legal if rep.repeats(parse_action(a))] == ["redesign exchange P6n T11n"]


def test_any_other_event_ends_the_run_of_redesigns() -> None:
    start, start_log = _cycle_state(86)
    seat = start.to_act
    assert seat is not None
    earlier: dict[str, int] = {}
    for first in ("redesign build T9ne -3,-4", "take o1"):
        log = EventLog()
        log.events = list(start_log.events)
        state, events = apply(start, parse_action(first), seat)
        log.extend(events)
        state, events = apply(state, parse_action(REDESIGN_CYCLE[87]), 1 - seat)  # the other seat redesigns
        log.extend(events)
        assert state.to_act == seat
        earlier[first] = len(Repetition(observe(state, seat, tuple(log.dicts))).earlier)
    assert earlier == {"redesign build T9ne -3,-4": 2, "take o1": 0}  # money taken: the game moved on


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_bots_do_not_redesign_back(bot: str) -> None:
    """At the position where the full-information greedy player undid its redesign, the bots
    choose something else."""
    _, obs = _cycle_position(87)
    player = GreedyBot() if bot == "greedy" else tiny_mcts(60)
    for seed in range(4):
        action = player.choose(obs, player.budget, random.Random(seed))
        assert str(action) in obs.legal
        assert not Repetition(obs).repeats(action)


def test_greedy_self_play_that_never_ended_now_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 90: two greedy bots redesigned back and forth for ever before bots avoided it."""

    def length(limit: int) -> int:
        state, events = new_game(GameConfig(players=2), 90)
        log = EventLog()
        log.extend(events)
        bots = [GreedyBot(), GreedyBot()]
        rngs = [random.Random(f"90/{s}") for s in range(2)]
        n = 0
        while not state.is_over and n < limit:
            seat = state.to_act
            assert seat is not None
            action = bots[seat].choose(observe(state, seat, tuple(log.dicts)), Budget(), rngs[seat])
            state, events = apply(state, action, seat)
            log.extend(events)
            n += 1
        return n if state.is_over else -1

    assert 0 < length(1000) < 400
    monkeypatch.setattr(Repetition, "repeats", lambda self, action: False)
    assert length(1000) == -1  # the cycle the rule breaks


def test_mcts_takes_its_next_choice_when_the_most_visited_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    import alhambra.bots.mcts as mcts_mod

    _, obs = _cycle_position(87)
    back = "redesign exchange P6n T11n"  # undoes the seat's last redesign
    other = next(a for a in obs.legal if a.startswith("take"))
    stats: dict[str, tuple[int, float]] = {}

    def fake_search(*args: object, **kwargs: object) -> tuple[dict[str, tuple[int, float]], int]:
        return dict(stats), 10

    monkeypatch.setattr(mcts_mod, "search", fake_search)
    bot = tiny_mcts(10)
    stats.update({back: (9, 0.6), other: (1, 0.4)})
    assert str(bot.choose(obs, bot.budget, random.Random(0))) == other  # the next most visited
    stats.clear()
    stats[back] = (10, 0.6)  # nothing else was visited: greedy picks among the rest
    action = bot.choose(obs, bot.budget, random.Random(0))
    assert str(action) in obs.legal and str(action) != back
    assert not Repetition(obs).repeats(action)


@pytest.mark.parametrize(
    "config",
    [*CONFIGS, GameConfig(players=3, modules=("bonus_cards", "building_sites")), GameConfig(players=2, modules=("new_score_cards",))],
    ids=str,
)
def test_the_evaluation_caches_give_the_values_of_a_fresh_evaluation(config: GameConfig) -> None:
    """seat_values keeps notes with the analyses, per hand, reserve and standing: evaluated one
    after the other (caches warm, analyses shared as in a search), positions of a random game
    (purchases waiting, reserves, the neutral player, modules' building counts) get exactly the
    values of an evaluation from nothing (caches cleared, analyses recomputed)."""
    from alhambra.bots import greedy
    from alhambra.city import shared_analyses

    states = [s for s, _ in random_positions(config, 11, every=2)]
    assert any(s.pending and type(s.pending[-1]).__name__ != "ChooseAction" for s in states)
    with shared_analyses():
        warm = [seat_values(s) for s in states]
        warm_tuned = [seat_values(s, TUNED_WEIGHTS) for s in states]
    for s, w, wt in zip(states, warm, warm_tuned, strict=True):
        for memo in (greedy._STANDING_MEMO, greedy._MAJORITY_MEMO, greedy._SPARE_MEMO, greedy._HAND_MEMO):
            memo.clear()
        fresh = s.copy()
        for p in fresh.players:
            p.cached = None
        assert seat_values(fresh) == w
        assert seat_values(fresh, TUNED_WEIGHTS) == wt
