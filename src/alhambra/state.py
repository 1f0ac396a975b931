"""The full game state (hidden facts included) and the pending choices it can wait on.

A :class:`GameState` is mutable internally for speed, but the public transition
:func:`alhambra.engine.apply` never mutates its input: it copies first. Module state lives in
``state.mods[module_id]`` and must be an immutable value (replace it, never mutate it), so a
copy of the state is cheap.

Nothing in this object is fit for a player: :func:`alhambra.view.view` is the one way out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .city import ORIGIN, CityAnalysis, analysis_of
from .components import ComponentSet, letters_to_walls, walls_to_letters
from .errors import ConfigError
from .values import Value, fast_init


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What is fixed before the game starts.

    ``players``: 2-6. ``modules``: Big Box module ids. ``turn_limit``: None for human games; for
    simulations, the game ends as ``truncated`` once this many turns have been played.
    ``options``: per-module options as ``(module_id, key, value)`` triples (see
    ``Module.options``); an option not given has its module's default. ``game``: the game of
    the family (a ruleset id, see :mod:`alhambra.rulesets`).
    """

    players: int = 4
    modules: tuple[str, ...] = ()
    turn_limit: int | None = None
    options: tuple[tuple[str, str, bool | int | str], ...] = ()
    game: str = "alhambra"

    def __post_init__(self) -> None:
        if self.game != "alhambra":
            from .rulesets import ruleset

            if not isinstance(self.game, str):
                raise ConfigError(f"the game is a name such as 'granada', not {self.game!r}")
            ruleset(self.game)  # ConfigError for an unknown game
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise ConfigError(f"Alhambra is played by 2 to 6 players, not {self.players!r}")
        if len(set(self.modules)) != len(self.modules):
            twice = sorted({m for m in self.modules if self.modules.count(m) > 1})
            which = f"the module {twice[0]} is" if len(twice) == 1 else f"the modules {', '.join(map(str, twice))} are"
            raise ConfigError(f"{which} listed twice")
        object.__setattr__(self, "modules", tuple(sorted(self.modules)))
        if self.turn_limit is not None and (not isinstance(self.turn_limit, int) or self.turn_limit < 1):
            raise ConfigError("the turn limit must be a positive number of turns")
        opts = tuple(self.options)
        for o in opts:
            if not (isinstance(o, tuple) and len(o) == 3 and isinstance(o[0], str) and isinstance(o[1], str)):
                raise ConfigError(f"an option must be (module, key, value), not {o!r}")
            if not isinstance(o[2], bool | int | str):
                raise ConfigError(f"option {o[0]}.{o[1]}: the value must be true/false, a number or a word")
            if o[0] not in self.modules:
                raise ConfigError(f"option {o[0]}.{o[1]} is for the module {o[0]!r}, which this game does not use")
        if len({(m, k) for m, k, _ in opts}) != len(opts):
            keys = [(m, k) for m, k, _ in opts]
            twice = sorted({f"{m}.{k}" for m, k in keys if keys.count((m, k)) > 1})
            raise ConfigError(f"the option {', '.join(twice)} is given twice")
        object.__setattr__(self, "options", tuple(sorted(opts, key=lambda o: (o[0], o[1]))))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``options`` only when some are set, so older records stay as they were)."""
        out: dict[str, Any] = {"players": self.players, "modules": list(self.modules), "turn_limit": self.turn_limit}
        if self.options:
            grouped: dict[str, dict[str, Any]] = {}
            for m, k, v in self.options:
                grouped.setdefault(m, {})[k] = v
            out["options"] = grouped
        if self.game != "alhambra":
            out["game"] = self.game
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        """Read the JSON form back (clear error on junk)."""
        if not isinstance(data, dict):
            raise ConfigError("the configuration must be an object")
        unknown = set(data) - {"players", "modules", "turn_limit", "options", "game"}
        if unknown:
            raise ConfigError(f"unknown configuration fields: {sorted(unknown)}")
        mods = data.get("modules", [])
        if not isinstance(mods, list) or not all(isinstance(m, str) for m in mods):
            raise ConfigError("modules must be a list of module ids")
        raw = data.get("options", {})
        if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
            raise ConfigError('options must be an object such as {"module": {"key": value}}')
        opts = tuple((str(m), str(k), v) for m, kv in raw.items() for k, v in kv.items())
        game = data.get("game", "alhambra")
        return cls(players=data.get("players", 4), modules=tuple(mods), turn_limit=data.get("turn_limit"), options=opts, game=game)


class Pending(Value):
    """A decision the game waits for. ``seat`` is who makes it."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[Value]]] = {}
    extra_redesign: ClassVar[bool] = False
    """True for a module's pending that owes ``seat`` one redesign (an extra redesign paid with a
    master-builder card): the modules' own redesigns (``Module.redesign_actions``) are taken
    while it is on top (:func:`alhambra.engine.redesign_seat`, :func:`alhambra.engine.finish_redesign`)."""
    seat: int


