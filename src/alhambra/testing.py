"""Helpers for tests of the engine and of modules (not used by the engine itself).

* :func:`set_hand` and :func:`set_market` arrange a situation on a copied state while keeping
  every card and tile in exactly one place.
* :func:`check_conservation` asserts exactly that.
* :func:`fresh_game` starts a game with a chosen market and empty hands; :func:`finish_turn`
  ends the current seat's turn the shortest way (one card taken, tiles to the reserve board).
* :func:`take_tile` and :func:`build_tiles` move real tiles into an Alhambra;
  :func:`scoring_card_next`, :func:`take_first` and :func:`score_next_round` play to a scoring
  round.
* :func:`play_random_game` plays a whole game with random legal actions and checks, at every
  step, that every legal action is accepted by :func:`~alhambra.engine.apply`, that listing the
  actions kind by kind gives the same actions, that the state survives a JSON round trip and
  that cards and tiles are conserved; at the end, that the game record replays to the same state
  (with :func:`~alhambra.engine.apply`, and with :func:`~alhambra.engine.apply_unchecked` with
  and without events).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from . import city as geo
from .actions import Action, PlaceBuilding, TakeMoney
from .chance import ChanceNeeded, chance_outcomes
from .engine import action_kinds, apply, apply_unchecked, kind_forms, legal_actions, new_game
from .events import Event
from .hooks import modules_of
from .record import GameRecord, replay
from .serialize import state_from_json, state_to_json
from .state import STAGE_SETUP, ChooseAction, GameConfig, GameState, PlaceTiles
from .view import view

__all__ = [
    "RandomGame",
    "build_tiles",
    "check_conservation",
    "check_encoded_game",
    "explicit_setup",
    "finish_turn",
    "fresh_game",
    "golden_outcome",
    "play_random_game",
    "score_next_round",
    "scoring_card_next",
    "set_hand",
    "set_market",
    "take_first",
    "take_tile",
]


def set_hand(state: GameState, seat: int, codes: Sequence[str]) -> None:
    """Give ``seat`` exactly the cards ``codes`` (in place).

    The old hand goes to the bottom of the draw pile. Each wanted card is taken from the draw
    pile, the discard pile or the display (a display slot is refilled with the top money card
    of the draw pile); ``KeyError`` if no free copy is left.
    """
    cards = state.components.cards
    hand = state.players[seat].hand
    state.deck[:0] = hand
    hand.clear()
    for code in codes:
        for pile in (state.deck, state.discard):
            found = next((c for c in reversed(pile) if cards[c].code == code), None)
            if found is not None:
                pile.remove(found)
                hand.append(found)
                break
        else:
            slot = next((i for i, c in enumerate(state.display) if c >= 0 and cards[c].code == code), None)
            if slot is None:
                raise KeyError(f"no free card {code!r} in the draw pile, discard pile or display")
            hand.append(state.display[slot])
            other = next(c for c in reversed(state.deck) if cards[c].is_money)
            state.deck.remove(other)
            state.display[slot] = other


def set_market(state: GameState, square: int, code: str) -> None:
    """Put the tile ``code`` on market square ``square`` (1-4), swapping it with the tile there;
    the tile is taken from the bag or another market square (``KeyError`` otherwise). With
    two-sided tiles (Granada) ``code`` may name either face: the tile shows that face (the
    tile it replaces goes back into the bag on its front)."""
    comp = state.components
    t = comp.tile_ids[code]
    phys = comp.physical
    old = state.market[square - 1]
    if t == old:
        return
    shown = [phys(x) if x >= 0 else -1 for x in state.market]
    if phys(t) in shown:
        state.market[shown.index(phys(t))] = old
    elif phys(t) in state.bag:
        i = state.bag.index(phys(t))
        if old >= 0:
            state.bag[i] = phys(old)
        else:
            del state.bag[i]
    else:
        raise KeyError(f"{code} is neither in the bag nor on the market")
    state.market[square - 1] = t


def fresh_game(
    players: int, seed: int, modules: tuple[str, ...] = (), market: Sequence[str] = (), turn_limit: int | None = None
) -> GameState:
    """A new game (``seed``) with the tiles ``market`` on the market squares 1, 2, ... and every
    hand empty. With 2 players, a tile of ``market`` that was dealt to the neutral player changes
    places with a tile of the bag first."""
    state, _ = new_game(GameConfig(players=players, modules=modules, turn_limit=turn_limit), seed)
    ids = state.components.tile_ids
    for code in market:
        if state.neutral is not None and ids[code] in state.neutral:
            other = next(t for t in state.bag if state.components.tile_code[t] not in market)
            state.bag[state.bag.index(other)] = ids[code]
            state.neutral[state.neutral.index(ids[code])] = other
    for sq, code in enumerate(market, 1):
        set_market(state, sq, code)
    for s in range(players):
        set_hand(state, s, [])
    return state


def explicit_setup(
    config: GameConfig, choose: Callable[[list[tuple[str, float]]], str]
) -> tuple[GameState, list[ChanceNeeded], tuple[list[str], list[str], list[str]]]:
    """Set up a game in explicit-chance mode, every draw of the setup (cards, tiles, modules'
    items) decided by ``choose`` from that draw's outcomes; returns the state, each draw as it
    was asked for (in order) and the outcomes decided (cards, tiles, module items)."""
    decided: tuple[list[str], list[str], list[str]] = ([], [], [])
    draws: list[ChanceNeeded] = []
    while True:
        try:
            state, _ = new_game(config, 0, explicit_chance=True, decided=tuple(tuple(d) for d in decided))
            return state, draws, decided
        except ChanceNeeded as e:
            draws.append(e)
            decided[("card", "tile", "module").index(e.kind)].append(choose(chance_outcomes(e.state, e.kind, e.draw)))


def finish_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (if it still must act) and
    puts every waiting tile on the reserve board; its other decisions get its last legal action
    (a module's "no"). Returns the new state and the events."""
    seat = state.current
    events: list[Event] = []
    while state.to_act == seat and state.outcome is None:
        top = state.pending[-1]
        action: Action
        if isinstance(top, ChooseAction):
            action = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
        elif isinstance(top, PlaceTiles):
            action = PlaceBuilding(top.tiles[0], "reserve")
        else:
            action = legal_actions(state)[-1]
        state, evs = apply(state, action, seat)
        events += evs
    return state, events


