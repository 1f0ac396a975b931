"""The ``alhambra`` command line: score a real Alhambra, benchmark, replay, demo, list modules.

Exit codes are part of the contract:

* ``score``: 0 legal Alhambra, 1 broken rule or impossible tiles, 2 unreadable input;
* ``replay``: 0 replayed, 1 illegal or corrupt record (the error names the step), 2 unreadable
  file or JSON;
* every command: 2 for bad options (one line on stderr, never a traceback); 3 for an
  internal error (a bug: set ``ALHAMBRA_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
import typer.rich_utils
from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from . import __version__, city as geo
from .bench import BenchResult, run_bench
from .bots import make_bot
from .companion import TableError, is_table, parse_table, score_table
from .companion.render import city_word, print_round
from .demo import group_by_turn, play_demo
from .engine import build_components, building_counts, check_options, winners
from .errors import AlhambraError, ConfigError, RecordError
from .events import Event, GameEnded, GameStarted, RoundScored, TurnEnded
from .hooks import available_modules, load_module, modules_of, parse_module_ids
from .layout import (
    LayoutError,
    LayoutReport,
    check_layout,
    decode_json,
    draw_layout,
    game_words,
    layout_modules,
    parse_layout,
    read_json_file,
)
from .record import GameRecord, replay
from .rulesets import game_ids, ruleset
from .state import GameConfig, GameState
from .tournament import TURN_LIMIT, TournamentResult

__all__ = ["app", "main"]


class _OneLineErrors(TyperGroup):
    """Report usage errors (bad options, unknown commands) as one line on stderr, exit code 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as e:
            show = getattr(e, "show", None)
            if type(e).__name__ == "NoArgsIsHelpError" and callable(show):
                show()  # `alhambra` alone prints the help
            else:
                ctx = getattr(e, "ctx", None)
                hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                print(f"alhambra: error: {' '.join(e.format_message().split())}{hint}", file=sys.stderr)
            sys.exit(e.exit_code)
        except typer.Abort:
            print("alhambra: aborted", file=sys.stderr)
            sys.exit(1)
        except Exception as e:
            if os.environ.get("ALHAMBRA_DEBUG"):
                raise
            detail = " ".join(str(e).split())
            print(f"alhambra: internal error: {type(e).__name__}: {detail} (set ALHAMBRA_DEBUG=1 for the traceback)", file=sys.stderr)
            sys.exit(EXIT_INTERNAL)
        sys.exit(rv if isinstance(rv, int) else 0)


def _help_width(wide: int = 160) -> int | None:
    """The width of help and tables: the terminal's; when the output is not a terminal (a pipe,
    a file) ``TERMINAL_WIDTH`` if set, else ``wide``: nothing is cut at 80 columns."""
    if sys.stdout.isatty():
        return None
    cols = os.environ.get("TERMINAL_WIDTH", "")
    return int(cols) if cols.isdigit() and int(cols) > 0 else wide


_TYPE_WORDS = {"int": "INTEGER", "str": "TEXT", "float": "NUMBER", "bool": "BOOLEAN", "Path": "PATH"}


def _value_word(label: str | None) -> str | None:
    """``<int>`` -> ``INTEGER``, ``list[str]`` -> ``TEXT`` (repeatable): the value's name in
    capitals, as command lines write it."""
    if not label:
        return None
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    if inner.startswith("list[") and inner.endswith("]"):
        inner = inner[5:-1]
    return _TYPE_WORDS.get(inner, inner.upper())


def _option_type(self: Any, ctx: Any) -> str | None:
    """The value column of an option's help: nothing for a flag, else the value's name in
    capitals (``INTEGER``, ``PATH``, a choice's words), never a type label such as ``<bool>``."""
    if getattr(self, "is_flag", False) or getattr(self, "count", False):
        return None
    if self.metavar is not None:
        return str(self.metavar)
    return _value_word(self.display_type(ctx))


def _argument_type(self: Any, ctx: Any) -> str | None:
    """An argument's help names it by its metavar (``RECORD.json``): no second type label."""
    return None if self.metavar is not None else _value_word(self.display_type(ctx))


def _join_lines(paragraphs: list[str], markup_mode: Any) -> str:
    """The help's paragraphs with their single line breaks joined (a docstring's lines are not
    the help's lines); lists ("- ", "* ", "1. ") and preformatted paragraphs (``\b``) stay."""
    out = []
    for para in paragraphs:
        lines = para.split("\n")
        if para.startswith("\b") or any(ln.lstrip().startswith(("- ", "* ")) or ln.lstrip()[:2].rstrip(".").isdigit() for ln in lines[1:]):
            out.append(para)
        else:
            out.append(" ".join(ln.strip() for ln in lines))
    return "\n\n".join(out)


# typer's help: "-h" too, no type labels, paragraphs rewrapped, the whole width in a pipe
typer.core.TyperOption.display_type_rich = _option_type  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _argument_type  # type: ignore[method-assign]
typer.rich_utils._fix_linebreaks = _join_lines
typer.rich_utils.MAX_WIDTH = _help_width()

app = typer.Typer(
    name="alhambra",
    cls=_OneLineErrors,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Alhambra: the rules engine of the board game, from the command line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3
EXIT_STOPPED = 130

_STYLES = {"wall": "bold", "fountain": "bold cyan", "tile": "", "bad": "bold red", "axis": "dim", None: ""}


def _out() -> Console:
    """Console on the current stdout (looked up per call so test runners can capture it)."""
    return Console(file=sys.stdout, soft_wrap=True, highlight=False, width=_help_width())


def _fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print one ``alhambra: error: ...`` line on stderr and exit with ``code``."""
    first = " ".join(str(message).split())
    print(f"alhambra: error: {first}", file=sys.stderr)
    raise typer.Exit(code)


def _check_game(game: str) -> str:
    """``--game``: a game of the family (``alhambra games``); a clear error otherwise."""
    try:
        ruleset(game)
    except ConfigError as e:
        _fail(str(e))
    return game


GameOption = Annotated[
    str, typer.Option("--game", help="The game of the family: alhambra or granada (see alhambra games).", callback=_check_game)
]
"""The ``--game`` option of the commands that play or score a game."""
ModulesOption = Annotated[
    str | None, typer.Option("--modules", "-m", help="Comma-separated module ids, e.g. vizier,currency_exchange (all: every module).")
]
"""The ``--modules`` option (read with :func:`_parse_modules`)."""
ModuleOptionsOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A module option MODULE.KEY=VALUE (repeatable; see alhambra modules --json).")
]
"""The repeatable ``--option`` of the modules' options."""


def _seat_name(seat: int) -> str:
    return "Dirk (neutral)" if seat < 0 else f"player {seat + 1}"


def _version_callback(value: bool) -> None:
    if value:
        print(f"alhambra {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Show the version and exit.", callback=_version_callback, is_eager=True)
    ] = False,
) -> None:
    """Alhambra: the rules engine of the board game, from the command line."""


