"""Write a new module package from the templates (``templates/*.tmpl``).

A template's path is the file's path in the new package plus ``.tmpl``; ``__ID__`` in a path or
a text becomes the module id, ``__CLASS__`` its class name (``night_market`` -> ``NightMarket``)
and ``__TITLE__`` its title (``Night market``).
"""

from __future__ import annotations

import keyword
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

ID_PATTERN: Final = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
MAX_ID_LENGTH: Final = 40
NOTATION_WORDS: Final = frozenset(
    {"reserve", "neutral", "build", "remove", "exchange", "yes", "no", "all", "none", "pass", "end", "decline"}
    | {"blue", "green", "orange", "yellow", "pavilion", "seraglio", "arcades", "chambers", "garden", "tower"}
)
"""Words of the notation and the replay sentences that are not keywords of their own."""
PACKAGE_NAMES: Final = frozenset({"tests", "ui", "modules", "engine", "core", "alhambra", "test", "module"})
"""Names that would shadow a package or confuse pytest's collection."""


class ScaffoldError(ValueError):
    """A module id or destination the scaffold refuses, with the reason."""


def reserved_words() -> frozenset[str]:
    """Every word a module id must not be: the words of every registered action keyword (the
    core's and every installed module's), the grammars' fixed words and argument types, and the
    notation's other words (a module id starts its actions' keywords and names the module in
    replay sentences, so a word already used there would make them ambiguous)."""
    from ..actions import GRAMMAR_TYPES, grammars_of, registered_keywords
    from ..errors import ConfigError
    from ..hooks import available_modules, load_module

    for mid in available_modules():
        try:
            load_module(mid)  # registers its keywords
        except (ConfigError, ImportError):
            continue
    words: set[str] = set(NOTATION_WORDS) | set(GRAMMAR_TYPES)
    for kw in registered_keywords():
        words.update(kw.split())
        for grammar in grammars_of(kw):
            for part in grammar:
                if part.startswith("word:"):
                    words.update(part[5:].split("|"))
    return frozenset(words)


def default_dest() -> Path:
    """The folder of the installed built-in modules (``alhambra/modules``)."""
    from .. import modules

    return Path(next(iter(modules.__path__)))


def check_module_id(module_id: str, dest: Path) -> None:
    """Refuse an id that is not lower-case snake_case, is taken, or collides with the notation
    (:class:`ScaffoldError` with the reason)."""
    from ..hooks import available_modules

    if not ID_PATTERN.fullmatch(module_id):
        raise ScaffoldError(
            f"module id {module_id!r} is not lower-case snake_case (letters, digits and single underscores, starting with a letter)"
        )
    if len(module_id) > MAX_ID_LENGTH:
        raise ScaffoldError(f"module id {module_id!r} is longer than {MAX_ID_LENGTH} characters")
    if keyword.iskeyword(module_id) or module_id in PACKAGE_NAMES:
        raise ScaffoldError(f"module id {module_id!r} is a reserved Python or package name")
    if module_id in available_modules():
        raise ScaffoldError(f"a module {module_id!r} already exists")
    if (dest / module_id).exists():
        raise ScaffoldError(f"{dest / module_id} already exists")
    if module_id in reserved_words():
        raise ScaffoldError(
            f"module id {module_id!r} is a word of the action notation (a keyword or argument word); "
            "codes must not be such English words: choose a distinct name"
        )


def class_name(module_id: str) -> str:
    """``night_market`` -> ``NightMarket``."""
    return "".join(part.capitalize() for part in module_id.split("_"))


def title_of(module_id: str) -> str:
    """``night_market`` -> ``Night market``."""
    return module_id.replace("_", " ").capitalize()


def _templates(root: Traversable, prefix: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for item in sorted(root.iterdir(), key=lambda t: t.name):
        if item.is_dir():
            out += _templates(item, f"{prefix}{item.name}/")
        elif item.name.endswith(".tmpl"):
            out.append((prefix + item.name.removesuffix(".tmpl"), item.read_text(encoding="utf-8")))
    return out


def new_module(module_id: str, dest: Path | None = None, title: str | None = None) -> Path:
    """Write the package ``dest/module_id`` (default: beside the built-in modules) from the
    templates and return its folder; :class:`ScaffoldError` for a refused id or destination."""
    folder = default_dest() if dest is None else dest
    if title is not None and (not title.strip() or any(c in title for c in '"\\\n')):
        raise ScaffoldError(f"title {title!r} must be one line of text without quotes or backslashes")
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder} is not a folder")
    check_module_id(module_id, folder)
    names = {"__ID__": module_id, "__CLASS__": class_name(module_id), "__TITLE__": title or title_of(module_id)}
    target = folder / module_id
    files = _templates(resources.files(__package__).joinpath("templates"))
    for rel, text in files:
        for key, value in names.items():
            rel = rel.replace(key, value)
            text = text.replace(key, value)
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target
