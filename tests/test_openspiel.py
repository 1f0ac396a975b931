"""``python_alhambra`` for OpenSpiel: API conformance, explicit chance, MCTS."""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'alhambra[openspiel]')")
np = pytest.importorskip("numpy")

from alhambra import legal_actions, new_game  # noqa: E402
from alhambra.chance import ChanceNeeded, chance_outcomes  # noqa: E402
from alhambra.components import CURRENCIES  # noqa: E402
from alhambra.engine import apply_unchecked  # noqa: E402
from alhambra.openspiel import (  # noqa: E402
    AlhambraState,
    ScoreEvaluator,
    chance_codes,
    config_from_params,
    max_game_length,
)
from alhambra.research.encoding import codec_for  # noqa: E402
from alhambra.research.session import rank_rewards  # noqa: E402

from .research_helpers import ModuleSet, module_sets, openspiel_random_sim  # noqa: E402


def _play(state: AlhambraState, rng: random.Random, until: int | None = None) -> AlhambraState:
    """Random play (chance by its probabilities) until the end or ``until`` moves."""
    moves = 0
    while not state.is_terminal() and (until is None or moves < until):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_sim_test(players: int) -> None:
    game = pyspiel.load_game(f"python_alhambra(players={players})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_on_the_python_engine() -> None:
    """The base game plays on the native core by default (``core=auto``); ``core=python`` keeps
    it on the Python engine (the suite's other tests cover both)."""
    game = pyspiel.load_game("python_alhambra(players=2,core=python)")
    assert not game.native
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_core_is_chosen_by_parameter() -> None:
    from alhambra.native import available

    assert pyspiel.load_game("python_alhambra(players=3)").native == available()
    assert not pyspiel.load_game("python_alhambra(players=3,modules=vizier)").native
    with pytest.raises(ValueError, match="core"):
        pyspiel.load_game("python_alhambra(players=3,core=fast)")


@pytest.mark.parametrize("case", module_sets(), ids=str)
def test_random_sim_test_with_modules(case: ModuleSet) -> None:
    """Each module alone and all modules together (short games; whole games with every module: test_all_modules.py)."""
    openspiel_random_sim(case.modules, players=3, turn_limit=case.turn_limit)


def test_game_facts() -> None:
    game = pyspiel.load_game("python_alhambra(players=4,turn_limit=50)")
    codec = codec_for(game.config)
    assert game.num_distinct_actions() == codec.num_tokens
    assert game.max_chance_outcomes() == len(chance_codes(game)) == 36 + 2 + 54
    assert game.max_game_length() == max_game_length(game.config)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_size() == game.encoder.size
    assert game.information_state_tensor_size() == game.encoder.info_size
    config = config_from_params({"players": 2, "modules": "vizier,currency_exchange", "turn_limit": 9})
    assert config.modules == ("currency_exchange", "vizier")
    with pytest.raises(ValueError, match="turn_limit"):
        config_from_params({"players": 2, "turn_limit": 0})


def _independent_outcomes(state: AlhambraState) -> tuple[str, list[tuple[str, float]]]:
    """Recompute the pending draw's distribution straight from the engine."""
    core = state.core
    try:
        if core.engine is None:
            new_game(core.config, 0, explicit_chance=True, decided=tuple(tuple(d) for d in core.setup))
        else:
            assert core.action is not None
            apply_unchecked(core.engine.copy(), core.action)
    except ChanceNeeded as e:
        return e.kind, chance_outcomes(e.state, e.kind, e.draw)
    raise AssertionError("no draw is pending")


@pytest.mark.parametrize("params", ["players=2,modules=currency_exchange", "players=2", "players=2,core=python"])
def test_every_draw_is_a_chance_node_with_the_engines_probabilities(params: str) -> None:
    game = pyspiel.load_game(f"python_alhambra({params})")
    state = game.new_initial_state()
    rng = random.Random(3)
    codes = chance_codes(game)
    setup_draws = 0
    kinds: set[str] = set()
    drawn: set[str] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [a for a, _ in outcomes] == state.legal_actions()
            kind, expected = _independent_outcomes(state)
            kinds.add(kind)
            assert sorted((codes[a], p) for a, p in outcomes) == sorted(expected)
            if state.engine_state is None:
                setup_draws += 1
            actions, probs = zip(*outcomes, strict=True)
            action = rng.choices(actions, probs)[0]
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, action) == f"draw {kind} {codes[action]}"
            drawn.add(codes[action])
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    # market 4 tiles + starting money + display 4 cards + 6 neutral tiles
    assert setup_draws >= 4 + 2 * 3 + 4 + 6
    assert kinds == {"card", "tile"}
    assert {"S1", "S2"} <= drawn  # the scoring cards are chance outcomes too
    if "currency_exchange" in params:
        assert any(code.startswith("x") for code in drawn)  # and the module's exchange cards
    engine = state.engine_state
    assert engine is not None and engine.outcome == "finished" and engine.rounds_scored == 3


