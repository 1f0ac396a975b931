"""Rulesets: the game of the family a configuration plays (Alhambra, Granada), as data.

A ruleset is read from ``games/<id>/game.json`` (next to it, the game's ``README.md``). It gives
what differs between the games of the family: the building kinds (ids, names, the letter of
tile codes), the tile set (one face per tile, or a front and a back), the name of the wall
("wall" / "moat"), the scoring rule, how the market is refilled, what turning a tile over
costs, and, for a game whose components are only partly known, the ``assumptions`` made and the
``readings`` taken of unclear rules (plain sentences, shown to players).

The engine never names a game: it reads the ruleset of ``GameConfig.game`` through
``ComponentSet.ruleset``.

Scoring rules:

* ``table``: the points per kind and place come from a table (Alhambra's scoring cards); tied
  players share the points of the places they occupy, rounded down.
* ``multiples_of_total``: ``T`` is the number of buildings of the kind in every city; in round
  ``r`` the first ``r`` places get ``r*T``, ``(r-1)*T`` ... ``T``. Tied players are ranked by
  their most expensive building of the kind ("dearest wins").

Refill policies: ``plain`` (the tile's one face) or ``marker`` (the face the black marker shows;
the marker switches each time the market has been completely restocked).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

from .errors import ConfigError
from .scoring import majority_awards
from .tiles import TileType, letters_to_walls, walls_to_letters

__all__ = ["DEFAULT_GAME", "SCORING_RULES", "Ruleset", "game_ids", "multiples_awards", "ruleset"]

DEFAULT_GAME: Final = "alhambra"
"""The game a configuration plays when it names none."""

SCORING_RULES: Final = ("table", "multiples_of_total")
REFILL_POLICIES: Final = ("plain", "marker")


@dataclass(frozen=True, eq=False)
class Ruleset:
    """One game of the family, as read from its ``game.json`` (compared by identity)."""

    id: str
    title: str
    kinds: tuple[str, ...]
    """Building kind ids, in the game's order (the order of views and observation channels)."""
    kind_names: dict[str, str]
    """A readable name per kind ("Bath house")."""
    kind_letters: dict[str, str]
    """The letter that starts a tile code of each kind."""
    tiles: tuple[TileType, ...]
    """The physical building tiles by their front face."""
    backs: tuple[TileType, ...]
    """The back face of each tile in ``tiles`` (same order); empty for one-sided tiles."""
    wall_name: str
    scoring: str
    """One of :data:`SCORING_RULES`."""
    points: dict[str, tuple[tuple[int, ...], ...]]
    """For ``table`` scoring: points per kind for 1st, 2nd ... place in rounds 1, 2, 3."""
    refill: str
    """One of :data:`REFILL_POLICIES`."""
    turn_over_cost: int
    """Money (of any one currency) to build a bought tile on its other face; 0: never."""
    assumptions: tuple[str, ...]
    readings: tuple[str, ...]
    readme: str = field(repr=False)

    @property
    def two_sided(self) -> bool:
        """True when every tile has a back face."""
        return bool(self.backs)

    def round_points(self, rnd: int, counts: Sequence[float], dearest: Sequence[float], kind: str) -> list[int]:
        """Points of each participant for ``kind`` in scoring round ``rnd`` (1-3)."""
        if self.scoring == "table":
            return majority_awards(counts, self.points[kind][rnd - 1])
        return multiples_awards(counts, dearest, rnd)

    def describe(self) -> dict[str, Any]:
        """JSON-ready summary (``alhambra games --json``, the server's ``/api/games``)."""
        return {
            "id": self.id,
            "title": self.title,
            "kinds": list(self.kinds),
            "kind_names": [self.kind_names[k] for k in self.kinds],
            "marker": self.refill == "marker",
            "wall_name": self.wall_name,
            "scoring": self.scoring,
            "turn_over_cost": self.turn_over_cost,
            "tiles": len(self.tiles),
            "assumptions": list(self.assumptions),
            "readings": list(self.readings),
        }


def multiples_awards(counts: Sequence[float], dearest: Sequence[float], rnd: int) -> list[int]:
    """Granada's majority scoring of one kind in round ``rnd``.

    ``counts[i]`` buildings of the kind for participant ``i``, ``dearest[i]`` the price of its
    most expensive one. ``T = sum(counts)``; places 1..rnd get ``rnd*T`` ... ``T``. Ties on the
    count are broken by the dearest building; a tie on both (impossible with real tiles, where
    every face of a kind has its own price) shares the places' points, rounded down. A count of
    0 never scores.

    >>> multiples_awards([3, 2, 2], [9, 12, 8], 1)  # 7 schools: the majority gets 7
    [7, 0, 0]
    """
    total = sum(counts)
    points = [int((rnd - p) * total) for p in range(rnd)]
    awards = [0] * len(counts)
    keys = sorted({(c, d) for c, d in zip(counts, dearest, strict=True) if c > 0}, reverse=True)
    place = 0
    for key in keys:
        if place >= len(points):
            break
        tied = [i for i, cd in enumerate(zip(counts, dearest, strict=True)) if cd == key]
        share = sum(points[place : place + len(tied)]) // len(tied)
        for i in tied:
            awards[i] = share
        place += len(tied)
    return awards


