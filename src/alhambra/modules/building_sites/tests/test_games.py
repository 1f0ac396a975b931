"""Whole games: random legal actions (every action applies, states round-trip, cards, tiles and
site tiles are conserved, replays are exact, views leak nothing) and the random, greedy and MCTS
bots, alone and with the modules Building Sites meets."""

from __future__ import annotations

import json
import logging
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, view
from alhambra.engine import apply_unchecked
from alhambra.hooks import available_modules
from alhambra.modules.building_sites import SiteKeep, check_sites, sites_slice
from alhambra.record import GameRecord
from alhambra.state import GameState
from alhambra.testing import check_conservation, play_random_game
from alhambra.tournament import play_game

from .helpers import ID

ISSUE_14: tuple[str, ...] = ("caravanserai", "change", "diamonds", "exchange_certificates", "treasure_chamber")
"""The other money and purchase modules (built in parallel): every one installed here joins the mixed game."""


def site_use(actions: Sequence[object]) -> Counter[str]:
    """How often a record set up, chose and completed sites."""
    out: Counter[str] = Counter()
    for a in actions:
        text = str(a)
        if text.startswith(("buy site", "vizier buy site")):
            out["setup"] += 1
        elif isinstance(a, SiteKeep):
            out["keep"] += 1
        elif text.startswith("buy fin"):
            out["complete"] += 1
    return out


def hidden_variant(state: GameState, rng: random.Random) -> GameState:
    """The same game with another seat's site tiles, the stack and a drawn pair re-dealt (the
    owner's knowledge aside), with the draw pile, the bag and the seed changed too."""
    sl = sites_slice(state)
    other = state.copy()
    other.seed += 1
    rng.shuffle(other.deck)
    rng.shuffle(other.bag)
    hidden = [s for s in sl.sites if s.currency >= 0 and not s.revealed]
    if not hidden:
        return other
    pool = [*sl.stack, *(s.currency for s in hidden), *sl.drawn]
    rng.shuffle(pool)
    it = iter(pool)
    sites = tuple(replace(s, currency=next(it)) if s in hidden else s for s in sl.sites)
    drawn = tuple(sorted(next(it) for _ in sl.drawn))
    other.mods[ID] = replace(sl, sites=sites, drawn=drawn, stack=tuple(sorted(it)))
    return other


def replay_checking(record: GameRecord, config: GameConfig) -> None:
    """Replay a record checking the sites (and every card and tile) after every action, and that
    a seat's view does not change when only what it may not see changes."""
    state, _ = new_game(record.config, record.seed)
    rng = random.Random(record.seed)
    for i, action in enumerate(record.actions):
        apply_unchecked(state, action)
        check_sites(state)
        check_conservation(state)
        if i % 7 == 0 and not state.is_over:
            other = hidden_variant(state, rng)
            sl = sites_slice(state)
            owners = {s.seat for s in sl.sites if s.currency >= 0 and not s.revealed} | {s.seat for s in sl.sites if s.currency < 0}
            for viewer in [s for s in range(config.players) if s not in owners] + [None]:
                assert json.dumps(view(state, viewer, with_legal_actions=False)) == json.dumps(
                    view(other, viewer, with_legal_actions=False)
                )


@pytest.mark.parametrize(
    ("players", "modules", "seed"),
    [
        (2, (), 202),
        (3, (), 303),
        (4, ("currency_exchange", "vizier"), 404),
        (6, (), 606),
    ],
    ids=["2p", "3p", "4p-with-vizier-and-exchange", "6p"],
)
def test_random_games_with_sites_finish(players: int, modules: tuple[str, ...], seed: int) -> None:
    config = GameConfig(players=players, modules=(ID, *modules))
    game = play_random_game(config, seed=seed, try_every_action=players <= 3)
    assert game.state.outcome == "finished"
    use = site_use(game.record.actions)
    assert use["setup"] > 0 and use["keep"] > 0 and use["complete"] > 0, use
    if "vizier" in modules:
        assert game.actions["vizier buy"] > 0
    replay_checking(game.record, config)


def test_random_games_with_the_other_money_modules() -> None:
    """With every issue-14 module installed here (the others are built in parallel) and the vizier."""
    mods = tuple(m for m in ISSUE_14 if m in available_modules())
    config = GameConfig(players=3, modules=(ID, "vizier", *mods))
    game = play_random_game(config, seed=1414, try_every_action=False, check_every=5)
    assert game.state.outcome == "finished"
    assert site_use(game.record.actions)["setup"] > 0
    replay_checking(game.record, config)


def test_every_legal_action_applies_in_a_short_game() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID, "vizier"), turn_limit=40), seed=7)
    assert game.state.outcome == "truncated" and site_use(game.record.actions)["setup"] > 0


def test_the_vizier_never_sets_up_or_completes_a_site() -> None:
    game = play_random_game(GameConfig(players=3, modules=(ID, "vizier")), seed=31, try_every_action=False)
    state, _ = new_game(game.record.config, game.record.seed)
    windows = 0
    for action in game.record.actions:
        acts = [str(a) for a in legal_actions(state)]
        if any(a.startswith("vizier buy") for a in acts):
            windows += 1
            assert not [a for a in acts if "site" in a or " fin" in a]
        state, _ = apply(state, action, state.to_act)
    assert windows > 0


def test_bots_play_whole_games_and_use_sites(caplog: pytest.LogCaptureFixture) -> None:
    """Random, greedy and MCTS bots finish games with sites without a single fallback; greedy
    and MCTS set up, choose and complete sites."""
    used: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="alhambra.bots"):
        for config, bots, games in (
            (GameConfig(players=2, modules=(ID,)), ["greedy", "random"], 2),
            (GameConfig(players=2, modules=(ID,)), ["greedy", "mcts:easy@iterations=12+seconds=none"], 1),
            (GameConfig(players=3, modules=(ID, "vizier")), ["random", "greedy", "mcts:easy@iterations=6+seconds=none"], 1),
        ):
            for g in range(games):
                result = play_game(config, bots, 5, g)
                assert result.outcome == "finished" and result.fallbacks == 0
                record = GameRecord.from_json(result.record)
                used += site_use(record.actions)
                replay_checking(record, config)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert used["setup"] > 0 and used["keep"] > 0 and used["complete"] > 0, used