def take_tile(state: GameState, code: str) -> int:
    """Take tile ``code`` out of the bag, a market square (refilled from the bag) or the neutral
    player's tiles (replaced from the bag) and return its id, so it can be put somewhere else
    while every tile stays in exactly one place."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
    elif t in state.market:
        state.market[state.market.index(t)] = state.bag.pop()
    elif state.neutral is not None and t in state.neutral:
        state.neutral[state.neutral.index(t)] = state.bag.pop()
    else:
        raise KeyError(f"{code} is not in the bag, on the market or with the neutral player")
    return t


def build_tiles(state: GameState, seat: int, layout: Mapping[tuple[int, int], str]) -> None:
    """Put these tiles (codes, by ``(x, y)``, y growing southwards) into ``seat``'s Alhambra, in
    place and without checking the building rules (:func:`take_tile` keeps every tile once)."""
    city = state.players[seat].city
    for (x, y), code in layout.items():
        assert geo.pos(x, y) not in city, f"{x},{y} is built already"
        city[geo.pos(x, y)] = take_tile(state, code)


def scoring_card_next(state: GameState) -> None:
    """The next card drawn from the draw pile is the lower scoring card still in it."""
    cards = state.components.cards
    c = min((c for c in state.deck if cards[c].kind == "scoring"), key=lambda c: cards[c].value)
    state.deck.remove(c)
    state.deck.append(c)


def take_first(state: GameState) -> tuple[GameState, list[Event]]:
    """The current seat takes the first single card of the display (which ends its turn)."""
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    take = next(a for a in legal_actions(state) if isinstance(a, TakeMoney) and len(a.cards) == 1)
    return apply(state, take, top.seat)


def score_next_round(state: GameState) -> tuple[GameState, list[Event]]:
    """Draw a scoring card at the end of the current seat's turn (:func:`scoring_card_next`,
    :func:`take_first`): the next round is scored. Returns the new state and the turn's events."""
    scoring_card_next(state)
    state, events = take_first(state)
    assert sum(1 for e in events if type(e).__name__ == "RoundScored") == 1, "no scoring round"
    return state, events


