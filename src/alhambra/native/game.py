"""A game on the native core behind the engine's vocabulary: actions as :class:`Action` values,
the state as a :class:`~alhambra.state.GameState` when asked for.

Action ids are int64 values (bits 0-2 the kind, the rest its arguments); :func:`decode` and
:func:`encode` turn them into the engine's actions and back, so whatever speaks actions (the
research encodings, bots) meets the same values on both engines.
"""

from __future__ import annotations

from typing import Any

from ..actions import (
    Action,
    BuildFromReserve,
    BuyBuilding,
    EndTurn,
    ExchangeTiles,
    MoveToReserve,
    PlaceBuilding,
    TakeMoney,
)
from ..components import CURRENCY_LETTERS
from ..engine import build_components
from ..errors import ConfigError, GameOver, IllegalAction
from ..events import (
    AlhambraRedesigned,
    BuildingBought,
    BuildingPlaced,
    DeckReshuffled,
    DisplayRefilled,
    Event,
    GameEnded,
    GameStarted,
    MarketRefilled,
    MarketTileAwarded,
    MoneyTaken,
    NeutralTilesReceived,
    RoundScored,
    ScoringCardDrawn,
    TurnEnded,
    TurnStarted,
)
from ..state import GameConfig, GameState
from . import core_module, supports

__all__ = ["NativeGame", "core_rules", "decode", "encode", "events_of", "setup_events"]

A_TAKE, A_BUY, A_PLACE, A_BUILD, A_REMOVE, A_EXCHANGE, A_END = range(7)
_G = 64
_ORG = 32
_RESERVE = 4096
_NEUTRAL = 4097
_PAYMENTS = {"all": 0, "exact": 1, "minimal": 2}

_RULES: dict[GameConfig, Any] = {}
_DECODED: dict[tuple[int, int], Action] = {}
_ENCODED: dict[tuple[int, Action], int] = {}
_BY_PLAYERS: dict[int, dict[int, Action]] = {}
"""Decoded actions by player count, then by id (what ``legal_actions`` looks up first)."""


def core_rules(config: GameConfig) -> Any:
    """The native component tables of a configuration (cached; the turn limit does not count)."""
    if not supports(config):
        raise ConfigError("the native core plays Alhambra without modules only")
    key = GameConfig(config.players)
    got = _RULES.get(key)
    if got is None:
        got = _RULES[key] = core_module().CoreRules(key, build_components(key))
    return got


def _money(code: int) -> str:
    return f"{CURRENCY_LETTERS[code // 9]}{code % 9 + 1}"


def _xy(g: int) -> tuple[int, int]:
    return g % _G - _ORG, g // _G - _ORG


def _grid(x: int, y: int) -> int:
    return (y + _ORG) * _G + x + _ORG


def decode(rules: Any, a: int) -> Action:
    """The engine action of a native action id."""
    key = (rules.config.players, a)
    got = _DECODED.get(key)
    if got is not None:
        return got
    kind = a & 7
    code = rules.tile_code
    action: Action
    if kind == A_TAKE:
        action = TakeMoney(tuple(_money((a >> (6 + 6 * i)) & 63) for i in range((a >> 3) & 7)))
    elif kind == A_BUY:
        sq = (a >> 3) & 3
        pay: list[str] = []
        for v in range(9, 0, -1):
            pay += [f"{CURRENCY_LETTERS[sq]}{v}"] * ((a >> (5 + 2 * (v - 1))) & 3)
        action = BuyBuilding(sq + 1, tuple(pay))
    elif kind == A_PLACE:
        g = (a >> 10) & 8191
        target: tuple[int, int] | str = "reserve" if g == _RESERVE else "neutral" if g == _NEUTRAL else _xy(g)
        action = PlaceBuilding(code[(a >> 3) & 127], target)
    elif kind == A_BUILD:
        action = BuildFromReserve(code[(a >> 3) & 127], _xy((a >> 10) & 8191))
    elif kind == A_REMOVE:
        action = MoveToReserve(code[(a >> 3) & 127])
    elif kind == A_EXCHANGE:
        action = ExchangeTiles(code[(a >> 3) & 127], code[(a >> 10) & 127])
    else:
        action = EndTurn()
    _DECODED[key] = action
    _ENCODED[(rules.config.players, action)] = a
    return action


