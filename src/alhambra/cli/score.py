"""``alhambra score``: check and score a real Alhambra (a layout file or a companion table)."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..companion import TableError, is_table, parse_table, score_table
from ..companion.render import city_word, print_round
from ..layout import (
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
from ..rulesets import ruleset
from .common import (
    EXIT_INVALID,
    EXIT_OK,
    GameOption,
    app,
    console,
    fail,
)

_STYLES = {"wall": "bold", "fountain": "bold cyan", "tile": "", "bad": "bold red", "axis": "dim", None: ""}


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
        fail(str(e) if layout == "-" or str(e).startswith(layout) else f"{layout}: {e}")
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
        fail(f"{where}: {e}")
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print_round(console(), result, charset)
    raise typer.Exit(EXIT_OK if result.valid else EXIT_INVALID)


def _can_encode(text: str) -> bool:
    enc = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _print_layout_report(report: LayoutReport, charset: str, game: str = "alhambra") -> None:
    con = console()
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
