"""The greedy bot: one ply deep, with a hand-made evaluation of positions.

:func:`seat_values` estimates, for every seat, the points it will end the game with:

* points already scored;
* **majority standing** per building kind, scored with the rulebook's tie rule for each
  scoring round still to come and weighted by how far away that round is (tiles on the
  reserve board count a third, tiles bought and waiting count fully);
* the **longest outer wall**, once per round still to come;
* **money** by value, worth less as the bag empties, plus **buying power**: what each market
  tile would add to the seat's majorities if the seat can pay for it next turn (more if it
  can pay exactly);
* **room to grow**: the places where future tiles fit (a place that needs a wall accepts
  fewer tiles; a walled-in Alhambra is a dead end);
* **tempo**: another action after an exact payment.

The bot applies every candidate action to a state consistent with what it sees (see
:mod:`alhambra.bots.tracker`) and takes the one whose result is best for it relative to the
others (its value minus the strongest opponent's, blended with the mean). Dominated
overpayments are never candidates (:func:`canonical_actions`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import city as geo
from ..actions import Action, BuyBuilding
from ..components import ComponentSet
from ..engine import apply_unchecked, kind_points, legal_actions
from ..hooks import Module, hook_users, modules_of
from ..rulesets import Ruleset, ruleset
from ..state import ChooseAction, GameState, PlaceTiles
from ..view import table_actions
from .base import Budget, Observation, fallback_action, log
from .repetition import Repetition
from .tracker import Sampler, Tracker

__all__ = [
    "DEFAULT_WEIGHTS",
    "TUNED_WEIGHTS",
    "GreedyBot",
    "Weights",
    "canonical_actions",
    "evaluate",
    "greedy_action",
    "pick_best",
    "seat_values",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable weights of the evaluation (points per unit)."""

    round_weights: tuple[float, float, float] = (1.0, 0.75, 0.55)
    """Weight of the next scoring round, the one after, and the one after that."""
    reserve_share: float = 0.33
    """How much a reserve tile counts compared with a built one."""
    money: float = 0.28
    """Points per coin at the start of the game (fades to ``money_late`` as the bag empties)."""
    money_late: float = 0.06
    buy_power: float = 0.35
    """Share of a market tile's value credited when the seat can pay for it."""
    exact_power: float = 0.25
    """Extra share when the seat can pay exactly."""
    room: float = 1.2
    """Points per place where a typical tile fits (up to ``room_cap`` places)."""
    room_cap: float = 4.0
    tempo: float = 2.0
    """Another action in this turn (after an exact payment)."""
    lead_blend: float = 0.5
    """Relative value: own value minus this share of the best opponent and the rest of the mean."""


DEFAULT_WEIGHTS = Weights()

TUNED_WEIGHTS = Weights(round_weights=(1.0, 0.45, 0.33), money=0.7168, tempo=3.2)
"""Weights tuned by self-play of greedy bots with full information (2 players: coordinate
search, each step kept only if it won at least 52.5% of 1,000 games against the weights
before it). Against ``DEFAULT_WEIGHTS`` they win 67.9% of 2,000 games on fresh deals
(mean margin +12.8). ``mcts:hard`` uses them; see ``docs/bots.md``."""


class _Tables:
    """Facts about the components that the evaluation needs again and again."""

    def __init__(self, comp: ComponentSet) -> None:
        kinds = comp.kinds
        self.rules: Ruleset = comp.ruleset or ruleset()
        self.kinds = kinds
        self.nk = len(kinds)
        self.kind = tuple(kinds.index(t.kind) if t.kind in kinds else -1 for t in comp.tiles)
        # one entry per physical building tile (a two-sided tile counts once, by its front)
        building = [t.walls for i, t in enumerate(comp.tiles) if t.kind in kinds and comp.physical(i) == i]
        # fit[known][need]: share of building tiles that fit a place with these neighbour facts
        self.fit = [[sum(1 for w in building if (w & known) == need) / max(1, len(building)) for need in range(16)] for known in range(16)]
        self.total_tiles = len(building)


_TABLES: dict[int, _Tables] = {}


def _tables(comp: ComponentSet) -> _Tables:
    t = _TABLES.get(id(comp))
    if t is None:
        t = _TABLES[id(comp)] = _Tables(comp)
    return t


