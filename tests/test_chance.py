"""Explicit-chance mode: every draw is a decided outcome with exact probabilities."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from alhambra import GameConfig, apply, legal_actions
from alhambra.chance import ChanceNeeded, chance_outcomes, decide
from alhambra.engine import new_game
from alhambra.errors import IllegalAction
from alhambra.policies import kind_random
from alhambra.serialize import state_from_json, state_to_json
from alhambra.state import GameState
from alhambra.testing import explicit_setup


def _pick(outcomes: list[tuple[str, float]], rng: random.Random) -> str:
    r = rng.random()
    acc = 0.0
    for code, p in outcomes:
        acc += p
        if r < acc:
            return code
    return outcomes[-1][0]


def _explicit_start(config: GameConfig, rng: random.Random, seen: list[tuple[str, GameState, list[tuple[str, float]]]]) -> GameState:
    state, draws, _ = explicit_setup(config, lambda outs: _pick(outs, rng))
    seen += [(e.kind, e.state, chance_outcomes(e.state, e.kind, e.draw)) for e in draws]
    return state


Seen = list[tuple[str, GameState, list[tuple[str, float]]]]
Draws = list[tuple[ChanceNeeded, tuple[str, ...]]]
"""A module's draws: the exception and the outcomes of that action decided before it."""


def _explicit_game(players: int, seed: int, modules: tuple[str, ...] = (), draws: Draws | None = None) -> tuple[GameState, Seen]:
    """Play a whole explicit-chance game, sampling every draw from chance_outcomes (the
    modules' draws are also kept in ``draws``)."""
    rng = random.Random(seed)
    seen: Seen = []
    state = _explicit_start(GameConfig(players=players, modules=modules), rng, seen)
    while not state.is_over:
        action = kind_random(state, rng)
        base = state
        while True:
            try:
                state, _ = apply(base, action)
                break
            except ChanceNeeded as e:
                outs = chance_outcomes(e.state, e.kind, e.draw)
                seen.append((e.kind, e.state, outs))
                if draws is not None and e.kind == "module":
                    draws.append((e, base.module_decided))
                base = base.copy()
                decide(base, e.kind, _pick(outs, rng))
    return state, seen


@pytest.mark.parametrize(("players", "modules"), [(2, ()), (4, ()), (6, ()), (3, ("currency_exchange", "vizier"))])
def test_every_draw_has_a_distribution_summing_to_one(players: int, modules: tuple[str, ...]) -> None:
    state, seen = _explicit_game(players, 11 + players, modules)
    assert state.outcome == "finished"
    assert state.rounds_scored == 3
    assert len(seen) > 100
    for kind, partial, outs in seen:
        assert outs, kind
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outs)
        if kind == "tile":
            assert sorted(c for c, _ in outs) == sorted(partial.components.tiles[t].code for t in partial.bag)


def test_scoring_cards_only_come_from_their_piles() -> None:
    _, seen = _explicit_game(4, 3)
    for kind, partial, outs in seen:
        if kind != "card" or partial.piles is None:
            continue
        piles = partial.piles
        current = next((i for i, (left, _) in enumerate(piles) if left > 0), None)
        codes = {c for c, _ in outs}
        if len(piles) == 5:
            # S1 sits in pile 2 (index 1) and S2 in pile 4 (index 3)
            assert ("S1" in codes) == (current == 1 and "S1" in dict(piles[1][1]))
            assert ("S2" in codes) == (current == 3 and "S2" in dict(piles[3][1]))
            if "S1" in codes:
                left = piles[1][0]
                assert dict(outs)["S1"] == pytest.approx(1 / left)


def test_the_first_card_of_setup_is_uniform_over_the_money() -> None:
    with pytest.raises(ChanceNeeded) as info:
        new_game(GameConfig(players=3), 0, explicit_chance=True, decided=((), ("P2new", "S3esw", "A4nes", "C5nsw")))
    assert info.value.kind == "card"
    outs = dict(chance_outcomes(info.value.state, "card"))
    assert len(outs) == 36  # 4 currencies x values 1-9, three copies each
    assert all(p == pytest.approx(1 / 36) for p in outs.values())
    assert "S1" not in outs


def test_exchange_cards_share_their_piles_probability() -> None:
    # build the piles, then look at the first draw from pile 2, which holds S1 and two exchange cards
    rng = random.Random(5)
    state = _explicit_start(GameConfig(players=4, modules=("currency_exchange",)), rng, [])
    assert state.piles is not None
    left2, classes2 = state.piles[1]
    assert dict(classes2) == {"S1": 1, "exchange": 2}
    probe = state.copy()
    probe.piles = ((0, ()), *state.piles[1:])  # as if pile 1 were used up
    outs = dict(chance_outcomes(probe, "card"))
    exchange_in_deck = [c for c in probe.deck if probe.components.cards[c].kind == "exchange"]
    assert len(exchange_in_deck) == 6
    for code in ("xbg", "xbo", "xby", "xgo", "xgy", "xoy"):
        assert outs[code] == pytest.approx(2 / left2 / 6)
    assert outs["S1"] == pytest.approx(1 / left2)
    assert sum(outs.values()) == pytest.approx(1.0)


