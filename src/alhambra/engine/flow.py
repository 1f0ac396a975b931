"""The turn flow: what happens automatically between decisions (end of turn, refills, scoring
rounds, the window between turns, the final distribution of the market and the end)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..components import DECK_PILES, DISPLAY_SIZE, MARKET_SIZE, NEUTRAL_AFTER_FIRST_SCORING, NEUTRAL_START_TILES, STARTING_MONEY
from ..events import Event, GameEnded, GameStarted, MarketTileAwarded, NeutralTilesReceived, TurnEnded, TurnStarted
from ..hooks import Module, load_module, modules_of
from ..state import STAGE_BETWEEN, STAGE_FINAL, STAGE_OVER, STAGE_SETUP, STAGE_TURN, BetweenTurns, ChooseAction, GameState, PlaceTiles
from .common import _sink, _users, payment_value, plain_flow
from .scoring import _score_round, money_of, winners
from .supply import _draw_tile, _fill_market, _next_card, _pile_model, _shown, refill_display


def _window_seats(state: GameState) -> list[int]:
    """Seats to ask in the window between turns, in priority order (next to play first, the
    seat that has just finished last), only those a module may let interrupt (public facts)."""
    n = state.config.players
    users = _users(state, "may_interrupt")
    order = [(state.current + 1 + i) % n for i in range(n)]
    return [s for s in order if any(m.may_interrupt(state, s) for m in users)]


def _after_action(state: GameState, events: list[Event] | None) -> None:
    if state.config.modules:
        for m in _users(state, "after_action"):
            m.after_action(state, _sink(events))


def _notify(state: GameState, events: list[Event] | None) -> None:
    if state.config.modules:
        for m in _users(state, "on_events"):
            m.on_events(state, _sink(events))


_TURN_START = tuple(ChooseAction(seat) for seat in range(6))
"""The decision a turn starts with, one shared (immutable) value per seat."""


def _start_turn(state: GameState, seat: int, events: list[Event] | None) -> None:
    state.current = seat
    state.turn += 1
    state.stage = STAGE_TURN
    state.flow = 0
    state.pending.append(_TURN_START[seat])
    if events is not None:
        events.append(TurnStarted(seat, state.turn))
    if state.config.modules:
        for m in _users(state, "turn_started"):
            m.turn_started(state, seat, _sink(events))


def _advance(state: GameState, events: list[Event] | None) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    pending = state.pending
    if pending:
        kind = type(pending[-1])
        if (kind is ChooseAction or kind is PlaceTiles) and state.outcome is None:
            return  # a core decision waits (the usual case)
        top = pending[-1]
        if top.module is None and state.outcome is None and (type(top) is not BetweenTurns or not top.restart):
            return
    elif state.stage == STAGE_TURN and (not state.config.modules or plain_flow(state.config)) and state.outcome is None:
        # A turn of a game on the plain flow is over: no hook can pause its end or open the
        # window between turns, so the steps of END_OF_TURN run straight through (their core
        # work only, as _PLAIN_END_OF_TURN runs it) and the next turn starts at once unless
        # the end of the game or the turn limit is due.
        _PLAIN_END_OF_TURN(state, events)
        config = state.config
        limit = config.turn_limit
        if not state.market_exhausted and (limit is None or state.turn < limit):
            seat = (state.current + 1) % config.players  # _start_turn, without module hooks
            state.current = seat
            state.turn += 1
            state.flow = 0  # the stage stays STAGE_TURN
            pending.append(_TURN_START[seat])
            if events is not None:
                events.append(TurnStarted(seat, state.turn))
            return
        state.stage = STAGE_BETWEEN
        state.flow = 1  # the window is opened (and empty)
    guard = 0
    while state.outcome is None:
        guard += 1
        if guard > 10_000:  # pragma: no cover - a module that never settles
            raise RuntimeError("the game flow does not settle (a module's resume hook loops)")
        if state.pending:
            top = state.pending[-1]
            if top.module is None:
                if type(top) is BetweenTurns and top.restart:
                    if state.scoring_queue and state.stage == STAGE_BETWEEN:
                        # a scoring card drawn by the out-of-turn move (a thief's refill) is scored
                        # before anybody is asked again, as one drawn at a turn's end is scored
                        # before the window opens (docs/rules-notes.md)
                        if _before_scoring(state, state.scoring_queue[0], 1, events):
                            continue
                        _run_scoring_queue(state, events, 1)
                        state.flow = 1
                        continue
                    _reopen_window(state)
                    continue
                return
            before = (len(state.pending), top)
            load_module(top.module).resume(state, top, _sink(events))
            if state.pending and (len(state.pending), state.pending[-1]) == before:
                return
            continue
        if state.stage == STAGE_TURN:
            _complete_turn(state, events)
        elif state.stage == STAGE_SETUP:  # the setup decisions are taken: fill the market, deal...
            _finish_setup(state, random.Random(f"{state.seed}:setup"), events)
        elif state.stage == STAGE_BETWEEN:
            if state.flow == 0:
                state.flow = 1
                _open_window(state)
            elif state.scoring_queue:
                # a scoring card drawn by an out-of-turn move that closed the window (a module
                # refilled the display) is scored before the next turn begins
                if _before_scoring(state, state.scoring_queue[0], 1, events):
                    continue
                _run_scoring_queue(state, events, 1)
                state.flow = 1
            elif state.market_exhausted:
                _start_final(state, events)
            else:
                limit = state.config.turn_limit
                if limit is not None and state.turn >= limit:
                    _end_game(state, "truncated", events)
                else:
                    _start_turn(state, (state.current + 1) % state.config.players, events)
        elif state.stage == STAGE_FINAL:
            if _before_scoring(state, 3, 0, events):
                continue
            _score_round(state, 3, events)
            _end_game(state, "finished", events)
        else:  # pragma: no cover
            raise AssertionError(state.stage)


def _complete_turn(state: GameState, events: list[Event] | None) -> None:
    """The automatic end of a turn: the steps of :data:`END_OF_TURN` in order, then the turn is
    over (stage ``between``) and the modules' ``after_turn`` hear of it.

    ``state.flow`` counts the places done: one per module a step calls, one for a step's core
    work. A step that pushed a pending decision is not repeated (a core work that may pause, the
    market refill, is: it goes on where it stopped); once the decision is resolved the flow
    calls this again and it goes on from there. A repeating step (the queued scoring rounds)
    starts its places over for each round."""
    at = 0
    for step in END_OF_TURN:
        users = _users(state, step.hook) if step.hook is not None else ()
        if step.repeat_while is not None:
            due = step.repeat_while
            while due(state, events):
                if users and _call_hooks(state, step, users, at, events):
                    return
                _do_work(step, state, events)
                state.flow = at
            continue
        if users and _call_hooks(state, step, users, at, events):
            return
        at += len(users)
        if step.work:
            if state.flow == at:
                if step.pauses:
                    _do_work(step, state, events)
                    if state.pending:
                        return  # paused for a decision; called again once it is resolved
                    state.flow += 1
                else:
                    state.flow += 1
                    _do_work(step, state, events)
            at += 1
    state.stage = STAGE_BETWEEN
    state.flow = 0
    if state.config.modules:
        for m in _users(state, "after_turn"):
            m.after_turn(state, _sink(events))


def _call_hooks(state: GameState, step: TurnStep, users: tuple[Module, ...], at: int, events: list[Event] | None) -> bool:
    """Call ``step``'s hook on the modules not called yet (``state.flow - at`` have been); True
    when one pushed a pending decision (the others wait until it is resolved)."""
    while state.flow - at < len(users):
        m = users[state.flow - at]
        state.flow += 1
        step.call(m, state, _sink(events))
        if state.pending:
            return True
    return False


def _do_work(step: TurnStep, state: GameState, events: list[Event] | None) -> None:
    """The core's work of a step: each part whose condition holds."""
    for part in step.work:
        if part.when is None or part.when(state, events):
            part.run(state, events)