def encode(rules: Any, action: Action) -> int:
    """The native action id of an engine action (``IllegalAction`` for one the core does not know)."""
    key = (rules.config.players, action)
    got = _ENCODED.get(key)
    if got is not None:
        return got
    ids = rules.tile_ids
    money = rules.money_code_ids
    try:
        if isinstance(action, TakeMoney):
            a = A_TAKE | len(action.cards) << 3
            for i, c in enumerate(action.cards):
                a |= money[c] << (6 + 6 * i)
        elif isinstance(action, BuyBuilding):
            a = A_BUY | (action.square - 1) << 3
            for c in action.payment:
                v = money[c] % 9 + 1
                a += 1 << (5 + 2 * (v - 1))
        elif isinstance(action, PlaceBuilding):
            tgt = action.target
            g = _RESERVE if tgt == "reserve" else _NEUTRAL if tgt == "neutral" else _grid(*tgt)
            a = A_PLACE | ids[action.tile] << 3 | g << 10
        elif isinstance(action, BuildFromReserve):
            a = A_BUILD | ids[action.tile] << 3 | _grid(*action.target) << 10
        elif isinstance(action, MoveToReserve):
            a = A_REMOVE | ids[action.tile] << 3
        elif isinstance(action, ExchangeTiles):
            a = A_EXCHANGE | ids[action.reserve_tile] << 3 | ids[action.city_tile] << 10
        elif isinstance(action, EndTurn):
            a = A_END
        else:
            raise IllegalAction(f"{action} is not an action of the base game")
    except (KeyError, TypeError, ValueError):
        raise IllegalAction(f"malformed action {action!r}") from None
    return a


_HOW = ("build", "remove", "exchange")


def events_of(rules: Any, log: list[int]) -> list[Event]:
    """The engine's events of one step from the native core's event log (the records of
    ``native/events.pxi``): the same values, in the same order, as the Python engine's
    ``apply_unchecked`` returns for that step."""
    out: list[Event] = []
    tile = rules.tile_code
    card = rules.card_code
    kinds = rules.components.kinds
    n = rules.config.players
    i = 0
    end = len(log)
    while i < end:
        e = log[i]
        if e == 1:
            out.append(TurnStarted(log[i + 1], log[i + 2]))
            i += 3
        elif e == 2:
            action = decode(rules, log[i + 2])
            assert isinstance(action, TakeMoney)
            out.append(MoneyTaken(log[i + 1], action.cards))
            i += 3
        elif e == 3:
            action = decode(rules, log[i + 5])
            assert isinstance(action, BuyBuilding)
            out.append(BuildingBought(log[i + 1], log[i + 2], tile[log[i + 3]], action.payment, bool(log[i + 4])))
            i += 6
        elif e == 4:
            action = decode(rules, log[i + 3])
            assert isinstance(action, PlaceBuilding)
            out.append(BuildingPlaced(log[i + 1], tile[log[i + 2]], action.target))
            i += 4
        elif e == 5:
            other = log[i + 6]
            other_code = tile[other] if other >= 0 else None
            out.append(AlhambraRedesigned(log[i + 1], _HOW[log[i + 2]], tile[log[i + 3]], log[i + 4], log[i + 5], other_code))
            i += 7
        elif e == 6:
            out.append(TurnEnded(log[i + 1]))
            i += 2
        elif e == 7:
            k = log[i + 1]
            out.append(DisplayRefilled(tuple(log[i + 2 : i + 2 + k]), tuple(card[c] for c in log[i + 2 + k : i + 2 + 2 * k])))
            i += 2 + 2 * k
        elif e == 8:
            k = log[i + 1]
            out.append(MarketRefilled(tuple(log[i + 2 : i + 2 + k]), tuple(tile[t] for t in log[i + 2 + k : i + 2 + 2 * k])))
            i += 2 + 2 * k
        elif e == 9:
            out.append(DeckReshuffled(log[i + 1]))
            i += 2
        elif e == 10:
            out.append(ScoringCardDrawn(log[i + 1]))
            i += 2
        elif e == 11:
            k = log[i + 1]
            out.append(NeutralTilesReceived(tuple(tile[t] for t in log[i + 2 : i + 2 + k])))
            i += 2 + k
        elif e == 12:
            rnd, m = log[i + 1], log[i + 2]
            j = i + 3
            awards = {kind: tuple(log[j + m * k : j + m * (k + 1)]) for k, kind in enumerate(kinds)}
            j += 6 * m
            counts: dict[str, tuple[float, ...]] = {kind: tuple(log[j + m * k : j + m * (k + 1)]) for k, kind in enumerate(kinds)}
            j += 6 * m
            walls = tuple(log[j : j + n])
            points = tuple(log[j + n : j + 2 * n])
            scores = tuple(log[j + 2 * n : j + 3 * n])
            j += 3 * n
            out.append(RoundScored(rnd, awards, counts, walls, points, {}, scores, log[j], log[j + 1]))
            i = j + 2
        elif e == 13:
            out.append(MarketTileAwarded(log[i + 1], log[i + 2], tile[log[i + 3]]))
            i += 4
        elif e == 14:
            scores = tuple(log[i + 2 : i + 2 + n])
            best = max(scores)
            out.append(GameEnded(("finished", "truncated")[log[i + 1] - 1], scores, tuple(s for s, v in enumerate(scores) if v == best)))
            i += 2 + n
        else:  # pragma: no cover - a record this reader does not know
            raise ValueError(f"native core: unknown event record {e}")
    return out