def check_encoded_game(config: GameConfig, seed: int, prefer: Callable[[Action], bool] | None = None) -> list[Action]:
    """Play a random game (``random.Random(seed)``; with ``prefer``, every other choice among the
    preferred legal actions when there are any) and check the research encoding at every
    decision: every legal action encodes to a token sequence of its own that decodes back to it,
    and the deciding seat's observation lies in [0, 1]. Returns every legal action listed on the
    way, for the caller to check that its module's actions came up. Needs numpy."""
    from .research.encoding import codec_for
    from .research.observation import ObservationEncoder

    codec = codec_for(config)
    encoder = ObservationEncoder.for_config(config, codec)
    state, _ = new_game(config, seed)
    rng = random.Random(seed)
    listed: list[Action] = []
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions), "two actions share a token sequence"
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a, (a, seq)
        listed += actions
        seat = state.to_act
        assert seat is not None
        obs = encoder.encode(view(state, seat, with_legal_actions=False))
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        liked = [a for a in actions if prefer(a)] if prefer is not None else []
        apply_unchecked(state, rng.choice(liked if liked and rng.random() < 0.5 else actions))
    return listed


def check_conservation(state: GameState) -> None:
    """Assert that every card and every tile of the game is in exactly one place."""
    comp = state.components
    mods = modules_of(state.config)
    cards = list(state.deck) + [c for c in state.display if c >= 0] + state.discard + state.removed
    for p in state.players:
        cards += p.hand
    for m in mods:
        cards += m.held_cards(state)
    if state.stage == STAGE_SETUP:  # setup decisions: the special cards join the deck with the piles
        assert len(set(cards)) == len(cards), "a card is in two places"
        assert set(cards) >= {i for i, c in enumerate(comp.cards) if c.module is None and c.is_money}, "a money card is missing"
    else:
        assert Counter(cards) == Counter(range(len(comp.cards))), "a card is missing or in two places"
    tiles = list(state.bag) + [t for t in state.market if t >= 0] + list(state.neutral or ())
    for p in state.players:
        tiles += list(p.city.values()) + p.reserve
    for top in state.pending:
        for code in getattr(top, "tiles", ()):
            tiles.append(comp.tile_ids[code])
        for code in getattr(top, "bought", ()):
            tiles.append(comp.tile_ids[code])
    for m in mods:
        tiles += m.held_tiles(state)
    # two-sided tiles (Granada): each physical tile once, on whichever face it shows
    phys = comp.physical
    assert Counter(phys(t) for t in tiles) == Counter({phys(t) for t in range(len(comp.tiles))}), "a tile is missing or in two places"


def _check_round_trip(state: GameState) -> None:
    data = state_to_json(state)
    text = json.dumps(data, sort_keys=True)
    back = state_from_json(json.loads(text))
    assert json.dumps(state_to_json(back), sort_keys=True) == text, "state does not survive a JSON round trip"
    assert legal_actions(back) == legal_actions(state), "a rebuilt state offers other actions"


@dataclass
class RandomGame:
    """What :func:`play_random_game` returns."""

    state: GameState
    record: GameRecord
    events: list[Event] = field(default_factory=list)
    actions: Counter[str] = field(default_factory=Counter)
    """How often each action keyword (``take``, ``vizier buy``, ...) was chosen."""