def test_tokens_spell_engine_actions() -> None:
    game = pyspiel.load_game("python_alhambra(players=2)")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    engine = state.engine_state
    assert engine is not None
    codec = game.codec
    action = max(legal_actions(engine), key=lambda a: (len(codec.encode(a)), str(a)))
    tokens = codec.encode(action)
    assert len(tokens) >= 3
    player = state.current_player()
    for i, t in enumerate(tokens):
        assert t in state.legal_actions()
        assert state.action_to_string(player, t) == codec.names[t]
        state.apply_action(t)
        if i < len(tokens) - 1:
            assert state.prefix == tokens[: i + 1]
            assert state.current_player() == player
            assert state.engine_state is engine  # nothing applied yet
    assert state.prefix == ()
    # the action is now being carried out (waiting for its draws) or done
    assert state.core.action == action if state.is_chance_node() else state.engine_state is not engine
    lines = state.information_state_string(player).splitlines()
    assert [f"p{player} {codec.names[t]}" for t in tokens] == [ln for ln in lines if ln.startswith("p")][-len(tokens) :]
    # the other seat sees the move through its events, never through the tokens that encode it
    other = state.information_state_string(1 - player).splitlines()
    assert not [ln for ln in other if ln.startswith(f"p{player} ")]


def test_observations_strings_and_terminal() -> None:
    game = pyspiel.load_game("python_alhambra(players=3,turn_limit=40)")
    state = game.new_initial_state()
    assert state.observation_string(0).startswith("dealing")
    assert not np.any(state.observation_tensor(0))
    state = _play(state, random.Random(5))
    engine = state.engine_state
    assert engine is not None and engine.outcome == "truncated" and engine.turn == 40
    assert state.returns() == rank_rewards(engine.scores)
    for p in range(3):
        obs = np.array(state.observation_tensor(p))
        info = np.array(state.information_state_tensor(p))
        assert obs.shape == (game.encoder.size,) and info.shape == (game.encoder.info_size,)
        assert np.array_equal(info[: game.encoder.size], obs)
        assert f"view of player {p + 1}" in state.observation_string(p)
    # each seat's information state: the chance outcomes, its own tokens and the events as it
    # sees them; nothing is hidden in the base game, so without the own tokens they are the same
    texts = [state.information_state_string(p).splitlines() for p in range(3)]
    for p, lines in enumerate(texts):
        assert lines[0] == f"player {p}"
        assert all(ln.startswith(("chance ", "seen ", f"p{p} ")) for ln in lines[1:])
    public = [[ln for ln in lines[1:] if not ln.startswith("p")] for lines in texts]
    assert public[0] == public[1] == public[2]
    tokens = sum(1 for a in state.full_history() if a.player >= 0)
    chances = sum(1 for a in state.full_history() if a.player < 0)
    assert sum(len([ln for ln in lines[1:] if ln.startswith("p")]) for lines in texts) == tokens
    assert sum(1 for ln in public[0] if ln.startswith("chance ")) == chances


