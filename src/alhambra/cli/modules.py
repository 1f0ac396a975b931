"""``alhambra modules``, ``new-module`` and ``games``: what the engine offers and a new module's skeleton."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..errors import ConfigError
from ..hooks import available_modules, load_module
from ..rulesets import game_ids, ruleset
from .common import (
    app,
    console,
    fail,
)


@app.command(name="modules")
def modules_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print every module's facts as JSON.")] = False,
) -> None:
    """List the plug-in modules that can be added to a game, with their assumptions and options."""
    con = console()
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
    from ..scaffold import ScaffoldError, new_module

    try:
        folder = new_module(module_id, dest, title)
    except ScaffoldError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write the module: {e}")
    con = console()
    con.print(Text(f"Created module {module_id!r} in {folder}", style="bold"))
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        con.print(f"  {path.relative_to(folder)}")
    con.print(
        Text(
            f"Next: write its rules (docs/writing-a-module.md), then run its tests: pytest -n 0 {folder}",
            style="dim",
        )
    )


@app.command(name="games")
def games_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print every game's facts as JSON.")] = False,
) -> None:
    """List the games of the family (Alhambra, Granada) with what each assumes."""
    facts = [ruleset(g).describe() for g in game_ids()]
    if as_json:
        print(json.dumps(facts, indent=2))
        return
    con = console()
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
