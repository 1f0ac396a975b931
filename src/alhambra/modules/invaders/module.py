"""Invaders: after every scoring round an invasion comes from one direction, and every side of
the Alhambra left open towards it costs points; scouts let a player look at the next invasion.

Flow (plug-in hooks):

* ``setup``: the four invasion cards (north, east, south, west) lie face down; two of the six
  scout cards (one per building kind) are turned up. Nothing is ordered in advance: a card is
  drawn from those left when it is first needed (a scout's look or the invasion), with
  ``engine.module_draw`` (chance nodes in explicit-chance mode) or ``engine.module_random``.
* ``round_scored`` (directly after each scoring round): the top invasion card is turned up.
  Every side of a tile in an Alhambra (the fountain included) that faces the attack, has no
  wall and no tile beyond it is unprotected: 1 point each after round 1, 2 after round 2, 3 after
  round 3, when the two neighbouring directions also cost 1 per unprotected side. A score never
  goes below 0 (``engine.add_points(..., floor=0)``). After rounds 1 and 2 the face-up scouts
  leave the game and two new ones are turned up.
* ``purchase_made``: a building bought with exact money (also by the vizier; not a module's
  offer that never counts as exact, e.g. a building site) whose kind a face-up scout shows
  gives the buyer that scout: they look at the top invasion card (a private
  event; the others learn only that they looked), and the card goes back face down.
* Option ``face_up`` (the rulebook's variation): the next invasion card always lies face up and
  the scouts are not used.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final

from ...components import EAST, KINDS, NORTH, SOUTH, WEST
from ...engine.services import add_points, module_draw, module_random
from ...errors import NotationError
from ...events import Event
from ...hooks import Module, OptionSpec, Purchase
from ...slices import slice_reader
from ...state import GameConfig, GameState

MODULE_ID: Final = "invaders"
DIRECTIONS: Final = ("north", "east", "south", "west")
"""The four invasion cards, clockwise."""

_SIDE: Final = {"north": (NORTH, -1024), "east": (EAST, 1), "south": (SOUTH, 1024), "west": (WEST, -1)}
"""Per direction: the wall bit of a tile's side facing it and the position step towards it."""


@dataclass(frozen=True, slots=True)
class InvadersData:
    """The module's data file, read once."""

    cards: tuple[str, ...]
    main: tuple[int, ...]
    """Per round (index 0-2): points per unprotected side facing the attack."""
    beside: tuple[int, ...]
    """Per round: points per unprotected side facing one of the two neighbouring directions."""
    scouts: tuple[str, ...]
    face_up: int


@cache
def data() -> InvadersData:
    """Read ``components.json`` and check it."""
    raw = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))
    cards = tuple(str(c) for c in raw["invasion_cards"])
    if sorted(cards) != sorted(DIRECTIONS):
        raise ValueError("invaders: one invasion card per direction (north, east, south, west)")
    pts = raw["points_per_side"]
    main = tuple(int(v) for v in pts["main"])
    beside = tuple(int(v) for v in pts["beside"])
    if len(main) != 3 or len(beside) != 3 or min(main + beside) < 0:
        raise ValueError("invaders: points per side for each of the three rounds, none negative")
    scouts = tuple(str(k) for k in raw["scouts"]["kinds"])
    if not set(scouts) <= set(KINDS) or len(set(scouts)) != len(scouts):
        raise ValueError("invaders: each scout shows a different building kind")
    face_up = int(raw["scouts_face_up"])
    if face_up * 3 > len(scouts):
        raise ValueError("invaders: too few scouts to turn up new ones after rounds 1 and 2")
    return InvadersData(cards, main, beside, scouts, face_up)


def neighbours(direction: str) -> tuple[str, str]:
    """The two directions beside ``direction`` (for north: west and east)."""
    i = DIRECTIONS.index(direction)
    return DIRECTIONS[(i - 1) % 4], DIRECTIONS[(i + 1) % 4]


def unprotected(city: dict[int, int], walls: tuple[int, ...] | list[int], direction: str) -> int:
    """Sides of the Alhambra's tiles (the fountain too) that face ``direction`` with no wall and
    no tile beyond them."""
    bit, step = _SIDE[direction]
    return sum(1 for q, t in city.items() if not walls[t] & bit and q + step not in city)


def exposure(city: dict[int, int], walls: tuple[int, ...] | list[int]) -> dict[str, int]:
    """Unprotected sides towards each direction."""
    return {d: unprotected(city, walls, d) for d in DIRECTIONS}