def _awards(counts: Sequence[float], points: Sequence[float]) -> list[float]:
    """Majority awards (tie rule) for one kind and round; counts may be fractional."""
    n = len(counts)
    awards = [0.0] * n
    place = 0
    np_ = len(points)
    for c in sorted({c for c in counts if c > 0}, reverse=True):
        if place >= np_:
            break
        tied = [i for i in range(n) if counts[i] == c]
        k = len(tied)
        share = sum(points[place : place + k]) / k
        for i in tied:
            awards[i] = share
        place += k
    return awards


_STANDING_MEMO: dict[tuple[object, ...], tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]] = {}
"""The majority part of :func:`seat_values` for whole standings (every kind at once)."""
_MAJORITY_MEMO: dict[tuple[object, ...], tuple[tuple[float, ...], tuple[float, ...]]] = {}


Points = tuple[tuple[tuple[float, ...], ...], ...]
"""Points for 1st, 2nd ... place per kind index and round (index 0-2)."""

_POINTS_MEMO: dict[tuple[object, ...], tuple[int, Points]] = {}
"""Module scoring tables by the answering modules' slices: (a number naming the table in the
evaluation memos' keys, the table)."""


def _points_table(state: GameState, tables: _Tables) -> tuple[int, Points | None]:
    """The points per kind and round when a module replaces the scoring table
    (``Module.kind_points``, e.g. new score cards), with a number that names it (0: none, the
    ruleset's table). Memoised by the answering modules' state slices (their answer may depend
    on nothing else)."""
    users = hook_users(state.config, "kind_points")
    if not users:
        return 0, None
    key = (id(tables), tuple(state.mods.get(m.id) for m in users))
    got = _POINTS_MEMO.get(key)
    if got is None:
        table = tuple(tuple(tuple(float(v) for v in kind_points(state, r, kind)) for r in (1, 2, 3)) for kind in tables.kinds)
        if len(_POINTS_MEMO) > 10_000:
            _POINTS_MEMO.clear()
        _TABLE_NUMBER[0] += 1
        got = _POINTS_MEMO[key] = (_TABLE_NUMBER[0], table)
    return got


_TABLE_NUMBER = [0]


def _round_points(rules: Ruleset, kind: str, rnd: int, total: float, table: Points | None = None, k: int = 0) -> tuple[float, ...]:
    """Points for 1st, 2nd ... place of ``kind`` (index ``k``) in round ``rnd``: a module's
    table when given, the ruleset's table, or (``multiples_of_total``, Granada) ``rnd*T`` ...
    ``T`` with ``T`` the buildings counted now."""
    if table is not None:
        return table[k][rnd - 1]
    if rules.scoring == "table":
        return tuple(float(v) for v in rules.points[kind][rnd - 1])
    return tuple((rnd - p) * total for p in range(rnd))


