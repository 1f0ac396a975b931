"""Hidden information: each site's currency (known to its owner), the drawn pair (known to the
buyer) and the stack (known to nobody) never show in another seat's view or events; the bots'
sampler redraws them per sample and keeps everything the viewer knows."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

from alhambra import GameConfig, apply, legal_actions, new_game, parse_action, view
from alhambra.bots import EventLog, GreedyBot, MctsBot, MctsSettings, observe
from alhambra.bots.tracker import Sampler, Tracker
from alhambra.modules.building_sites import SiteChoice, SiteRevealed, SiteTileKept, SiteTilesDrawn, check_sites, sites_slice
from alhambra.state import GameState
from alhambra.testing import check_conservation, set_hand
from alhambra.view import view_events

from .helpers import ID, act, fresh, give_site, hand, seat_to_act, set_stack


def _swap_currency(state: GameState, number: int, currency: int) -> GameState:
    """The same game where site ``number`` shows ``currency`` (swapped with a stack tile)."""
    other = state.copy()
    sl = sites_slice(other)
    site = next(s for s in sl.sites if s.number == number)
    stack = list(sl.stack)
    stack.remove(currency)
    stack.append(site.currency)
    sites = tuple(replace(s, currency=currency) if s is site else s for s in sl.sites)
    other.mods[ID] = replace(sl, stack=tuple(sorted(stack)), sites=sites)
    check_sites(other)
    return other


def test_another_seat_sees_neither_the_currency_nor_the_stack() -> None:
    state = fresh()
    seat = seat_to_act(state)
    owner = (seat + 1) % 3
    give_site(state, owner, "C5nsw", "b", x=-1, y=0)
    hand(state, seat, ["g3", "y9"])
    other = _swap_currency(state, 1, 3)
    for viewer in (seat, (seat + 2) % 3, None):
        assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
        assert view(state, viewer)["module_views"][ID]["sites"][0]["currency"] is None
    assert view(state, owner)["module_views"][ID]["sites"][0]["currency"] == "blue"
    assert view(other, owner)["module_views"][ID]["sites"][0]["currency"] == "yellow"


def test_the_drawn_pair_shows_only_to_the_buyer() -> None:
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "bgoy")
    hand(state, seat, ["b2"])
    state, events = act(state, "buy site1 b2")
    sl = sites_slice(state)
    # the same moment with another pair drawn (the remaining stack differs accordingly)
    pool = [c for c in (0, 1, 2, 3) if c not in sl.drawn]
    other = state.copy()
    other.mods[ID] = replace(sl, stack=tuple(sl.drawn), drawn=tuple(pool))
    check_sites(other)
    for viewer in [s for s in range(3) if s != seat] + [None]:
        assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
        mv = view(state, viewer)["module_views"][ID]
        assert mv["drawn"] is None and mv["drawn_count"] == 2 and mv["choosing"] == seat
        seen = view_events(events, viewer)
        drawn = next(e for e in seen if e["type"] == "SiteTilesDrawn")
        assert drawn["currencies"] == [] and "green" not in drawn["text"] and "blue" not in drawn["text"]
    mine = view(state, seat)["module_views"][ID]
    assert mine["drawn"] == [["blue", "green", "orange", "yellow"][c] for c in sl.drawn]
    # the pending on the stack names no currency
    assert view(state, (seat + 1) % 3)["pending"] == {"type": "SiteChoice", "seat": seat, "tile": "P4es", "site": 5}


def test_the_choice_is_redacted_in_the_log_of_the_others() -> None:
    state = fresh()
    seat = seat_to_act(state)
    set_stack(state, "by")
    hand(state, seat, ["b2"])
    state, _ = act(state, "buy site1 b2")
    state, events = act(state, "site keep y")
    kept = next(e for e in events if isinstance(e, SiteTileKept))
    assert kept.seen_by(seat) is kept
    for viewer in [(seat + 1) % 3, None]:
        hidden = kept.seen_by(viewer)
        assert isinstance(hidden, SiteTileKept) and hidden.kept == "" and hidden.returned == ""
        assert "yellow" not in hidden.describe() and "blue" not in hidden.describe()
    # each shows its owner something hidden until then: the server never takes such a move back
    assert SiteTileKept.reveals and SiteTilesDrawn.reveals and SiteRevealed.reveals


def _play_until(config: GameConfig, seed: int, stop: object, prefer_sites: bool = True) -> tuple[GameState, EventLog]:
    """Play random actions (sites preferred) until ``stop(state)`` holds; the log of every event."""
    state, events = new_game(config, seed)
    log = EventLog()
    log.extend(events)
    rng = random.Random(seed)
    while not stop(state):  # type: ignore[operator]
        acts = legal_actions(state)
        pick = [a for a in acts if prefer_sites and ("site" in str(a) or " fin" in str(a))]
        a = rng.choice(pick if pick and rng.random() < 0.5 else acts)
        state, evs = apply(state, a, state.to_act)
        log.extend(evs)
        assert not state.is_over, "the game ended before the situation came up"
    return state, log


def _others_have_a_site(state: GameState) -> bool:
    seat = state.to_act
    sl = sites_slice(state)
    return seat is not None and any(s.seat != seat and s.currency >= 0 for s in sl.sites) and any(s.seat == seat for s in sl.sites)


def test_samples_keep_what_the_viewer_knows_and_redraw_the_rest() -> None:
    state, log = _play_until(GameConfig(players=3, modules=(ID,)), 11, _others_have_a_site)
    seat = seat_to_act(state)
    obs = observe(state, seat, log.for_seat(seat))
    sampler = Sampler(obs)
    truth = sites_slice(state)
    seen: Counter[tuple[int, ...]] = Counter()
    for k in range(40):
        sample = sampler.sample(random.Random(k))
        check_conservation(sample)
        check_sites(sample)
        sl = sites_slice(sample)
        assert [(s.number, s.seat, s.tile) for s in sl.sites] == [(s.number, s.seat, s.tile) for s in truth.sites]
        for mine, real in zip(sl.sites, truth.sites, strict=True):
            if real.seat == seat:
                assert mine.currency == real.currency
        assert sl.completed == truth.completed
        assert {str(a) for a in legal_actions(sample)} == set(obs.legal)
        seen[tuple(s.currency for s in sl.sites if s.seat != seat)] += 1
    assert len(seen) > 1, "the other seats' site tiles are redrawn per sample"


def test_a_sample_taken_while_another_seat_chooses_has_a_drawn_pair() -> None:
    def choosing(state: GameState) -> bool:
        top = state.pending[-1] if state.pending else None
        return isinstance(top, SiteChoice)

    state, log = _play_until(GameConfig(players=2, modules=(ID,)), 5, choosing)
    top = state.pending[-1]
    assert isinstance(top, SiteChoice)
    other = 1 - top.seat
    obs = observe(state, other, log.for_seat(other))
    for k in range(10):
        sample = Sampler(obs).sample(random.Random(k))
        check_sites(sample)
        assert len(sites_slice(sample).drawn) == 2
        assert legal_actions(sample)  # the sampled chooser can answer
    mine = observe(state, top.seat, log.for_seat(top.seat))
    sample = Sampler(mine).sample(random.Random(1))
    assert sites_slice(sample).drawn == sites_slice(state).drawn


def test_the_tracker_follows_the_end_of_game_discard() -> None:
    config = GameConfig(players=2, modules=(ID,))
    for seed in range(1, 40):
        state, events = new_game(config, seed)
        log = EventLog()
        log.extend(events)
        rng = random.Random(seed)
        while not state.is_over and not any(isinstance(e, SiteRevealed) for e in log.events):
            acts = legal_actions(state)
            pick = [a for a in acts if str(a).startswith("buy site") or str(a).startswith("site")]
            state, evs = apply(state, rng.choice(pick if pick and rng.random() < 0.5 else acts), state.to_act)
            log.extend(evs)
        if any(isinstance(e, SiteRevealed) and e.payment for e in log.events):
            break
    else:  # pragma: no cover
        raise AssertionError("no seed discarded money at a reveal")
    for seat in range(2):
        tracker = Tracker()
        tracker.update(log.for_seat(seat))
        for s in range(2):
            real = Counter(state.card_code(c) for c in state.players[s].hand)
            known = tracker.hands[s]
            assert not (known - real), f"the tracker thinks seat {s} holds cards it discarded"


def test_bots_decide_a_secret_choice_from_their_own_view() -> None:
    state, events = new_game(GameConfig(players=2, modules=(ID,)), 3)
    seat = seat_to_act(state)
    set_stack(state, "bg")
    t = state.market[0]
    price = state.components.tile_price[t]
    set_hand(state, seat, [f"b{price // 2}", "g9", "g8"])
    state, more = apply(state, parse_action(f"buy site1 b{price // 2}"), seat)
    events = [*events, *more]
    obs = observe(state, seat, events)
    assert set(obs.legal) == {"site keep b", "site keep g"}
    choice = GreedyBot().choose(obs, GreedyBot().budget, random.Random(1))
    assert str(choice) == "site keep g"  # the green it can pay the completion with
    mcts = MctsBot("m", MctsSettings(iterations=10, seconds=None))
    assert str(mcts.choose(obs, mcts.budget, random.Random(1))) in obs.legal
