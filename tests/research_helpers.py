"""Conformance checks of the research front ends for any list of modules.

Every module is checked automatically: :func:`module_sets` lists each module found by
:func:`alhambra.hooks.available_modules` alone, then all of them together, and
``tests/test_openspiel.py`` and ``tests/test_rl_envs.py`` run :func:`openspiel_random_sim` and
:func:`pettingzoo_api_test` for every set. A module's own tests can call them too, e.g.
``openspiel_random_sim(("my_module", "vizier"))``.

The games are kept short (a turn limit) so that the whole matrix stays within the CI budget,
all modules together too (``pyspiel.random_sim_test`` checks every observer at every step, and a
whole game with every module took minutes); whole games with every module are played and
checked by ``tests/test_all_modules.py``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import NamedTuple

from alhambra.hooks import available_modules

SHORT_GAME = 60
"""Turn limit of the games of single modules."""


class ModuleSet(NamedTuple):
    """Modules to check together and the turn limit of their games (None: a whole game)."""

    modules: tuple[str, ...]
    turn_limit: int | None

    def __str__(self) -> str:
        if len(self.modules) > 1 and self.modules == tuple(available_modules()):
            return "all-modules"
        return "+".join(self.modules) or "base"


def module_sets() -> list[ModuleSet]:
    """Each available module alone, then all of them together (short games: :data:`SHORT_GAME`)."""
    mods = tuple(available_modules())
    sets = [ModuleSet((m,), SHORT_GAME) for m in mods]
    if len(mods) > 1:
        sets.append(ModuleSet(mods, SHORT_GAME))
    return sets


def openspiel_random_sim(modules: Sequence[str], players: int = 3, turn_limit: int | None = SHORT_GAME, num_sims: int = 1) -> None:
    """``pyspiel.random_sim_test`` (serialisation, cloning and every observer at every step) on
    ``python_alhambra`` with these modules (``turn_limit`` None: the game's default, which
    random play never reaches)."""
    import pyspiel

    import alhambra.openspiel  # noqa: F401 - registers the game

    params = f"players={players}" + (f",modules={'+'.join(modules)}" if modules else "")
    if turn_limit is not None:
        params += f",turn_limit={turn_limit}"
    game = pyspiel.load_game(f"python_alhambra({params})")
    assert game.config.modules == tuple(sorted(modules))
    pyspiel.random_sim_test(game, num_sims=num_sims, serialize=True, verbose=False)


def pettingzoo_api_test(modules: Sequence[str], players: int = 3, turn_limit: int | None = SHORT_GAME, num_cycles: int = 3000) -> int:
    """PettingZoo's ``api_test`` on the AEC environment with these modules; returns how many
    games reached their end (the play test runs one game to its end or to the turn limit)."""
    from pettingzoo.test import api_test

    from alhambra.pettingzoo import AlhambraAEC

    class Counting(AlhambraAEC):
        finished = 0

        def step(self, action: object) -> None:
            super().step(action)
            if self.game is not None and self.game.is_over and action is not None:
                self.finished += 1

    env = Counting(players=players, modules=tuple(modules), turn_limit=turn_limit, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a dict observation (with action mask) is by design
        api_test(env, num_cycles=num_cycles)
    return env.finished
