"""The breakdown of a scored round as text (``alhambra score TABLE.json``)."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from .score import RoundResult

__all__ = ["city_word", "print_round"]


def city_word(game: str) -> str:
    """What the game calls a player's buildings together: Alhambra, or Granada's city."""
    return "Alhambra" if game == "alhambra" else "city"


def print_round(con: Console, result: RoundResult, charset: str = "unicode") -> None:
    """Print the round: a table with a row per kind, the wall, each module and the totals (one
    column per player and the neutral player), then the reasons and any problems."""
    t = result.table
    rules = t.rules
    wall = rules.wall_name
    mods = ", ".join(t.modules) or "no modules"
    con.print(Text(f"{rules.title}: scoring round {t.round_no} ({len(t.players)} players, {mods})", style="bold"))
    con.print()
    arrow = "->" if charset == "ascii" else "→"
    grid = RichTable(show_edge=False, box=box.ASCII if charset == "ascii" else box.HEAVY_HEAD)
    grid.add_column("", no_wrap=True)
    for s in result.seats:
        grid.add_column(f"{s.name} (neutral)" if s.neutral else s.name, justify="right")
    for i, kind in enumerate(rules.kinds):
        cells = []
        for s in result.seats:
            r = s.kinds[i]
            cells.append(f"{r.count} {arrow} {r.points}" if r.count else "-")
        grid.add_row(rules.kind_names[kind], *cells)
    grid.add_row(f"longest {wall}", *(str(s.wall) if not s.neutral else "" for s in result.seats))
    for m in t.modules:
        if any(m in s.modules for s in result.seats):
            grid.add_row(m.replace("_", " "), *(f"{s.modules[m].points:+d}" if m in s.modules else "" for s in result.seats))
    for m in t.modules:
        if any(m in s.after for s in result.seats):
            grid.add_row(f"{m.replace('_', ' ')} (after)", *(f"{s.after[m].points:+d}" if m in s.after else "" for s in result.seats))
    grid.add_row(
        Text("this round", style="bold"),
        *(Text(f"{s.round_points + sum(v.points for v in s.after.values()):+d}", style="bold") for s in result.seats),
    )
    grid.add_row("before", *(str(s.before) if not s.neutral else "" for s in result.seats))
    grid.add_row(Text("total", style="bold"), *(Text(str(s.total), style="bold") if not s.neutral else "" for s in result.seats))
    con.print(grid)
    con.print()
    for s in result.seats:
        con.print(Text(f"{s.name}{' (neutral)' if s.neutral else ''}", style="bold"))
        for r in s.kinds:
            if r.count or r.points:
                con.print(f"  {r.name}: {r.reason}: {r.points}")
        for note in s.notes:
            con.print(f"  {note}")
        if not s.neutral:
            con.print(f"  longest outer {wall}: {s.wall} segment{'s' if s.wall != 1 else ''}: {s.wall}")
        for m, line in (*s.modules.items(), *s.after.items()):
            con.print(f"  {m}: {line.reason}: {line.points:+d}")
    if result.skipped:
        con.print()
        con.print(Text(f"Given by counts, not checked: {', '.join(result.skipped)}.", style="dim"))
    con.print()
    ok = "✔ " if charset == "unicode" else "OK: "
    if result.valid:
        checked = [p.name for p in t.players if p.report is not None]
        if checked:
            con.print(Text(f"{ok}Every {city_word(rules.id)} given by tiles follows the building rules.", style="bold green"))
        return
    bad = "✘ " if charset == "unicode" else ""
    con.print(Text(f"{bad}{len(result.problems)} problem{'s' if len(result.problems) != 1 else ''} (scored anyway):", style="bold red"))
    for p in result.problems:
        con.print(f"  {p}")