def _announce_turn_end(state: GameState, events: list[Event] | None) -> None:
    assert events is not None
    events.append(TurnEnded(state.current))


def _refill_the_market(state: GameState, events: list[Event] | None) -> None:
    _fill_market(state, events, True)


def _score_next_round(state: GameState, events: list[Event] | None) -> None:
    _run_scoring_queue(state, events, 1)


Condition = Callable[[GameState, "list[Event] | None"], object]
"""A condition of the end of a turn: true when a part has something to do."""


def _recording(state: GameState, events: list[Event] | None) -> bool:
    return events is not None


def _display_gap(state: GameState, events: list[Event] | None) -> bool:
    return -1 in state.display


def _market_gap(state: GameState, events: list[Event] | None) -> bool:
    return -1 in state.market


def _rounds_queued(state: GameState, events: list[Event] | None) -> bool:
    return bool(state.scoring_queue)


@dataclass(frozen=True, slots=True)
class Work:
    """A part of a step's core work and the condition without which it has nothing to do."""

    run: Callable[[GameState, list[Event] | None], None]
    when: Condition | None = None
    """A condition on ``state`` and ``events`` (a plain function), or None: always."""


@dataclass(frozen=True, slots=True)
class TurnStep:
    """One step of the automatic end of a turn (see :data:`END_OF_TURN`)."""

    name: str
    """What happens, in the rulebook's words."""
    hook: str | None = None
    """The modules' hook the step calls first, one module after the other (``Module`` method)."""
    call: Callable[[Module, GameState, list[Event]], None] = lambda m, state, events: None
    """How the hook is called on one module."""
    work: tuple[Work, ...] = ()
    """The core's work, the same in every game: on the plain flow it is the whole step."""
    pauses: bool = False
    """The core's work may push a module's decision (``tile_drawn``): the step waits for it and
    is taken again (going on where it stopped) once it is resolved."""
    repeat_while: Condition | None = None
    """For a repeating step: the condition (as :attr:`Work.when`) as long as which the step, hook
    and work, is taken again (each queued scoring round); its places of ``state.flow`` start
    over each time."""