def invasion_loss(sides: dict[str, int], direction: str, round_no: int) -> int:
    """Points an Alhambra with these unprotected sides loses to an invasion from ``direction``
    after scoring round ``round_no`` (before the floor at 0)."""
    d = data()
    a, b = neighbours(direction)
    return d.main[round_no - 1] * sides[direction] + d.beside[round_no - 1] * (sides[a] + sides[b])


# ---------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class InvadersState:
    """The module's slice.

    ``revealed``: the invasion directions turned up so far, by round. ``top``: the top invasion
    card once it has been drawn (for a scout's look, or face up in the variant), else None (it
    is drawn from those left when needed); hidden from every seat but those in ``known``
    (unless ``face_up``). ``known[seat]``: that seat has looked at the current top card.
    ``scouts``: the face-up scouts' kinds; ``pile``: the kinds still in the scout pile (drawn at
    random when turned up); ``taken``: (seat, kind) of every scout used."""

    revealed: tuple[str, ...]
    top: str | None
    known: tuple[bool, ...]
    scouts: tuple[str, ...]
    pile: tuple[str, ...]
    taken: tuple[tuple[int, str], ...] = ()

    def left(self) -> list[str]:
        """The invasion cards not turned up yet (the top one included)."""
        return [d for d in data().cards if d not in self.revealed]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "revealed": list(self.revealed),
            "top": self.top,
            "known": list(self.known),
            "scouts": list(self.scouts),
            "pile": list(self.pile),
            "taken": [[s, k] for s, k in self.taken],
        }

    @classmethod
    def from_dict(cls, raw: Any) -> InvadersState:
        """Read the JSON form back (a :class:`NotationError` on junk)."""
        keys = {"revealed", "top", "known", "scouts", "pile", "taken"}
        if not isinstance(raw, dict) or set(raw) != keys:
            raise NotationError(f"bad invaders state {raw!r}")
        try:
            revealed = tuple(str(d) for d in raw["revealed"])
            top = None if raw["top"] is None else str(raw["top"])
            known = tuple(bool(k) for k in raw["known"])
            scouts = tuple(str(k) for k in raw["scouts"])
            pile = tuple(str(k) for k in raw["pile"])
            taken = tuple((int(s), str(k)) for s, k in raw["taken"])
        except (TypeError, ValueError) as e:
            raise NotationError(f"bad invaders state {raw!r}") from e
        d = data()
        ok = set(revealed) <= set(d.cards) and len(set(revealed)) == len(revealed) and len(revealed) <= 3
        ok = ok and (top is None or (top in d.cards and top not in revealed))
        used = list(scouts) + list(pile) + [k for _, k in taken]
        ok = ok and set(used) <= set(d.scouts) and len(set(used)) == len(used)
        if not ok:
            raise NotationError(f"bad invaders state {raw!r}: unknown or repeated invasion cards or scouts")
        return cls(revealed, top, known, scouts, pile, taken)


invaders: Final = slice_reader(MODULE_ID, InvadersState)
"""The module's slice of a game."""


def _face_up(config: GameConfig) -> bool:
    return bool(MODULE.option(config, "face_up"))


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class ScoutsTurnedUp(Event):
    """New scouts lie face up (at setup, after rounds 1 and 2); ``removed`` left the game."""

    kinds: tuple[str, ...]
    removed: tuple[str, ...] = ()

    def describe(self) -> str:
        gone = f"the scouts of {', '.join(self.removed)} leave the game; " if self.removed else ""
        return f"{gone}scouts turned up: {', '.join(self.kinds) or 'none'}"


@dataclass(frozen=True, slots=True)
class InvasionScouted(Event):
    """``seat`` bought a building of the scout's ``kind`` with exact money and looked at the top
    invasion card (``direction``; empty in everybody else's copy). It shows the buyer something
    hidden until then (``reveals``)."""

    reveals: ClassVar[bool] = True
    seat: int
    kind: str
    direction: str

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.seat else InvasionScouted(self.seat, self.kind, "")

    def describe(self) -> str:
        what = f": the invaders come from the {self.direction}" if self.direction else ""
        return f"{_p(self.seat)} takes the {self.kind} scout and looks at the next invasion card{what}"


@dataclass(frozen=True, slots=True)
class InvasionCardShown(Event):
    """Variation ``face_up``: the next invasion card lies face up."""

    direction: str

    def describe(self) -> str:
        return f"the next invasion comes from the {self.direction}"


@dataclass(frozen=True, slots=True)
class InvasionRevealed(Event):
    """Directly after scoring round ``round``: the invasion from ``direction``; ``sides`` the
    unprotected sides it counted per seat, ``lost`` the points each seat lost (never below 0)."""

    round: int
    direction: str
    sides: tuple[int, ...]
    lost: tuple[int, ...]

    def describe(self) -> str:
        who = ", ".join(f"{_p(s)} -{v}" for s, v in enumerate(self.lost))
        return f"invasion from the {self.direction} after scoring round {self.round}: {who}"


