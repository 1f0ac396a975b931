"""Running the command line in-process for tests."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from alhambra.cli import app

runner = CliRunner()


def invoke(*args: str) -> Any:
    """Run ``alhambra ARGS`` and return typer's result (stdout, stderr, exit_code).

    Only clean exits are accepted: a crash shows as another exception and fails the test.
    """
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result
