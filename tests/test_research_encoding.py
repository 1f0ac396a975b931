"""The sub-decision action space: every legal engine action <-> exactly one token sequence."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, parse_action
from alhambra.actions import Action, PlaceBuilding
from alhambra.engine import apply_unchecked
from alhambra.policies import kind_random
from alhambra.research.encoding import CORE_KEYWORDS, TokenKind, codec_for
from alhambra.research.session import TokenGame, rank_rewards
from alhambra.state import GameState, PlaceTiles

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=3, modules=("currency_exchange", "vizier")),
    GameConfig(players=4),
    GameConfig(players=6, modules=("vizier",)),
]


def sample_states(config: GameConfig, seed: int, every: int = 3) -> list[GameState]:
    """Every ``every``-th decision of a random game (kinds policy), copied."""
    state, _ = new_game(config, seed)
    rng = random.Random(seed)
    out: list[GameState] = []
    i = 0
    while not state.is_over:
        if i % every == 0:
            out.append(state.copy())
        apply_unchecked(state, kind_random(state, rng))
        i += 1
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{'+'.join(c.modules) or 'base'}")
def test_bijection_on_random_states(config: GameConfig) -> None:
    codec = codec_for(config)
    checked = 0
    kinds_seen: set[str] = set()
    for state in sample_states(config, seed=config.players * 7, every=2):
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        # unique and prefix-free
        assert len(set(sequences)) == len(actions)
        as_set = set(sequences)
        for seq in sequences:
            for k in range(1, len(seq)):
                assert seq[:k] not in as_set, f"{codec.describe(seq)} has a complete prefix"
        # and back
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            kinds_seen.add(str(a).split()[0])
        # the prefix tree holds exactly the legal actions, and walking it finds each one
        tree = codec.tree(actions)
        assert tree.size == len(actions)
        assert sorted(map(str, tree.actions())) == sorted(map(str, actions))
        for a, seq in zip(actions, sequences, strict=True):
            for k in range(len(seq)):
                assert seq[k] in tree.legal(seq[:k])
            assert tree.node(seq) == a
        checked += len(actions)
    assert checked > 1000
    assert {"take", "buy", "place", "redesign"} <= kinds_seen


def test_examples_from_the_docs() -> None:
    codec = codec_for(GameConfig(players=2, modules=("vizier",)))

    def names(text: str) -> list[str]:
        return [codec.names[t] for t in codec.encode(parse_action(text))]

    assert names("buy 2 b7+b2") == ["buy", "square 2", "card b7", "card b2", "done"]
    assert names("take b3+g2") == ["take", "card b3", "card g2", "done"]
    assert names("place G8sw 1,-2") == ["place", "tile G8sw", "cell 1,-2"]
    assert names("place G8sw reserve") == ["place", "tile G8sw", "reserve"]
    assert names("place G8sw neutral") == ["place", "tile G8sw", "neutral"]
    assert names("redesign build G8sw 1,-2") == ["redesign build", "tile G8sw", "cell 1,-2"]
    assert names("redesign remove G8sw") == ["redesign remove", "tile G8sw"]
    assert names("redesign exchange T9ne G8sw") == ["redesign exchange", "tile T9ne", "tile G8sw"]
    assert names("end") == ["end"]
    assert names("vizier buy 2 b5+b2") == ["vizier buy", "square 2", "card b5", "card b2", "done"]
    assert names("pass") == ["pass"]
    assert names("vizier wake") == ["vizier wake"]


def test_vocabulary_is_fixed_and_named_uniquely() -> None:
    base = codec_for(GameConfig(players=4))
    assert len(set(base.names)) == base.num_tokens
    assert base.keywords == CORE_KEYWORDS
    assert len(base.card_codes) == 36 and len(base.tile_codes) == 54
    assert base.num_tokens == 8 + 4 + 36 + 1 + 54 + 25 * 25 + 3 + 2 * 109  # keywords: the 7 of a turn and "pass"
    # the turn limit and the player count do not change the vocabulary; modules add tokens
    assert codec_for(GameConfig(players=2, turn_limit=9)).names == base.names
    mods = codec_for(GameConfig(players=4, modules=("currency_exchange", "vizier")))
    assert mods.num_tokens == base.num_tokens + 2 + 6
    assert {"vizier buy", "vizier wake", "card xby"} <= set(mods.names)


def test_positions_outside_the_window_use_far_tokens() -> None:
    codec = codec_for(GameConfig(players=2))
    inside = PlaceBuilding("G8sw", (12, -12))
    outside = PlaceBuilding("G8sw", (20, -3))
    assert [codec.kinds[t] for t in codec.encode(inside)] == [TokenKind.KEYWORD, TokenKind.TILE, TokenKind.CELL]
    far = codec.encode(outside)
    assert [codec.names[t] for t in far] == ["place", "tile G8sw", "far", "x 20", "y -3"]
    assert codec.decode(far) == outside
    assert codec.words(far[:4]) is None  # unfinished
    with pytest.raises(ValueError, match="beyond any Alhambra"):
        codec.encode(PlaceBuilding("G8sw", (0, 55)))


def test_reach_argument_holds_in_random_games() -> None:
    """Every legal place is at most (tiles in the Alhambra + 1) steps from the fountain, so the
    ``far`` coordinates (up to the number of building tiles) always suffice."""
    for state in sample_states(GameConfig(players=2), seed=5, every=1):
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, PlaceTiles):
            continue
        built = len(state.players[top.seat].city) - 1
        for a in legal_actions(state):
            assert isinstance(a, PlaceBuilding)
            if isinstance(a.target, tuple):
                assert abs(a.target[0]) + abs(a.target[1]) <= built + 1


def test_bad_sequences_are_rejected() -> None:
    codec = codec_for(GameConfig(players=2))
    with pytest.raises(ValueError, match="starts with a keyword"):
        codec.decode([codec.token(TokenKind.SQUARE, 1)])
    with pytest.raises(ValueError, match="incomplete"):
        codec.decode([codec.token(TokenKind.KEYWORD, "take"), codec.token(TokenKind.CARD, "b3")])
    with pytest.raises(ValueError, match="inside a card list"):
        codec.decode([codec.token(TokenKind.KEYWORD, "take"), codec.token(TokenKind.CARD, "b3"), codec.token(TokenKind.SQUARE, 1)])


def test_token_game_plays_to_the_end_and_rewards_ranks() -> None:
    game = TokenGame(GameConfig(players=3), seed=4)
    rng = random.Random(4)
    completed: list[Action] = []
    while not game.is_over:
        legal = game.legal_tokens()
        assert legal == sorted(legal) and legal
        assert int(game.mask().sum()) == len(legal)
        done, _ = game.step(rng.choice(legal))
        if done is not None:
            completed.append(done)
            assert game.prefix == ()
    assert game.state.outcome == "finished"
    assert game.legal_tokens() == []
    assert len(completed) > 100
    assert sum(game.returns()) == pytest.approx(0.0)
    assert max(game.returns()) == 1.0 or game.state.scores.count(max(game.state.scores)) > 1


def test_rank_rewards() -> None:
    assert rank_rewards([10, 5]) == [1.0, -1.0]
    assert rank_rewards([7, 7]) == [0.0, 0.0]
    assert rank_rewards([3, 9, 9, 1]) == [pytest.approx(-1 / 3), pytest.approx(2 / 3), pytest.approx(2 / 3), -1.0]
    assert sum(rank_rewards([4, 8, 1, 8, 8, 0])) == pytest.approx(0.0)


def test_illegal_token_is_refused_without_change() -> None:
    game = TokenGame(GameConfig(players=2), seed=1)
    legal = set(game.legal_tokens())
    bad = next(t for t in range(game.codec.num_tokens) if t not in legal)
    before = str(game.state.pending)
    with pytest.raises(Exception, match="not legal"):
        game.step(bad)
    assert game.prefix == () and str(game.state.pending) == before


def test_research_bench_reports_steps_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    from alhambra.research.bench import main

    main(["--players", "2", "--games", "1", "--only", "tokens"])
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("tokens"))
    steps, seconds, rate = line.split()[1:]
    assert int(steps) > 300 and float(seconds) >= 0 and float(rate) > 0
