"""Tournaments between bots, measured honestly (``alhambra simulate``).

* **Duplicate deals with seat rotation**: game ``g`` uses deal ``g // players`` (game seed
  ``seed + deal``) and rotation ``g % players``; lineup entry ``i`` sits at seat
  ``(i + rotation) % players``. Every deal is played once per rotation, so the luck of the
  deal and the seat order cancel out. The number of games is rounded up to whole rotations.
* Bots get only their :class:`~alhambra.bots.base.Observation` and their own generator
  (``random.Random("SEED/DEAL/ROTATION/ENTRY")``), so a run is reproducible when every bot
  has an iteration budget (time budgets depend on the machine).
* Per lineup entry: games, wins (a shared win counts ``1/k`` for ``k`` winners), win rate with
  a Wilson 95% interval, mean rank (ties share the average rank), mean score, mean margin
  (own score minus the best other score), an openskill Plackett-Luce rating over the games
  in order, the mean thinking time per decision (decisions with one legal action count) and the
  longest decision.
* Games run in parallel worker processes.
* A turn limit (:data:`TURN_LIMIT` by default, ten times the longest game bots play) is the
  safety net against bots that never end a game: such a game ends as ``truncated`` with the
  scores it had (no final scoring), and the report warns about it. A checkpoint may be resumed
  with another limit when none of its games would change under it.
"""

from __future__ import annotations

import logging
import math
import os
import random
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from typing import Any

from .actions import Action
from .bots import EventLog, make_bot, observe
from .engine import apply, build_components, legal_actions, new_game
from .hooks import modules_of
from .record import GameRecord
from .state import GameConfig

__all__ = [
    "TURN_LIMIT",
    "EntryStats",
    "GameResult",
    "TournamentResult",
    "entry_labels",
    "play_game",
    "resume_problem",
    "run_tournament",
    "wilson",
]

FORMAT = "alhambra-simulation/1"

TURN_LIMIT = 1000
"""The default turn limit of a tournament game. Bot games last about 60 to 120 turns, so only a
game that would never end reaches it."""


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval (95% by default) for a win rate of ``wins`` out of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def entry_labels(bots: Sequence[str]) -> list[str]:
    """One label per lineup entry; repeated specs get ``#2``, ``#3`` ..."""
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return out


