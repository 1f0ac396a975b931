"""The bonus cards: setup, the rulebook's example and notes, every refusal, the question before
scoring, notation, views, persistence and the bots' sampler."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping

import pytest

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, state_from_json, state_to_json, view
from alhambra.actions import Action, BuildFromReserve, ExchangeTiles, MoveToReserve, TakeMoney
from alhambra.bots.base import observe
from alhambra.bots.tracker import Sampler
from alhambra.components import BASE_TILES, KINDS
from alhambra.engine import building_counts
from alhambra.errors import IllegalAction, NotationError, WrongPhase
from alhambra.events import Event, RoundScored
from alhambra.hooks import load_module
from alhambra.modules.bonus_cards import (
    CARD_CODES,
    CARD_TILES,
    DEAL,
    MODULE,
    BonusCardPlayed,
    BonusCardReturned,
    BonusOffer,
    BonusPassed,
    BonusState,
    PassBonus,
    PlayBonusCard,
    bonus_state,
    could_play,
)
from alhambra.state import ChooseAction, GameState, PlaceTiles
from alhambra.testing import check_conservation

MOD = "bonus_cards"
N = CARD_TILES.index


# ---------------------------------------------------------------------------------- helpers
def fresh(players: int = 3, seed: int = 1, modules: tuple[str, ...] = (MOD,)) -> GameState:
    state, _ = new_game(GameConfig(players=players, modules=modules), seed)
    return state


def set_bonus(
    state: GameState,
    hands: Mapping[int, Iterable[str]],
    played: Mapping[int, Iterable[str]] | None = None,
    known: Mapping[int, Iterable[str]] | None = None,
) -> None:
    """Give the seats exactly these cards (by tile); every other card is set aside."""
    n = state.config.players
    played = played or {}
    known = known or {}
    h = [tuple(sorted(N(t) for t in hands.get(s, ()))) for s in range(n)]
    p = [tuple(sorted(N(t) for t in played.get(s, ()))) for s in range(n)]
    k = [tuple(sorted(N(t) for t in known.get(s, ()))) for s in range(n)]
    used = {c for x in h + p for c in x}
    assert len(used) == sum(len(x) for x in h + p), "a card given twice"
    aside = tuple(c for c in range(len(CARD_TILES)) if c not in used)
    state.mods[MOD] = BonusState(tuple(h), tuple(p), tuple(k), aside)


def take_tile(state: GameState, code: str) -> int:
    """Take a tile out of the bag or off the market (the square gets a tile from the bag)."""
    t = state.components.tile_ids[code]
    if t in state.bag:
        state.bag.remove(t)
        return t
    if t in state.market:
        sq = state.market.index(t)
        state.market[sq] = state.bag.pop()
        return t
    raise KeyError(code)


def build(state: GameState, seat: int, code: str, x: int, y: int) -> None:
    from alhambra import city as geo

    state.players[seat].build(geo.pos(x, y), take_tile(state, code))


def reserve(state: GameState, seat: int, code: str) -> None:
    state.players[seat].reserve.append(take_tile(state, code))


def scoring_next(state: GameState, round_no: int = 1) -> None:
    """Put scoring card ``round_no`` on top of the draw pile: the next display refill draws it."""
    cards = state.components.cards
    c = next(c for c in state.deck if cards[c].kind == "scoring" and cards[c].value == round_no)
    state.deck.remove(c)
    state.deck.append(c)


def take_any(state: GameState) -> Action:
    return next(a for a in legal_actions(state) if isinstance(a, TakeMoney))


def names(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def kinds_counted(state: GameState, seat: int) -> dict[str, float]:
    return building_counts(state, seat)


# ---------------------------------------------------------------------------------- components and setup
def test_the_ten_cards_show_exactly_the_base_tiles_without_walls() -> None:
    wall_less = sorted(t.code for t in BASE_TILES if t.walls == 0)
    assert sorted(CARD_TILES) == wall_less
    assert sorted(CARD_TILES) == sorted(["P8", "S9", "A9", "A10", "C10", "C11", "G10", "G11", "T11", "T12"])
    state = fresh()
    cards = [c for c in state.components.cards if c.module == MOD]
    assert [c.code for c in cards] == list(CARD_CODES)
    assert all(c.kind == "bonus" and not c.is_money and c.value == 0 for c in cards)
    assert [KINDS[c.extra[0]] + str(c.extra[1]) for c in cards][:2] == ["pavilion8", "seraglio9"]
    assert MODULE.component_assumptions == ()


@pytest.mark.parametrize(("players", "each"), [(2, 3), (3, 3), (4, 2), (5, 2), (6, 1)])
def test_setup_deals_the_cards_face_down_and_sets_the_rest_aside(players: int, each: int) -> None:
    assert DEAL[players] == each
    state = fresh(players, seed=7)
    s = bonus_state(state)
    assert [len(h) for h in s.hands] == [each] * players
    assert len(s.aside) == 10 - each * players
    assert s.played == ((),) * players and s.known == ((),) * players
    every = sorted([c for h in s.hands for c in h] + list(s.aside))
    assert every == list(range(10))
    check_conservation(state)
    # the cards never enter the money deck, the display or a hand of money cards
    ids = {i for i, c in enumerate(state.components.cards) if c.module == MOD}
    assert not ids & set(state.deck) and not ids & set(state.display)
    assert not any(ids & set(p.hand) for p in state.players)


def test_the_deal_depends_on_the_seed() -> None:
    deals = {bonus_state(fresh(3, seed)).hands for seed in range(6)}
    assert len(deals) > 1


# ---------------------------------------------------------------------------------- the rulebook's example
def test_example_garden_10_and_its_card_make_two_gardens_in_a_scoring_round() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "G10", 1, 0)
    set_bonus(state, {seat: ["G10"]})
    assert kinds_counted(state, seat)["garden"] == 1
    state, events = apply(state, PlayBonusCard("G10"), seat)
    assert kinds_counted(state, seat)["garden"] == 2
    played = [e for e in events if isinstance(e, BonusCardPlayed)]
    assert played == [BonusCardPlayed(seat, "G10", "garden", 0)]
    assert BonusCardPlayed.reveals
    # and so it scores in the next round
    scoring_next(state, 1)
    state, events = apply(state, take_any(state), seat)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert len(rounds) == 1 and rounds[0].counts["garden"][seat] == 2
    check_conservation(state)


# ---------------------------------------------------------------------------------- playing during the turn
def test_a_play_during_the_turn_is_free_and_keeps_the_action_choice_open() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "T12", 1, 0)
    build(state, seat, "A9", 0, 1)
    set_bonus(state, {seat: ["T12", "A9", "P8"]})
    before = state.pending[-1]
    acts = legal_actions(state)
    assert PlayBonusCard("T12") in acts and PlayBonusCard("A9") in acts
    assert PlayBonusCard("P8") not in acts  # its tile is not in the Alhambra
    assert legal_actions(state, MOD) == [PlayBonusCard("A9"), PlayBonusCard("T12")]
    state, _ = apply(state, PlayBonusCard("T12"), seat)
    assert state.pending == [before]  # same ChooseAction: no action used, the phase goes on
    assert state.to_act == seat and state.turn == fresh(3).turn
    assert PlayBonusCard("T12") not in legal_actions(state)
    state, _ = apply(state, PlayBonusCard("A9"), seat)
    assert not legal_actions(state, MOD)  # nothing left to play: no endless free moves
    s = bonus_state(state)
    assert s.hands[seat] == (N("P8"),) and s.played[seat] == (N("A9"), N("T12"))
    counts = kinds_counted(state, seat)
    assert counts["tower"] == 2 and counts["arcades"] == 2
    # the turn goes on normally
    state, _ = apply(state, take_any(state), seat)
    assert state.current != seat
    check_conservation(state)


def test_a_play_after_an_exact_payment_keeps_the_extra_action() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "C10", 1, 0)
    set_bonus(state, {seat: ["C10"]})
    state.pending[-1] = ChooseAction(seat, 1, ())
    state, _ = apply(state, PlayBonusCard("C10"), seat)
    assert state.pending[-1] == ChooseAction(seat, 1, ())


# ---------------------------------------------------------------------------------- refusals
def test_refusals_have_readable_reasons() -> None:
    state = fresh(3)
    seat = state.current
    other = (seat + 1) % 3
    build(state, seat, "G10", 1, 0)
    build(state, seat, "G10n", 0, 1)
    reserve(state, seat, "S9")
    build(state, other, "T11", 1, 0)
    set_bonus(state, {seat: ["G10", "S9", "C11"], other: ["T11"]}, played={seat: []})
    with pytest.raises(IllegalAction, match="you do not hold the bonus card T11"):
        apply(state, PlayBonusCard("T11"), seat)
    with pytest.raises(IllegalAction, match=r"only once S9 is in your Alhambra \(it is on your reserve board\)"):
        apply(state, PlayBonusCard("S9"), seat)
    with pytest.raises(IllegalAction, match=r"only once C11 is in your Alhambra$"):
        apply(state, PlayBonusCard("C11"), seat)
    with pytest.raises(IllegalAction, match="no bonus card shows G10n"):
        apply(state, PlayBonusCard("G10n"), seat)
    state2, _ = apply(state, PlayBonusCard("G10"), seat)
    with pytest.raises(IllegalAction, match="your bonus card G10 is already played"):
        apply(state2, PlayBonusCard("G10"), seat)
    with pytest.raises(WrongPhase, match="no bonus card question"):
        apply(state, PassBonus(), seat)
    # not another seat's turn
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, PlayBonusCard("T11"), other)
    # not while tiles are being placed
    placing = state.copy()
    t = placing.market[0]
    placing.market[0] = placing.bag.pop()
    placing.pending[-1] = PlaceTiles(seat, (placing.tile_code(t),), False, "bought")
    with pytest.raises(WrongPhase, match="during your own turn"):
        apply(placing, PlayBonusCard("G10"), seat)


def test_the_module_must_be_in_the_game() -> None:
    state = fresh(3, modules=())
    with pytest.raises(IllegalAction, match="needs the 'bonus_cards' module"):
        apply(state, PlayBonusCard("G10"))


# ---------------------------------------------------------------------------------- the rulebook's notes
def test_a_tile_moved_to_the_reserve_takes_its_card_back_to_the_hand() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "A10", 1, 0)
    set_bonus(state, {seat: ["A10"]})
    state, _ = apply(state, PlayBonusCard("A10"), seat)
    assert kinds_counted(state, seat)["arcades"] == 2
    state, events = apply(state, MoveToReserve("A10"), seat)
    assert [e for e in events if isinstance(e, BonusCardReturned)] == [BonusCardReturned(seat, "A10", "arcades")]
    s = bonus_state(state)
    assert s.hands[seat] == (N("A10"),) and s.played[seat] == () and s.known[seat] == (N("A10"),)
    # neither the card nor the tile on the reserve board counts
    assert kinds_counted(state, seat)["arcades"] == 0
    check_conservation(state)
    # everybody saw it: the other seats' views show it as known
    assert view(state, (seat + 1) % 3)["module_views"][MOD]["known"][seat] == ["A10"]
    # once the tile is built again, the card may be played again
    while state.current != seat:
        state, _ = apply(state, take_any(state))
    with pytest.raises(IllegalAction, match="reserve board"):
        apply(state, PlayBonusCard("A10"), seat)
    state, _ = apply(state, BuildFromReserve("A10", (1, 0)), seat)
    while state.current != seat:
        state, _ = apply(state, take_any(state))
    assert PlayBonusCard("A10") in legal_actions(state)
    state, _ = apply(state, PlayBonusCard("A10"), seat)
    assert kinds_counted(state, seat)["arcades"] == 2
    assert bonus_state(state).known[seat] == ()


def test_a_tile_exchanged_out_of_the_alhambra_takes_its_card_back() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "C11", 1, 0)
    reserve(state, seat, "C10")
    set_bonus(state, {seat: ["C11", "C10"]})
    state, _ = apply(state, PlayBonusCard("C11"), seat)
    state, events = apply(state, ExchangeTiles("C10", "C11"), seat)
    assert BonusCardReturned(seat, "C11", "chambers") in events
    assert kinds_counted(state, seat)["chambers"] == 1  # C10 in the Alhambra, no card played
    assert bonus_state(state).hands[seat] == (N("C10"), N("C11"))


def test_an_unplayed_card_is_not_affected_by_a_redesign() -> None:
    state = fresh(3)
    seat = state.current
    build(state, seat, "P8", 1, 0)
    set_bonus(state, {seat: ["P8"]})
    state, events = apply(state, MoveToReserve("P8"), seat)
    assert not [e for e in events if isinstance(e, BonusCardReturned)]
    assert bonus_state(state).known[seat] == ()


# ---------------------------------------------------------------------------------- before a scoring round
def test_before_a_scoring_round_every_possible_player_is_asked_from_the_current_player_on() -> None:
    state = fresh(4, seed=3)
    cur = state.current
    a, b, c, d = cur, (cur + 1) % 4, (cur + 2) % 4, (cur + 3) % 4
    build(state, a, "G10", 1, 0)
    build(state, b, "T11", 1, 0)
    build(state, c, "S9", 1, 0)  # c holds a card, but S9's card lies aside: c is asked anyway
    build(state, d, "P8", 1, 0)  # d holds no card at all: never asked
    set_bonus(state, {a: ["G10", "A9"], b: ["T11"], c: ["C10"]})
    assert [could_play(state, s) for s in (a, b, c, d)] == [True, True, True, False]
    scoring_next(state, 1)
    state, events = apply(state, take_any(state), a)
    assert state.pending[-1] == BonusOffer(a, (b, c), 1)
    assert not [e for e in events if isinstance(e, RoundScored)]
    assert legal_actions(state) == [PlayBonusCard("G10"), PassBonus()]
    state, events = apply(state, PassBonus(), a)
    assert BonusPassed(a, 1) in events
    assert state.pending[-1] == BonusOffer(b, (c,), 1)
    # b springs the surprise: b is asked again, then everybody else who may answer
    state, events = apply(state, PlayBonusCard("T11"), b)
    assert BonusCardPlayed(b, "T11", "tower", 1) in events
    assert state.pending[-1] == BonusOffer(a, (c,), 1)  # b has nothing left to play: skipped
    state, _ = apply(state, PlayBonusCard("G10"), a)
    assert state.pending[-1] == BonusOffer(c, (), 1)  # a and b have no card left
    assert legal_actions(state) == [PassBonus()]  # c cannot play anything, but is asked like the others
    state, events = apply(state, PassBonus(), c)
    rounds = [e for e in events if isinstance(e, RoundScored)]
    assert len(rounds) == 1
    assert rounds[0].counts["tower"][b] == 2 and rounds[0].counts["garden"][a] == 2
    assert state.to_act == b and isinstance(state.pending[-1], ChooseAction)  # play goes on
    check_conservation(state)


def test_nobody_is_asked_when_nobody_can_play() -> None:
    state = fresh(3, seed=2)
    seat = state.current
    set_bonus(state, {0: ["G10"], 1: ["T11"], 2: ["A9"]})
    scoring_next(state, 1)
    state, events = apply(state, take_any(state), seat)
    assert len([e for e in events if isinstance(e, RoundScored)]) == 1
    assert not any(isinstance(p, BonusOffer) for p in state.pending)


def test_a_card_known_to_be_elsewhere_does_not_make_a_seat_eligible() -> None:
    state = fresh(3, seed=2)
    build(state, 0, "G10", 1, 0)
    # seat 1 took G10's card back into its hand earlier (everybody knows it is there)
    set_bonus(state, {0: ["A9"], 1: ["G10"]}, known={1: ["G10"]})
    assert not could_play(state, 0)
    set_bonus(state, {0: ["A9"], 1: ["G10"]})
    assert could_play(state, 0)  # the table cannot rule out that seat 0 holds it


def test_the_final_scoring_round_asks_too() -> None:
    rng = random.Random(5)
    state = fresh(2, seed=5)
    seen = set()
    while not state.is_over:
        top = state.pending[-1]
        if isinstance(top, BonusOffer):
            seen.add((top.round_no, state.stage))
        acts = legal_actions(state)
        plays: list[Action] = [a for a in acts if isinstance(a, PlayBonusCard)]
        action: Action
        if plays:
            action = plays[0]
        else:
            pref = [a for a in acts if not str(a).startswith("redesign")]
            action = rng.choice(pref or acts)
        state, _ = apply(state, action)
    assert (3, "final_distribution") in seen
    assert state.rounds_scored == 3
    check_conservation(state)


# ---------------------------------------------------------------------------------- 2 players
def test_the_neutral_player_has_no_bonus_cards() -> None:
    state = fresh(2)
    s = bonus_state(state)
    assert len(s.hands) == 2 and len(s.aside) == 4
    before = building_counts(state, -1)
    set_bonus(state, {0: ["G10"]}, played={1: ["T11"]})
    assert building_counts(state, -1) == before


# ---------------------------------------------------------------------------------- notation and values
def test_notation_round_trips() -> None:
    for a in (PlayBonusCard("G10"), PlayBonusCard("A10"), PassBonus()):
        assert parse_action(str(a)) == a
        assert Action.from_dict(json.loads(json.dumps(a.to_dict()))) == a
    assert parse_action("bonus play g10") == PlayBonusCard("G10")
    assert str(PlayBonusCard("T12")) == "bonus play T12" and str(PassBonus()) == "bonus pass"
    assert PlayBonusCard.keyword == "bonus play" and PlayBonusCard.grammar == ("tile",)
    assert PassBonus.keyword == "bonus pass" and PassBonus.grammar == ()
    with pytest.raises(NotationError):
        parse_action("bonus play")
    with pytest.raises(NotationError):
        parse_action("bonus pass now")
    with pytest.raises(NotationError):
        parse_action("bonus play X9")


def test_events_describe_and_round_trip() -> None:
    for e in (
        BonusCardPlayed(1, "G10", "garden", 2),
        BonusCardPlayed(0, "P8", "pavilion"),
        BonusCardReturned(2, "A9", "arcades"),
        BonusPassed(0, 3),
    ):
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
        assert e.describe().startswith("player") or "player" in e.describe()
        assert e.seen_by(None) == e  # public
    assert "before scoring round 2" in BonusCardPlayed(1, "G10", "garden", 2).describe()


def test_state_with_an_open_question_round_trips_through_json() -> None:
    state = fresh(3, seed=4)
    seat = state.current
    build(state, seat, "G11", 1, 0)
    set_bonus(state, {seat: ["G11"], (seat + 1) % 3: ["T12"]}, played={(seat + 2) % 3: []}, known={(seat + 1) % 3: ["T12"]})
    scoring_next(state, 1)
    state, _ = apply(state, take_any(state), seat)
    assert isinstance(state.pending[-1], BonusOffer)
    text = json.dumps(state_to_json(state), sort_keys=True)
    back = state_from_json(json.loads(text))
    assert json.dumps(state_to_json(back), sort_keys=True) == text
    assert legal_actions(back) == legal_actions(state)
    assert bonus_state(back) == bonus_state(state)


def test_a_bad_slice_is_refused() -> None:
    with pytest.raises(NotationError):
        BonusState.from_dict({"hands": [["bcp8"]], "played": [[]], "known": [[]], "aside": []})
    with pytest.raises(NotationError):
        BonusState.from_dict({"hands": [["zz"]], "played": [[]], "known": [[]], "aside": []})


# ---------------------------------------------------------------------------------- hidden information
def test_views_show_own_cards_and_only_counts_of_the_others() -> None:
    state = fresh(3, seed=9)
    seat = state.current
    build(state, seat, "A9", 1, 0)
    set_bonus(state, {0: ["A9", "C10"], 1: ["T12", "P8"], 2: ["G11"]}, played={seat: []})
    s = bonus_state(state)
    for viewer in (0, 1, 2, None):
        mv = view(state, viewer)["module_views"][MOD]
        assert mv["hand_counts"] == [2, 2, 1]
        assert mv["aside_count"] == 5
        assert mv["hand"] == (None if viewer is None else [CARD_TILES[i] for i in s.hands[viewer]])
        assert set(mv) == {"viewer", "cards", "hand", "hand_counts", "known", "played", "aside_count"}
        assert mv["known"] == [[], [], []] and mv["played"] == [[], [], []]


def test_no_view_tells_a_hidden_difference() -> None:
    """Two states that differ only in which hidden cards seat 1 holds (and which lie aside) look
    the same to seat 0 and to a spectator, legal actions included, also during the question."""
    a = fresh(3, seed=6)
    seat = a.current
    other = (seat + 1) % 3
    build(a, other, "T11", 1, 0)
    b = a.copy()
    set_bonus(a, {seat: ["P8"], other: ["T11", "S9"]})
    set_bonus(b, {seat: ["P8"], other: ["A10", "C11"]})
    watcher = (seat + 2) % 3
    for viewer in (seat, watcher, None):
        assert view(a, viewer) == view(b, viewer)
    scoring_next(a, 1)
    scoring_next(b, 1)
    a2, ea = apply(a, take_any(a), seat)
    b2, eb = apply(b, take_any(b), seat)
    assert a2.pending[-1] == b2.pending[-1] == BonusOffer(other, (), 1)  # asked in both: nothing leaks
    for viewer in (seat, watcher, None):
        assert view(a2, viewer) == view(b2, viewer)
    from alhambra.view import view_events

    assert view_events(ea, watcher) == view_events(eb, watcher)


def test_the_sampler_redraws_the_hidden_cards_consistently() -> None:
    state, history = new_game(GameConfig(players=4, modules=(MOD,)), 12)
    seat = state.current
    build(state, seat, "G10", 1, 0)
    other = (seat + 1) % 4
    build(state, other, "T12", 1, 0)
    set_bonus(state, {seat: ["G10", "A9"], other: ["T12", "C11"], (seat + 2) % 4: ["P8"], (seat + 3) % 4: ["S9"]}, known={other: ["C11"]})
    for action in (PlayBonusCard("G10"), take_any(state)):
        state, events = apply(state, action, seat)
        history += events
    viewer = state.to_act
    assert viewer == other
    obs = observe(state, viewer, history)
    sampler = Sampler(obs)
    hidden = set()
    truth = bonus_state(state)
    for k in range(30):
        s = sampler.sample(random.Random(k))
        check_conservation(s)
        b = bonus_state(s)
        assert b.hands[viewer] == truth.hands[viewer]
        assert b.played == truth.played and b.known == truth.known
        assert [len(h) for h in b.hands] == [len(h) for h in truth.hands]
        assert len(b.aside) == len(truth.aside)
        assert N("C11") in b.hands[other] and N("T12") in b.hands[other]
        for s2 in range(4):
            if s2 != viewer:
                assert N("T12") not in b.hands[s2]
        hidden.add(b.hands[seat])
        assert legal_actions(s) == legal_actions(state)
    assert len(hidden) > 1  # redrawn per sample
    # the fixed rebuild holds every card too
    base = load_module(MOD).slice_from_view(obs.view["module_views"][MOD], state.config)
    assert sorted(MODULE.held_cards(_with(state, base))) == sorted(MODULE.held_cards(state))


def _with(state: GameState, value: object) -> GameState:
    s = state.copy()
    s.mods[MOD] = value
    return s


# ---------------------------------------------------------------------------------- bots
def test_bot_values_count_a_held_playable_card_until_the_seat_has_passed() -> None:
    state = fresh(3, seed=8)
    seat = state.current
    build(state, seat, "T12", 1, 0)
    set_bonus(state, {seat: ["T12"]})
    vals = MODULE.bot_values(state)
    assert vals is not None and vals[seat] > 1.0
    assert all(v == 0 for s, v in enumerate(vals) if s != seat)
    # on the reserve board: a share of that
    st2 = state.copy()
    from alhambra import city as geo

    st2.players[seat].unbuild(geo.pos(1, 0))
    st2.players[seat].reserve.append(st2.components.tile_ids["T12"])
    v2 = MODULE.bot_values(st2)
    assert v2 is not None and 0 < v2[seat] < vals[seat]
    # once played it counts through building_counts, not here
    st3, _ = apply(state, PlayBonusCard("T12"), seat)
    assert MODULE.bot_values(st3) is None
    # after passing before the last scoring round it is worth nothing
    st4 = state.copy()
    st4.rounds_scored = 2
    st4.pending.append(BonusOffer((seat + 1) % 3, (), 3))
    v4 = MODULE.bot_values(st4)
    assert v4 is not None and v4[seat] == 0


def test_the_bots_use_the_bonus_cards() -> None:
    from alhambra.tournament import play_game

    result = play_game(GameConfig(players=3, modules=(MOD,)), ["greedy", "greedy", "random"], 20, 0)
    assert result.outcome == "finished" and result.fallbacks == 0
    acts = result.record["actions"]
    assert any(a.startswith("bonus play") for a in acts)