END_OF_TURN: Final = (
    TurnStep("the modules end the turn", "turn_ending", lambda m, state, events: m.turn_ending(state, events)),
    TurnStep(
        "the turn has ended; the display is refilled",
        work=(Work(_announce_turn_end, _recording), Work(refill_display, _display_gap)),
    ),
    TurnStep("the modules act on the cards the refill drew", "after_refill", lambda m, state, events: m.after_refill(state, events)),
    TurnStep("the market is refilled", work=(Work(_refill_the_market, _market_gap),), pauses=True),
    TurnStep(
        "the scoring rounds whose cards came up are scored",
        "before_scoring",
        lambda m, state, events: m.before_scoring(state, state.scoring_queue[0], events),
        work=(Work(_score_next_round),),
        repeat_while=_rounds_queued,
    ),
)
"""The automatic end of a turn, declared once: :func:`_complete_turn` takes these steps with
the modules' hooks, and a game on the plain flow (no module hook can act) takes their core work
straight through (:data:`_PLAIN_END_OF_TURN`). After them the turn is over: ``after_turn``, then
the window between turns."""


Part = tuple[Callable[[GameState, "list[Event] | None"], None], "Condition | None"]


def _segments(steps: tuple[TurnStep, ...]) -> list[tuple[Condition | None, tuple[Part, ...]]]:
    """The steps' core work in order, as (repeating condition or None, parts), consecutive steps
    that do not repeat merged into one segment."""
    out: list[tuple[Condition | None, tuple[Part, ...]]] = []
    for step in steps:
        parts = tuple((part.run, part.when) for part in step.work)
        if not parts:
            continue
        if step.repeat_while is None and out and out[-1][0] is None:
            out[-1] = (None, out[-1][1] + parts)
        else:
            out.append((step.repeat_while, parts))
    return out


def _run_parts(parts: tuple[Part, ...], state: GameState, events: list[Event] | None) -> None:
    for run, when in parts:
        if when is None or when(state, events):
            run(state, events)