def _keyword(action: Action) -> str:
    words = str(action).split()
    return " ".join(words[:2]) if action.module is not None else words[0]


def play_random_game(
    config: GameConfig,
    seed: int,
    *,
    rng_seed: int | None = None,
    try_every_action: bool = True,
    prefer: Callable[[Action], float] | None = None,
    max_steps: int = 5000,
    check_every: int = 1,
) -> RandomGame:
    """Play a game with random legal actions, checking the engine's promises at every step.

    ``prefer`` weights actions (default: redesigns 1, everything else 10, so games make
    progress). With ``try_every_action`` every legal action of every state is applied to a copy.
    ``check_every`` > 1 makes the costly checks of a step (the JSON round trip, the views, the
    actions by kind and by form, ``try_every_action``) only every that many steps, at a random
    phase; conservation is checked at every step and the replays at the end in full. Games with
    every module use it: their steps cost ten times those of a base game.
    """
    if check_every < 1:
        raise ValueError("check_every must be at least 1")
    rng = random.Random(seed if rng_seed is None else rng_seed)
    state, events = new_game(config, seed)
    record = GameRecord(config, seed)
    chosen: Counter[str] = Counter()
    weight = prefer or (lambda a: 1.0 if str(a).startswith("redesign") else 10.0)
    phase = rng.randrange(check_every) if check_every > 1 else 0
    for step in range(max_steps):
        if state.is_over:
            break
        check_conservation(state)
        full = step % check_every == phase
        if full:
            _check_round_trip(state)
        seat = state.to_act
        assert seat is not None
        if full:
            for viewer in (None, seat):
                json.dumps(view(state, viewer))
        acts = legal_actions(state)
        assert acts, "the game waits for a seat that has no legal action"
        assert len(set(acts)) == len(acts), "legal actions repeat"
        if full:
            by_kind = [a for k in action_kinds(state) for a in legal_actions(state, k)]
            assert sorted(map(str, by_kind)) == sorted(map(str, acts)), "actions by kind differ from all legal actions"
            by_form = [a for k in action_kinds(state) for f in kind_forms(state, k) for a in legal_actions(state, f)]
            assert sorted(map(str, by_form)) == sorted(map(str, acts)), "actions by form differ from all legal actions"
        if try_every_action and full:
            for a in acts:
                apply(state, a, seat)
        action = rng.choices(acts, [weight(a) for a in acts])[0]
        state, evs = apply(state, action, seat)
        events += evs
        record.actions.append(action)
        chosen[_keyword(action)] += 1
    else:
        raise AssertionError(f"the game did not end within {max_steps} steps")
    check_conservation(state)
    _check_round_trip(state)
    assert legal_actions(state) == []
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    replayed, replay_events = replay(again)
    assert state_to_json(replayed) == state_to_json(state), "the record does not replay to the same state"
    assert replay_events == events, "the replay caused other events"
    fast, fast_events = new_game(config, seed)
    quiet, _ = new_game(config, seed)
    for action in record.actions:
        fast_events += apply_unchecked(fast, action)
        assert apply_unchecked(quiet, action, events=False) == []
    assert state_to_json(fast) == state_to_json(state), "apply_unchecked reaches another state"
    assert fast_events == events, "apply_unchecked caused other events"
    assert state_to_json(quiet) == state_to_json(state), "apply_unchecked without events reaches another state"
    return RandomGame(state, record, events, chosen)


def golden_outcome(state: GameState) -> dict[str, object]:
    """What a golden playthrough (``tests/golden/``) came to: outcome, scores, turns and a
    digest of the final state's full JSON (``scripts/record_golden.py`` records it)."""
    text = json.dumps(state_to_json(state), sort_keys=True, separators=(",", ":"))
    return {
        "outcome": state.outcome,
        "scores": list(state.scores),
        "neutral_score": state.neutral_score,
        "turn": state.turn,
        "state_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
