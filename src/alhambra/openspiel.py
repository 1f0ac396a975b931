"""Alhambra as an OpenSpiel game: ``pyspiel.load_game("python_alhambra(players=3)")``.

Importing this module registers ``python_alhambra`` with pyspiel (install the extra:
``pip install 'alhambra[openspiel]'``). Parameters:

* ``players`` (2-6, default 2);
* ``modules``: Big Box module ids joined by ``+`` (``modules=vizier+currency_exchange``; a comma
  would end the parameter in a game string), default none;
* ``game`` (default ``alhambra``): the game of the family, ``granada`` for Granada (its
  ruleset sizes the observation channels and the token vocabulary);
* ``turn_limit`` (default 1000): the game ends as truncated after this many turns (the engine's
  turn limit). OpenSpiel needs a finite maximum game length, and random play could redesign
  forever; real and random games end long before (random games take 200-400 turns);
* ``core`` (default ``auto``): where the game is played after the deal. ``auto`` plays a game
  without modules on the native core (:mod:`alhambra.native`, explicit chance included: the same
  chance nodes, outcomes, legal actions, events and observations, checked by
  :func:`alhambra.native.check.check_chance_game`) and everything else on the Python engine;
  ``python`` always on the Python engine; ``native`` as ``auto`` but says once when the native
  core is missing. The deal itself is always dealt by the Python engine.

Actions are the tokens of :mod:`alhambra.research.encoding`: every engine action is a short
sequence of sub-decisions, and a player keeps the move until the sequence is complete. The
partial sequence is part of the state (``state.prefix``), its legal actions are the tokens that
extend it towards a legal engine action, and ``state.action_to_string`` names them
(``"buy"``, ``"square 2"``, ``"card b7"``...).

Chance: the engine runs in explicit-chance mode (:mod:`alhambra.chance`), so every draw is a
chance node with the physical deck's probabilities: each building tile from the bag, each money
card, scoring card or module card from the deck (the scoring cards' places in piles 2 and 4 are
part of those probabilities), during setup too, and the modules' own draws (a
chest, change coins, a sultan's extra tile, building-site tiles: each entry of the pool equally
likely; the site tiles a player draws in secret, and the thieves, bonus cards and master
builders dealt at setup, are chance nodes whose outcomes only that player's information state
shows; the master builders set aside face down, chance nodes nobody sees). Chance action ``i`` is the code ``chance_codes(game)[i]``:
every card code, then every tile code, then every module item as ``MODULE:ITEM``.

Observations come only from :func:`alhambra.view.view` (:mod:`alhambra.research.observation`).
The information state of a seat is what that seat has seen, in order: every chance outcome (all
draws are seen by the table), its own tokens, and the events of every move as that seat sees them
(:meth:`~alhambra.events.Event.seen_by`: a secret choice such as the site tile a player keeps
reaches the others redacted). Other seats' tokens are not part of it: they are how the engine
encodes a move, and a hidden choice would show in them. The information-state tensor adds every
seat's hand (public knowledge, rebuilt from the public events) to the observation tensor.

Returns are normalised rank rewards (:func:`alhambra.research.session.rank_rewards`): zero-sum,
1 for a lone winner, -1 for the lone last, shared on ties; 0 until the end.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

import numpy as np
import pyspiel

from .actions import Action
from .chance import ChanceNeeded, chance_outcomes, decide
from .engine import apply_unchecked, build_components, legal_actions, new_game
from .events import Event
from .hooks import modules_of, parse_module_ids
from .native import available as native_available, supports as native_supports, warn_once
from .native.game import NativeGame
from .research.encoding import DecisionTree, codec_for
from .research.observation import ObservationEncoder, PublicHands, render_view
from .research.session import rank_rewards
from .state import GameConfig, GameState
from .view import view

__all__ = [
    "GAME_NAME",
    "AlhambraGame",
    "AlhambraObserver",
    "AlhambraState",
    "ScoreEvaluator",
    "chance_codes",
    "information_state_text",
    "max_game_length",
]

GAME_NAME: Final = "python_alhambra"
DEFAULT_TURN_LIMIT: Final = 1000
_DEFAULT_PARAMS: Final[dict[str, Any]] = {"players": 2, "modules": "", "turn_limit": DEFAULT_TURN_LIMIT, "game": "alhambra", "core": "auto"}
_CORES: Final = ("auto", "python", "native")

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Alhambra (Dirk Henn), with sub-decision actions and explicit chance",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


def config_from_params(params: dict[str, Any]) -> GameConfig:
    """The engine configuration of OpenSpiel game parameters."""
    mods = parse_module_ids(str(params.get("modules", "")))
    limit = int(params.get("turn_limit", DEFAULT_TURN_LIMIT))
    if limit < 1:
        raise ValueError("turn_limit must be at least 1 (OpenSpiel needs a finite game length)")
    game = str(params.get("game", "alhambra"))
    return GameConfig(players=int(params.get("players", 2)), modules=mods, turn_limit=limit, game=game)


@lru_cache(maxsize=64)
def _chance_codes(config: GameConfig) -> tuple[str, ...]:
    comp = build_components(config)
    codes: list[str] = []
    for c in comp.cards:
        if c.code not in codes:
            codes.append(c.code)
    for i, t in enumerate(comp.tiles):
        if t.kind != "fountain" and t.code not in codes and comp.physical(i) == i:  # a two-sided tile is drawn by its front
            codes.append(t.code)
    for m in modules_of(config):  # the items of the modules' own draws
        codes += [f"{m.id}:{item}" for item in m.chance_items(config)]
    return tuple(codes)


def chance_codes(game: AlhambraGame) -> tuple[str, ...]:
    """Chance action ``i`` is the draw of code ``chance_codes(game)[i]``: cards, then tiles,
    then the items of the modules' own draws as ``MODULE:ITEM``."""
    return _chance_codes(game.config)


