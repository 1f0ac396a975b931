"""The redesign actions of a turn (build from the reserve board, remove, exchange), memoised with
the Alhambra's analysis unless modules add building rules."""

from __future__ import annotations

from .. import city as geo
from ..actions import Action, BuildFromReserve, ExchangeTiles, MoveToReserve
from ..components import ComponentSet
from ..state import GameState
from .caches import _LAST_TABLES, _MEMO_LIMIT, _Tables, _tables
from .common import _exchange_problem, _removal_veto, _users, build_spots


def _build_actions(tables: _Tables, code: str) -> dict[int, Action]:
    """``BuildFromReserve`` of ``code`` by packed position (filled as positions come up)."""
    got = tables.build.get(code)
    if got is None or len(got) >= _MEMO_LIMIT:
        got = tables.build[code] = {}
    return got


def _remove_action(tables: _Tables, code: str) -> Action:
    got = tables.remove.get(code)
    if got is None:
        got = tables.remove[code] = MoveToReserve(code)
    return got


def _exchange_action(tables: _Tables, code: str, city_code: str) -> Action:
    key = (code, city_code)
    got = tables.exchange.get(key)
    if got is None:
        got = tables.exchange[key] = ExchangeTiles(code, city_code)
    return got


REDESIGN_KINDS = ("redesign-build", "redesign-remove", "redesign-exchange")
"""The three forms of redesign, as action kinds."""


def _redesign_actions(state: GameState, seat: int, form: str | None = None) -> list[Action]:
    """Redesign actions of one form (``build``, ``remove``, ``exchange``) or of all three.

    Without a module that adds building rules, each form's list is memoised with the
    Alhambra's analysis: removals by the Alhambra alone, builds and exchanges by the tiles on
    the reserve board. The lists of one form are shared: do not change them."""
    p = state.players[seat]
    in_reserve = p.reserve
    city = p.city
    if not in_reserve and len(city) == 1:
        return []
    comp = state.components
    an = p.analysis(state.walls)
    if state.config.modules:
        if _users(state, "placement_problem"):
            return _redesign_with_rules(state, seat, form, an)
        if _users(state, "removal_problem"):  # the memoised lists, less the tiles a module keeps
            return _without_vetoed(state, seat, _memoised_redesigns(an, city, comp, in_reserve, form))
    return _memoised_redesigns(an, city, comp, in_reserve, form)


def _memoised_redesigns(
    an: geo.CityAnalysis, city: dict[int, int], comp: ComponentSet, in_reserve: list[int], form: str | None
) -> list[Action]:
    """The redesigns under the core's building rules, memoised with the analysis (shared lists)."""
    if form == "remove":
        return _removals(an, city, comp)
    if not in_reserve:
        return [] if form is not None else _removals(an, city, comp)[:]
    if form is None:
        build = _reserve_moves(an, city, comp, in_reserve, "build")
        return build + _removals(an, city, comp) + _reserve_moves(an, city, comp, in_reserve, "exchange")
    return _reserve_moves(an, city, comp, in_reserve, form)


def _without_vetoed(state: GameState, seat: int, actions: list[Action]) -> list[Action]:
    """A new list of ``actions`` without the removals and exchanges of tiles a module keeps in
    the Alhambra (``Module.removal_problem``)."""
    code_of = state.components.tile_code
    ids = state.components.tile_ids
    where = {code_of[t]: q for q, t in state.players[seat].city.items()}
    out: list[Action] = []
    for a in actions:
        if isinstance(a, MoveToReserve):
            if _removal_veto(state, seat, where[a.tile]) is not None:
                continue
        elif isinstance(a, ExchangeTiles) and _removal_veto(state, seat, where[a.city_tile], ids[a.reserve_tile]) is not None:
            continue
        out.append(a)
    return out


def _removals(an: geo.CityAnalysis, city: dict[int, int], comp: ComponentSet) -> list[Action]:
    """``redesign remove`` for every removable tile (memoised with the analysis)."""
    memo = an.memo
    cached = memo.get("redesign-remove")
    if cached is not None:
        return cached  # type: ignore[return-value]
    code_of = comp.tile_code
    remove = _tables(comp).remove
    got: list[Action] = []
    for q in an.removable():
        code = code_of[city[q]]
        a = remove.get(code)
        if a is None:
            a = remove[code] = MoveToReserve(code)
        got.append(a)
    memo["redesign-remove"] = got
    return got


