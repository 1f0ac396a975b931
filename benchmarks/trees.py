"""Two commits side by side for the comparison scripts (compare_speed.py, compare_moves.py).

``checked_out(base, head)`` checks ``base`` (and ``head``, unless it is None: then the working
tree itself, uncommitted changes included) out into temporary git worktrees and removes them on
exit; ``run_in(python, src, args)`` runs Python with ``src`` first on its path, in the tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checked_out(base: str, head: str | None, prefix: str) -> Iterator[tuple[Path, Path]]:
    """(base tree, head tree) of two commits; ``head`` None is this working tree."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    trees: list[Path] = []

    def tree(commit: str, where: Path) -> Path:
        cmd = ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(where), commit]
        subprocess.run(cmd, check=True, capture_output=True)
        trees.append(where)
        return where

    try:
        base_tree = tree(base, tmp / "base")
        yield base_tree, ROOT if head is None else tree(head, tmp / "head")
    finally:
        for t in trees:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(t)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(python: str, src: Path, args: list[str]) -> str:
    """The standard output of ``python ARGS`` with ``src`` on its path, run in ``src``'s tree."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([python, *args], env=env, check=True, capture_output=True, text=True, cwd=str(src.parent))
    return done.stdout