@dataclass(frozen=True, slots=True)
class ChooseAction(Pending):
    """The turn's action choice. ``actions`` counts actions already taken this turn (after an
    exact payment the player may act again or end the turn); ``bought`` are the tiles bought
    this turn, waiting next to the Alhambra."""

    seat: int
    actions: int = 0
    bought: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlaceTiles(Pending):
    """Tiles waiting to be placed by ``seat``: into the Alhambra or the reserve board, or (when
    ``neutral`` is allowed, 2-player purchases) given to the neutral player."""

    seat: int
    tiles: tuple[str, ...]
    neutral: bool = False
    reason: str = "bought"


@dataclass(frozen=True, slots=True)
class BetweenTurns(Pending):
    """The window between turns for out-of-turn moves that modules offer (a vizier, a thief...):
    ``seat`` may act or ``pass``; ``later`` are asked next, in priority order (the seat due to
    play next first, the seat that has just finished last). ``restart`` is set after somebody
    acted: once what that action started is resolved, every seat is asked again from the top."""

    seat: int
    later: tuple[int, ...] = ()
    restart: bool = False


for _cls in (ChooseAction, PlaceTiles, BetweenTurns):
    fast_init(_cls)


@dataclass(slots=True)
class PlayerState:
    """One seat's hand (card ids), Alhambra (position -> tile id) and reserve board (tile ids).

    The :class:`~alhambra.city.CityAnalysis` that legal-action generation relies on is cached,
    updated by :meth:`build` and :meth:`unbuild`, and checked against the Alhambra on every
    use, so direct edits of ``city`` stay safe (the analysis is then computed anew).
    """

    hand: list[int]
    city: dict[int, int]
    reserve: list[int]
    cached: CityAnalysis | None = field(default=None, compare=False, repr=False)

    def copy(self) -> PlayerState:
        """Independent copy (the immutable analysis is shared)."""
        new = _new_player(PlayerState)
        new.hand = self.hand.copy()
        new.city = self.city.copy()
        new.reserve = self.reserve.copy()
        new.cached = self.cached
        return new

    def build(self, position: int, tile: int) -> None:
        """Put a tile into the Alhambra (no rule check): on an empty place, or in exchange for
        the tile there. The cached analysis is updated, not recomputed."""
        self.city[position] = tile
        a = self.cached
        if a is not None:
            self.cached = a.with_tile(position, tile)

    def unbuild(self, position: int) -> int:
        """Take the tile off a position of the Alhambra and return it (no rule check)."""
        t = self.city.pop(position)
        a = self.cached
        if a is not None:
            self.cached = a.without_tile(position)
        return t

    def analysis(self, walls: Sequence[int]) -> CityAnalysis:
        """The cached analysis of this Alhambra with these walls (``GameState.walls``; computed on
        first use after a change of the Alhambra or of the walls table)."""
        a = self.cached
        if a is None or a.walls is not walls or a.cells != self.city:
            a = self.cached = analysis_of(self.city, walls, ORIGIN)
        return a


STAGE_SETUP = "setup"
"""Setup waits for the modules' setup decisions (``Module.setup_decisions``), before the market
is filled and the starting money dealt."""
STAGE_TURN = "turn"
STAGE_BETWEEN = "between_turns"
STAGE_FINAL = "final_distribution"
STAGE_OVER = "over"