def _majority(
    k: int,
    rounds: Sequence[int],
    n: int,
    col: tuple[float, ...],
    col_all: tuple[float, ...],
    weights: Weights,
    tables: _Tables,
    table: Points | None = None,
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For one kind: the weighted points of every row (seats, then the neutral player) over
    the rounds to come, and what one more building would add for each seat."""
    rows = len(col)
    share = weights.reserve_share
    rw = weights.round_weights
    rules = tables.rules
    kind = tables.kinds[k]
    multiples = rules.scoring != "table"
    total = sum(col)
    add = [0.0] * rows
    gain = [0.0] * n
    trial = list(col_all)
    same = col_all == col
    for i, r in enumerate(rounds):
        w = rw[i]
        pts = _round_points(rules, kind, r, total, table, k)
        more = _round_points(rules, kind, r, total + 1) if multiples else pts
        a = _awards(col, pts)
        b = a if same else _awards(col_all, pts)
        for s in range(rows):
            add[s] += w * (a[s] * (1 - share) + b[s] * share)
        if i == 0 or r == 3:
            for s in range(n):
                trial[s] += 1
                gain[s] += w * (_awards(trial, more)[s] - b[s])
                trial[s] -= 1
    return tuple(add), tuple(gain)


def _room(an: geo.CityAnalysis, tables: _Tables) -> float:
    """Sum over empty places touching the Alhambra of the share of tiles that fit there."""
    memo = an.memo
    got = memo.get("bot_room")
    if isinstance(got, float):
        return got
    fit = tables.fit
    total = 0.0
    for _, known, need in an.frontier_info():
        total += fit[known][need]
    memo["bot_room"] = total
    return total


def _wall(an: geo.CityAnalysis) -> int:
    got = an.memo.get("bot_wall")
    if isinstance(got, int):
        return got
    w = geo.longest_wall(an.cells, an.walls)
    an.memo["bot_wall"] = w
    return w


def _kind_counts(an: geo.CityAnalysis, kind_of: Sequence[int], nk: int) -> list[float]:
    """Buildings per kind index in this Alhambra (as floats, cached with the analysis)."""
    got = an.memo.get("bot_counts")
    if isinstance(got, list):
        return got
    row = [0.0] * nk
    for t in an.cells.values():
        k = kind_of[t]
        if k >= 0:
            row[k] += 1
    an.memo["bot_counts"] = row
    return row


def _custom_counts(mods: list[Module]) -> list[Module]:
    return [m for m in mods if type(m).building_counts is not Module.building_counts]


def _seat_facts(an: geo.CityAnalysis, tables: _Tables) -> tuple[tuple[float, ...], int, float]:
    """Buildings per kind, longest outer wall and room of one Alhambra (cached with the analysis)."""
    got = an.memo.get("bot_facts")
    if got is None:
        got = an.memo["bot_facts"] = (tuple(_kind_counts(an, tables.kind, tables.nk)), _wall(an), _room(an, tables))
    return got  # type: ignore[return-value]


_SPARE_MEMO: dict[tuple[object, ...], tuple[float, ...]] = {}
"""Reserve tiles per kind (each counted ``reserve_share``), by reserve and weight."""
_HAND_MEMO: dict[tuple[object, ...], tuple[int, list[int], list[list[int]], dict[tuple[int, int], bool]]] = {}
"""Per hand: its money, its money per currency, its card values per currency, and (filled as
needed) whether it pays a price in a currency exactly (see :func:`seat_values`)."""


def _spare(reserve: list[int], tables: _Tables, share: float) -> tuple[float, ...]:
    key = (tuple(reserve), share, id(tables))
    got = _SPARE_MEMO.get(key)
    if got is None:
        kind_of = tables.kind
        row = [0.0] * tables.nk
        for t in reserve:
            k = kind_of[t]
            if k >= 0:
                row[k] += share
        got = tuple(row)
        if len(_SPARE_MEMO) > 50_000:
            _SPARE_MEMO.clear()
        _SPARE_MEMO[key] = got
    return got


def _hand_money(comp: ComponentSet, hand: list[int]) -> tuple[int, list[int], list[list[int]], dict[tuple[int, int], bool]]:
    """The money facts of a hand (see ``_HAND_MEMO``)."""
    key = (tuple(hand), id(comp))
    got = _HAND_MEMO.get(key)
    if got is None:
        cv = comp.card_value
        cc = comp.card_currency
        cm = comp.card_is_money
        purse = [0] * len(comp.currencies)  # a module's currency (diamonds) after the four
        cards_by_cur: list[list[int]] = [[] for _ in comp.currencies]
        for c in hand:
            if cm[c]:
                purse[cc[c]] += cv[c]
                cards_by_cur[cc[c]].append(cv[c])
        got = (sum(purse), purse, cards_by_cur, {})
        if len(_HAND_MEMO) > 100_000:
            _HAND_MEMO.clear()
        _HAND_MEMO[key] = got
    return got


def seat_values(state: GameState, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Estimated final points of every seat (see the module docstring)."""
    comp = state.components
    tables = _TABLES.get(id(comp)) or _tables(comp)
    kind_of = tables.kind
    config = state.config
    n = config.players
    custom = _custom_counts(modules_of(config)) if config.modules else []
    neutral = state.neutral is not None
    rows = n + (1 if neutral else 0)
    nk = tables.nk
    walls = state.walls
    players = state.players
    facts = [_seat_facts(p.analysis(walls), tables) for p in players]
    share = weights.reserve_share
    zero = (0.0,) * nk
    built = [f[0] for f in facts]  # rows per seat (then the neutral player), as tuples
    spare = [_spare(p.reserve, tables, share) if p.reserve else zero for p in players]
    if neutral:
        row = [0.0] * nk
        for t in state.neutral or ():
            k = kind_of[t]
            if k >= 0:
                row[k] += 1
        built.append(tuple(row))
        spare.append(zero)
    for top in state.pending:  # tiles bought and waiting count as built
        codes = top.bought if isinstance(top, ChooseAction) else top.tiles if isinstance(top, PlaceTiles) else ()
        for code in codes:
            k = kind_of[comp.tile_ids[code]]
            if k >= 0:
                row = list(built[top.seat])
                row[k] += 1
                built[top.seat] = tuple(row)
    if custom:
        for s in range(-1 if neutral else 0, n):
            counts: dict[str, float] = {tables.kinds[k]: int(built[s][k]) for k in range(nk)}
            for m in custom:
                m.building_counts(state, s, counts)
            built[s] = tuple(float(counts.get(k, 0)) for k in tables.kinds)

    left = max(0, 3 - state.rounds_scored) if state.outcome is None else 0
    rw = weights.round_weights
    values = [float(sc) for sc in state.scores] + ([0.0] if neutral else [])
    if not left:
        return values[:n]
    rounds = list(range(3 - left + 1, 4))
    # majority standing, and the value of one more building of each kind per seat
    first = rounds[0]
    number, table = _points_table(state, tables) if config.modules else (0, None)
    wkey = (rw, share, tables.rules.id, number)
    skey = (first, n, tuple(built), tuple(spare), wkey)
    standing = _STANDING_MEMO.get(skey)
    if standing is None:
        cols = tuple(zip(*built, strict=True))
        alls = tuple(zip(*[[b + r for b, r in zip(built[s], spare[s], strict=True)] for s in range(rows)], strict=True))
        totals = [0.0] * rows
        gains: list[tuple[float, ...]] = []
        for k in range(nk):
            col = cols[k]
            col_all = alls[k]
            key = (k, first, n, col, col_all, wkey)
            got = _MAJORITY_MEMO.get(key)
            if got is None:
                got = _majority(k, rounds, n, col, col_all, weights, tables, table)
                if len(_MAJORITY_MEMO) > 200_000:
                    _MAJORITY_MEMO.clear()
                _MAJORITY_MEMO[key] = got
            add, g = got
            for s in range(rows):
                totals[s] += add[s]
            gains.append(g)
        standing = (tuple(totals), tuple(gains))
        if len(_STANDING_MEMO) > 100_000:
            _STANDING_MEMO.clear()
        _STANDING_MEMO[skey] = standing
    totals_ = standing[0]
    for s in range(rows):
        values[s] += totals_[s]
    gain = standing[1]
    wsum = sum(rw[: len(rounds)])
    bag_left = len(state.bag) / max(1, tables.total_tiles)
    money_rate = weights.money_late + (weights.money - weights.money_late) * bag_left
    room_w = weights.room
    room_cap = weights.room_cap
    price = comp.tile_price
    mcur = state.market_currency
    offer = [(mcur[sq], price[t], kind_of[t]) for sq, t in enumerate(state.market) if t >= 0]
    buy_power = weights.buy_power
    exact_share = buy_power + weights.exact_power
    for s in range(n):
        _, wall, room = facts[s]
        v = values[s] + wsum * wall
        v += room_w * min(room_cap, room) * bag_left
        money, purse, cards_by_cur, exact = _hand_money(comp, players[s].hand)
        v += money_rate * money
        best = 0.0
        rest = 0.0
        for cur, pr, k in offer:
            if purse[cur] < pr:
                continue
            ex = exact.get((cur, pr))
            if ex is None:
                ex = exact[(cur, pr)] = _exact(cards_by_cur[cur], pr)
            x = ((gain[k][s] if k >= 0 else 0.0) + 1.0) * (exact_share if ex else buy_power)
            if x > best:
                rest += best
                best = x
            else:
                rest += x
        values[s] = v + (best + 0.3 * rest)
    last = state.pending[-1] if state.pending else None
    if isinstance(last, ChooseAction) and last.actions > 0:
        values[last.seat] += weights.tempo
    if config.modules:
        for m in hook_users(config, "bot_values"):
            extra = m.bot_values(state)
            if extra is not None:
                for s in range(n):
                    values[s] += extra[s]
    return values[:n]


def _exact(values: list[int], price: int) -> bool:
    """Can some of these card values add up to exactly ``price``? (subset sum, small sets)"""
    reach = 1
    mask = (1 << (price + 1)) - 1
    for v in values:
        reach |= (reach << v) & mask
    return bool(reach >> price & 1)


def relative(values: Sequence[float], seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """A seat's value relative to the others: own value minus a blend of the best and the mean opponent."""
    others = [v for s, v in enumerate(values) if s != seat]
    if not others:
        return values[seat]
    return values[seat] - weights.lead_blend * max(others) - (1 - weights.lead_blend) * sum(others) / len(others)


def evaluate(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good ``state`` is for ``seat`` (relative estimated points)."""
    if state.outcome is not None:
        return relative([float(v) for v in state.scores], seat, weights)
    return relative(seat_values(state, weights), seat, weights)


# ---------------------------------------------------------------------------------- candidates
def _payment_parts(action: Action) -> tuple[int, tuple[str, ...]] | None:
    """``(square, payment)`` of a purchase action (core or module), else None."""
    square = getattr(action, "square", None)
    payment = getattr(action, "payment", None)
    if isinstance(square, int) and isinstance(payment, tuple):
        return square, payment
    return None


def dominated(state: GameState, action: Action) -> bool:
    """True for a purchase that pays more than it must: a money card could be left out and the
    rest would still pay the price, or a special card is spent although plain money of the
    square's currency pays."""
    parts = _payment_parts(action)
    if parts is None:
        return False
    square, payment = parts
    comp = state.components
    t = state.market[square - 1] if 1 <= square <= len(state.market) else -1
    if t < 0:
        return False
    price = comp.tile_price[t]
    cur = state.market_currency[square - 1]
    faces = _money_faces(comp)
    values: list[int] = []
    special = False
    foreign = False
    for code in payment:
        face = faces.get(code)
        if face is None and state.to_act is not None:  # money held outside the hand (a coin, a marker)
            face = _source_faces(state, state.to_act).get(code)
        if face is not None:
            values.append(face[0])
            if face[1] != cur:
                foreign = True
        else:
            special = True
    total = sum(values)
    if values and total - min(values) >= price:
        return True
    return special and not foreign


_FACES: dict[int, dict[str, tuple[int, int]]] = {}


def _source_faces(state: GameState, seat: int) -> dict[str, tuple[int, int]]:
    """Value and currency of the money ``seat`` holds outside the hand, by token."""
    if not state.config.modules:
        return {}
    return {src.token: (src.value, src.currency) for m in hook_users(state.config, "money_sources") for src in m.money_sources(state, seat)}


def _money_faces(comp: ComponentSet) -> dict[str, tuple[int, int]]:
    """Value and currency of every money card by code, modules' money cards (``mb3``...) included."""
    got = _FACES.get(id(comp))
    if got is None:
        got = _FACES[id(comp)] = {c.code: (c.value, c.currency) for c in comp.cards if c.is_money}
    return got


_PAYS: dict[type, bool] = {}
"""Per action class: can it carry a purchase (``square`` and ``payment`` fields)?"""
_DOMINATED: dict[tuple[Action, int, int], bool] = {}


def canonical_actions(state: GameState, actions: Sequence[Action] | None = None) -> list[Action]:
    """The legal actions without dominated overpayments (see :func:`dominated`).

    Without ``actions``, the engine lists the purchases with ``payments="minimal"`` (the
    payments from which no money card could be left out) instead of every overpayment, when no
    module adds other ways to pay: the same list, without enumerating what is thrown away."""
    minimal = False
    if actions is None:
        config = state.config
        minimal = not config.modules or not (hook_users(config, "payment_options") or hook_users(config, "money_sources"))
        acts: Sequence[Action] = legal_actions(state, payments="minimal") if minimal else legal_actions(state)
    else:
        acts = actions
    if minimal:  # the usual case: nothing to leave out unless an action of another kind pays
        pays_of = _PAYS.get
        for a in acts:
            tp = type(a)
            if tp is not BuyBuilding and pays_of(tp) is not False:
                break
        else:
            return list(acts)
    out = []
    market = state.market
    price = state.components.tile_price
    sources = bool(state.config.modules) and bool(hook_users(state.config, "money_sources"))
    faces = _money_faces(state.components)
    for a in acts:
        tp = type(a)
        if minimal and tp is BuyBuilding:
            out.append(a)  # generated without dominated payments
            continue
        pays = _PAYS.get(tp)
        if pays is None:
            names = {f.name for f in dataclasses.fields(tp)} if dataclasses.is_dataclass(tp) else {"square", "payment"}
            pays = _PAYS[tp] = {"square", "payment"} <= names
        if pays and sources and any(c not in faces for c in getattr(a, "payment", ())):
            if dominated(state, a):  # a token's value changes: never memoised
                continue
        elif pays:
            sq = getattr(a, "square", 0)
            t = market[sq - 1] if isinstance(sq, int) and 1 <= sq <= len(market) else -1
            key = (a, price[t] if t >= 0 else -1, state.market_currency[sq - 1] if t >= 0 else -1)
            dom = _DOMINATED.get(key)
            if dom is None:
                dom = dominated(state, a)
                if len(_DOMINATED) > 200_000:
                    _DOMINATED.clear()
                _DOMINATED[key] = dom
            if dom:
                continue
        out.append(a)
    return out or list(acts)


# ---------------------------------------------------------------------------------- policy
def greedy_action(
    state: GameState, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS, actions: Sequence[Action] | None = None
) -> Action:
    """The candidate whose result ``evaluate`` likes best for the seat to act (ties at random)."""
    seat = state.to_act
    assert seat is not None
    cands = canonical_actions(state, actions)
    if len(cands) == 1:
        return cands[0]
    values = []
    for a in cands:
        s = state.copy()
        apply_unchecked(s, a, events=False)
        values.append(evaluate(s, seat, weights))
    return pick_best(cands, values, rng)


def pick_best(cands: Sequence[T], values: Sequence[float], rng: random.Random) -> T:
    """The candidate of the highest value; ties (within 1e-9) broken by ``rng`` (one draw, only
    when there is a tie)."""
    best: list[T] = []
    best_v = float("-inf")
    for a, v in zip(cands, values, strict=True):
        if v > best_v + 1e-9:
            best_v = v
            best = [a]
        elif v > best_v - 1e-9:
            best.append(a)
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


class GreedyBot:
    """One-ply greedy bot over a state consistent with its observation."""

    def __init__(self, name: str = "greedy", weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.name = name
        self.weights = weights
        self.budget = Budget()
        self.tracker = Tracker()

    def choose(self, obs: Observation, budget: Budget, rng: random.Random) -> Action:
        """The greedy choice (the budget is not needed: one ply is fast)."""
        legal = obs.legal
        if len(legal) == 1:
            return obs.legal_actions()[0]
        try:
            state = Sampler(obs, self.tracker).sample(rng)
            acts = table_actions(state)  # what the view offers (a huge hand: the minimal payments)
            shown = set(legal)
            if {str(a) for a in acts} != shown:
                log.warning("greedy: the sampled state offers other actions than the view; restricting to the view's")
                acts = [a for a in acts if str(a) in shown]
                if not acts:
                    return fallback_action(obs, rng, "no action of the sampled state is legal")
            choice = greedy_action(state, rng, self.weights, acts)
            rep = Repetition(obs)
            if rep.repeats(choice):  # never redesign back to an earlier layout: the next best
                rest = [a for a in acts if not rep.repeats(a)]
                if rest:
                    choice = greedy_action(state, rng, self.weights, rest)
            return choice
        except Exception as e:  # never crash a game: fall back and log
            log.exception("greedy failed")
            return fallback_action(obs, rng, f"greedy failed: {type(e).__name__}: {e}")

    def info(self) -> dict[str, Any]:
        """Settings, for reports."""
        return {"name": self.name}
