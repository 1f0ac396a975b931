"""The bot levels people choose from, with the names the browser and the command line show."""

from __future__ import annotations

__all__ = ["BOT_LEVELS", "level_name", "spec_of_level"]

BOT_LEVELS: dict[str, tuple[str, str]] = {
    "random": ("Beginner", "plays a random legal move"),
    "greedy": ("Easy", "takes the move that looks best right now"),
    "mcts:easy": ("Medium", "searches ahead for about a quarter of a second"),
    "mcts:normal": ("Hard", "searches ahead for about a second"),
    "mcts:hard": ("Expert", "searches ahead for up to four seconds"),
    "mcts:learned": ("Learned", "experimental: like Expert, judging positions partly by a network learned in self-play (not yet stronger)"),
}
"""Bot difficulties a seat can be given: spec -> (name, description)."""


def level_name(spec: str) -> str | None:
    """The level's name of a bot spec ("Easy" for greedy), None for a spec that is no level."""
    got = BOT_LEVELS.get(spec)
    return got[0] if got else None


def spec_of_level(word: str) -> str:
    """A bot spec from a spec or a level's name (any case): "expert" -> "mcts:hard"; other words unchanged."""
    for spec, (name, _) in BOT_LEVELS.items():
        if word.strip().lower() == name.lower():
            return spec
    return word