def max_game_length(config: GameConfig) -> int:
    """An upper bound on the number of player decisions (tokens) of a game with a turn limit.

    Token lengths come from the declared grammars (:meth:`ActionCodec.max_tokens`): ``L``, the
    longest action of the configuration without its card tokens. Every card token names a
    different card of the game within one turn, and again within the moves between two turns,
    so each adds at most ``C`` tokens (``C`` = the game's money and module cards). Actions per
    turn: at most 4 purchases (the market is refilled only between turns), one last action
    and at most 4 placements; between turns at most what the modules allow
    (:meth:`~alhambra.hooks.Module.max_actions_between_turns`). At the end, at most 4 final
    placements.
    """
    if config.turn_limit is None:
        raise ValueError("a finite game length needs a turn limit")
    comp = build_components(config)
    cards = sum(1 for c in comp.cards if c.kind != "scoring")
    longest = codec_for(config).max_tokens(0)
    between = sum(m.max_actions_between_turns(config) for m in modules_of(config))
    turns_over = 4 if comp.twins else 0  # Granada: each placed tile may be turned over first
    per_turn = (4 + 1 + 4 + turns_over + between) * longest + 2 * cards
    return config.turn_limit * per_turn + 4 * longest


class AlhambraGame(pyspiel.Game):
    """``python_alhambra``: see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        config = config_from_params(params)
        codec = codec_for(config)
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=codec.num_tokens,
                max_chance_outcomes=len(_chance_codes(config)),
                num_players=config.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max_game_length(config),
            ),
            params,
        )
        self.config = config
        self.codec = codec
        self.encoder = ObservationEncoder.for_config(config, codec)
        core = str(params.get("core", "auto"))
        if core not in _CORES:
            raise ValueError(f"core must be one of {', '.join(_CORES)}, not {core!r}")
        if core == "native" and not native_available():
            warn_once("python_alhambra plays on the Python engine")
        self.native = core != "python" and native_available() and native_supports(config)
        """True when the game is played on the native core after the deal."""

    def new_initial_state(self) -> AlhambraState:
        """The state before the deal (a chance node: the first market tile)."""
        return AlhambraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> AlhambraObserver:
        """An observer: the observation (default) or, with perfect recall, the information state."""
        return AlhambraObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Core:
    """Everything an :class:`AlhambraState` holds (its one Python attribute), cheap to copy.

    On the native core (``use_native``) the game after the deal is ``native``, and ``engine``
    is its Python state, made when asked for (and remade after each move): read it, never
    change it."""

    def __init__(self, config: GameConfig, use_native: bool = False) -> None:
        self.config = config
        self.use_native = use_native
        self.native: NativeGame | None = None
        self._engine: GameState | None = None
        self.setup: tuple[list[str], list[str], list[str]] = ([], [], [])
        """Decided setup draws (cards, tiles, modules' items) until the deal is complete."""
        self.action: Action | None = None
        """An engine action whose draws are being decided."""
        self.chance: tuple[str, tuple[tuple[str, float], ...]] | None = None
        """At a chance node: the draw's kind and its outcomes."""
        self.secret: int | None = None
        """At a chance node of a secret draw: the one seat that sees its outcome."""
        self.prefix: tuple[int, ...] = ()
        self.history: list[tuple[int, Any]] = []
        """What happened, for information-state strings: ``(CHANCE_ENTRY, code)`` for a chance
        outcome, ``(SECRET_CHANCE_ENTRY, (seat, code))`` for one only ``seat`` sees, ``(seat,
        token name)`` for a seat's token, ``(EVENTS_ENTRY, events)`` for the events of a move
        (or of the deal)."""
        self.hands = PublicHands(config.players)
        self.tree: DecisionTree | None = None
        self.views: dict[int | None, dict[str, Any]] = {}
        self.info_texts: dict[int, tuple[int, str]] = {}
        """Per seat: how many history entries its information-state text covers, and the text
        (the history only grows, so the next text extends it instead of redoing it)."""
        self._settle()

    @property
    def engine(self) -> GameState | None:
        """The game's Python state (hidden facts included); None while the setup is being dealt."""
        if self._engine is None and self.native is not None:
            self._engine = self.native.state()
        return self._engine

    def to_act(self) -> int | None:
        """The seat the game waits for (None once it is over)."""
        if self.native is not None:
            return self.native.to_act
        assert self._engine is not None
        return self._engine.to_act

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = _Core.__new__(_Core)
        new.config = self.config
        new.use_native = self.use_native
        new.native = None if self.native is None else self.native.copy()
        # on the native core the Python state is a read-only picture: shared until the next move
        new._engine = self._engine if self.native is not None or self._engine is None else self._engine.copy()
        new.setup = (self.setup[0][:], self.setup[1][:], self.setup[2][:])
        new.action = self.action
        new.chance = self.chance
        new.secret = self.secret
        new.prefix = self.prefix
        new.history = self.history[:]
        new.hands = self.hands.copy()
        new.tree = self.tree
        new.views = dict(self.views)
        new.info_texts = dict(self.info_texts)
        return new

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["_engine"] = self.engine
        data["native"] = None
        data["tree"] = None
        data["views"] = {}
        data["info_texts"] = {}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        data.setdefault("info_texts", {})
        self.__dict__.update(data)
        if self._engine is not None:
            self._engine.components = build_components(self.config)
            if self.use_native:
                self.native = NativeGame.from_state(self._engine)

    # ------------------------------------------------------------------ chance
    def _settle(self) -> None:
        """Run the deal or the pending action as far as the decided draws reach."""
        if self.native is not None:
            assert self.action is not None
            twin = self.native.copy()
            kind, got = twin.apply_chance(self.action)
            if kind is not None:
                self.chance = (kind, tuple(chance_outcomes(twin.chance_state(), kind)))
                self.secret = None
                return
            assert got is not None
            self.native = twin
            self._engine = None
            self.action = None
            self.chance = None
            self._moved(got)
            return
        try:
            if self._engine is None:
                state, events = new_game(self.config, 0, explicit_chance=True, decided=tuple(tuple(d) for d in self.setup))
            else:
                assert self.action is not None
                state = self._engine.copy()
                events = apply_unchecked(state, self.action)
        except ChanceNeeded as e:
            self.chance = (e.kind, tuple(chance_outcomes(e.state, e.kind, e.draw)))
            self.secret = None if e.draw is None else e.draw.secret_to
            return
        self._engine = state
        if self.use_native:  # the deal is done: play on on the native core
            self.native = NativeGame.from_state(state)
        self.setup = ([], [], [])
        self.action = None
        self.chance = None
        self._moved(events)

    def _moved(self, events: list[Event]) -> None:
        if events:
            self.history.append((EVENTS_ENTRY, tuple(events)))
        self.hands.update(events)
        self.prefix = ()
        self.tree = None
        self.views = {}

    def decide(self, code: str) -> None:
        """Apply a chance outcome."""
        assert self.chance is not None
        kind = self.chance[0]
        self.history.append((CHANCE_ENTRY, code) if self.secret is None else (SECRET_CHANCE_ENTRY, (self.secret, code)))
        if self.native is not None:
            self.native.decide(kind, code)
            self._engine = None  # its picture shows the decided draws too
        elif self._engine is None:
            self.setup[("card", "tile", "module").index(kind)].append(code)
        else:
            decide(self._engine, kind, code)
        self.chance = None
        self.secret = None
        self._settle()

    # ------------------------------------------------------------------ players
    def decision(self) -> DecisionTree:
        """The prefix tree of the current decision."""
        if self.tree is None:
            if self.native is not None:
                self.tree = codec_for(self.config).tree(self.native.legal_actions())
            else:
                assert self._engine is not None
                self.tree = codec_for(self.config).tree(legal_actions(self._engine))
        return self.tree

    def play(self, token: int, player: int) -> None:
        """Apply a player's token."""
        codec = codec_for(self.config)
        prefix = (*self.prefix, token)
        node = self.decision().node(prefix)
        if node is None:
            raise ValueError(f"token {token} is not legal after [{codec.describe(self.prefix)}]")
        self.history.append((player, codec.names[token]))
        if isinstance(node, dict):
            self.prefix = prefix
            return
        self.prefix = ()
        self.action = node
        self._settle()

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The engine's view for ``seat`` (None while dealing), cached until the next move."""
        engine = self.engine
        if engine is None:
            return None
        got = self.views.get(seat)
        if got is None:
            got = self.views[seat] = view(engine, seat)
        return got


class AlhambraState(pyspiel.State):
    """A state of ``python_alhambra`` (chance node, player decision or terminal)."""

    def __init__(self, game: AlhambraGame) -> None:
        super().__init__(game)
        self._core = copy.deepcopy(_initial_core(game.config, game.native))

    # ------------------------------------------------------------------ helpers
    @property
    def core(self) -> _Core:
        """The engine state, partial tokens and history behind this OpenSpiel state."""
        return self._core

    @property
    def engine_state(self) -> GameState | None:
        """The engine's full state (hidden facts included; None while dealing)."""
        return self._core.engine

    @property
    def prefix(self) -> tuple[int, ...]:
        """The tokens of the decision in progress."""
        return self._core.prefix

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """The player to move, ``CHANCE`` or ``TERMINAL``."""
        core = self._core
        if core.chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = core.to_act()
        if seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core.chance is not None or (core.native is None and core.engine is None) or core.to_act() != player:
            return []
        return list(core.decision().legal(core.prefix))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the pending draw with their probabilities, by chance action id."""
        chance = self._core.chance
        assert chance is not None
        index = _chance_index(self._core.config)
        return sorted((index[code], p) for code, p in chance[1])

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.chance is not None:
            code = _chance_codes(core.config)[action]
            if all(code != c for c, _ in core.chance[1]):
                raise ValueError(f"chance outcome {code} is not possible now")
            core.decide(code)
        else:
            seat = core.to_act()
            assert seat is not None
            core.play(int(action), seat)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            kind = "draw"
            if self._core.chance is not None:
                kind = f"draw {self._core.chance[0]}"
            return f"{kind} {_chance_codes(self._core.config)[action]}"
        return codec_for(self._core.config).names[action]

    def is_terminal(self) -> bool:
        """True once the game is over."""
        core = self._core
        if core.chance is not None:
            return False
        if core.native is not None:
            return core.native.is_over
        return core.engine is not None and core.engine.is_over

    def returns(self) -> list[float]:
        """Rank rewards at the end, zeros before."""
        if not self.is_terminal():
            return [0.0] * self._core.config.players
        core = self._core
        if core.native is not None:
            return rank_rewards(core.native.scores)
        assert core.engine is not None
        return rank_rewards(core.engine.scores)

    def __str__(self) -> str:
        core = self._core
        head = f"prefix [{codec_for(core.config).describe(core.prefix)}]"
        if core.chance is not None:
            head += f" chance {core.chance[0]}"
        if core.action is not None:
            head += f" completing {core.action}"
        engine = core.engine
        if engine is None:
            return f"dealing: cards {' '.join(core.setup[0])} tiles {' '.join(core.setup[1])}; {head}"
        tc = engine.tile_code
        cc = engine.card_code
        lines = [
            f"turn {engine.turn} stage {engine.stage} outcome {engine.outcome} to act {engine.to_act}; {head}",
            f"pending {[p.to_dict() for p in engine.pending]}",
            f"market {[tc(t) if t >= 0 else None for t in engine.market]} display {[cc(c) if c >= 0 else None for c in engine.display]}",
            f"deck {len(engine.deck)} bag {len(engine.bag)} discard {sorted(cc(c) for c in engine.discard)} scores {engine.scores}",
        ]
        for s, p in enumerate(engine.players):
            city = sorted((q, tc(t)) for q, t in p.city.items())
            lines.append(f"seat {s}: hand {sorted(cc(c) for c in p.hand)} reserve {sorted(tc(t) for t in p.reserve)} city {city}")
        if engine.neutral is not None:
            lines.append(f"neutral {sorted(tc(t) for t in engine.neutral)} score {engine.neutral_score}")
        if engine.mods:
            lines.append(f"modules {engine.mods}")
        return "\n".join(lines)


@lru_cache(maxsize=64)
def _initial_core(config: GameConfig, use_native: bool = False) -> _Core:
    return _Core(config, use_native)


@lru_cache(maxsize=64)
def _chance_index(config: GameConfig) -> dict[str, int]:
    return {code: i for i, code in enumerate(_chance_codes(config))}


CHANCE_ENTRY: Final = -1
"""History entry tag of a chance outcome."""
SECRET_CHANCE_ENTRY: Final = -3
"""History entry tag of a secret chance outcome: (the seat that sees it, the outcome)."""
EVENTS_ENTRY: Final = -2
"""History entry tag of the events of a move (or of the deal)."""


def information_state_text(history: Sequence[tuple[int, Any]], player: int, known: tuple[int, str] | None = None) -> str:
    """What ``player`` has seen, one line each: the chance outcomes (of a secret draw for
    another seat only that it happened), its own tokens, and the events of every move as it
    sees them (redacted where they are secret to another seat).

    ``known`` is ``(n, text)``: this function's text for the first ``n`` entries of the same
    history; only the entries after them are rendered."""
    start, lines = (known[0], [known[1]]) if known is not None else (0, [f"player {player}"])
    for tag, item in history[start:] if start else history:
        if tag == CHANCE_ENTRY:
            lines.append(f"chance {item}")
        elif tag == SECRET_CHANCE_ENTRY:
            seat, code = item
            lines.append(f"chance {code}" if seat == player else "chance (hidden)" if seat < 0 else f"chance (secret to p{seat})")
        elif tag == EVENTS_ENTRY:
            lines.extend(f"seen {e.seen_by(player)!r}" for e in item)
        elif tag == player:
            lines.append(f"p{player} {item}")
    return "\n".join(lines)


class AlhambraObserver:
    """OpenSpiel observer (PyObserver protocol): ``tensor``, ``dict``, ``set_from``, ``string_from``.

    With ``perfect_recall`` it gives the information state (observation plus every seat's hand;
    the string is what the seat has seen: :func:`information_state_text`); otherwise the observation of one seat's view. With
    ``private_info`` NONE it observes as a spectator (public facts only).
    """

    def __init__(self, game: AlhambraGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private information is not supported")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        enc = game.encoder
        size = enc.info_size if self.perfect_recall else enc.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        g = 2 * enc.grid + 1
        for name, (start, end) in enc.sections.items():
            if end > size:
                continue
            piece = self.tensor[start:end]
            if name == "alhambras":
                piece = piece.reshape(game.config.players, enc.channels, g, g)
            self.dict[name] = piece

    def set_from(self, state: AlhambraState, player: int) -> None:
        """Fill ``tensor`` for ``player``."""
        core = state.core
        seat = None if self.public_only else player
        hands: Sequence[dict[str, int]] | None = core.hands.hands if self.perfect_recall else None
        if hands is not None and core.engine is None:
            hands = [{} for _ in range(core.config.players)]
        self.game.encoder.encode(core.view(seat), core.prefix, hands, out=self.tensor)

    def string_from(self, state: AlhambraState, player: int) -> str:
        """The information-state string or the observation text of ``player``."""
        core = state.core
        if self.perfect_recall:
            text = information_state_text(core.history, player, core.info_texts.get(player))
            core.info_texts[player] = (len(core.history), text)
            return text
        v = core.view(None if self.public_only else player)
        if v is None:
            return f"dealing ({sum(1 for tag, _ in core.history if tag == CHANCE_ENTRY)} draws so far)"
        return render_view(v, codec_for(core.config).describe(core.prefix))


class ScoreEvaluator:
    """A cheap evaluator for OpenSpiel's MCTS: no rollout, the current score lead.

    ``evaluate`` gives every seat ``clip((score - mean score) / scale, -1, 1)`` (terminal states:
    their returns); ``prior`` is uniform over the legal actions (or the chance outcomes).
    """

    def __init__(self, scale: float = 40.0) -> None:
        self.scale = scale

    def evaluate(self, state: AlhambraState) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Values per player."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=np.float64)
        native = state.core.native
        engine = state.engine_state if native is None else None
        if native is None and engine is None:
            return np.zeros(state.num_players(), dtype=np.float64)
        scores = np.array(native.scores if native is not None else engine.scores, dtype=np.float64)  # type: ignore[union-attr]
        return np.asarray(np.clip((scores - scores.mean()) / self.scale, -1.0, 1.0), dtype=np.float64)

    def prior(self, state: AlhambraState) -> list[tuple[int, float]]:
        """Uniform prior."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(_GAME_TYPE, AlhambraGame)