def _compile_plain(steps: tuple[TurnStep, ...]) -> Callable[[GameState, list[Event] | None], None]:
    """The steps' core work as one function for the plain flow: a closure over the declaration
    (each part with its condition, a repeating step's condition), so that the plain end of a turn
    takes exactly the declared work. The usual shape (parts once, then one repeating step: the
    scoring rounds) gets a closure with one loop and no call besides the conditions and the work,
    as fast as the same steps written out by hand (docs/engine.md); any other shape a loop over
    the segments."""
    segments = _segments(steps)
    if len(segments) == 2 and segments[0][0] is None and segments[1][0] is not None:
        once = segments[0][1]
        repeat, again = segments[1]
        assert repeat is not None

        def plain_end_of_turn(state: GameState, events: list[Event] | None) -> None:
            for run, when in once:
                if when is None or when(state, events):
                    run(state, events)
            while repeat(state, events):
                _run_parts(again, state, events)

        return plain_end_of_turn

    def plain_end_of_turn_any(state: GameState, events: list[Event] | None) -> None:
        for repeat_while, parts in segments:
            if repeat_while is None:
                _run_parts(parts, state, events)
            else:
                while repeat_while(state, events):
                    _run_parts(parts, state, events)

    return plain_end_of_turn_any


_PLAIN_END_OF_TURN: Final = _compile_plain(END_OF_TURN)
"""The core work of :data:`END_OF_TURN`, in order, for games on the plain flow."""


def _window_open(state: GameState) -> bool:
    if state.market_exhausted or not state.config.modules or not _users(state, "interrupt_actions"):
        return False
    limit = state.config.turn_limit
    return limit is None or state.turn < limit


def _open_window(state: GameState) -> None:
    """Between turns: ask the seats that may make an out-of-turn move (none when the last tiles
    are about to be distributed, or after the last turn of a game with a turn limit)."""
    if _window_open(state):
        seats = _window_seats(state)
        if seats:
            state.pending.append(BetweenTurns(seats[0], tuple(seats[1:])))


def _reopen_window(state: GameState) -> None:
    """Somebody acted in the window and what it started is resolved: ask everybody again."""
    seats = _window_seats(state) if _window_open(state) else []
    if seats:
        state.pending[-1] = BetweenTurns(seats[0], tuple(seats[1:]))
    else:
        state.pending.pop()


def _before_scoring(state: GameState, round_no: int, base: int, events: list[Event] | None) -> bool:
    """Let the modules' ``before_scoring`` act before scoring round ``round_no`` (``state.flow``
    counts from ``base``). True when one pushed a pending decision: the flow comes back here
    once it is resolved, to the next module."""
    if not state.config.modules:
        return False
    users = _users(state, "before_scoring")
    while state.flow - base < len(users):
        m = users[state.flow - base]
        state.flow += 1
        m.before_scoring(state, round_no, _sink(events))
        if state.pending:
            return True
    return False


def _run_scoring_queue(state: GameState, events: list[Event] | None, limit: int | None = None) -> None:
    done = 0
    while state.scoring_queue and (limit is None or done < limit):
        done += 1
        rnd = state.scoring_queue.pop(0)
        _score_round(state, rnd, events)
        if state.neutral is not None:
            k = NEUTRAL_AFTER_FIRST_SCORING if rnd == 1 else len(state.bag) // 3
            k = min(k, len(state.bag))
            got = [_shown(state, _draw_tile(state)) for _ in range(k)]
            state.neutral.extend(got)
            if events is not None:
                events.append(NeutralTilesReceived(tuple(state.components.tiles[t].code for t in got)))


