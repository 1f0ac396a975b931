"""``alhambra bench``: the engine's speed (and the native core's, the modules')."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..bench import BenchResult, run_bench
from ..errors import ConfigError
from ..hooks import available_modules
from ..rulesets import ruleset
from .common import (
    GameOption,
    app,
    console,
    fail,
    parse_modules,
)


@app.command()
def bench(
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game (2-6).")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games per path.")] = 50,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of game 0 (game i uses seed + i).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    policy: Annotated[
        str, typer.Option("--policy", help="Random policy: 'kinds' (uniform kind of move, then uniform move) or 'uniform' (uniform move).")
    ] = "kinds",
    modules: Annotated[
        str | None,
        typer.Option(
            "--modules",
            "-m",
            help="Comma-separated module ids for the games (all: every module); 'each' benchmarks no module, then every module alone.",
        ),
    ] = None,
    game: GameOption = "alhambra",
    core: Annotated[
        str,
        typer.Option(
            "--core",
            help="'python' (the engine's checked and fast paths) or 'native' (the compiled core beside the Python fast path; "
            "base game without modules only).",
        ),
    ] = "python",
) -> None:
    """Play random games and report engine speed (checked apply and the unchecked fast path)."""
    if games < 1:
        fail("--games must be at least 1")
    if core not in ("python", "native"):
        fail(f"--core is 'python' or 'native', not {core!r}")
    if core == "native":
        _bench_native(players, games, seed, as_json, modules, game)
        return
    sets: list[tuple[str, ...]] = [()] + [(m,) for m in available_modules()] if modules == "each" else [parse_modules(modules)]
    results = []
    for mods in sets:
        try:
            results.append(run_bench(players=players, games=games, seed=seed, policy=policy, modules=mods, game=game))
        except (ConfigError, ValueError) as e:
            fail(str(e))
    _show_bench(results, as_json)


def _show_bench(results: list[BenchResult], as_json: bool) -> None:
    """Print the figures of one run (a table of figures) or of several module sets (a row each)."""
    if as_json:
        print(json.dumps(results[0].to_json() if len(results) == 1 else [r.to_json() for r in results]))
    elif len(results) == 1:
        _print_bench(results[0])
    else:
        _print_bench_modules(results)


def _bench_native(players: int, games: int, seed: int, as_json: bool, modules: str | None, game: str) -> None:
    from .. import native

    if modules or game != "alhambra":
        fail("--core native plays Alhambra without modules (modules and Granada run on the Python engine)")
    if not 2 <= players <= 6:
        fail(f"Alhambra is played by 2 to 6 players, not {players}")
    if not native.available():
        native.warn_once("bench --core native measures the Python engine only")
        _show_bench([run_bench(players=players, games=games, seed=seed)], as_json)
        return
    from ..native.bench import run_native_bench

    r = run_native_bench(players=players, games=games, seed=seed)
    if as_json:
        print(json.dumps(r.to_json()))
        return
    _print_figures(
        f"Native core vs Python fast path: random games (uniform policy), {r.players} players, "
        f"{r.games} Python games, {r.native_games} native games; CPU time of one process (one core)",
        ("figure", "python fast path", "native core", "speed-up"),
        [
            ("games/s", f"{r.python_games_per_s:,.1f}", f"{r.native_games_per_s:,.1f}", f"{r.games_speedup:,.1f}x"),
            ("actions/s", f"{r.python_actions_per_s:,.0f}", f"{r.native_actions_per_s:,.0f}", f"{r.actions_speedup:,.1f}x"),
            (
                "median legal_actions (µs)",
                f"{r.python_legal_actions_median_us:,.1f}",
                f"{r.native_legal_actions_median_us:,.2f}",
                f"{r.legal_actions_speedup:,.1f}x",
            ),
            (
                "  of which the listing in C (µs)",
                "",
                f"{r.native_listing_median_us:,.2f}",
                f"{r.python_legal_actions_median_us / max(r.native_listing_median_us, 1e-9):,.1f}x",
            ),
            ("mean actions per game", f"{r.python_mean_actions_per_game:,.1f}", f"{r.native_mean_actions_per_game:,.1f}", ""),
        ],
        None if r.agree else "warning: the native core replayed a Python game to different scores",
    )


_PATHS_DIFFER = "warning: the checked and unchecked paths played different games"


def _print_figures(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], warning: str | None) -> None:
    """A benchmark's figures: a table (the first column left-aligned, the figures right) and, if
    something did not agree, a warning in red below it."""
    con = console()
    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    con.print(table)
    if warning is not None:
        con.print(Text(warning, style="bold red"))


def _print_bench_modules(results: list[BenchResult]) -> None:
    base = results[0]
    _print_figures(
        f"Engine speed per module: {base.games} random games ({base.policy} policy), {base.players} players, "
        f"seeds {base.seed}..{base.seed + base.games - 1}; CPU time of one process (one core)",
        ("modules", "fast path games/s", "vs none", "checked games/s", "vs none", "median legal_actions (µs)", "actions/game"),
        [
            (
                ", ".join(r.modules) or "none",
                f"{r.unchecked_games_per_s:,.1f}",
                f"{100 * r.unchecked_games_per_s / base.unchecked_games_per_s:.0f}%",
                f"{r.games_per_s:,.1f}",
                f"{100 * r.games_per_s / base.games_per_s:.0f}%",
                f"{r.legal_actions_median_us:,.1f}",
                f"{r.mean_actions_per_game:,.0f}",
            )
            for r in results
        ],
        None if all(r.paths_agree for r in results) else _PATHS_DIFFER,
    )


def _print_bench(r: BenchResult) -> None:
    _print_figures(
        f"{ruleset(r.game).title} engine benchmark: {r.games} random games ({r.policy} policy), {r.players} players, "
        f"modules: {', '.join(r.modules) or 'none'}, seeds {r.seed}..{r.seed + r.games - 1}; CPU time of one process (one core)",
        ("figure", "checked apply", "apply_unchecked"),
        [
            ("games/s", f"{r.games_per_s:,.1f}", f"{r.unchecked_games_per_s:,.1f}"),
            ("actions/s", f"{r.actions_per_s:,.0f}", f"{r.unchecked_actions_per_s:,.0f}"),
            ("time per game (ms)", f"{1000 / r.games_per_s:,.2f}", f"{1000 / r.unchecked_games_per_s:,.2f}"),
            ("median apply (µs)", f"{r.apply_median_us:,.1f}", f"{r.apply_unchecked_median_us:,.1f}"),
            ("median legal_actions (µs)", f"{r.legal_actions_median_us:,.1f}", ""),
            ("mean actions per game", f"{r.mean_actions_per_game:,.1f}", ""),
        ],
        None if r.paths_agree else _PATHS_DIFFER,
    )
