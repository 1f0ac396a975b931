"""Setting up a game: the components of a configuration (:func:`build_components`), the option
check and :func:`new_game` (rulebook "Getting ready to play")."""

from __future__ import annotations

import random

from .. import city as geo
from ..components import (
    CURRENCIES,
    DISPLAY_SIZE,
    FOUNTAIN,
    MARKET_SIZE,
    SCORING_CARDS,
    ComponentSet,
    base_money_cards,
)
from ..errors import ConfigError
from ..events import Event
from ..hooks import load_module, modules_of
from ..rulesets import ruleset
from ..state import STAGE_SETUP, GameConfig, GameState, PlayerState
from .caches import _COMPONENT_CACHE
from .common import _users
from .flow import _advance, _finish_setup, _notify


def build_components(config: GameConfig) -> ComponentSet:
    """Every tile and card of a game with this configuration (cached per configuration).

    The building tiles are the ruleset's (``GameConfig.game``); a two-sided tile has both faces
    here, front then back, paired in ``ComponentSet.twins``."""
    key = GameConfig(config.players, config.modules, options=config.options, game=config.game)
    cached = _COMPONENT_CACHE.get(key)
    if cached is not None:
        return cached
    mods = modules_of(config)
    rules = ruleset(config.game)
    _check_games(config)
    tiles = [FOUNTAIN] * config.players
    twins: list[tuple[int, int]] = []
    for i, front in enumerate(rules.tiles):
        tiles.append(front)
        if rules.backs:
            tiles.append(rules.backs[i])
            twins.append((len(tiles) - 2, len(tiles) - 1))
    cards = base_money_cards(config.players) + list(SCORING_CARDS)
    currencies = list(CURRENCIES)
    for m in mods:
        currencies += m.extra_currencies(config)
    for m in mods:
        tiles += m.extra_tiles(config)
        cards += m.extra_cards(config)
    comp = ComponentSet(tuple(tiles), tuple(cards), tuple(range(config.players)), tuple(currencies), rules, tuple(twins))
    _COMPONENT_CACHE[key] = comp
    return comp


def _check_games(config: GameConfig) -> None:
    """Refuse a module that does not declare the configuration's game (``Module.games``)."""
    for m in modules_of(config):
        if config.game not in m.games:
            title = ruleset(config.game).title
            raise ConfigError(f"the module {m.id!r} cannot be played with {title} (it works with: {', '.join(m.games)})")


def new_game(
    config: GameConfig | None = None,
    seed: int = 0,
    *,
    explicit_chance: bool = False,
    decided: tuple[tuple[str, ...], ...] = ((), ()),
) -> tuple[GameState, list[Event]]:
    """Set up a game (rulebook "Getting ready to play") and return it with its start events.

    With ``explicit_chance`` the deck and the bag have no order: every draw, during setup too,
    takes its outcome from ``decided`` (card codes, tile codes and, optionally third, the
    ``MODULE:ITEM`` outcomes of modules' draws) and then from the state's own queue, raising
    :class:`~alhambra.chance.ChanceNeeded` when none is left (see :mod:`alhambra.chance`).
    """
    config = config or GameConfig()
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("the seed must be an int")
    mods = modules_of(config)
    check_options(config)
    _check_games(config)
    for m in mods:
        m.check_config(config)
    comp = build_components(config)
    n = config.players
    rng = random.Random(seed)
    twin = comp.tile_twin
    bag = [i for i, t in enumerate(comp.tiles) if i >= n and (t.module is None or t.in_bag) and not 0 <= twin[i] < i]
    money = [i for i, c in enumerate(comp.cards) if c.module is None and c.is_money]
    state = GameState(
        config=config,
        components=comp,
        seed=seed,
        deck=money,
        display=[-1] * DISPLAY_SIZE,
        discard=[],
        market=[-1] * MARKET_SIZE,
        bag=bag,
        players=[PlayerState([], {geo.ORIGIN: comp.fountains[s]}, []) for s in range(n)],
        scores=[0] * n,
        neutral=[] if n == 2 else None,
    )
    if explicit_chance:
        state.decided = (tuple(decided[0]), tuple(decided[1]))
        state.module_decided = tuple(decided[2]) if len(decided) > 2 else ()
        state.piles = ((len(money), ()),)
    events: list[Event] = []
    if not explicit_chance:
        rng.shuffle(bag)
    for m in mods:
        m.setup(state, rng)
    if mods:
        asked = [p for m in _users(state, "setup_decisions") for p in m.setup_decisions(state)]
        if asked:  # decisions before the market is filled: the rest of the setup waits for them
            state.stage = STAGE_SETUP
            state.pending.extend(reversed(asked))
            _advance(state, events)
            _notify(state, events)
            return state, events
    _finish_setup(state, rng, events)
    _advance(state, events)
    _notify(state, events)
    return state, events


def check_options(config: GameConfig) -> None:
    """Raise :class:`ConfigError` unless every option of ``config`` is declared by its module
    (``Module.options``) with a value of the declared type (and one of its choices)."""
    for mid, key, value in config.options:
        spec = next((o for o in load_module(mid).options if o.key == key), None)
        if spec is None:
            known = ", ".join(o.key for o in load_module(mid).options) or "none"
            raise ConfigError(f"the module {mid!r} has no option {key!r} (its options: {known})")
        if type(value) is not type(spec.default):
            raise ConfigError(f"option {mid}.{key} takes a {type(spec.default).__name__}, not {value!r}")
        if spec.choices and value not in spec.choices:
            raise ConfigError(f"option {mid}.{key} is one of {', '.join(spec.choices)}, not {value!r}")