def test_a_reshuffle_brings_module_cards_back_as_likely_as_any_card() -> None:
    from alhambra.engine import draw_card

    state = _explicit_start(GameConfig(players=3, modules=("currency_exchange",)), random.Random(5), [])

    def reshuffled(kinds: tuple[str, ...]) -> GameState:
        """The deck is empty and the discard pile holds the deck's cards of ``kinds``: draw."""
        probe = state.copy()
        probe.discard = [c for c in probe.deck if probe.components.cards[c].kind in kinds]
        probe.removed += [c for c in probe.deck if c not in probe.discard]
        probe.deck = []
        with pytest.raises(ChanceNeeded) as info:
            draw_card(probe, [])
        return info.value.state

    after = reshuffled(("money", "exchange"))
    outs = dict(chance_outcomes(after, "card"))
    assert outs["xbg"] == pytest.approx(1 / len(after.deck)) and sum(outs.values()) == pytest.approx(1.0)
    after = reshuffled(("exchange",))  # a deck of exchange cards only still has outcomes
    outs = dict(chance_outcomes(after, "card"))
    assert sorted(outs) == ["xbg", "xbo", "xby", "xgo", "xgy", "xoy"] and sum(outs.values()) == pytest.approx(1.0)
    decide(after, "card", "xgo")
    drawn = draw_card(after, [])
    assert drawn is not None and after.components.cards[drawn].code == "xgo"


def test_an_undecided_draw_leaves_the_given_state_untouched() -> None:
    rng = random.Random(1)
    state = _explicit_start(GameConfig(players=2), rng, [])
    before = state_to_json(state)
    action = next(a for a in legal_actions(state) if str(a).startswith("take"))
    with pytest.raises(ChanceNeeded) as info:
        apply(state, action)
    assert info.value.kind == "card"
    assert state_to_json(state) == before
    decide(state, "card", chance_outcomes(info.value.state, "card")[0][0])
    after, _ = apply(state, action)
    assert after.decided == ((), ())


def test_impossible_outcomes_are_refused() -> None:
    rng = random.Random(2)
    state = _explicit_start(GameConfig(players=4), rng, [])
    action = next(a for a in legal_actions(state) if str(a).startswith("take"))
    assert state.piles is not None and state.piles[0][0] > 0
    bad = state.copy()
    decide(bad, "card", "S2")  # scoring card 2 is in pile 4, not on top
    with pytest.raises(IllegalAction, match="cannot be in the current pile"):
        apply(bad, action)
    with pytest.raises(IllegalAction, match="not in the bag"):
        new_game(GameConfig(players=4), 0, explicit_chance=True, decided=((), ("Z9",)))


def test_explicit_states_round_trip_and_conserve_every_component() -> None:
    state, _ = _explicit_game(3, 8)
    again = state_from_json(state_to_json(state))
    assert state_to_json(again) == state_to_json(state)
    cards = Counter(state.deck + state.discard + state.removed + [c for c in state.display if c >= 0])
    for p in state.players:
        cards.update(p.hand)
    assert sorted(cards) == list(range(len(state.components.cards)))
    assert all(v == 1 for v in cards.values())


def test_normal_games_are_not_affected() -> None:
    state, _ = new_game(GameConfig(players=4), 7)
    assert state.decided is None and state.piles is None
    with pytest.raises(IllegalAction):
        decide(state, "card", "b1")


def _pool_treasure_chamber(state: GameState) -> Counter[str]:
    # every chest of the game: the chamber draws from its bag as it is once the chests of the
    # rooms emptied in this action are back in it, which the state holds only afterwards
    from alhambra.modules.treasure_chamber.module import CHESTS

    return Counter(CHESTS)


def _pool_change(state: GameState) -> Counter[str]:
    from alhambra.modules.change.module import token_of

    return Counter({token_of(c): n for c, n in enumerate(state.mods["change"].bag) if n})


def _pool_building_sites(state: GameState) -> Counter[str]:
    from alhambra.modules.building_sites.module import currency_name

    return Counter(currency_name(c) for c in state.mods["building_sites"].stack)


def _pool_power_of_the_sultan(state: GameState) -> Counter[str]:
    from alhambra.modules.power_of_the_sultan.module import components, extra_item

    return Counter(extra_item(t) for t in components().extra_tiles)


MODULE_POOLS = {
    "treasure_chamber": _pool_treasure_chamber,
    "change": _pool_change,
    "building_sites": _pool_building_sites,
    "power_of_the_sultan": _pool_power_of_the_sultan,
}
"""What each module with draws of its own draws from, read from its state slice."""
PUT_BACK = {"power_of_the_sultan"}
"""Modules whose drawn item goes back before the next draw (the sultan's extra tiles are
shuffled back after every reveal); the others draw several items without putting them back."""