def _start_final(state: GameState, events: list[Event] | None) -> None:
    """The market could not be refilled: hand out the remaining market tiles, then score."""
    state.stage = STAGE_FINAL
    state.flow = 0
    for m in _users(state, "final_starting"):
        m.final_starting(state, _sink(events))
    n = state.config.players
    got: dict[int, list[str]] = {}
    for sq in range(MARKET_SIZE):
        t = state.market[sq]
        if t < 0:
            continue
        cur = state.market_currency[sq]
        amounts = [money_of(state, s, cur) for s in range(n)]
        best = max(amounts)
        if best > 0 and amounts.count(best) == 1:
            s = amounts.index(best)
            state.market[sq] = -1
            code = state.components.tiles[t].code
            got.setdefault(s, []).append(code)
            if events is not None:
                events.append(MarketTileAwarded(s, sq + 1, code))
    order = [(state.current + 1 + i) % n for i in range(n)]
    for s in reversed(order):
        if s in got:
            state.pending.append(PlaceTiles(s, tuple(got[s]), False, "final"))


def _end_game(state: GameState, outcome: str, events: list[Event] | None) -> None:
    state.outcome = outcome
    state.stage = STAGE_OVER
    state.pending.clear()
    if events is not None:
        events.append(GameEnded(outcome, tuple(state.scores), winners(state)))


def _finish_setup(state: GameState, rng: random.Random, events: list[Event] | None) -> None:
    """The setup from filling the market on (``new_game``, or after the modules' setup decisions
    the flow, with a random stream of its own): market, starting money, starting
    player, display, the draw pile's five piles, the neutral player's tiles; ``GameStarted``;
    then the first turn starts."""
    comp = state.components
    config = state.config
    mods = modules_of(config)
    n = config.players
    explicit_chance = state.decided is not None
    money = state.deck
    bag = state.bag
    events = [] if events is None else events
    setup_events: list[Event] = []
    _fill_market(state, setup_events, announce=False)
    if not explicit_chance:
        rng.shuffle(money)
    dealt: list[list[int]] = []
    for p in state.players:
        total = 0
        got: list[int] = []
        while total < STARTING_MONEY:
            c = _next_card(state)
            got.append(c)
            total += comp.card_value[c]
        p.hand.extend(got)
        dealt.append(got)
    start = min(range(n), key=lambda s: (len(dealt[s]), payment_value(comp, dealt[s]), s))
    state.current = start
    for i in range(DISPLAY_SIZE):
        state.display[i] = _next_card(state)

    # five roughly equal piles, pile 0 on top; scoring cards into piles 2 and 4
    size, extra = divmod(len(money), DECK_PILES)
    piles: list[list[int]] = []
    for i in range(DECK_PILES):
        k = size + (1 if i < extra else 0)
        piles.append([money.pop() for _ in range(k)])
    scoring_ids = [i for i, c in enumerate(comp.cards) if c.kind == "scoring"]
    for card, pile in zip(scoring_ids, (1, 3), strict=True):
        piles[pile].insert(rng.randrange(len(piles[pile]) + 1), card)
    shuffled = {c for pile in piles for c in pile}
    for m in mods:
        m.deck_piles(state, piles, rng)
    deck: list[int] = []
    for one_pile in reversed(piles):
        deck.extend(one_pile)
    state.deck = deck
    if explicit_chance:
        # money cards a module put into chosen piles (master builders: piles 3 and 5) are
        # tracked by pile like the special cards; money shuffled in (diamonds) is not
        placed = {c for pile in piles for c in pile} - shuffled
        state.piles = tuple(_pile_model(state, pile, placed) for pile in piles)
    if state.neutral is not None:
        for _ in range(min(NEUTRAL_START_TILES, len(bag))):
            state.neutral.append(_shown(state, _draw_tile(state)))
    events.append(
        GameStarted(
            players=n,
            starting_player=start,
            starting_money=tuple(tuple(comp.cards[c].code for c in got) for got in dealt),
            market=tuple(comp.tiles[t].code for t in state.market),
            display=tuple(comp.cards[c].code for c in state.display),
            neutral_tiles=tuple(comp.tiles[t].code for t in state.neutral or ()),
            modules=config.modules,
        )
    )
    events += setup_events
    for m in _users(state, "game_set_up"):
        m.game_set_up(state, events)
    _start_turn(state, start, events)