def test_information_state_separates_histories_and_public_observer_hides_hands() -> None:
    game = pyspiel.load_game("python_alhambra(players=2)")
    rng = random.Random(8)
    s1 = _play(game.new_initial_state(), rng, until=80)
    s2 = _play(game.new_initial_state(), random.Random(9), until=80)
    assert s1.information_state_string(0) != s2.information_state_string(0)
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    text = observer.string_from(s1, 0)
    assert "spectator" in text
    observer.set_from(s1, 0)
    start, end = game.encoder.sections["hand"]
    assert not observer.tensor[start:end].any()
    assert observer.dict["alhambras"].shape == (2, 12, 2 * game.encoder.grid + 1, 2 * game.encoder.grid + 1)


@pytest.mark.parametrize("params", ["players=2,modules=vizier", "players=2"])
def test_clone_and_serialize_keep_the_state(params: str) -> None:
    game = pyspiel.load_game(f"python_alhambra({params})")
    state = _play(game.new_initial_state(), random.Random(2), until=300)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    rng = random.Random(4)
    _play(clone, rng, until=50)
    assert str(clone) != str(state)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    thawed = pickle.loads(pickle.dumps(state.core))
    assert thawed.prefix == state.prefix and thawed.engine == state.engine_state
    assert (thawed.native is None) == (state.core.native is None)


def test_mcts_plays_a_full_two_player_game() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_alhambra(players=2)")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=12, evaluator=ScoreEvaluator(), random_state=np.random.RandomState(0), solve=False)
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    bot_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=probs))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            bot_moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    engine = state.engine_state
    assert engine is not None and engine.outcome == "finished" and engine.rounds_scored == 3
    assert bot_moves > 100
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert np.allclose(ScoreEvaluator().evaluate(state), state.returns())


def test_chance_codes_agree_with_the_engine() -> None:
    game = pyspiel.load_game("python_alhambra(players=2)")
    state = game.new_initial_state()
    core = state.core
    assert core.chance is not None and core.chance[0] == "tile"
    codes = chance_codes(game)
    engine_first = {c for c, _ in core.chance[1]}
    assert {codes[a] for a, _ in state.chance_outcomes()} == engine_first
    assert all(abs(p - 1 / 54) < 1e-12 for _, p in state.chance_outcomes())
    with pytest.raises(Exception, match="not possible"):
        state.apply_action(codes.index("b1"))


def _dealt(name: str, rng: random.Random) -> AlhambraState:
    """A new state of the game ``name`` once the deal is over (draws by their probabilities)."""
    state = pyspiel.load_game(name).new_initial_state()
    while state.engine_state is None:
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


def test_secret_deals_are_chance_nodes_each_seat_sees_its_own() -> None:
    """The thieves dealt at setup are chance nodes: a seat's information state shows its own
    thieves and, for each thief of another seat, only that it was dealt."""
    state = _dealt("python_alhambra(players=3,modules=thieves)", random.Random(4))
    hands = state.engine_state.mods["thieves"].hands
    for p in range(3):
        lines = state.information_state_string(p).splitlines()
        own = sorted(ln.removeprefix("chance thieves:") for ln in lines if ln.startswith("chance thieves:"))
        assert own == sorted(CURRENCIES[c] for c in hands[p])
        others = sum(len(hands[q]) for q in range(3) if q != p)
        assert sum(1 for ln in lines if ln.startswith("chance (secret to p")) == others


def test_cards_set_aside_face_down_are_chance_nodes_nobody_sees() -> None:
    """The master builders' deal: each seat sees its own two cards, that the others got theirs,
    and only that cards were set aside (never which)."""
    state = _dealt("python_alhambra(players=3,modules=master_builders)", random.Random(6))
    sl = state.engine_state.mods["master_builders"]
    code_of = state.engine_state.components.card_code
    for p in range(3):
        lines = state.information_state_string(p).splitlines()
        own = sorted(ln.removeprefix("chance master_builders:") for ln in lines if ln.startswith("chance master_builders:"))
        assert own == sorted(code_of[c] for c in sl.secret[p])
        assert sum(1 for ln in lines if ln.startswith("chance (secret to p")) == 4
        assert lines.count("chance (hidden)") == len(sl.set_aside) > 0