# ---------------------------------------------------------------------------------- score
@app.command()
def score(
    layout: Annotated[
        str, typer.Argument(metavar="FILE.json", help="A table file or a layout file ('-' reads standard input).", show_default=False)
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Draw with plain ASCII instead of box-drawing characters.")] = False,
    game: GameOption = "alhambra",
) -> None:
    """Score a round of a game played on a real table, or check and score one Alhambra.

    A table file ({"round": 1, "players": [...], "modules": [...]}) prints the round's points per player and why (docs/companion.md).

    A layout file ({"tiles": [{"x": 0, "y": 0, "kind": "fountain"}, {"x": 1, "y": 0, "kind": "garden", "price": 8}]}) checks one Alhambra.

    Exit code 0: scored, every Alhambra given by tiles legal; 1: a building rule is broken or a tile is not real; 2: unreadable input.
    """
    try:
        data = decode_json(sys.stdin.read(), "standard input") if layout == "-" else read_json_file(layout)
        if is_table(data):
            if "game" not in data:
                data = {**data, "game": game}
            elif data["game"] != game and game != "alhambra":
                raise LayoutError(f"the table says game {data['game']!r} but --game says {game!r}")
            where = "standard input" if layout == "-" else layout
            _score_table(data, as_json, "ascii" if ascii_only or not _can_encode("┏━┃✔") else "unicode", where)
        tiles = parse_layout(data, game)
    except LayoutError as e:
        _fail(str(e) if layout == "-" or str(e).startswith(layout) else f"{layout}: {e}")
    report = check_layout(tiles, game, layout_modules(data))
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        _print_layout_report(report, "ascii" if ascii_only or not _can_encode("┏━┃") else "unicode", game)
    raise typer.Exit(EXIT_OK if report.valid else EXIT_INVALID)


def _score_table(data: Any, as_json: bool, charset: str, where: str) -> NoReturn:
    """``alhambra score TABLE.json``: score a round of a whole table and exit."""
    try:
        result = score_table(parse_table(data))
    except TableError as e:
        _fail(f"{where}: {e}")
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print_round(_out(), result, charset)
    raise typer.Exit(EXIT_OK if result.valid else EXIT_INVALID)


def _can_encode(text: str) -> bool:
    enc = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _print_layout_report(report: LayoutReport, charset: str, game: str = "alhambra") -> None:
    con = _out()
    rules = ruleset(game)
    n = sum(1 for t in report.tiles if not t.is_fountain)
    city = "Alhambra" if game == "alhambra" else f"City of {rules.title}"
    con.print(Text(f"{city} with {n} building tile{'s' if n != 1 else ''}", style="bold"))
    con.print()
    for line in draw_layout(report, charset):
        text = Text()
        for chunk, tag in line:
            text.append(chunk, style=_STYLES.get(tag, ""))
        con.print(text)
    con.print()
    legend = ", ".join(f"{rules.kind_letters[k]} {rules.kind_names[k].lower()}" for k in rules.kinds)
    wall = rules.wall_name + "s"
    con.print(
        Text(
            f"F {game_words('fountain', rules)}, {legend}; "
            f"{f'= and # are {wall}' if charset == 'ascii' else f'heavy lines are {wall}'}; x grows east, y grows south.",
            style="dim",
        )
    )
    con.print()
    table = Table(title="Buildings", title_justify="left", show_edge=False, box=box.ASCII if charset == "ascii" else box.HEAVY_HEAD)
    for k in rules.kinds:
        table.add_column(k, justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_row(*(str(report.buildings[k]) for k in rules.kinds), str(sum(report.buildings.values())))
    con.print(table)
    con.print()
    con.print(
        Text.assemble((f"Longest outer {rules.wall_name}: ", "bold"), f"{report.longest_wall} (1 point per segment in every scoring round)")
    )
    for m, inputs in report.modules.items():  # what the modules read from their tiles (the camps' lines...)
        con.print(Text.assemble((f"{m}: ", "bold"), ", ".join(f"{k} {v}" for k, v in inputs.items())))
    con.print()
    if report.valid:
        mark = "✔ " if charset == "unicode" else "OK: "
        con.print(Text(f"{mark}This {city_word(game)} follows every building rule.", style="bold green"))
        return
    count = len(report.violations)
    mark = "✘ " if charset == "unicode" else ""
    con.print(Text(f"{mark}This {city_word(game)} is not legal: {count} problem{'s' if count != 1 else ''}.", style="bold red"))
    for v in report.violations:
        where = f"at {v.x},{v.y}" if v.x is not None else "overall"
        con.print(Text.assemble("  ", (v.rule, "red"), f" {where}: {v.message}"))


# ---------------------------------------------------------------------------------- bench
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
        _fail("--games must be at least 1")
    if core not in ("python", "native"):
        _fail(f"--core is 'python' or 'native', not {core!r}")
    if core == "native":
        _bench_native(players, games, seed, as_json, modules, game)
        return
    sets: list[tuple[str, ...]] = [()] + [(m,) for m in available_modules()] if modules == "each" else [_parse_modules(modules)]
    results = []
    for mods in sets:
        try:
            results.append(run_bench(players=players, games=games, seed=seed, policy=policy, modules=mods, game=game))
        except (ConfigError, ValueError) as e:
            _fail(str(e))
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
    from . import native

    if modules or game != "alhambra":
        _fail("--core native plays Alhambra without modules (modules and Granada run on the Python engine)")
    if not 2 <= players <= 6:
        _fail(f"Alhambra is played by 2 to 6 players, not {players}")
    if not native.available():
        native.warn_once("bench --core native measures the Python engine only")
        _show_bench([run_bench(players=players, games=games, seed=seed)], as_json)
        return
    from .native.bench import run_native_bench

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
    con = _out()
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


# ---------------------------------------------------------------------------------- replay
def _read_json_file(path: str) -> Any:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail(f"{p}: no such file")
    except IsADirectoryError:
        _fail(f"{p}: is a directory")
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"{p}: cannot read: {e}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        _fail(f"{p}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})")


