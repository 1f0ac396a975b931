"""What every command shares: the typer app and its one-line errors, the exit codes, the console,
the shared options and the readers of files, modules and module options."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
import typer.rich_utils
from rich.console import Console
from typer.core import TyperGroup

from .. import __version__
from ..errors import ConfigError
from ..hooks import load_module, parse_module_ids
from ..rulesets import ruleset


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


def help_width(wide: int = 160) -> int | None:
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
typer.rich_utils.MAX_WIDTH = help_width()

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


def console() -> Console:
    """Console on the current stdout (looked up per call so test runners can capture it)."""
    return Console(file=sys.stdout, soft_wrap=True, highlight=False, width=help_width())


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print one ``alhambra: error: ...`` line on stderr and exit with ``code``."""
    first = " ".join(str(message).split())
    print(f"alhambra: error: {first}", file=sys.stderr)
    raise typer.Exit(code)


def _check_game(game: str) -> str:
    """``--game``: a game of the family (``alhambra games``); a clear error otherwise."""
    try:
        ruleset(game)
    except ConfigError as e:
        fail(str(e))
    return game


GameOption = Annotated[
    str, typer.Option("--game", help="The game of the family: alhambra or granada (see alhambra games).", callback=_check_game)
]
"""The ``--game`` option of the commands that play or score a game."""
ModulesOption = Annotated[
    str | None, typer.Option("--modules", "-m", help="Comma-separated module ids, e.g. vizier,currency_exchange (all: every module).")
]
"""The ``--modules`` option (read with :func:`parse_modules`)."""
ModuleOptionsOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A module option MODULE.KEY=VALUE (repeatable; see alhambra modules --json).")
]
"""The repeatable ``--option`` of the modules' options."""


def seat_name(seat: int) -> str:
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


def read_json(path: str) -> Any:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{p}: no such file")
    except IsADirectoryError:
        fail(f"{p}: is a directory")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{p}: cannot read: {e}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{p}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})")


def parse_options(texts: Sequence[str]) -> tuple[tuple[str, str, bool | int | str], ...]:
    """``MODULE.KEY=VALUE`` options: true/false are booleans, whole numbers ints, anything else words."""
    out: list[tuple[str, str, bool | int | str]] = []
    for text in texts:
        name, eq, raw = text.partition("=")
        mod, dot, key = name.partition(".")
        if not (eq and dot and mod and key and raw):
            fail(f"bad option {text!r}: write MODULE.KEY=VALUE, e.g. invaders.face_up=true")
        value: bool | int | str = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out.append((mod.strip(), key.strip(), value))
    return tuple(out)


def parse_modules(text: str | None) -> tuple[str, ...]:
    """The modules of ``--modules`` (each loaded: a clear error for an unknown one)."""
    mods = parse_module_ids(text)
    for m in mods:
        try:
            load_module(m)
        except ConfigError as e:
            fail(str(e))
    return mods