@pytest.mark.parametrize("module", sorted(MODULE_POOLS))
def test_a_modules_own_draws_are_chance_nodes_over_what_it_holds(module: str) -> None:
    """Every random draw a module makes during play is a chance node: its outcomes are the
    items of what the module holds (less the items this action drew already), each entry
    equally likely; the whole game plays through and round-trips."""
    from alhambra.hooks import load_module

    draws: Draws = []
    state, _ = _explicit_game(2, 5, (module,), draws)
    assert state.outcome == "finished"
    assert len(draws) >= 2, f"{module} drew nothing in this game"
    items = set(load_module(module).chance_items(state.config))
    secret = module == "building_sites"
    for e, before in draws:
        assert e.draw is not None and e.draw.module == module
        held = MODULE_POOLS[module](e.state)
        pool = Counter(e.draw.pool)
        assert not pool - held, "a draw from items the module does not hold"
        if module in PUT_BACK:
            assert pool == held
        else:  # what it holds less the items this action has drawn already
            assert module == "treasure_chamber" or not (held - pool) - Counter(code.partition(":")[2] for code in before)
        outs = chance_outcomes(e.state, "module", e.draw)
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        assert dict(outs) == {f"{module}:{item}": n / len(e.draw.pool) for item, n in Counter(e.draw.pool).items()}
        assert {code.partition(":")[2] for code, _ in outs} <= items
        assert (e.draw.secret_to is not None) == secret
    again = state_from_json(state_to_json(state))
    assert state_to_json(again) == state_to_json(state)


def test_module_draw_takes_decided_outcomes_and_refuses_others() -> None:
    from alhambra.engine import module_draw

    seeded, _ = new_game(GameConfig(players=2), 3)
    assert module_draw(seeded, "m", ["a", "b"]) is None  # a seeded game: the module draws itself
    state = _explicit_start(GameConfig(players=2), random.Random(3), [])
    with pytest.raises(ChanceNeeded) as info:
        module_draw(state, "m", ["a", "b", "b"], secret_to=1)
    draw = info.value.draw
    assert info.value.kind == "module" and draw is not None and draw.secret_to == 1
    assert chance_outcomes(state, "module", draw) == [("m:a", pytest.approx(1 / 3)), ("m:b", pytest.approx(2 / 3))]
    decide(state, "module", "m:b")
    decide(state, "module", "m:b")
    assert module_draw(state, "m", ["a", "b", "b"], 2) == ["b", "b"]
    assert state.module_decided == ()
    decide(state, "module", "m:b")
    with pytest.raises(IllegalAction, match="cannot draw that now"):
        module_draw(state, "m", ["a"])  # no b left to draw
    decide(state, "module", "other:a")
    with pytest.raises(IllegalAction, match="cannot draw that now"):
        module_draw(state.copy(), "m", ["a"])
    with pytest.raises(ValueError, match="pool of 1"):
        module_draw(state, "m", ["a"], 2)
    with pytest.raises(IllegalAction, match="MODULE:ITEM"):
        decide(state, "module", "b")


@pytest.mark.parametrize(("module", "players"), [("thieves", 2), ("thieves", 5), ("bonus_cards", 3), ("bonus_cards", 6)])
def test_a_modules_secret_deal_at_setup_is_chance_nodes_only_the_dealt_seat_sees(module: str, players: int) -> None:
    """Secret cards a module deals at setup (thieves, bonus cards) are chance nodes in explicit
    mode: seat by seat, each card drawn uniformly from those left and shown to that seat alone;
    the hands are the outcomes decided, and the game then plays through."""
    config = GameConfig(players=players, modules=(module,))
    rng = random.Random(players)
    state, every, decided = explicit_setup(config, lambda outs: _pick(outs, rng))
    draws = [e for e in every if e.kind == "module"]
    assert draws, "the deal made no chance node"
    seats = [e.draw.secret_to for e in draws if e.draw is not None]
    assert seats == sorted(seats) and set(seats) == set(range(players))  # seat by seat, every seat
    for before, after in itertools.pairwise(draws):
        assert before.draw is not None and after.draw is not None
        assert len(after.draw.pool) == len(before.draw.pool) - 1  # one card fewer each draw
    mine = [
        [code.partition(":")[2] for code, e in zip(decided[2], draws, strict=True) if e.draw and e.draw.secret_to == s]
        for s in range(players)
    ]
    if module == "thieves":
        from alhambra.modules.thieves.module import currency_name as name_of
    else:
        from alhambra.modules.bonus_cards.module import CARD_CODES

        name_of = CARD_CODES.__getitem__
    hands = state.mods[module].hands
    assert [sorted(name_of(c) for c in hands[s]) for s in range(players)] == [sorted(m) for m in mine]
    _, seen = _explicit_game(players, 3, (module,))
    assert seen
