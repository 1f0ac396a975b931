"""The shortcuts of the turn flow and of the random policy decide exactly as the general code:
``kind_random``'s direct path against its definition through ``action_kinds`` and
``legal_actions``, the memoised ``take`` lists, the payment check's quick acceptance and the
card matching."""

from __future__ import annotations

import random

import pytest

from alhambra.actions import Action, BuyBuilding
from alhambra.engine import (
    _check_payment,
    _list_takes,
    _match_cards,
    _plain_payment,
    _tables,
    _take_actions,
    action_kinds,
    apply,
    apply_unchecked,
    kind_forms,
    legal_actions,
    new_game,
    plain_flow,
)
from alhambra.errors import GameOver, IllegalAction
from alhambra.policies import kind_random
from alhambra.serialize import state_to_json
from alhambra.state import ChooseAction, GameConfig, GameState


def _reference_kind_random(state: GameState, rng: random.Random) -> Action:
    """``kind_random`` as documented: a uniform kind of ``action_kinds``, then a uniform form,
    then a uniform action of ``legal_actions`` (one draw for the form of a one-form kind)."""
    kinds = action_kinds(state)
    while kinds:
        ki = int(rng.random() * len(kinds))
        forms = list(kind_forms(state, kinds[ki]))
        while forms:
            fi = int(rng.random() * len(forms))
            acts = legal_actions(state, forms[fi])
            if acts:
                return acts[int(rng.random() * len(acts))]
            del forms[fi]
        del kinds[ki]
    raise GameOver("no legal action")


def _games(config: GameConfig, seeds: range) -> list[GameState]:
    """Every position of kind_random games with these seeds (copies)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = new_game(config, seed)
        while not state.is_over:
            out.append(state.copy())
            apply_unchecked(state, kind_random(state, rng), events=False)
    return out


@pytest.mark.parametrize(
    ("players", "modules", "game"),
    [
        (2, (), "alhambra"),
        (4, (), "alhambra"),
        (6, (), "alhambra"),
        (3, ("vizier", "currency_exchange"), "alhambra"),
        (3, ("medina", "new_score_cards"), "alhambra"),  # passive modules: the plain flow
        (3, (), "granada"),
    ],
)
def test_kind_random_draws_as_its_definition(players: int, modules: tuple[str, ...], game: str) -> None:
    config = GameConfig(players=players, modules=modules, game=game)
    for seed in range(3):
        fast_rng = random.Random(seed)
        ref_rng = random.Random(seed)
        state, _ = new_game(config, seed)
        steps = 0
        while not state.is_over:
            probe = state.copy()
            action = kind_random(state, fast_rng)
            assert action == _reference_kind_random(probe, ref_rng)
            assert fast_rng.getstate() == ref_rng.getstate(), "the same number of draws"
            apply_unchecked(state, action, events=False)
            steps += 1
        assert steps > 50


def test_memoised_take_lists_are_the_fresh_listing_and_new_lists() -> None:
    states = _games(GameConfig(players=4), range(4))
    for state in states:
        fresh = _list_takes(state, _tables(state.components))
        got = _take_actions(state)
        assert got == fresh
        got.append(BuyBuilding(1, ("b1",)))
        assert _take_actions(state) == fresh, "changing a returned list changes no memo"


def _variants(payment: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A payment, and the same with a card left out, a card added, a card of another currency."""
    out = [payment, payment[:-1], (*payment, "b1"), (*payment, "y9")]
    for i, code in enumerate(payment):
        for letter in "bgoy":
            if letter != code[0]:
                out.append((*payment[:i], letter + code[1:], *payment[i + 1 :]))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_the_quick_payment_acceptance_never_accepts_what_the_full_check_refuses(players: int) -> None:
    accepted = refused = 0
    for state in _games(GameConfig(players=players), range(3)):
        top = state.pending[-1]
        if not isinstance(top, ChooseAction):
            continue
        for action in legal_actions(state, "buy")[:6]:
            assert isinstance(action, BuyBuilding)
            assert _plain_payment(state, top.seat, action.square, action.payment), "every plain legal purchase is accepted"
            for square in (action.square, 1 + action.square % 4):
                for pay in _variants(action.payment):
                    if _plain_payment(state, top.seat, square, pay):
                        _check_payment(state, top.seat, square, pay)  # does not raise
                        accepted += 1
                    else:
                        refused += 1
    assert accepted > 100 and refused > 100


def _reference_match(code_of: tuple[str, ...], pool: list[int], codes: tuple[str, ...]) -> list[int] | None:
    used: list[int] = []
    for code in codes:
        for i, c in enumerate(pool):
            if c >= 0 and code_of[c] == code and i not in used:
                used.append(i)
                break
        else:
            return None
    return used


def test_card_matching_takes_the_first_unused_card_of_each_code() -> None:
    state, _ = new_game(GameConfig(players=4), 0)
    comp = state.components
    rng = random.Random(5)
    money = [i for i, c in enumerate(comp.cards) if c.is_money and c.value <= 3 and c.currency < 2]
    found = 0
    for _ in range(2000):
        pool = [rng.choice(money) if rng.random() < 0.8 else -1 for _ in range(rng.randint(0, 8))]
        codes = tuple(comp.card_code[rng.choice(money)] for _ in range(rng.randint(1, 3)))
        got = _match_cards(comp, pool, codes)
        assert got == _reference_match(comp.card_code, pool, codes)
        found += got is not None
    assert 200 < found < 1800


def test_a_refused_purchase_still_gets_the_full_checks_reason() -> None:
    state, _ = new_game(GameConfig(players=4), 1)
    top = state.pending[-1]
    assert isinstance(top, ChooseAction)
    hand = state.players[top.seat].hand
    code = state.components.card_code[hand[0]]
    wrong = "b" if code[0] != "b" else "g"
    square = 1 + "bgoy".index(wrong)
    assert not _plain_payment(state, top.seat, square, (code,))
    with pytest.raises(IllegalAction, match="takes"):
        _check_payment(state, top.seat, square, (code,))


def test_passive_modules_play_on_the_plain_flow() -> None:
    assert plain_flow(GameConfig(players=3))
    assert plain_flow(GameConfig(players=3, modules=("medina", "new_score_cards")))
    assert not plain_flow(GameConfig(players=3, modules=("vizier",)))
    assert not plain_flow(GameConfig(players=3, modules=("medina", "bonus_cards")))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_the_plain_flow_of_passive_modules_plays_as_the_module_flow(players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Medina and new score cards touch only setup, scoring, views and bots: their games take
    the flow of a game without modules, and every state and event is what the general module
    flow (forced here) gives, on both paths."""
    from alhambra import engine

    config = GameConfig(players=players, modules=("medina", "new_score_cards"))
    plain, plain_events = new_game(config, seed)
    fast, _ = new_game(config, seed)
    with monkeypatch.context() as m:
        m.setitem(engine._PLAIN, config.modules, False)
        general, general_events = new_game(config, seed)
    assert plain_events == general_events
    rng = random.Random(seed)
    steps = 0
    while not plain.is_over:
        action = kind_random(plain, rng)
        plain, events = apply(plain, action)
        apply_unchecked(fast, action, events=False)
        with monkeypatch.context() as m:
            m.setitem(engine._PLAIN, config.modules, False)
            general, expected = apply(general, action)
        assert events == expected
        assert state_to_json(plain) == state_to_json(general) == state_to_json(fast)
        steps += 1
    assert steps > 100 and plain.scores == general.scores
