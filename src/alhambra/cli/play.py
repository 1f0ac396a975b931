"""``alhambra replay`` and ``alhambra demo``: a recorded game replayed, a bot game shown turn by turn."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import city as geo
from ..demo import group_by_turn, play_demo
from ..engine import building_counts, winners
from ..errors import AlhambraError, ConfigError, RecordError
from ..events import Event, GameEnded, GameStarted, RoundScored, TurnEnded
from ..record import GameRecord, replay
from ..rulesets import game_ids, ruleset
from ..state import GameState
from .common import (
    EXIT_INVALID,
    GameOption,
    ModuleOptionsOption,
    ModulesOption,
    app,
    console,
    fail,
    parse_modules,
    parse_options,
    read_json,
    seat_name,
)


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
    data = read_json(record_file)
    if isinstance(data, dict) and data.get("format") == "alhambra-simulation/1":
        games = data.get("game_results") or []
        if game is None or not 0 <= game < len(games):
            fail(f"{record_file} holds {len(games)} simulated games: choose one with --game 0..{len(games) - 1}")
        data = games[game].get("record")
    elif game is not None:
        fail(f"{record_file} is not a results file of 'alhambra simulate'; --game does not apply")
    try:
        record = GameRecord.from_json(data)
        state, _ = replay(record)
    except RecordError as e:
        fail(f"{record_file}: {e}", EXIT_INVALID)
    except AlhambraError as e:  # pragma: no cover - replay wraps engine errors in RecordError
        fail(f"{record_file}: {e}", EXIT_INVALID)
    if as_json:
        print(json.dumps(_result_json(state)))
        return
    con = console()
    mods = ", ".join(record.config.modules) or "none"
    con.print(
        Text(f"Replayed {len(record.actions)} actions: {record.config.players} players, seed {record.seed}, modules: {mods}", style="bold")
    )
    _print_scores(con, state)


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
    mods = parse_modules(modules)
    if turns is not None and turns < 1:
        fail("--turns must be at least 1")
    try:
        played = play_demo(players=players, seed=seed, modules=mods, turns=turns, options=parse_options(option or []), game=game)
    except ConfigError as e:
        fail(str(e))
    if record is not None:
        try:
            record.write_text(json.dumps(played.record.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {record}: {e.strerror or e}")
    con = console()
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
            con.print(Text(f"Turn {start.turn} · {seat_name(start.seat)}", style="bold blue"))
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
                    con.print(f"  {seat_name(s)} starts with {'+'.join(money)}")
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
        table.add_row(seat_name(s), *cells, str(e.walls[s]), *extra, f"+{pts}", str(e.scores[s]))
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
            seat_name(s) + mark,
            str(state.scores[s]),
            *(str(counts.get(k, 0)) for k in kinds),
            str(geo.longest_wall(p.city, state.walls)),
            str(len(p.reserve)),
        )
    if state.neutral is not None:
        counts = building_counts(state, -1)
        table.add_row(seat_name(-1), str(state.neutral_score), *(str(counts.get(k, 0)) for k in kinds), "", "")
    con.print(table)
    if over:
        won = winners(state)
        names = " and ".join(seat_name(s) for s in won)
        if state.outcome == "truncated":
            verdict = f"Game truncated; leading: {names} with {best} points"
        elif len(won) == 1:
            verdict = f"Winner: {names} with {best} points"
        else:
            verdict = f"Shared win: {names} with {best} points"
        con.print(Text(verdict, style="bold green"))