def _reserve_moves(an: geo.CityAnalysis, city: dict[int, int], comp: ComponentSet, in_reserve: list[int], form: str) -> list[Action]:
    """``redesign build`` or ``redesign exchange`` for the reserve tiles, by tile code
    (memoised with the analysis, by form and reserve board)."""
    memo = an.memo
    if len(in_reserve) > 1:
        key: tuple[object, ...] = (form, *sorted(in_reserve))
        cached = memo.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        code_of = comp.tile_code
        reserve = sorted({code_of[t]: t for t in in_reserve}.items())
    else:
        t = in_reserve[0]
        key = (form, t)
        cached = memo.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        code_of = comp.tile_code
        reserve = [(code_of[t], t)]
    tables = _LAST_TABLES[0]
    if tables is None or tables.comp is not comp:
        tables = _tables(comp)
    walls = an.walls
    got: list[Action] = []
    if form == "build":
        builds = tables.build
        spots = an.spots
        for code, t in reserve:
            acts = builds.get(code)
            if acts is None or len(acts) >= _MEMO_LIMIT:
                acts = builds[code] = {}
            for q in spots(walls[t]):
                a = acts.get(q)
                if a is None:
                    a = acts[q] = BuildFromReserve(code, geo.xy(q))
                got.append(a)
    elif form == "exchange":
        exchange = tables.exchange
        exchanges = an.exchanges
        for code, t in reserve:
            for q in exchanges(walls[t]):
                ekey = (code, code_of[city[q]])
                a = exchange.get(ekey)
                if a is None:
                    a = exchange[ekey] = ExchangeTiles(*ekey)
                got.append(a)
    memo[key] = got
    return got


def _redesign_with_rules(state: GameState, seat: int, form: str | None, an: geo.CityAnalysis) -> list[Action]:
    """:func:`_redesign_actions` when modules add building rules (``placement_problem``): the
    rules may depend on anything in the state, so nothing is memoised (removal vetoes are
    asked too)."""
    p = state.players[seat]
    comp = state.components
    walls = state.walls
    mods = _users(state, "placement_problem")
    tables = _tables(comp)
    code_of = comp.tile_code
    city = p.city
    out: list[Action] = []
    reserve = sorted(set(p.reserve), key=code_of.__getitem__)
    if form is None or form == "build":
        for t in reserve:
            code = code_of[t]
            acts = _build_actions(tables, code)
            for q in build_spots(state, seat, walls[t]):
                if all(m.placement_problem(state, seat, t, q) is None for m in mods):
                    a = acts.get(q)
                    if a is None:
                        a = acts[q] = BuildFromReserve(code, geo.xy(q))
                    out.append(a)
    if form is None or form == "remove":
        for q in an.removable():
            if _removal_veto(state, seat, q) is None:
                out.append(_remove_action(tables, code_of[city[q]]))
    if form is None or form == "exchange":
        for rt in reserve:
            code = code_of[rt]
            for q in an.exchanges(walls[rt]):
                if _exchange_problem(state, seat, q, rt) is None:
                    out.append(_exchange_action(tables, code, code_of[city[q]]))
    return out


def redesign_options(state: GameState, seat: int, form: str | None = None) -> list[Action]:
    """Every redesign ``seat`` could make now under all building rules (modules' included), as
    core redesign actions (``redesign build/remove/exchange``); ``form`` is ``build``,
    ``remove`` or ``exchange`` for one form only. For modules that grant an extra redesign."""
    return list(_redesign_actions(state, seat, form))


def module_redesigns(state: GameState, seat: int) -> list[Action]:
    """Every redesign the loaded modules offer ``seat`` now by their own actions
    (``Module.redesign_actions``: a magical building built turned, a tile built through a city
    gate), in module order; beside :func:`redesign_options` for modules that grant an extra
    redesign."""
    if not state.config.modules:
        return []
    out: list[Action] = []
    for m in _users(state, "redesign_actions"):
        out += m.redesign_actions(state, seat)
    return out