def _result_json(state: GameState) -> dict[str, Any]:
    return {
        "outcome": state.outcome,
        "turn": state.turn,
        "scores": list(state.scores),
        "winners": list(winners(state)) if state.outcome else [],
        "neutral_score": state.neutral_score if state.neutral is not None else None,
    }


@app.command(name="replay")
def replay_cmd(
    record_file: Annotated[str, typer.Argument(metavar="RECORD.json", help="A game record (alhambra-record/1).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (outcome, scores, winners).")] = False,
    game: Annotated[
        int | None, typer.Option("--game", help="In a results file of 'alhambra simulate --json': the game to replay (0-based).")
    ] = None,
) -> None:
    """Re-apply a game record and print the final scores.

    Exit codes: 0 replayed; 1 for an illegal or corrupt record (the error names the step);
    2 for an unreadable file, a file that is not JSON, or a bad option (--game); 3 for an
    internal error (a bug).
    """
    data = _read_json_file(record_file)
    if isinstance(data, dict) and data.get("format") == "alhambra-simulation/1":
        games = data.get("game_results") or []
        if game is None or not 0 <= game < len(games):
            _fail(f"{record_file} holds {len(games)} simulated games: choose one with --game 0..{len(games) - 1}")
        data = games[game].get("record")
    elif game is not None:
        _fail(f"{record_file} is not a results file of 'alhambra simulate'; --game does not apply")
    try:
        record = GameRecord.from_json(data)
        state, _ = replay(record)
    except RecordError as e:
        _fail(f"{record_file}: {e}", EXIT_INVALID)
    except AlhambraError as e:  # pragma: no cover - replay wraps engine errors in RecordError
        _fail(f"{record_file}: {e}", EXIT_INVALID)
    if as_json:
        print(json.dumps(_result_json(state)))
        return
    con = _out()
    mods = ", ".join(record.config.modules) or "none"
    con.print(
        Text(f"Replayed {len(record.actions)} actions: {record.config.players} players, seed {record.seed}, modules: {mods}", style="bold")
    )
    _print_scores(con, state)


# ---------------------------------------------------------------------------------- demo
def _parse_options(texts: Sequence[str]) -> tuple[tuple[str, str, bool | int | str], ...]:
    """``MODULE.KEY=VALUE`` options: true/false are booleans, whole numbers ints, anything else words."""
    out: list[tuple[str, str, bool | int | str]] = []
    for text in texts:
        name, eq, raw = text.partition("=")
        mod, dot, key = name.partition(".")
        if not (eq and dot and mod and key and raw):
            _fail(f"bad option {text!r}: write MODULE.KEY=VALUE, e.g. invaders.face_up=true")
        value: bool | int | str = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out.append((mod.strip(), key.strip(), value))
    return tuple(out)


def _parse_modules(text: str | None) -> tuple[str, ...]:
    """The modules of ``--modules`` (each loaded: a clear error for an unknown one)."""
    mods = parse_module_ids(text)
    for m in mods:
        try:
            load_module(m)
        except ConfigError as e:
            _fail(str(e))
    return mods