# ---------------------------------------------------------------------------------- module
LATER_ROUND_WEIGHT: Final = 0.6
"""Bot estimate: share of a later invasion's expected loss (at today's Alhambra) counted now."""


class Invaders(Module):
    """Invaders."""

    id = MODULE_ID
    title = "Invaders"
    summary = "Invasions after each scoring cost points for every open side facing them."
    description = (
        "After every scoring round an invasion card is turned up: every side of your Alhambra left open towards it "
        "(no wall, no tile beyond) costs 1, then 2, then 3 points, and after the last round the two neighbouring "
        "directions cost 1 per side too; never below 0. Buy a building of a face-up scout's kind with exact money "
        "to look at the next invasion card."
    )
    assumptions = (
        "A side is unprotected when it faces the attack, has no wall and no tile of the Alhambra lies beyond it "
        "(a side covered by a neighbouring tile is inside the city); the fountain's sides count like any tile's.",
        "Only the Alhambra counts, not the reserve board; the neutral player (2 players) has no Alhambra and is not invaded.",
        "A score never goes below 0 through an invasion; a score already below 0 (medina) stays where it is.",
        "The scout is taken, and its look happens, automatically with every exact purchase of a building of its kind "
        "(also by the vizier); the look shows only the top invasion card, which goes back face down on top. A building "
        "site (bought for half the price, never regarded as exact) takes no scout, nor does completing one (the building "
        "was bought when the site was set up).",
        "Looking changes nothing for the others: they see that the player looked, not what; the card is the one "
        "turned up after the next scoring round.",
        "Scouts that nobody took leave the game when new ones are turned up after the 1st and 2nd scoring rounds; "
        "after the 2nd round the last two scouts are turned up.",
        "With the option 'face up' (the rulebook's variation) the next invasion card lies face up from the start and "
        "after each invasion, and the scouts are not used.",
    )
    component_assumptions = ("The six scout cards show one building kind each (the rulebook does not list them).",)
    options = (OptionSpec("face_up", False, "Variation: the next invasion card lies face up; the scouts are not used."),)

    # ----- setup --------------------------------------------------------------------------
    def setup(self, state: GameState, rng: random.Random) -> None:
        """Two scouts face up (or, face up, the first invasion card); nothing else is drawn yet."""
        d = data()
        n = state.config.players
        if _face_up(state.config):
            top = self._draw(state, list(d.cards), rng)
            state.mods[self.id] = InvadersState((), top, (False,) * n, (), ())
            return
        got = module_draw(state, self.id, list(d.scouts), d.face_up)
        scouts = tuple(got) if got is not None else tuple(rng.sample(list(d.scouts), d.face_up))
        state.mods[self.id] = InvadersState((), None, (False,) * n, scouts, tuple(k for k in d.scouts if k not in scouts))

    def game_set_up(self, state: GameState, events: list[Event]) -> None:
        """Announce the face-up scouts (or the face-up invasion card)."""
        sl = invaders(state)
        if _face_up(state.config):
            assert sl.top is not None
            events.append(InvasionCardShown(sl.top))
        else:
            events.append(ScoutsTurnedUp(sl.scouts))

    def _draw(self, state: GameState, pool: list[str], rng: random.Random | None = None, secret_to: int | None = None) -> str:
        """One item drawn at random from ``pool`` (a chance node in explicit-chance mode)."""
        got = module_draw(state, self.id, pool, 1, secret_to=secret_to)
        if got is not None:
            return got[0]
        return (rng or module_random(state, self.id)).choice(pool)

    def chance_items(self, config: GameConfig) -> list[str]:
        """The four directions and the six scouts' kinds."""
        d = data()
        return list(d.cards) + list(d.scouts)

    # ----- scouts -------------------------------------------------------------------------
    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """An exact purchase of a building of a face-up scout's kind: the buyer takes the scout
        and looks at the top invasion card (drawn now if nobody has looked at it yet). A purchase
        that is never exact (a building site: ``Offer.never_exact``) arrives with ``exact`` False."""
        if not purchase.exact or purchase.tile < 0 or _face_up(state.config):
            return
        sl = invaders(state)
        kind = state.components.tiles[purchase.tile].kind
        if kind not in sl.scouts or len(sl.revealed) >= 3:
            return
        seat = purchase.seat
        top = sl.top if sl.top is not None else self._draw(state, sl.left(), secret_to=seat)
        known = tuple(k or s == seat for s, k in enumerate(sl.known))
        scouts = tuple(k for k in sl.scouts if k != kind)
        state.mods[self.id] = replace(sl, top=top, known=known, scouts=scouts, taken=(*sl.taken, (seat, kind)))
        events.append(InvasionScouted(seat, kind, top))

    # ----- the invasion -------------------------------------------------------------------
    def round_scored(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """Turn up the invasion card and take the points; then new scouts (after rounds 1, 2)
        or, face up, the next invasion card."""
        sl = invaders(state)
        if len(sl.revealed) >= round_no:  # pragma: no cover - each round invades once
            return
        direction = sl.top if sl.top is not None else self._draw(state, sl.left())
        walls = state.walls
        n = state.config.players
        sides: list[int] = []
        lost: list[int] = []
        for s in range(n):
            ex = exposure(state.players[s].city, walls)
            sides.append(ex[direction])
            lost.append(-add_points(state, s, -invasion_loss(ex, direction, round_no), floor=0))
        events.append(InvasionRevealed(round_no, direction, tuple(sides), tuple(lost)))
        revealed = (*sl.revealed, direction)
        sl = replace(sl, revealed=revealed, top=None, known=(False,) * n)
        if round_no < 3:
            if _face_up(state.config):
                top = self._draw(state, sl.left())
                sl = replace(sl, top=top)
                events.append(InvasionCardShown(top))
            else:
                d = data()
                count = min(d.face_up, len(sl.pile))
                got = module_draw(state, self.id, list(sl.pile), count)
                new = tuple(got) if got is not None else tuple(module_random(state, self.id).sample(list(sl.pile), count))
                events.append(ScoutsTurnedUp(new, sl.scouts))
                sl = replace(sl, scouts=new, pile=tuple(k for k in sl.pile if k not in new))
        state.mods[self.id] = sl

    # ----- bots -----------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Expected invasion losses per seat over the rounds to come, at today's Alhambra: the
        next invasion from the top card when the state holds it, else from any card left; later
        ones (from the cards left) in part."""
        first = state.rounds_scored + 1
        if first > 3 or state.outcome is not None:
            return None
        sl = invaders(state)
        left = sl.left()
        if not left:
            return None
        walls = state.walls
        out: list[float] = []
        for s in range(state.config.players):
            ex = exposure(state.players[s].city, walls)
            total = 0.0
            for r in range(first, 4):
                if r == first and sl.top is not None:
                    exp = float(invasion_loss(ex, sl.top, r))
                else:
                    pool = [d for d in left if d != sl.top] or left
                    exp = sum(invasion_loss(ex, d, r) for d in pool) / len(pool)
                total += exp if r == first else LATER_ROUND_WEIGHT * exp
            out.append(-total)
        return out

    # ----- views ----------------------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """The revealed invasions, the cards left, the top card only for a seat that looked (or
        face up), who looked, the face-up scouts, the scouts used, and each seat's unprotected
        sides towards every direction (public: the Alhambras are)."""
        sl = invaders(state)
        face_up = _face_up(state.config)
        shown = face_up or (viewer is not None and 0 <= viewer < len(sl.known) and sl.known[viewer])
        walls = state.walls
        d = data()
        return {
            "face_up": face_up,
            "revealed": list(sl.revealed),
            "left": len(sl.left()),
            "top": sl.top if shown else None,
            "known": list(sl.known),
            "scouts": list(sl.scouts),
            "scouts_left": len(sl.pile),
            "pile": list(sl.pile),
            "taken": [[s, k] for s, k in sl.taken],
            "exposure": [exposure(p.city, walls) for p in state.players],
            "points": {"main": list(d.main), "beside": list(d.beside)},
            "next": state.rounds_scored + 1 if state.rounds_scored < 3 and state.outcome is None else None,
        }

    def observation_flags(self, config: GameConfig) -> tuple[str, ...]:
        """``known``: who has looked at the next invasion card."""
        return ("known",)

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """Everything but the top card is public; the top card is kept when the view shows it,
        else left undrawn (drawn from the cards left when needed)."""
        mv = module_view
        return InvadersState(
            tuple(mv["revealed"]),
            mv["top"],
            tuple(bool(k) for k in mv["known"]),
            tuple(mv["scouts"]),
            tuple(mv["pile"]),
            tuple((int(s), str(k)) for s, k in mv["taken"]),
        )

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample: the same (the top card the viewer has not seen stays undrawn; each sample
        then draws it with its own seed when it is needed)."""
        return self.slice_from_view(module_view, state.config)

    def slice_to_json(self, value: Any) -> Any:
        """The slice's ``to_dict``."""
        assert isinstance(value, InvadersState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`InvadersState`."""
        return InvadersState.from_dict(data)


MODULE: Final = Invaders()