@dataclass(slots=True)
class GameState:
    """Everything about one game at one moment, hidden facts included."""

    config: GameConfig
    components: ComponentSet
    seed: int
    deck: list[int]
    """Draw pile, top card last."""
    display: list[int]
    """Four face-up slots; -1 is empty."""
    discard: list[int]
    market: list[int]
    """Four market squares (tile ids); -1 is empty."""
    bag: list[int]
    """Tiles still in the tile dispenser, next tile last."""
    players: list[PlayerState]
    scores: list[int]
    neutral: list[int] | None
    """The neutral player's tiles (2-player games), else None."""
    neutral_score: int = 0
    removed: list[int] = field(default_factory=list)
    """Scoring cards that have been drawn and set aside."""
    current: int = 0
    turn: int = 0
    stage: str = STAGE_TURN
    pending: list[Pending] = field(default_factory=list)
    scoring_queue: list[int] = field(default_factory=list)
    rounds_scored: int = 0
    reshuffles: int = 0
    outcome: str | None = None
    market_exhausted: bool = False
    """Set when the market could not be refilled: the game ends before the next turn."""
    mods: dict[str, Any] = field(default_factory=dict)
    market_currency: tuple[int, ...] = (0, 1, 2, 3)
    """Currency of each market square."""
    score_history: list[tuple[int, ...]] = field(default_factory=list)
    """Scores after each scoring round."""
    decided: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    """Explicit-chance mode only (see :mod:`alhambra.chance`): the decided outcomes of the next
    card draws and tile draws, as codes. None in a normal, seeded game."""
    piles: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] | None = None
    """Explicit-chance mode only: the money piles from the top, each as (cards left, special
    cards left by class). The deck list itself has no order in this mode."""
    draws: int = 0
    """Random draws modules made so far (:func:`alhambra.engine.module_random`)."""
    module_decided: tuple[str, ...] = ()
    """Explicit-chance mode only: the decided outcomes of the next draws modules make
    (:func:`alhambra.engine.module_draw`), as ``MODULE:ITEM``."""
    flow: int = 0
    """How far the automatic steps of the current stage have gone (end of turn: modules'
    ``turn_ending``, refills, scoring; between turns: whether the window was opened)."""
    market_face: int = 0
    """Two-sided tiles (Granada): the face the black marker shows, 0 front (even) or 1 back (odd);
    the market is refilled with it."""
    turned: tuple[int, ...] = ()
    """Two-sided tiles: the faces that were turned over for money (the tile ids shown now)."""
    walls: tuple[int, ...] = ()
    """The effective wall mask of every tile id (N=1, E=2, S=4, W=8): the very tuple
    ``components.tile_walls`` until a module changes a tile's walls (``engine.set_walls``:
    city-wall segments, a magical building turned, a gate). Every building rule, the redesign
    checks, the longest wall, the views and the research observation read it, never the
    printed walls. Replaced whole (copy on write), never changed in place."""

    def __post_init__(self) -> None:
        if not self.walls:
            self.walls = self.components.tile_walls

    def copy(self) -> GameState:
        """An independent copy (module slices are immutable and shared). ``list.copy`` is a
        little cheaper than a slice; a state is copied on every checked action."""
        new = _new_state(GameState)
        new.config = self.config
        new.components = self.components
        new.seed = self.seed
        new.deck = self.deck.copy()
        new.display = self.display.copy()
        new.discard = self.discard.copy()
        new.market = self.market.copy()
        new.bag = self.bag.copy()
        players = []
        for p in self.players:  # PlayerState.copy, inlined (a state is copied on every checked action)
            q = _new_player(PlayerState)
            q.hand = p.hand.copy()
            q.city = p.city.copy()
            q.reserve = p.reserve.copy()
            q.cached = p.cached
            players.append(q)
        new.players = players
        new.scores = self.scores.copy()
        new.neutral = None if self.neutral is None else self.neutral.copy()
        new.neutral_score = self.neutral_score
        new.removed = self.removed.copy()
        new.current = self.current
        new.turn = self.turn
        new.stage = self.stage
        new.pending = self.pending.copy()
        new.scoring_queue = self.scoring_queue.copy()
        new.rounds_scored = self.rounds_scored
        new.reshuffles = self.reshuffles
        new.outcome = self.outcome
        new.market_exhausted = self.market_exhausted
        new.mods = self.mods.copy()
        new.market_currency = self.market_currency
        new.score_history = self.score_history.copy()
        new.decided = self.decided
        new.piles = self.piles
        new.flow = self.flow
        new.draws = self.draws
        new.module_decided = self.module_decided
        new.market_face = self.market_face
        new.turned = self.turned
        new.walls = self.walls
        return new

    @property
    def is_over(self) -> bool:
        """True once the game has ended (finished or truncated)."""
        return self.outcome is not None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the game waits for, or None when the game is over."""
        if self.outcome is not None or not self.pending:
            return None
        return self.pending[-1].seat

    def changed_walls(self) -> dict[str, str]:
        """The tiles whose walls a module changed (``walls`` differs from the printed walls), as
        tile code -> wall letters ("ns"), a seat's fountain as ``F1``, ``F2``...; empty (at no
        cost) while no module changed any."""
        walls = self.walls
        printed = self.components.tile_walls
        if walls is printed:
            return {}
        return {self.wall_key(t): walls_to_letters(w) for t, w in enumerate(walls) if w != printed[t]}

    def wall_key(self, tile: int) -> str:
        """A tile's key in :meth:`changed_walls` (and the view's ``walls``): its code, ``F1``... for the seats' fountains
        (which share the code ``F``)."""
        comp = self.components
        if tile < len(comp.fountains) and comp.fountains[tile] == tile:
            return f"F{tile + 1}"
        return comp.tile_code[tile]

    def set_changed_walls(self, changed: dict[str, str]) -> None:
        """Set the walls of the tiles in ``changed`` (tile code -> wall letters, what
        :meth:`changed_walls` gives), every other tile with its printed walls; a
        :class:`ConfigError` for an unknown code or letter."""
        comp = self.components
        if not changed:
            self.walls = comp.tile_walls
            return
        walls = list(comp.tile_walls)
        fountains = {f"F{s + 1}": f for s, f in enumerate(comp.fountains)}
        for code, letters in changed.items():
            t = fountains[code] if code in fountains else comp.tile_ids.get(code)
            if t is None or not isinstance(letters, str) or set(letters) - set("nesw"):
                raise ConfigError(f"bad changed walls {code!r}: {letters!r}")
            walls[t] = letters_to_walls(letters)
        self.walls = tuple(walls)

    def tile_code(self, tile: int) -> str:
        """Code of a tile id."""
        return self.components.tiles[tile].code

    def card_code(self, card: int) -> str:
        """Code of a card id."""
        return self.components.cards[card].code


_new_state = object.__new__
_new_player = object.__new__