@cache
def game_ids() -> tuple[str, ...]:
    """Ids of every game of the family that can be played: the folders of ``alhambra/games``
    with a ``game.json``, the default game first, then by name."""
    root = resources.files("alhambra.games")
    found = sorted(p.name for p in root.iterdir() if p.is_dir() and p.joinpath("game.json").is_file())
    return tuple(sorted(found, key=lambda g: (g != DEFAULT_GAME, g)))


def _text(game: str, name: str) -> str:
    return resources.files("alhambra.games").joinpath(game, name).read_text(encoding="utf-8")


def _tile(code: str, letters: dict[str, str]) -> TileType:
    kind_of = {v: k for k, v in letters.items()}
    i = 1
    while i < len(code) and code[i].isdigit():
        i += 1
    if not code or code[0] not in kind_of or i == 1:
        raise ValueError(f"bad tile code {code!r} (a kind letter of {''.join(letters.values())}, a price, wall letters)")
    walls = letters_to_walls(code[i:])
    return TileType(code[0] + code[1:i] + walls_to_letters(walls), kind_of[code[0]], int(code[1:i]), walls)


def ruleset(game: str = DEFAULT_GAME) -> Ruleset:
    """The ruleset of ``game`` (read once); :class:`ConfigError` for an unknown game."""
    return _load(game)


@cache
def _load(game: str) -> Ruleset:
    if game not in game_ids():
        raise ConfigError(f"unknown game {game!r} (the games are: {', '.join(game_ids())})")
    try:
        return _read(game, json.loads(_text(game, "game.json")), _text(game, "README.md"))
    except (KeyError, TypeError, ValueError) as e:  # pragma: no cover - a broken data file
        raise ConfigError(f"games/{game}/game.json is broken: {e}") from None


def _read(game: str, data: dict[str, Any], readme: str) -> Ruleset:
    kinds = tuple(str(k["id"]) for k in data["kinds"])
    names = {str(k["id"]): str(k["name"]) for k in data["kinds"]}
    letters = {str(k["id"]): str(k["letter"]) for k in data["kinds"]}
    if len(set(letters.values())) != len(kinds) or len(set(kinds)) != len(kinds):
        raise ValueError("kinds and their letters must be distinct")
    fronts: list[TileType] = []
    backs: list[TileType] = []
    for t in data["tiles"]:
        if isinstance(t, str):
            fronts.append(_tile(t, letters))
            continue
        front, back = _tile(t["front"], letters), _tile(t["back"], letters)
        if front.walls != back.walls or front.kind == back.kind:
            raise ValueError(f"{front.code}/{back.code}: both faces have the same walls and different kinds")
        fronts.append(front)
        backs.append(back)
    if backs and len(backs) != len(fronts):
        raise ValueError("either every tile has a back or none has")
    codes = [t.code for t in fronts + backs]
    if len(set(codes)) != len(codes):
        raise ValueError("a tile face code appears twice")
    scoring = data["scoring"]
    if scoring["rule"] not in SCORING_RULES or data["refill"] not in REFILL_POLICIES:
        raise ValueError(f"scoring is one of {SCORING_RULES}, refill one of {REFILL_POLICIES}")
    points = {k: tuple(tuple(int(v) for v in r) for r in rows) for k, rows in scoring.get("points", {}).items()}
    if scoring["rule"] == "table" and set(points) != set(kinds):
        raise ValueError("a points table needs every kind")
    if data["id"] != game:
        raise ValueError(f"the id inside is {data['id']!r}")
    return Ruleset(
        id=game,
        title=str(data["title"]),
        kinds=kinds,
        kind_names=names,
        kind_letters=letters,
        tiles=tuple(fronts),
        backs=tuple(backs),
        wall_name=str(data["wall_name"]),
        scoring=str(scoring["rule"]),
        points=points,
        refill=str(data["refill"]),
        turn_over_cost=int(data["turn_over_cost"]),
        assumptions=tuple(str(s) for s in data.get("assumptions", ())),
        readings=tuple(str(s) for s in data.get("readings", ())),
        readme=readme,
    )