@dataclass
class GameResult:
    """One game of a tournament. Lists are per lineup entry unless named per seat."""

    game: int
    deal: int
    rotation: int
    seed: int
    seats: list[int]
    """Seat of each lineup entry."""
    scores: list[int]
    wins: list[float]
    """1 for a sole winner, 1/k for each of k shared winners, else 0."""
    ranks: list[float]
    margins: list[int]
    moves: list[int]
    seconds: list[float]
    fallbacks: int
    """Warnings the bots logged (fallbacks to a random action, sampler mismatches)."""
    outcome: str
    record: dict[str, Any] = field(default_factory=dict)
    max_seconds: list[float] = field(default_factory=list)
    """The longest decision of each lineup entry (empty in files written before it was kept)."""
    module_use: list[dict[str, list[int]]] = field(default_factory=list)
    """Per lineup entry and module: ``[decisions where one of the module's actions was legal,
    decisions where the bot chose one]`` (empty without modules, and in older files)."""


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def play_game(config: GameConfig, bots: Sequence[str], seed: int, game: int, bot_workers: int | None = None) -> GameResult:
    """Play game number ``game`` of a tournament with base seed ``seed`` (see the module docstring)."""
    n = config.players
    if len(bots) != n:
        raise ValueError(f"{n} players need {n} bots, not {len(bots)}")
    deal, rotation = divmod(game, n)
    game_seed = seed + deal
    seat_of = [(i + rotation) % n for i in range(n)]
    entry_at = {s: i for i, s in enumerate(seat_of)}
    players = [make_bot(bots[entry_at[s]], bot_workers) for s in range(n)]
    rngs = [random.Random(f"{seed}/{deal}/{rotation}/{entry_at[s]}") for s in range(n)]
    counter = _Counter()
    logger = logging.getLogger("alhambra.bots")
    logger.addHandler(counter)
    try:
        state, events = new_game(config, game_seed)
        history = EventLog()
        history.extend(events)
        record = GameRecord(config, game_seed)
        moves = [0] * n
        secs = [0.0] * n
        longest = [0.0] * n
        owner: Callable[[Action], str | None] | None = action_owners(config) if config.modules else None
        use: list[dict[str, list[int]]] = [{m: [0, 0] for m in config.modules} for _ in range(n)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            obs = observe(state, seat, tuple(history.for_seat(seat)))
            bot = players[seat]
            t0 = time.perf_counter()
            action = bot.choose(obs, bot.budget, rngs[seat])
            spent = time.perf_counter() - t0
            secs[seat] += spent
            longest[seat] = max(longest[seat], spent)
            moves[seat] += 1
            if owner is not None:
                legal = {owner(a) for a in legal_actions(state)} - {None}
                chosen = owner(action)
                for m in legal:
                    if m is not None:
                        use[seat][m][0] += 1
                        use[seat][m][1] += chosen == m
            state, events = apply(state, action, seat)
            history.extend(events)
            record.actions.append(action)
    finally:
        logger.removeHandler(counter)
        for b in players:
            close = getattr(b, "close", None)
            if callable(close):
                close()
    scores = list(state.scores)
    best = max(scores)
    winners = [s for s in range(n) if scores[s] == best]
    per_seat_rank = [1 + sum(1 for o in scores if o > v) + (sum(1 for o in scores if o == v) - 1) / 2 for v in scores]
    per_seat_margin = [v - max(scores[o] for o in range(n) if o != s) for s, v in enumerate(scores)]
    return GameResult(
        game=game,
        deal=deal,
        rotation=rotation,
        seed=game_seed,
        seats=seat_of,
        scores=[scores[seat_of[i]] for i in range(n)],
        wins=[(1 / len(winners) if seat_of[i] in winners else 0.0) for i in range(n)],
        ranks=[per_seat_rank[seat_of[i]] for i in range(n)],
        margins=[per_seat_margin[seat_of[i]] for i in range(n)],
        moves=[moves[seat_of[i]] for i in range(n)],
        seconds=[secs[seat_of[i]] for i in range(n)],
        fallbacks=counter.count,
        outcome=state.outcome or "",
        record=record.to_json(),
        max_seconds=[longest[seat_of[i]] for i in range(n)],
        module_use=[use[seat_of[i]] for i in range(n)] if owner is not None else [],
    )


def action_owners(config: GameConfig) -> Callable[[Action], str | None]:
    """A function naming the module an action uses (its own actions, ``buy ITEM`` of the
    module's items, and a purchase paid with one of the module's cards (diamonds, exchange cards)
    or with its money held outside the hand (a coin, a credit, a marker)); None for a core action
    and for one that turns the module down (``declines``: pass, skip, decline)."""
    items = {item: m.id for m in modules_of(config) for item in m.notation_items(config)}
    cards = {c.code: c.module for c in build_components(config).cards if c.module is not None}
    cards.update({token: m.id for m in modules_of(config) for token in m.payment_tokens(config)})

    def owner(action: Action) -> str | None:
        if action.declines:
            return None
        if action.module is not None:
            return action.module
        item = getattr(action, "item", None)
        got = items.get(item) if isinstance(item, str) else None
        payment = getattr(action, "payment", None)
        if got is None and isinstance(payment, tuple):
            got = next((cards[code] for code in payment if code in cards), None)
        return got

    return owner


@dataclass
class EntryStats:
    """The figures of one lineup entry over a tournament."""

    label: str
    bot: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_rank: float
    mean_score: float
    mean_margin: float
    rating_mu: float
    rating_sigma: float
    rating_ordinal: float
    ms_per_move: float
    moves: int
    max_ms_per_move: float | None = None
    """The longest decision (None when the games do not say)."""
    module_use: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per module: (decisions where its actions were legal, decisions where the bot used one)."""


@dataclass
class TournamentResult:
    """A whole tournament: settings, per-entry figures and every game."""

    players: int
    modules: list[str]
    bots: list[str]
    labels: list[str]
    seed: int
    games: int
    deals: int
    workers: int
    seconds: float
    entries: list[EntryStats]
    results: list[GameResult]
    complete: bool = True
    """False for a checkpoint of a tournament still running (``results`` are the games done)."""
    turn_limit: int | None = None
    """The turn limit of every game (None: none, as in files written before it was set)."""
    options: list[list[Any]] = field(default_factory=list)
    """Module options of every game as ``[module, key, value]`` (empty: none, as in older files)."""
    game: str = "alhambra"
    """The game of the family (``GameConfig.game``); written only when not Alhambra."""

    @property
    def truncated(self) -> int:
        """Games stopped by the turn limit."""
        return sum(1 for r in self.results if r.outcome == "truncated")

    def to_json(self, with_games: bool = True) -> dict[str, Any]:
        """JSON-ready figures; with ``with_games`` every game and its replayable record."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "players": self.players,
            "modules": self.modules,
            "bots": self.bots,
            "labels": self.labels,
            "seed": self.seed,
            "games": self.games,
            "deals": self.deals,
            "workers": self.workers,
            "seconds": self.seconds,
            "complete": self.complete,
            "turn_limit": self.turn_limit,
            "options": [list(o) for o in self.options],
            "truncated": self.truncated,
            "games_done": len(self.results),
            "entries": [asdict(e) for e in self.entries],
        }
        if self.game != "alhambra":
            out["game"] = self.game
        if with_games:
            out["game_results"] = [asdict(r) for r in self.results]
        return out

    @classmethod
    def from_json(cls, data: Any) -> TournamentResult:
        """Read a results file back (figures recomputed from its games); ``ValueError`` on junk."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a results file of 'alhambra simulate' (format {FORMAT!r})")
        try:
            results = [GameResult(**g) for g in data["game_results"]]
            bots = list(data["bots"])
            return cls(
                players=data["players"],
                modules=list(data["modules"]),
                bots=bots,
                labels=entry_labels(bots),
                seed=data["seed"],
                games=data["games"],
                deals=data["deals"],
                workers=data["workers"],
                seconds=data["seconds"],
                entries=summarize(bots, results),
                results=results,
                complete=bool(data.get("complete", True)),
                turn_limit=_turn_limit(data.get("turn_limit")),
                options=[list(o) for o in data.get("options", [])],
                game=str(data.get("game", "alhambra")),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"a broken results file: {e}") from None


def _turn_limit(value: Any) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return value
    raise TypeError(f"turn_limit must be a positive number or null, not {value!r}")


def summarize(bots: Sequence[str], results: Sequence[GameResult]) -> list[EntryStats]:
    """Per-entry figures of finished games (in game order for the rating)."""
    from openskill.models import PlackettLuce

    labels = entry_labels(bots)
    model = PlackettLuce()
    ratings = [model.rating(name=lab) for lab in labels]
    ordered = sorted(results, key=lambda r: r.game)
    for r in ordered:
        teams = [[ratings[i]] for i in range(len(labels))]
        new = model.rate(teams, ranks=list(r.ranks))
        ratings = [t[0] for t in new]
    out = []
    for i, lab in enumerate(labels):
        n = len(ordered)
        wins = sum(r.wins[i] for r in ordered)
        lo, hi = wilson(wins, n)
        moves = sum(r.moves[i] for r in ordered)
        secs = sum(r.seconds[i] for r in ordered)
        known = [r.max_seconds[i] for r in ordered if r.max_seconds]
        longest = 1000 * max(known) if known and len(known) == n else None
        use: dict[str, tuple[int, int]] = {}
        for r in ordered:
            for m, (legal, used) in (r.module_use[i] if r.module_use else {}).items():
                a, b = use.get(m, (0, 0))
                use[m] = (a + legal, b + used)
        out.append(
            EntryStats(
                label=lab,
                bot=bots[i],
                games=n,
                wins=wins,
                win_rate=wins / n if n else 0.0,
                win_low=lo,
                win_high=hi,
                mean_rank=sum(r.ranks[i] for r in ordered) / n if n else 0.0,
                mean_score=sum(r.scores[i] for r in ordered) / n if n else 0.0,
                mean_margin=sum(r.margins[i] for r in ordered) / n if n else 0.0,
                rating_mu=ratings[i].mu,
                rating_sigma=ratings[i].sigma,
                rating_ordinal=ratings[i].ordinal(),
                ms_per_move=1000 * secs / moves if moves else 0.0,
                moves=moves,
                max_ms_per_move=longest,
                module_use=use,
            )
        )
    return out


def resume_problem(
    resume: TournamentResult,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    modules: Sequence[str] = (),
    turn_limit: int | None = TURN_LIMIT,
    options: Sequence[tuple[str, str, bool | int | str]] = (),
    game: str = "alhambra",
) -> str | None:
    """Why ``resume`` cannot be continued as this tournament (None when it can).

    A tournament may be extended: ``games`` may exceed the file's (each game depends only on
    its deal and rotation, so the file's games are the first ones of the longer run), never
    fall short of it."""
    total = math.ceil(games / players) * players
    mine = (players, sorted(modules), list(bots), seed, sorted(list(o) for o in options), game)
    theirs = (resume.players, sorted(resume.modules), list(resume.bots), resume.seed, sorted(resume.options), resume.game)
    if mine != theirs:
        return (
            "the results file is of another tournament "
            f"({resume.game}, {resume.players} players, modules {','.join(resume.modules) or 'none'}, bots {','.join(resume.bots)}, "
            f"seed {resume.seed}, {resume.games} games, options {resume.options or 'none'}); "
            "run it again without --resume or use another file"
        )
    if total < resume.games:
        return f"the results file is of a tournament of {resume.games} games: resume it with --games {resume.games} (or more, to extend it)"
    if turn_limit != resume.turn_limit and not all(_same_under(r, turn_limit) for r in resume.results):
        return (
            f"the results file was played with {_limit_text(resume.turn_limit)}, and some of its games might end "
            f"otherwise with {_limit_text(turn_limit)}: resume it with --turn-limit {resume.turn_limit or 0}"
        )
    return None


def _limit_text(turn_limit: int | None) -> str:
    return "no turn limit" if turn_limit is None else f"a turn limit of {turn_limit}"


def _same_under(result: GameResult, turn_limit: int | None) -> bool:
    """Whether a finished game would be the same under ``turn_limit``: it was not stopped, and
    it has too few actions to reach the limit (every turn takes at least one action)."""
    if result.outcome == "truncated":
        return False
    return turn_limit is None or len(result.record.get("actions", [])) + 1 < turn_limit


def _play_task(args: tuple[GameConfig, tuple[str, ...], int, int, int | None]) -> GameResult:
    config, bots, seed, game, bot_workers = args
    return play_game(config, bots, seed, game, bot_workers)


def run_tournament(
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    modules: Sequence[str] = (),
    workers: int | None = None,
    progress: Callable[[GameResult, int, int], None] | None = None,
    bot_workers: int | None = None,
    checkpoint: Callable[[TournamentResult], None] | None = None,
    checkpoint_every: int = 10,
    resume: TournamentResult | None = None,
    checkpoint_seconds: float | None = None,
    turn_limit: int | None = TURN_LIMIT,
    options: tuple[tuple[str, str, bool | int | str], ...] = (),
    game: str = "alhambra",
) -> TournamentResult:
    """Play a tournament (games rounded up to whole rotations) and return its figures.

    ``progress(result, done, total)`` is called after each game; ``checkpoint(partial)`` every
    ``checkpoint_every`` games with the figures so far (``complete=False``), also after a game
    that ends ``checkpoint_seconds`` or more after the last checkpoint (long games), and once
    more when the run is interrupted (``KeyboardInterrupt``, which is then raised again), so a
    stopped run keeps every game it finished. ``workers``:
    parallel game processes (default: every core); 1 plays in this process. ``resume``: the
    checkpoint of an earlier run of the same tournament (same players, modules, lineup, seed
    and games; ``ValueError`` otherwise): its games are kept and only the others are played
    (every game depends only on its deal and rotation, so the result is the same).
    ``turn_limit``: a game still running after this many turns ends as ``truncated`` (None: no
    limit). ``options``: module options of every game (``GameConfig.options``). ``game``: the
    game of the family (``GameConfig.game``).
    """
    config = GameConfig(players=players, modules=tuple(modules), turn_limit=turn_limit, options=options, game=game)
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots (got {len(bots)}: {', '.join(bots)})")
    for b in bots:
        make_bot(b)  # validate the specs before starting
    if games < 1:
        raise ValueError("play at least one game")
    deals = math.ceil(games / players)
    total = deals * players
    nworkers = max(1, min(workers if workers is not None else (os.cpu_count() or 1), total))
    results: list[GameResult] = []
    earlier = 0.0
    if resume is not None:
        problem = resume_problem(resume, players, bots, games, seed, modules, turn_limit, config.options, game)
        if problem:
            raise ValueError(problem)
        results = list(resume.results)
        earlier = resume.seconds
    done_games = {r.game for r in results}
    tasks = [(config, tuple(bots), seed, g, bot_workers) for g in range(total) if g not in done_games]
    start = time.perf_counter() - earlier
    last_saved = time.perf_counter()

    def snapshot(complete: bool) -> TournamentResult:
        done = sorted(results, key=lambda r: r.game)
        return TournamentResult(
            players=players,
            modules=list(config.modules),
            bots=list(bots),
            labels=entry_labels(bots),
            seed=seed,
            games=total,
            deals=deals,
            workers=nworkers,
            seconds=time.perf_counter() - start,
            entries=summarize(bots, done),
            results=done,
            complete=complete,
            turn_limit=turn_limit,
            options=[list(o) for o in config.options],
            game=game,
        )

    def save() -> None:
        nonlocal last_saved
        if checkpoint is not None:
            checkpoint(snapshot(False))
            last_saved = time.perf_counter()

    def finished(r: GameResult) -> None:
        results.append(r)
        if progress:
            progress(r, len(results), total)
        if len(results) < total and (
            len(results) % max(1, checkpoint_every) == 0
            or (checkpoint_seconds is not None and time.perf_counter() - last_saved >= checkpoint_seconds)
        ):
            save()

    if not tasks:
        return snapshot(True)
    try:
        if nworkers == 1:
            for t in tasks:
                finished(_play_task(t))
        else:
            # a multiprocessing pool, not an executor: leaving the block terminates the game
            # processes at once (games in progress are lost)
            with get_context("fork").Pool(nworkers, initializer=_worker_signals) as pool:
                for r in pool.imap_unordered(_play_task, tasks):
                    finished(r)
    except KeyboardInterrupt:
        save()  # keep every finished game; the run can be continued with resume
        raise
    return snapshot(True)


def _worker_signals() -> None:
    """Game processes leave interrupts to the parent, which saves the finished games and then
    stops them (a terminal's Ctrl-C reaches the whole process group)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