@app.command()
def demo(
    players: Annotated[int, typer.Option("--players", "-p", help="Players (2-6).")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deal and of the players' choices.")] = 0,
    modules: ModulesOption = None,
    record: Annotated[Path | None, typer.Option("--record", "-r", help="Write the game record (JSON) here.", dir_okay=False)] = None,
    turns: Annotated[int | None, typer.Option("--turns", "-t", help="Stop after this many turns (the game ends truncated).")] = None,
    option: ModuleOptionsOption = None,
    game: GameOption = "alhambra",
) -> None:
    """Play a demo game between random players and print it turn by turn."""
    mods = _parse_modules(modules)
    if turns is not None and turns < 1:
        _fail("--turns must be at least 1")
    try:
        played = play_demo(players=players, seed=seed, modules=mods, turns=turns, options=_parse_options(option or []), game=game)
    except ConfigError as e:
        _fail(str(e))
    if record is not None:
        try:
            record.write_text(json.dumps(played.record.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            _fail(f"cannot write {record}: {e.strerror or e}")
    con = _out()
    rules = ruleset(game)
    con.rule(Text(f"{rules.title} demo: {players} random players, seed {seed}, modules: {', '.join(mods) or 'none'}", style="bold"))
    _print_assumptions(con, rules.id)
    _print_events(con, played.events)
    con.print()
    _print_scores(con, played.state)
    if rules.assumptions:
        con.print(Text(f"{rules.title} rests on assumptions (listed at the top; see alhambra games).", style="yellow"))
    if record is not None:
        n = len(played.record.actions)
        con.print(Text(f"Game record written to {record} ({n} actions); replay it with: alhambra replay {record}", style="dim"))


def _print_events(con: Console, events: Sequence[Event]) -> None:
    for start, group in group_by_turn(events):
        if start is None:
            con.print(Text("Setup", style="bold"))
        else:
            con.print(Text(f"Turn {start.turn} · {_seat_name(start.seat)}", style="bold blue"))
        for e in (ev.seen_by(None) for ev in group):
            if isinstance(e, TurnEnded):
                continue
            if isinstance(e, RoundScored):
                con.print(_round_panel(e))
            elif isinstance(e, GameEnded):
                con.print(Text(f"  {e.describe()}", style="bold green"))
            elif isinstance(e, GameStarted):
                con.print(f"  {e.describe()}")
                con.print(f"  market: {' '.join(t or '-' for t in e.market)}; display: {' '.join(c or '-' for c in e.display)}")
                for s, money in enumerate(e.starting_money):
                    con.print(f"  {_seat_name(s)} starts with {'+'.join(money)}")
                if e.neutral_tiles:
                    con.print(f"  Dirk (neutral) starts with {' '.join(e.neutral_tiles)}")
            else:
                con.print(f"  {e.describe()}")


def _print_assumptions(con: Console, game: str) -> None:
    """The assumptions and readings of a game that rests on them (Granada), before its demo."""
    rules = ruleset(game)
    if not rules.assumptions and not rules.readings:
        return
    con.print(Text(f"{rules.title}: what is assumed (not in any source) and how unclear rules are read", style="yellow"))
    for line in (*rules.assumptions, *rules.readings):
        con.print(f"  - {line}")
    con.print()


def _kind_letter(kind: str) -> str:
    """The letter of a building kind in tables (its tile-code letter in whichever game has it)."""
    for g in game_ids():
        letter = ruleset(g).kind_letters.get(kind)
        if letter is not None:
            return letter
    return kind[:1].upper()


def _round_panel(e: RoundScored) -> Panel:
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    kinds = list(e.kinds)
    for k in kinds:
        table.add_column(_kind_letter(k), justify="right")
    table.add_column("wall", justify="right")
    for mod in e.extra:
        table.add_column(mod, justify="right")
    table.add_column("round", justify="right", style="bold")
    table.add_column("total", justify="right", style="bold")
    for s, pts in enumerate(e.points):
        cells = [f"{e.counts[k][s]}→{e.kinds[k][s]}" if e.kinds[k][s] else str(e.counts[k][s]) for k in kinds]
        extra = [str(v[s]) for v in e.extra.values()]
        table.add_row(_seat_name(s), *cells, str(e.walls[s]), *extra, f"+{pts}", str(e.scores[s]))
    if len(e.counts[kinds[0]]) > len(e.points):  # the neutral player, last
        s = len(e.points)
        cells = [f"{e.counts[k][s]}→{e.kinds[k][s]}" if e.kinds[k][s] else str(e.counts[k][s]) for k in kinds]
        table.add_row("Dirk", *cells, "", *["" for _ in e.extra], f"+{e.neutral_points}", str(e.neutral_score))
    return Panel(table, title=f"Scoring round {e.round}", subtitle="buildings→points per kind", style="yellow", expand=False)


def _print_scores(con: Console, state: GameState) -> None:
    n = state.config.players
    best = max(state.scores)
    over = state.outcome is not None
    title = f"Final scores ({state.outcome} after turn {state.turn})" if over else f"Scores (game in progress, turn {state.turn})"
    table = Table(title=title, title_justify="left")
    table.add_column("")
    table.add_column("score", justify="right", style="bold")
    kinds = state.components.kinds
    for k in kinds:
        table.add_column(_kind_letter(k), justify="right")
    table.add_column("wall", justify="right")
    table.add_column("reserve", justify="right")
    order = sorted(range(n), key=lambda s: (-state.scores[s], s))
    for s in order:
        counts = building_counts(state, s)
        p = state.players[s]
        mark = " ★" if over and state.scores[s] == best else ""
        table.add_row(
            _seat_name(s) + mark,
            str(state.scores[s]),
            *(str(counts.get(k, 0)) for k in kinds),
            str(geo.longest_wall(p.city, state.walls)),
            str(len(p.reserve)),
        )
    if state.neutral is not None:
        counts = building_counts(state, -1)
        table.add_row(_seat_name(-1), str(state.neutral_score), *(str(counts.get(k, 0)) for k in kinds), "", "")
    con.print(table)
    if over:
        won = winners(state)
        names = " and ".join(_seat_name(s) for s in won)
        if state.outcome == "truncated":
            verdict = f"Game truncated; leading: {names} with {best} points"
        elif len(won) == 1:
            verdict = f"Winner: {names} with {best} points"
        else:
            verdict = f"Shared win: {names} with {best} points"
        con.print(Text(verdict, style="bold green"))


# ---------------------------------------------------------------------------------- simulate
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

    from .tournament import GameResult, resume_problem, run_tournament

    mods = _parse_modules(modules)
    from .bots.levels import spec_of_level

    lineup = [spec_of_level(b.strip()) for b in bots.split(",") if b.strip()]
    if games < 1:
        _fail("--games must be at least 1")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    if bot_workers is not None and bot_workers < 1:
        _fail("--bot-workers must be at least 1")
    if turn_limit < 0:
        _fail("--turn-limit must be a number of turns (0: no limit)")
    limit = turn_limit or None
    opts = _parse_options(option or [])
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
        _fail(str(e))
    earlier: TournamentResult | None = None
    if resume:
        if json_out is None:
            _fail("--resume needs --json FILE: the checkpoint to continue")
        if json_out.exists():
            try:
                earlier = TournamentResult.from_json(_read_json_file(str(json_out)))
            except ValueError as e:
                _fail(f"{json_out}: {e}", EXIT_INVALID)
            problem = resume_problem(earlier, players, lineup, games, seed, mods, limit, config.options, game)
            if problem:
                _fail(f"{json_out}: {problem}")
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
        _out().print(Text(f"Figures and {len(result.results)} game records written to {json_out}", style="dim"))


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
        _fail(f"cannot write {path}: {e.strerror or e}")


@app.command(name="report")
def report_cmd(
    results_file: Annotated[
        str, typer.Argument(metavar="RESULTS.json", help="A results file of 'alhambra simulate --json'.", show_default=False)
    ],
) -> None:
    """Print the table of a results file of 'alhambra simulate' (also of a run still going: its checkpoint)."""
    data = _read_json_file(results_file)
    try:
        result = TournamentResult.from_json(data)
    except ValueError as e:
        _fail(f"{results_file}: {e}", EXIT_INVALID)
    _print_tournament(result)


def _count(n: int, word: str) -> str:
    """ "1 deal", "2 deals"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _bot_label(label: str) -> str:
    """A lineup entry with the level's name the browser shows: "Easy (greedy)", "Expert (mcts:hard#2)"."""
    from .bots.levels import level_name

    name = level_name(label.split("#", 1)[0])
    return f"{name} ({label})" if name else label


def _print_tournament(r: TournamentResult) -> None:
    con = Console(file=sys.stdout, soft_wrap=True, highlight=False, width=_help_width(200))
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


# ---------------------------------------------------------------------------------- tune
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
    from .bots import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
    from .bots.tuning import PARAMETERS, Step, check_parameters, get_parameter, search

    starts = {"default": DEFAULT_WEIGHTS, "tuned": TUNED_WEIGHTS}
    if start not in starts:
        _fail(f"--start must be 'default' or 'tuned', not {start!r}")
    names = [p for p in PARAMETERS if p != "lead_blend"] if parameters is None else [p.strip() for p in parameters.split(",") if p.strip()]
    try:
        check_parameters(names)
    except ValueError as e:
        _fail(str(e))
    try:
        facs = [float(f) for f in factors.split(",") if f.strip()]
    except ValueError:
        _fail(f"--factors must be numbers, like 0.6,1.6 (got {factors!r})")
    if deals < 1:
        _fail("--deals must be at least 1")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    if passes < 1:
        _fail("--passes must be at least 1")
    out = _out()
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
            _fail(f"cannot write {json_out}: {e.strerror or e}")

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
        _fail(str(e))
    moved = [(p, get_parameter(first, p), get_parameter(final, p)) for p in names]
    out.print(f"Final weights: {final!r}")
    out.print("Changed: " + (", ".join(f"{p} {a:g} -> {b:g}" for p, a, b in moved if a != b) or "nothing"))
    write(final, True)


# ---------------------------------------------------------------------------------- serve
@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="SQLAlchemy URL (default: a SQLite file in your user data directory)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a bot waits before each move.")] = 0.6,
    hint_seconds: Annotated[
        float, typer.Option("--hint-seconds", help="Seconds the strongest bot searches for one hint (tables that allow hints).")
    ] = 2.0,
    request_timeout: Annotated[
        float,
        typer.Option(
            "--request-timeout", help="Seconds a client has to send a request's head, and again its body; slower ones are cut off."
        ),
    ] = 10.0,
    create_rate: Annotated[
        float, typer.Option("--create-rate", help="Tables one client address may create per minute (429 beyond).")
    ] = 20.0,
    bot_workers: Annotated[
        int | None,
        typer.Option("--bot-workers", help="Processes for searching bots (mcts levels); default: the number of CPU cores."),
    ] = None,
    max_bot_tables: Annotated[
        int, typer.Option("--max-bot-tables", help="Tables with only bots that may play at once (each only while watched).")
    ] = 2,
    evict_after: Annotated[
        float, typer.Option("--evict-after", help="Seconds an unwatched, unused table stays in memory (it stays in the database).")
    ] = 600.0,
    expire_waiting: Annotated[
        float, typer.Option("--expire-waiting", help="Seconds a table may wait for its players before it is deleted.")
    ] = 24 * 3600.0,
    expire_idle: Annotated[
        float, typer.Option("--expire-idle", help="Seconds an unfinished game may go without a move before it is deleted.")
    ] = 30 * 24 * 3600.0,
    ws_per_address: Annotated[
        int, typer.Option("--ws-per-address", help="Live WebSockets one client address may hold (closed with 4429 beyond).")
    ] = 200,
    ws_per_table: Annotated[
        int, typer.Option("--ws-per-table", help="Live WebSockets on one table, spectators included (4429 beyond).")
    ] = 500,
    ws_idle: Annotated[
        float, typer.Option("--ws-idle", help="Seconds a WebSocket may go with nothing sent either way before it is closed (4408).")
    ] = 900.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            help="Redis that links several server processes over one database (live updates, bot claims, shared limits).",
        ),
    ] = None,
    redis_prefix: Annotated[str, typer.Option("--redis-prefix", help="Prefix of this site's Redis keys and channel.")] = "alhambra",
    workers: Annotated[
        int,
        typer.Option("--workers", help="Server processes on this port (more than 1 needs a PostgreSQL --database-url and --redis-url)."),
    ] = 1,
) -> None:
    """Run the table server: play in the browser, invite people, seat bots (JSON API at /docs)."""
    import uvicorn

    from .server import create_app
    from .server.db import default_database_url
    from .server.limits import guarded_protocol

    if not 0 < port < 65536:
        _fail("--port must be 1-65535")
    if bot_delay < 0:
        _fail("--bot-delay must not be negative")
    if not 0 < hint_seconds <= 60:
        _fail("--hint-seconds must be more than 0 and at most 60")
    if not request_timeout > 0:
        _fail("--request-timeout must be positive")
    if not create_rate > 0:
        _fail("--create-rate must be positive")
    if bot_workers is not None and not 1 <= bot_workers <= 64:
        _fail("--bot-workers must be 1-64")
    if max_bot_tables < 0:
        _fail("--max-bot-tables must not be negative")
    for option, value in (("--evict-after", evict_after), ("--expire-waiting", expire_waiting), ("--expire-idle", expire_idle)):
        if not value > 0:
            _fail(f"{option} must be positive (seconds)")
    problem = _port_problem(host, port)
    if problem is not None:
        _fail(problem)
    if not 1 <= ws_per_address <= 100_000 or not 1 <= ws_per_table <= 100_000:
        _fail("--ws-per-address and --ws-per-table must be 1-100000")
    if not ws_idle > 0:
        _fail("--ws-idle must be positive (seconds)")
    if not 1 <= workers <= 64:
        _fail("--workers must be 1-64")
    if workers > 1 and not _is_postgresql(database_url):
        _fail(
            "--workers above 1 needs a PostgreSQL --database-url (postgresql+psycopg://...): a SQLite file is "
            "one process's database (its writers lock the whole file), so serve it with one process"
        )
    if workers > 1 and not redis_url:
        _fail("--workers above 1 needs --redis-url: the processes share live updates, bot moves and limits through Redis")
    if redis_url:
        problem = _redis_problem(redis_url)
        if problem is not None:
            _fail(problem)
    url = database_url or default_database_url()
    settings: dict[str, Any] = {
        "database_url": url,
        "bot_delay": bot_delay,
        "hint_seconds": hint_seconds,
        "request_timeout": request_timeout,
        "create_rate": create_rate,
        "bot_workers": bot_workers,
        "max_bot_tables": max_bot_tables,
        "evict_after": evict_after,
        "expire_waiting": expire_waiting,
        "expire_idle": expire_idle,
        "ws_per_address": ws_per_address,
        "ws_per_table": ws_per_table,
        "ws_idle": ws_idle,
        "redis_url": redis_url,
        "redis_prefix": redis_prefix,
    }
    if workers > 1:
        _serve_workers(host, port, workers, settings)
        return
    try:
        application = create_app(
            url,
            bot_delay=bot_delay,
            request_timeout=request_timeout,
            create_rate=create_rate,
            bot_workers=bot_workers,
            max_bot_tables=max_bot_tables,
            evict_after=evict_after,
            expire_waiting=expire_waiting,
            expire_idle=expire_idle,
            ws_per_address=ws_per_address,
            ws_per_table=ws_per_table,
            ws_idle=ws_idle,
            redis_url=redis_url,
            redis_prefix=redis_prefix,
        )
    except Exception as e:  # a bad URL or an unreachable database
        _fail(f"cannot open the database {url!r}: {' '.join(str(e).split())[:200]}")
    application.state.hints.seconds = hint_seconds  # the search time of a hint (create_app's hint_seconds)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Alhambra table server: open http://{shown}:{port}/ in your browser", flush=True)
    print(f"  database: {_redact(url)}  (stop with Ctrl+C)", flush=True)
    uvicorn.run(application, host=host, port=port, log_level="info", ws_max_size=65536, http=guarded_protocol(request_timeout))


