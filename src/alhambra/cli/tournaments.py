"""``alhambra simulate``, ``report`` and ``tune``: bot tournaments, their tables, weight tuning."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots import make_bot
from ..engine import build_components, check_options
from ..errors import ConfigError
from ..hooks import modules_of
from ..rulesets import ruleset
from ..state import GameConfig
from ..tournament import TURN_LIMIT, TournamentResult
from .common import (
    EXIT_INVALID,
    EXIT_STOPPED,
    GameOption,
    ModuleOptionsOption,
    ModulesOption,
    app,
    console,
    fail,
    help_width,
    parse_modules,
    parse_options,
    read_json,
)


@app.command()
def simulate(
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game (2-6).")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=(
                "One bot per seat, comma-separated, by spec or by the level's name the browser shows: random (Beginner), "
                "greedy (Easy), mcts:easy (Medium), mcts:normal (Hard), mcts:hard (Expert), "
                "mcts:learned (Master) (see docs/bots.md)."
            ),
        ),
    ] = "greedy,random",
    games: Annotated[int, typer.Option("--games", "-g", help="Games to play (rounded up to whole seat rotations).")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of deal 0 (deal d uses seed + d).")] = 0,
    modules: ModulesOption = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Games played in parallel (default: every core).")] = None,
    bot_workers: Annotated[
        int | None, typer.Option("--bot-workers", help="Worker processes of each MCTS bot (root-parallel search).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the figures and every game's record here.", dir_okay=False)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the run whose checkpoint is the --json file: keep its games, play only the missing ones.",
        ),
    ] = False,
    turn_limit: Annotated[
        int,
        typer.Option(
            "--turn-limit",
            help="A game still running after this many turns ends as truncated (a safety net against bots that never finish; 0: no limit).",
        ),
    ] = TURN_LIMIT,
    option: ModuleOptionsOption = None,
    game: GameOption = "alhambra",
) -> None:
    """Play a tournament between bots with duplicate deals and seat rotation, and report each bot's strength."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..tournament import GameResult, resume_problem, run_tournament

    mods = parse_modules(modules)
    from ..bots.levels import spec_of_level

    lineup = [spec_of_level(b.strip()) for b in bots.split(",") if b.strip()]
    if games < 1:
        fail("--games must be at least 1")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    if bot_workers is not None and bot_workers < 1:
        fail("--bot-workers must be at least 1")
    if turn_limit < 0:
        fail("--turn-limit must be a number of turns (0: no limit)")
    limit = turn_limit or None
    opts = parse_options(option or [])
    try:
        config = GameConfig(players=players, modules=mods, turn_limit=limit, options=opts, game=game)
        build_components(config)  # refuses a module that does not declare the game
        check_options(config)
        for m in modules_of(config):
            m.check_config(config)
        if len(lineup) != players:
            raise ValueError(f"{players} players need {players} bots in --bots, not {len(lineup)}")
        for b in lineup:
            make_bot(b)
    except (ConfigError, ValueError) as e:
        fail(str(e))
    earlier: TournamentResult | None = None
    if resume:
        if json_out is None:
            fail("--resume needs --json FILE: the checkpoint to continue")
        if json_out.exists():
            try:
                earlier = TournamentResult.from_json(read_json(str(json_out)))
            except ValueError as e:
                fail(f"{json_out}: {e}", EXIT_INVALID)
            problem = resume_problem(earlier, players, lineup, games, seed, mods, limit, config.options, game)
            if problem:
                fail(f"{json_out}: {problem}")
    con = Console(file=sys.stderr, highlight=False)
    total = -(-games // players) * players
    wins = [0.0] * players
    if earlier is not None:
        for r in earlier.results:
            for i, w in enumerate(r.wins):
                wins[i] += w

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=con,
        disable=quiet,
        transient=False,
    ) as bar:
        already = 0 if earlier is None else len(earlier.results)
        task = bar.add_task(f"{lineup[0]}: -", total=total, completed=already)
        plain = not quiet and not con.is_terminal
        every = max(1, total // 20)
        started = time.perf_counter()

        def tick(r: GameResult, done: int, _total: int) -> None:
            for i, w in enumerate(r.wins):
                wins[i] += w
            text = f"{lineup[0]}: {100 * wins[0] / done:.1f}% wins"
            bar.update(task, completed=done, description=text)
            if plain and (done % every == 0 or done == total):
                spent = time.perf_counter() - started
                eta = spent / max(1, done - already) * (total - done)
                print(f"{done}/{total} games, {text}, {spent:,.0f} s, ETA {eta:,.0f} s", file=sys.stderr, flush=True)

        saved = len(earlier.results) if earlier is not None else 0

        def save(partial: TournamentResult) -> None:
            nonlocal saved
            if json_out is not None:
                _write_results(json_out, partial)
                saved = len(partial.results)

        try:
            with _sigterm_interrupts():
                result = run_tournament(
                    players, lineup, games, seed, mods, workers, tick, bot_workers, save, max(1, total // 100),
                    resume=earlier, checkpoint_seconds=_CHECKPOINT_SECONDS, turn_limit=limit, options=config.options,
                    game=game,
                )  # fmt: skip
        except KeyboardInterrupt:
            bar.stop()
            if json_out is None:
                said = "stopped; no game was saved (write checkpoints with --json FILE)"
            else:
                said = f"stopped: {saved} of {total} games saved in {json_out}; the same command with --resume plays the rest"
            print(f"alhambra: {said}", file=sys.stderr)
            sys.exit(EXIT_STOPPED)
    _print_tournament(result)
    if json_out is not None:
        _write_results(json_out, result)
        console().print(Text(f"Figures and {len(result.results)} game records written to {json_out}", style="dim"))


_CHECKPOINT_SECONDS = 60.0
"""A run's results file is rewritten at least this often (after the game that ends past it)."""


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``) stops the run like Ctrl-C, so it can save first."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _write_results(path: Path, result: TournamentResult) -> None:
    """Write a results file (atomically, so a checkpoint is never half written)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(result.to_json()) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e}")


@app.command(name="report")
def report_cmd(
    results_file: Annotated[
        str, typer.Argument(metavar="RESULTS.json", help="A results file of 'alhambra simulate --json'.", show_default=False)
    ],
) -> None:
    """Print the table of a results file of 'alhambra simulate' (also of a run still going: its checkpoint)."""
    data = read_json(results_file)
    try:
        result = TournamentResult.from_json(data)
    except ValueError as e:
        fail(f"{results_file}: {e}", EXIT_INVALID)
    _print_tournament(result)


def _count(n: int, word: str) -> str:
    """ "1 deal", "2 deals"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _bot_label(label: str) -> str:
    """A lineup entry with the level's name the browser shows: "Easy (greedy)", "Expert (mcts:hard#2)"."""
    from ..bots.levels import level_name

    name = level_name(label.split("#", 1)[0])
    return f"{name} ({label})" if name else label


def _print_tournament(r: TournamentResult) -> None:
    con = Console(file=sys.stdout, soft_wrap=True, highlight=False, width=help_width(200))
    mods = ", ".join(r.modules) or "none"
    if r.options:
        mods += " (options: " + ", ".join(f"{m}.{k}={v}" for m, k, v in r.options) + ")"
    done = "" if r.complete else f"UNFINISHED: {len(r.results)} of "
    if r.game != "alhambra":
        done = f"{ruleset(r.game).title}: {done}"
    title = (
        f"{done}{_count(r.games, 'game')} ({_count(r.deals, 'deal')} × {_count(r.players, 'seat rotation')}), "
        f"{r.players} players, modules: {mods}, "
        f"seeds {r.seed}..{r.seed + r.deals - 1}, {r.seconds:,.0f} s on {r.workers} worker(s)"
    )
    table = Table(title=title, title_justify="left")
    for col, just in (
        ("bot", "left"),
        ("games", "right"),
        ("win rate", "right"),
        ("95% interval", "right"),
        ("mean rank", "right"),
        ("mean score", "right"),
        ("mean margin", "right"),
        ("rating (PL)", "right"),
        ("ms/move", "right"),
        ("max ms", "right"),
    ):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for e in r.entries:
        table.add_row(
            _bot_label(e.label),
            str(e.games),
            f"{100 * e.win_rate:.1f}%",
            f"{100 * e.win_low:.1f}-{100 * e.win_high:.1f}%",
            f"{e.mean_rank:.2f}",
            f"{e.mean_score:.1f}",
            f"{e.mean_margin:+.1f}",
            f"{e.rating_mu:.1f} ± {e.rating_sigma:.1f}",
            f"{e.ms_per_move:,.1f}",
            "-" if e.max_ms_per_move is None else f"{e.max_ms_per_move:,.0f}",
        )
    con.print(table)
    used = [(e.label, m, legal, n) for e in r.entries for m, (legal, n) in sorted(e.module_use.items())]
    if used:
        uses = Table(title="Module actions: how often each bot used a module's actions when they were legal", title_justify="left")
        for col, just in (("bot", "left"), ("module", "left"), ("decisions", "right"), ("used", "right"), ("share", "right")):
            uses.add_column(col, justify=just)  # type: ignore[arg-type]
        for label, m, legal, n in used:
            uses.add_row(label, m, str(legal), str(n), f"{100 * n / legal:.1f}%" if legal else "-")
        con.print(uses)
    fallbacks = sum(g.fallbacks for g in r.results)
    if fallbacks:
        con.print(Text(f"warning: the bots logged {fallbacks} fallbacks or mismatches", style="bold red"))
    if r.truncated:
        con.print(
            Text(
                f"warning: {r.truncated} game(s) reached the turn limit of {r.turn_limit} and were stopped "
                "(scores as they stood, no final scoring): a bot may never end a game",
                style="bold red",
            )
        )


@app.command()
def tune(
    deals: Annotated[int, typer.Option("--deals", "-d", help="Deals per match (each played twice, once per seat).")] = 500,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of deal 0 (deal d uses seed + d).")] = 100_000,
    start: Annotated[str, typer.Option("--start", help="Weights to start from: 'default' or 'tuned'.")] = "default",
    parameters: Annotated[
        str | None,
        typer.Option("--parameters", help="Comma-separated parameters to tune, in order (default: all but lead_blend, a 3+ player one)."),
    ] = None,
    factors: Annotated[str, typer.Option("--factors", help="Comma-separated factors tried on each parameter.")] = "0.6,1.6",
    threshold: Annotated[float, typer.Option("--threshold", help="Share of a match's games a change must win to be kept.")] = 0.525,
    passes: Annotated[int, typer.Option("--passes", help="Most passes over the parameters.")] = 3,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Games played in parallel (default: every core).")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write every step and the weights here (rewritten after each match).", dir_okay=False)
    ] = None,
) -> None:
    """Tune the greedy evaluation's weights by full-information self-play (see docs/bots.md)."""
    from ..bots import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
    from ..bots.tuning import PARAMETERS, Step, check_parameters, get_parameter, search

    starts = {"default": DEFAULT_WEIGHTS, "tuned": TUNED_WEIGHTS}
    if start not in starts:
        fail(f"--start must be 'default' or 'tuned', not {start!r}")
    names = [p for p in PARAMETERS if p != "lead_blend"] if parameters is None else [p.strip() for p in parameters.split(",") if p.strip()]
    try:
        check_parameters(names)
    except ValueError as e:
        fail(str(e))
    try:
        facs = [float(f) for f in factors.split(",") if f.strip()]
    except ValueError:
        fail(f"--factors must be numbers, like 0.6,1.6 (got {factors!r})")
    if deals < 1:
        fail("--deals must be at least 1")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    if passes < 1:
        fail("--passes must be at least 1")
    out = console()
    out.print(
        f"Tuning from the {start} weights: {', '.join(names)}; "
        f"{deals} deals ({2 * deals} games) per match, seeds {seed}..{seed + deals - 1}"
    )

    steps: list[Step] = []

    def write(current: Weights, complete: bool) -> None:
        if json_out is None:
            return
        data = {
            "start": start,
            "deals": deals,
            "seed": seed,
            "threshold": threshold,
            "factors": facs,
            "complete": complete,
            "steps": [
                {"parameter": st.parameter, "factor": st.factor, "value": st.value, "kept": st.kept, **dataclasses.asdict(st.match)}
                for st in steps
            ],
            "weights": dataclasses.asdict(current),
        }
        tmp = json_out.with_name(json_out.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            tmp.replace(json_out)
        except OSError as e:
            fail(f"cannot write {json_out}: {e.strerror or e}")

    def show(step: Step, current: Weights) -> None:
        steps.append(step)
        m = step.match
        stopped = f", {m.stopped} stopped" if m.stopped else ""
        verdict = "[bold green]kept[/]" if step.kept else "dropped"
        out.print(
            f"{step.parameter} ×{step.factor:g} = {step.value:g}: {100 * m.win_rate:.1f}% of {m.games} games, "
            f"margin {m.margin:+.2f}{stopped}: {verdict}"
        )
        write(current, False)  # a progress file: an interrupted search keeps its steps

    first = starts[start]
    try:
        final, _ = search(first, deals, seed, names, facs, threshold, passes, workers, on_step=show)
    except ValueError as e:
        fail(str(e))
    moved = [(p, get_parameter(first, p), get_parameter(final, p)) for p in names]
    out.print(f"Final weights: {final!r}")
    out.print("Changed: " + (", ".join(f"{p} {a:g} -> {b:g}" for p, a, b in moved if a != b) or "nothing"))
    write(final, True)