def setup_events(state: GameState) -> list[Event]:
    """The events :func:`alhambra.engine.new_game` returns, from a native game just dealt (its
    state): the starting money is each hand, then the first turn starts."""
    comp = state.components
    start = state.current
    return [
        GameStarted(
            players=state.config.players,
            starting_player=start,
            starting_money=tuple(tuple(comp.card_code[c] for c in p.hand) for p in state.players),
            market=tuple(comp.tile_code[t] for t in state.market),
            display=tuple(comp.card_code[c] for c in state.display),
            neutral_tiles=tuple(comp.tile_code[t] for t in state.neutral or ()),
            modules=state.config.modules,
        ),
        TurnStarted(start, state.turn),
    ]


class NativeGame:
    """One game on the native core, spoken to with engine actions.

    ``legal_actions`` lists what :func:`alhambra.engine.legal_actions` lists, in the same
    order; ``apply`` checks that the action is among them; ``apply_unchecked`` does not.
    ``state()`` gives the Python state (for views, observations and the agreement check)."""

    __slots__ = ("core", "rules")

    def __init__(self, core: Any, rules: Any) -> None:
        self.core = core
        self.rules = rules

    @classmethod
    def new(cls, config: GameConfig, seed: int = 0) -> NativeGame:
        """Deal a game as :func:`alhambra.engine.new_game` deals it."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("the seed must be an int")
        rules = core_rules(config)
        return cls(core_module().Game.new(rules, seed, config), rules)

    @classmethod
    def from_state(cls, state: GameState) -> NativeGame:
        """The native twin of a Python state (``ValueError`` for one it does not model: modules,
        Granada, explicit chance; ``NativeLimit`` for an Alhambra too wide for the native grid)."""
        if not supports(state.config):
            raise ValueError("the native core plays Alhambra without modules only")
        rules = core_rules(state.config)
        return cls(core_module().Game.from_state(rules, state), rules)

    def copy(self) -> NativeGame:
        """An independent copy."""
        return NativeGame(self.core.copy(), self.rules)

    @property
    def to_act(self) -> int | None:
        """The seat the game waits for (None once it is over)."""
        seat: int | None = self.core.to_act
        return seat

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return bool(self.core.is_over)

    @property
    def scores(self) -> list[int]:
        """The scores so far."""
        return list(self.core.scores)

    def legal_ids(self, payments: str = "all") -> list[int]:
        """The legal action ids (``payments`` as for :func:`alhambra.engine.legal_actions`)."""
        ids: list[int] = self.core.legal_ids(_PAYMENTS[payments])
        return ids

    def legal_actions(self, payments: str = "all") -> list[Action]:
        """The legal actions, as the Python engine lists them."""
        rules = self.rules
        known = _BY_PLAYERS.get(rules.config.players)
        if known is None:
            known = _BY_PLAYERS[rules.config.players] = {}
        out = []
        for a in self.core.legal_ids(_PAYMENTS[payments]):
            action = known.get(a)
            if action is None:
                action = known[a] = decode(rules, a)
            out.append(action)
        return out

    def apply_id(self, a: int) -> None:
        """Apply a legal action id in place (unchecked)."""
        self.core.apply_id(a)

    def apply(self, action: Action, events: bool = False) -> list[Event]:
        """Apply an action in place after checking that it is legal now; with ``events`` its
        events (as :meth:`apply_events`), else an empty list."""
        if self.core.is_over:
            raise GameOver("the game is over")
        a = encode(self.rules, action)
        if a not in self.core.legal_ids(0):
            raise IllegalAction(f"{action} is not legal now")
        if events:
            return events_of(self.rules, self.core.apply_id_events(a))
        self.core.apply_id(a)
        return []

    def apply_unchecked(self, action: Action) -> None:
        """Apply a legal action in place without a check."""
        self.core.apply_id(encode(self.rules, action))

    def apply_events(self, action: Action) -> list[Event]:
        """Apply a legal action in place (unchecked) and return its events, equal to those
        :func:`alhambra.engine.apply_unchecked` returns for it."""
        return events_of(self.rules, self.core.apply_id_events(encode(self.rules, action)))

    # ------------------------------------------------------------------ explicit chance
    @property
    def explicit(self) -> bool:
        """True for a game in explicit-chance mode (:mod:`alhambra.chance`; made by
        :meth:`from_state` of such a state: the deal itself is dealt by the Python engine)."""
        return bool(self.core.explicit)

    def decide(self, kind: str, code: str) -> None:
        """:func:`alhambra.chance.decide` on the native game: queue ``code`` as the outcome of
        the next undecided draw of ``kind`` (``card`` or ``tile``)."""
        if kind == "card":
            self.core.decide(1, self.rules.chance_card_index(code))
        elif kind == "tile":
            ids = self.rules.tile_ids
            if code not in ids:
                raise IllegalAction(f"no tile {code!r}")
            self.core.decide(2, ids[code])
        else:
            raise ValueError(f"the native core has no {kind!r} draws")

    def apply_chance(self, action: Action, events: bool = True) -> tuple[str | None, list[Event] | None]:
        """Explicit chance: apply a legal action in place with the decided draws, as
        :func:`alhambra.engine.apply_unchecked` does. Returns ``(None, events)`` when the step
        is done; ``(kind, None)`` when a draw of ``kind`` (``card``, ``tile``) has no decided
        outcome yet (as ``ChanceNeeded``): then this game is spoiled (apply to a copy) and
        :meth:`chance_state` is the game at that draw. ``IllegalAction`` for a decided outcome
        that is not possible."""
        need, log = self.core.apply_id_chance(encode(self.rules, action), events)
        if need == 3:
            raise IllegalAction("a decided chance outcome is not possible")
        if need:
            return ("card", "tile")[need - 1], None
        return None, events_of(self.rules, log) if events else None

    def chance_state(self) -> GameState:
        """The state at the draw that stopped the last :meth:`apply_chance` (for
        :func:`alhambra.chance.chance_outcomes`)."""
        state: GameState = self.core.need_game().to_state()
        return state

    def setup_events(self) -> list[Event]:
        """The events of the deal of a game just made by :meth:`new` (as ``new_game`` returns them)."""
        return setup_events(self.state())

    def state(self) -> GameState:
        """The game as a Python state."""
        state: GameState = self.core.to_state()
        return state

    def playout(self, rng_seed: int, max_actions: int = 100_000) -> int:
        """Play uniformly random actions (a fast generator seeded by ``rng_seed``) to the end;
        returns the number of actions played."""
        played: int = self.core.playout(rng_seed & 0xFFFFFFFFFFFFFFFF, max_actions)
        return played