def _is_postgresql(url: str | None) -> bool:
    """True for a PostgreSQL database URL (``postgresql://``, ``postgresql+psycopg://``, ...)."""
    return bool(url) and str(url).split(":", 1)[0].split("+", 1)[0].lower() in ("postgresql", "postgres")


def _redis_problem(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used (None: it answers)."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except Exception as e:
        return f"cannot reach Redis at {_redact(url)}: {' '.join(str(e).split())[:200]}"
    return None


def _serve_workers(host: str, port: int, workers: int, settings: dict[str, Any]) -> None:
    """``serve --workers N``: migrate once here, then N uvicorn worker processes on one port."""
    import json
    import os

    import uvicorn

    from .server.db import Database
    from .server.workers import ENV

    url = settings["database_url"]
    try:
        Database(url).close()  # the schema is upgraded once, before any worker opens it
    except Exception as e:
        _fail(f"cannot open the database {_redact(url)}: {' '.join(str(e).split())[:200]}")
    os.environ[ENV] = json.dumps(settings)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Alhambra table server: open http://{shown}:{port}/ in your browser", flush=True)
    print(f"  database: {_redact(url)}  redis: {_redact(settings['redis_url'])}  {workers} processes (stop with Ctrl+C)", flush=True)
    uvicorn.run(
        "alhambra.server.workers:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="info",
        ws_max_size=65536,
        http="alhambra.server.limits:GuardedH11Protocol",
    )


def _port_problem(host: str, port: int) -> str | None:
    """Why ``serve`` cannot listen on ``host:port`` (a port in use, an address not of this
    machine), or None: a test bind before anything is printed or opened."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return f"cannot listen on {host!r}: not an address of this machine"
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: TIME_WAIT is no obstacle
        try:
            sock.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return f"port {port} is in use (stop the program using it, or choose another with --port)"
            if e.errno == errno.EACCES:
                return f"port {port} needs more privileges (choose one above 1023 with --port)"
            return f"cannot listen on {host}:{port}: {e.strerror or e}"
    return None


def _redact(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


db_app = typer.Typer(name="db", help="The table server's database: schema migrations.", no_args_is_help=True)
app.add_typer(db_app)


@db_app.command("upgrade")
def db_upgrade(
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="SQLAlchemy URL (default: the SQLite file `alhambra serve` uses)."),
    ] = None,
) -> None:
    """Migrate the server's database to the newest schema (the server also does it when it starts)."""
    from sqlalchemy import create_engine

    from .server.db import default_database_url
    from .server.migrate import upgrade

    url = database_url or default_database_url()
    try:
        engine = create_engine(url)
        try:
            before, now = upgrade(engine)
        finally:
            engine.dispose()
    except Exception as e:
        _fail(f"cannot upgrade the database {_redact(url)}: {' '.join(str(e).split())[:200]}")
    if before == now:
        print(f"{_redact(url)}: already at revision {now}")
    else:
        print(f"{_redact(url)}: upgraded from {before or 'an empty database'} to revision {now}")


@app.command()
def loadtest(
    tables: Annotated[int, typer.Option("--tables", "-n", help="Concurrent tables (every seat a bot client).")] = 50,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats per table (2-6).")] = 2,
    actions: Annotated[int, typer.Option("--actions", "-a", help="Actions per table (bounded run).")] = 40,
    pace: Annotated[float, typer.Option("--pace", help="Seconds each table's bot waits between actions.")] = 0.5,
    duration: Annotated[float, typer.Option("--max-seconds", help="Stop after this many seconds at most.")] = 300.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    fairness: Annotated[
        int | None,
        typer.Option(
            "--fairness",
            help="Instead: play a person table against a random bot on the idle server, then beside N watched "
            "all-bot mcts:hard tables, and compare its bot replies (--actions person actions per phase).",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Instead: serve with N processes over --database-url and --redis-url (docs/server.md).")
    ] = None,
    database_url: Annotated[str | None, typer.Option("--database-url", help="With --workers: the (PostgreSQL) database to serve.")] = None,
    redis_url: Annotated[str | None, typer.Option("--redis-url", help="With --workers: the Redis linking the processes.")] = None,
    kill_after: Annotated[
        float | None, typer.Option("--kill-after", help="With --workers: SIGKILL one server process this many seconds into the run.")
    ] = None,
    watchers: Annotated[
        int, typer.Option("--watchers", help="With --workers: spectator WebSockets more, from several loopback addresses.")
    ] = 0,
) -> None:
    """Start a server on a loopback port with a fresh database, play N concurrent bot tables through
    the API and WebSockets, and report latency from each action to every seat's update."""
    from .server.loadtest import run_fairness, run_loadtest

    if workers is not None or redis_url is not None:
        from .server.loadscale import run_scale_loadtest

        if not (database_url and redis_url):
            _fail("--workers needs --database-url (PostgreSQL) and --redis-url: the processes share them")
        if (workers or 1) > 1 and not _is_postgresql(database_url):
            _fail("--workers above 1 needs a PostgreSQL --database-url: a SQLite file is one process's database")
        if not 1 <= (workers or 1) <= 16 or not 0 <= watchers <= 5000 or not 1 <= tables <= 1000:
            _fail("--workers must be 1-16, --watchers 0-5000, --tables 1-1000")
        got = run_scale_loadtest(
            database_url,
            redis_url,
            workers or 1,
            tables,
            players,
            actions,
            pace,
            duration,
            bots=True,
            kill_after=kill_after,
            watchers=watchers,
        )
        if as_json:
            print(json.dumps(got, indent=2))
        else:
            for k, v in got.items():
                print(f"{k}: {v:.1f}" if isinstance(v, float) else f"{k}: {v}")
        return

    if fairness is not None:
        if not 0 <= fairness <= 20:
            _fail("--fairness must be 0-20 all-bot tables")
        if actions < 1 or duration <= 0:
            _fail("--actions must be at least 1 and --max-seconds positive")
        fair = run_fairness(fairness, actions=actions, max_seconds=duration)
        if as_json:
            print(json.dumps(fair))
            return
        con = _out()
        con.print(Text(f"person table vs a random bot, idle and beside {fairness} watched all-bot mcts:hard tables", style="bold"))
        for phase in ("idle", "loaded"):
            f = fair[phase]
            con.print(
                f"{phase:>6}: {f['actions']} actions, {f['bot_replies']} bot replies; bot reply p50 {f['bot_reply_p50_ms']:.1f} ms, "
                f"p99 {f['bot_reply_p99_ms']:.1f} ms; action to update p50 {f['update_p50_ms']:.1f} ms, p99 {f['update_p99_ms']:.1f} ms"
            )
        con.print(
            f" ratio: bot reply p50 {fair['bot_reply_p50_ratio']:.2f}x, p99 {fair['bot_reply_p99_ratio']:.2f}x; "
            f"update p50 {fair['update_p50_ratio']:.2f}x, p99 {fair['update_p99_ratio']:.2f}x (loaded / idle)"
        )
        for failure in fair["failures"]:
            con.print(Text(f"failure: {failure}", style="bold red"))
        return

    if not 1 <= tables <= 2000:
        _fail("--tables must be 1-2000")
    if not 2 <= players <= 6:
        _fail("--players must be 2-6")
    if actions < 1 or pace < 0 or duration <= 0:
        _fail("--actions must be at least 1, --pace at least 0 and --max-seconds positive")
    result = run_loadtest(tables=tables, players=players, actions=actions, pace=pace, max_seconds=duration)
    if as_json:
        print(json.dumps(result))
        return
    con = _out()
    con.print(
        Text(
            f"{result['tables']} tables x {result['players']} seats, {result['actions']} actions in {result['seconds']:.1f} s "
            f"({result['actions_per_s']:.0f} actions/s)",
            style="bold",
        )
    )
    con.print(
        f"latency from sending an action to the last seat's update: p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms; refused actions: {result['errors']}"
    )
    for failure in result["failures"]:
        con.print(Text(f"failure: {failure}", style="bold red"))


# ---------------------------------------------------------------------------------- modules
@app.command(name="modules")
def modules_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print every module's facts as JSON.")] = False,
) -> None:
    """List the plug-in modules that can be added to a game, with their assumptions and options."""
    con = _out()
    ids = available_modules()
    facts: list[dict[str, Any]] = []
    for mid in ids:
        try:
            m = load_module(mid)
        except (ConfigError, ImportError) as e:
            facts.append({"id": mid, "error": f"cannot be loaded: {e}"})
            continue
        facts.append(
            {
                "id": mid,
                "title": m.title,
                "summary": m.summary,
                "description": m.description,
                "assumptions": list(m.assumptions),
                "component_assumptions": list(m.component_assumptions),
                "rests_on_assumptions": bool(m.component_assumptions),
                "options": [
                    {"key": o.key, "default": o.default, "description": o.description, "choices": list(o.choices)} for o in m.options
                ],
            }
        )
    if as_json:
        print(json.dumps(facts, indent=2))
        return
    if not ids:
        con.print("No modules are installed.")
        return
    table = Table(title="Available modules", title_justify="left")
    table.add_column("id", style="bold")
    table.add_column("title")
    table.add_column("what it does")
    table.add_column("component facts")
    for f in facts:
        if "error" in f:
            table.add_row(f["id"], "", Text(f["error"], style="red"), "")
            continue
        known = Text("rests on assumptions", style="yellow") if f["rests_on_assumptions"] else Text("as printed", style="green")
        table.add_row(f["id"], f["title"] or "", f["summary"] or f["description"] or "", known)
    con.print(table)
    for f in facts:
        if f.get("component_assumptions"):
            con.print(Text(f"{f['id']} assumes (unknown component facts; correct them in its components file):", style="yellow"))
            for line in f["component_assumptions"]:
                con.print(f"  - {line}")
    con.print(
        Text(
            "Rule readings: alhambra modules --json (and each module's README). Use them with: alhambra demo --modules " + ",".join(ids),
            style="dim",
        )
    )


# ---------------------------------------------------------------------------------- new-module
@app.command(name="new-module")
def new_module_cmd(
    module_id: Annotated[str, typer.Argument(metavar="ID", help="The new module's id: lower-case snake_case, e.g. night_market.")],
    dest: Annotated[
        Path | None,
        typer.Option("--dest", help="Folder to write the package into (default: beside the built-in modules)."),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="The module's title (default: from the id).")] = None,
) -> None:
    """Create a working module package to start from: module.py with its state slice, README with
    the rules and assumptions sections, components.json, random-game tests and a ui.js stub."""
    from .scaffold import ScaffoldError, new_module

    try:
        folder = new_module(module_id, dest, title)
    except ScaffoldError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"cannot write the module: {e}")
    con = _out()
    con.print(Text(f"Created module {module_id!r} in {folder}", style="bold"))
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        con.print(f"  {path.relative_to(folder)}")
    con.print(
        Text(
            f"Next: write its rules (docs/writing-a-module.md), then run its tests: pytest -n 0 {folder}",
            style="dim",
        )
    )


# ---------------------------------------------------------------------------------- games
@app.command(name="games")
def games_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print every game's facts as JSON.")] = False,
) -> None:
    """List the games of the family (Alhambra, Granada) with what each assumes."""
    facts = [ruleset(g).describe() for g in game_ids()]
    if as_json:
        print(json.dumps(facts, indent=2))
        return
    con = _out()
    table = Table(title="Games of the family", title_justify="left")
    for col in ("id", "title", "building kinds", "tiles", "scoring", "component facts"):
        table.add_column(col)
    for f in facts:
        known = Text("rests on assumptions", style="yellow") if f["assumptions"] else Text("as printed", style="green")
        table.add_row(f["id"], f["title"], ", ".join(f["kind_names"]), str(f["tiles"]), f["scoring"], known)
    con.print(table)
    for f in facts:
        if f["assumptions"] or f["readings"]:
            con.print(Text(f"{f['title']} assumes (unknown component facts; correct them in its game.json):", style="yellow"))
            for line in f["assumptions"]:
                con.print(f"  - {line}")
            con.print(Text(f"{f['title']}: readings of unclear rules:", style="yellow"))
            for line in f["readings"]:
                con.print(f"  - {line}")
    con.print(Text("Play one with: alhambra demo --game granada --players 3", style="dim"))


# ---------------------------------------------------------------------------------- train
@app.command(name="train")
def train_cmd(
    out: Annotated[
        Path, typer.Option("--out", help="The run's folder: data, checkpoint, log, weights, plot. An existing run there is resumed.")
    ] = Path("runs/value"),
    players: Annotated[str, typer.Option("--players", help="Player counts to learn, comma-separated (2 to 4).")] = "2,3,4",
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds of self-play and training (a resumed run goes on to this many).")] = 5,
    games: Annotated[int, typer.Option("--games", help="Self-play games per player count per round.")] = 300,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over all positions so far, per round.")] = 4,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer widths, comma-separated.")] = "128,64",
    lr: Annotated[float, typer.Option("--lr", help="AdamW's learning rate.")] = 1e-3,
    weight_decay: Annotated[float, typer.Option("--weight-decay", help="AdamW's weight decay.")] = 0.0,
    epsilon: Annotated[float, typer.Option("--epsilon", help="Share of random moves in self-play.")] = 0.1,
    sample_rate: Annotated[float, typer.Option("--sample-rate", help="Share of decisions recorded (every seat's view of each).")] = 0.25,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and of the networks' start.")] = 1,
    eval_games: Annotated[int, typer.Option("--eval-games", help="2-player games against mcts:hard after each round (0: none).")] = 16,
    eval_iterations: Annotated[
        int, typer.Option("--eval-iterations", help="Search iterations per move of both sides in those games.")
    ] = 100,
    residual: Annotated[
        bool,
        typer.Option("--residual/--outcome", help="Learn a correction of the hand-made leaf rewards (residual) or the win chances alone."),
    ] = False,
    search: Annotated[
        int, typer.Option("--search", help="Self-play moves chosen by an mcts:hard search of this many iterations (0: greedy).")
    ] = 0,
    search_target: Annotated[
        float,
        typer.Option("--search-target", help="Share of the mover's search value in the target, where a search chose the move (2 players)."),
    ] = 0.0,
    net_weight: Annotated[
        float | None,
        typer.Option("--net-weight", help="The network's share of a leaf in the evaluation games (default 1 residual, 0.5 outcome)."),
    ] = None,
) -> None:
    """Learn the value network of mcts:learned from self-play (needs the extra 'train': PyTorch CPU)."""
    try:
        counts = tuple(int(p) for p in players.split(",") if p.strip())
        widths = tuple(int(h) for h in hidden.split(",") if h.strip())
    except ValueError:
        _fail("--players and --hidden are comma-separated whole numbers")
    if not counts or any(p not in (2, 3, 4) for p in counts):
        _fail("--players: counts from 2 to 4")
    if not widths or any(w < 1 for w in widths):
        _fail("--hidden: at least one positive width")
    for name, value in (("--rounds", rounds), ("--games", games), ("--epochs", epochs)):
        if value < 1:
            _fail(f"{name} must be at least 1")
    if not 0.0 <= epsilon <= 1.0 or not 0.0 < sample_rate <= 1.0:
        _fail("--epsilon is in [0, 1] and --sample-rate in (0, 1]")
    if search < 0:
        _fail("--search must be 0 (greedy self-play) or a number of iterations")
    if not 0.0 <= search_target <= 1.0 or (search_target > 0.0 and search == 0):
        _fail("--search-target is in [0, 1] and needs --search (the values come from the searches)")
    share = (1.0 if residual else 0.5) if net_weight is None else net_weight
    if not 0.0 <= share <= 1.0:
        _fail("--net-weight is in [0, 1]")
    try:
        import torch  # noqa: F401
    except ImportError:
        _fail("training needs PyTorch: pip install -e '.[train]' (PyTorch 2.13.0, CPU build)")
    from .learning.train import TrainConfig, main_command, run

    cfg = TrainConfig(
        players=counts,
        rounds=rounds,
        games=games,
        epochs=epochs,
        hidden=widths,
        lr=lr,
        weight_decay=weight_decay,
        epsilon=epsilon,
        sample_rate=sample_rate,
        seed=seed,
        eval_games=eval_games,
        eval_iterations=eval_iterations,
        net_weight=share,
        residual=residual,
        search=search,
        search_target=search_target,
    )
    con = _out()
    try:
        weights = run(out, cfg, main_command(), echo=lambda line: con.print(line, highlight=False))
    except ValueError as e:
        _fail(str(e))
    con.print(f"weights: {weights} (ship them: copy to src/alhambra/bots/weights/value.npz)")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line (``python -m alhambra``)."""
    app(args=list(argv) if argv is not None else None, prog_name="alhambra")
