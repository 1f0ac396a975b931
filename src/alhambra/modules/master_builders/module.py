"""Master builders: sixteen money cards worth 3 (four per currency) that can also pay for an
extra redesign at the end of their owner's turn.

Flow (all through the plug-in hooks of protocol 2):

* ``extra_cards``: the 16 cards are ordinary money to the core (``CardType(kind="money",
  value=3, module="master_builders")``, codes ``mb3`` ``mg3`` ``mo3`` ``my3``: ``m`` + currency
  letter + value, four copies each), so the take rule, payments, the end-of-game hand-out and the
  bots treat them as money.
* ``setup`` (the core runs it before the starting money is dealt) shuffles them and deals two
  face down to every seat; ``deck_piles`` shuffles three into the 3rd money pile and three (one
  with 6 players) into the 5th; the rest (fewer than 5 players) leave the game face down
  (``set_aside``, unknown to everybody).
* ``card_spent``: a master-builder card paid as money leaves the game (``removed``), face up.
* ``turn_ending``: a seat that holds a master-builder card and has a possible redesign is asked
  (:class:`MasterBuildersChoice`): ``builder build|remove|exchange CARD ...`` spends one card for
  one redesign with the normal building rules, ``builder skip`` declines. Once per turn.
* ``after_action`` keeps ``secret`` (per seat: hand cards the other seats have never seen) and
  announces a secretly dealt card the first time it is shown (:class:`MasterBuildersRevealed`).
* The bots' sampler gets the hidden parts redrawn per sample (:meth:`MasterBuilders.sample_slice`):
  the other seats' secret cards and the cards set aside are master-builder cards the viewer has
  not seen.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, ClassVar, Final

from ... import city as geo
from ...actions import (
    Action,
    BuildFromReserve,
    ExchangeTiles,
    MoveToReserve,
    parse_cards,
    register_action,
)
from ...chance import NOBODY
from ...components import CURRENCIES, CardType
from ...engine.services import build_components, module_deal, module_draw, module_redesigns, perform_redesign, redesign_options
from ...errors import IllegalAction, IllegalPlacement, NotationError, WrongPhase
from ...events import Event
from ...hooks import Module, hook_users
from ...slices import slice_reader
from ...state import GameConfig, GameState, Pending

MODULE_ID: Final = "master_builders"


# ---------------------------------------------------------------------------------- components
def _load_components() -> dict[str, Any]:
    text = resources.files(__name__.rpartition(".")[0]).joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


COMPONENTS: Final = _load_components()
"""The module's component facts (``components.json``)."""

CARD_FACES: Final = tuple((str(c["code"]), CURRENCIES.index(c["currency"]), int(c["value"]), int(c["copies"])) for c in COMPONENTS["cards"])
"""(code, currency, value, copies) of each kind of master-builder card."""

CARD_CODES: Final = tuple(code for code, _, _, _ in CARD_FACES)
"""``mb3``, ``mg3``, ``mo3``, ``my3``."""

DEALT_PER_PLAYER: Final = int(COMPONENTS["dealt_per_player"])


def pile_shares(players: int) -> tuple[tuple[int, int], ...]:
    """(pile index, 0-based from the top; cards) for each money pile that receives master-builder
    cards: 3 into the 3rd pile and 3 into the 5th, only 1 into the 5th with 6 players."""
    out: list[tuple[int, int]] = []
    for p in COMPONENTS["piles"]:
        k = int(p["cards_with_6_players"]) if players == 6 and "cards_with_6_players" in p else int(p["cards"])
        out.append((int(p["pile"]) - 1, k))
    return tuple(out)


def card_ids(state: GameState) -> tuple[int, ...]:
    """Ids of the game's 16 master-builder cards."""
    return state.components.module_cards(MODULE_ID)[0]


def is_builder_card(state: GameState, card: int) -> bool:
    """True for a master-builder card id."""
    return card >= 0 and state.components.module_cards(MODULE_ID)[1][card]


def builder_cards_in_hand(state: GameState, seat: int) -> list[int]:
    """The master-builder card ids in ``seat``'s hand (their number is public; see the README)."""
    flags = state.components.module_cards(MODULE_ID)[1]
    return [c for c in state.players[seat].hand if flags[c]]


# ---------------------------------------------------------------------------------- state
def _int_tuple(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise NotationError(f"bad master builders card list {v!r}")
    return tuple(v)


@dataclass(frozen=True, slots=True)
class MasterBuildersState:
    """The module's state slice (card ids)."""

    secret: tuple[tuple[int, ...], ...]
    """Per seat: master-builder cards in its hand that no other player has seen (dealt face down).
    Hidden: the view shows the other seats only how many."""
    set_aside: tuple[int, ...] = ()
    """Cards left over at setup (fewer than 5 players): out of the game, face down, unknown to all."""
    removed: tuple[int, ...] = ()
    """Cards spent (as money or for a redesign): out of the game, face up, in the order spent."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"secret": [list(s) for s in self.secret], "set_aside": list(self.set_aside), "removed": list(self.removed)}

    @classmethod
    def from_dict(cls, data: Any) -> MasterBuildersState:
        """Read the JSON form back."""
        if not isinstance(data, dict) or set(data) != {"secret", "set_aside", "removed"} or not isinstance(data["secret"], list):
            raise NotationError(f"bad master builders state {data!r}")
        return cls(tuple(_int_tuple(s) for s in data["secret"]), _int_tuple(data["set_aside"]), _int_tuple(data["removed"]))


_slice: Final = slice_reader(MODULE_ID, MasterBuildersState)


@dataclass(frozen=True, slots=True)
class MasterBuildersChoice(Pending):
    """End of ``seat``'s turn (its new tiles are placed): it may spend one master-builder card on
    one extra redesign, or decline (``builder skip``)."""

    module = MODULE_ID
    seat: int


@dataclass(frozen=True, slots=True)
class MasterBuildersRedesign(Pending):
    """``seat`` gave up a master-builder card for its extra redesign by another module's own
    redesign (a magical building built turned, a tile through a city gate): that redesign is
    taken now (``Module.redesign_actions``, :func:`alhambra.engine.finish_redesign` takes this off)."""

    module = MODULE_ID
    extra_redesign = True
    seat: int


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class MasterBuildersUse(Action):
    """Give up master-builder card ``card`` for an extra redesign made by another module's own
    redesign action, which follows (``builder use CARD``)."""

    module = MODULE_ID
    keyword = "builder use"
    grammar = ("card",)
    card: str


@dataclass(frozen=True, slots=True)
class MasterBuildersBuild(Action):
    """Spend master-builder card ``card``: build ``tile`` from the reserve board at ``target``."""

    module = MODULE_ID
    keyword = "builder build"
    grammar = ("card", "tile", "cell")
    card: str
    tile: str
    target: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MasterBuildersRemove(Action):
    """Spend master-builder card ``card``: move ``tile`` from the Alhambra to the reserve board."""

    module = MODULE_ID
    keyword = "builder remove"
    grammar = ("card", "tile")
    card: str
    tile: str


@dataclass(frozen=True, slots=True)
class MasterBuildersExchange(Action):
    """Spend master-builder card ``card``: ``reserve_tile`` takes the place of ``city_tile``,
    which goes to the reserve board."""

    module = MODULE_ID
    keyword = "builder exchange"
    grammar = ("card", "tile", "tile")
    card: str
    reserve_tile: str
    city_tile: str


@dataclass(frozen=True, slots=True)
class MasterBuildersSkip(Action):
    """Use no master-builder card at the end of this turn."""

    module = MODULE_ID
    keyword = "builder skip"
    grammar = ()

    declines = True


BuilderAction = MasterBuildersBuild | MasterBuildersRemove | MasterBuildersExchange
"""An extra redesign paid with a master-builder card."""


def _card_word(w: str) -> str:
    cards = parse_cards(w)
    if len(cards) != 1:
        raise NotationError(f"name one master-builder card (mb3, mg3, mo3 or my3), not {w!r}")
    return cards[0]


for _action in (MasterBuildersBuild, MasterBuildersRemove, MasterBuildersExchange, MasterBuildersSkip, MasterBuildersUse):
    register_action(_action, card=_card_word)


def core_redesign(action: BuilderAction) -> Action:
    """The core redesign action that a master-builder action carries out."""
    if isinstance(action, MasterBuildersBuild):
        return BuildFromReserve(action.tile, action.target)
    if isinstance(action, MasterBuildersRemove):
        return MoveToReserve(action.tile)
    return ExchangeTiles(action.reserve_tile, action.city_tile)


def with_card(card: str, redesign: Action) -> BuilderAction:
    """The master-builder action that spends ``card`` on a core redesign action."""
    if isinstance(redesign, BuildFromReserve):
        return MasterBuildersBuild(card, redesign.tile, redesign.target)
    if isinstance(redesign, MoveToReserve):
        return MasterBuildersRemove(card, redesign.tile)
    if isinstance(redesign, ExchangeTiles):
        return MasterBuildersExchange(card, redesign.reserve_tile, redesign.city_tile)
    raise TypeError(f"not a redesign: {redesign!r}")


# ---------------------------------------------------------------------------------- events
def _p(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True, slots=True)
class MasterBuildersUsed(Event):
    """A player gave up a master-builder card (out of the game) for an extra redesign at the end
    of the turn; the redesign follows as the core's ``AlhambraRedesigned``. ``payment`` is the
    card (the name lets the bots' tracker take it out of the hand it knows)."""

    seat: int
    payment: tuple[str, ...]

    def describe(self) -> str:
        return f"{_p(self.seat)} gives up master-builder card {'+'.join(self.payment)} for an extra redesign"


@dataclass(frozen=True, slots=True)
class MasterBuildersDeclined(Event):
    """A player who was asked used no master-builder card at the end of the turn."""

    seat: int

    def describe(self) -> str:
        return f"{_p(self.seat)} uses no master-builder card"


@dataclass(frozen=True, slots=True)
class MasterBuildersRevealed(Event):
    """``card``, just spent by ``seat``, was one of its master-builder cards dealt face down:
    the other players see it for the first time."""

    reveals: ClassVar[bool] = True
    seat: int
    card: str

    def describe(self) -> str:
        return f"{self.card} was one of the master-builder cards dealt face down to {_p(self.seat)}"


# ---------------------------------------------------------------------------------- rules helpers
def may_use(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is asked at the end of its turn: it holds a master-builder card (how many
    it holds is public) and some redesign is possible (its Alhambra and reserve are public)."""
    if not builder_cards_in_hand(state, seat):
        return False
    return bool(redesign_options(state, seat)) or bool(module_redesigns(state, seat))


def _refusal(state: GameState, seat: int, redesign: Action) -> IllegalAction:
    """Why a redesign is not possible for ``seat`` (the core's reasons)."""
    p = state.players[seat]
    comp = state.components
    walls = state.walls
    ids = comp.tile_ids

    def where(code: str) -> int | None:
        t = ids.get(code)
        return next((q for q, c in p.city.items() if c == t), None) if t is not None else None

    def extra_rule(tile: int, q: int) -> str | None:
        for m in hook_users(state.config, "placement_problem"):
            rule = m.placement_problem(state, seat, tile, q)
            if rule is not None:
                return rule
        return None

    if isinstance(redesign, BuildFromReserve):
        t = ids.get(redesign.tile)
        if t is None or t not in p.reserve:
            return IllegalAction(f"{redesign.tile} is not on your reserve board")
        x, y = redesign.target
        if not (-500 < x < 500 and -500 < y < 500):
            return IllegalPlacement(f"{x},{y} is far outside any Alhambra", "adjacent")
        q = geo.pos(x, y)
        rule = geo.placement_problem(p.city, walls, walls[t], q) or extra_rule(t, q)
        if rule is not None:
            return IllegalPlacement(f"{redesign.tile} cannot go to {x},{y}: {geo.RULE_MESSAGES.get(rule, rule)}", rule)
    elif isinstance(redesign, MoveToReserve):
        at = where(redesign.tile)
        if at is None:
            return IllegalAction(f"{redesign.tile} is not in your Alhambra")
        rule = geo.removal_problem(p.city, walls, at, geo.ORIGIN)
        if rule is not None:
            return IllegalPlacement(f"removing {redesign.tile} breaks a building rule: {geo.RULE_MESSAGES[rule]}", rule)
    elif isinstance(redesign, ExchangeTiles):
        rt = ids.get(redesign.reserve_tile)
        if rt is None or rt not in p.reserve:
            return IllegalAction(f"{redesign.reserve_tile} is not on your reserve board")
        at = where(redesign.city_tile)
        if at is None:
            return IllegalAction(f"{redesign.city_tile} is not in your Alhambra")
        rule = geo.exchange_problem(p.city, walls, at, rt, geo.ORIGIN) or extra_rule(rt, at)
        if rule is not None:
            msg = geo.RULE_MESSAGES.get(rule, rule)
            return IllegalPlacement(f"{redesign.reserve_tile} cannot take the place of {redesign.city_tile}: {msg}", rule)
    return IllegalAction(f"{redesign} is not possible now")


def _forget(state: GameState, sl: MasterBuildersState, seat: int, card: int, events: list[Event]) -> MasterBuildersState:
    """``card``, one of ``seat``'s secret cards, has left its hand. If the hand still holds a card
    of the same face that the others have seen, the others cannot tell which copy went: that
    copy counts as the secret one now (nothing is revealed). Otherwise the others now know the
    card was dealt face down: :class:`MasterBuildersRevealed`."""
    code_of = state.components.card_code
    mine = list(sl.secret[seat])
    mine.remove(card)
    code = code_of[card]
    same = next((c for c in state.players[seat].hand if code_of[c] == code and c not in mine), None)
    if same is not None:
        mine.append(same)
    else:
        events.append(MasterBuildersRevealed(seat, code))
    secret = list(sl.secret)
    secret[seat] = tuple(mine)
    return replace(sl, secret=tuple(secret))


# ---------------------------------------------------------------------------------- module
class MasterBuilders(Module):
    """The master-builder cards."""

    id = MODULE_ID
    title = "Master builders"
    summary = "Money cards worth 3 that can buy an extra redesign instead."
    description = (
        "Sixteen money cards worth 3 (four per currency): two are dealt face down to every player, the others are shuffled "
        "into the money. Pay with them like money, or give one up at the end of your turn for an extra redesign. "
        "Either way the card leaves the game."
    )
    assumptions = (
        "How many master-builder cards a player holds is public (two dealt to each, the others taken from the open "
        "display, all spent openly); only the currencies of the dealt cards are secret. So the game asks a player at "
        "the end of their turn only when they hold at least one and some redesign is possible in their Alhambra: "
        "this tells nothing the table does not know.",
        "The extra redesign comes after the tiles bought this turn are placed and before the display and the market "
        "are refilled (and before a scoring round drawn at the end of the turn is scored). It is one of the three "
        "redesign forms (build from the reserve, move to the reserve, exchange) with the normal building rules.",
        "The player chooses which of their master-builder cards to give up; it is shown and leaves the game face up. "
        "A card paid as money also leaves the game face up instead of going to the discard pile.",
        "The extra redesign is offered at the end of each of the player's own turns, whatever the turn's action was, "
        "but not after an out-of-turn purchase (e.g. the vizier's) and not during the final distribution of the "
        "market tiles (neither is a turn).",
        "Piles are counted from the top of the draw pile (the 1st pile is drawn first), as for the scoring cards in "
        "piles 2 and 4; the cards go to random places in the 3rd and 5th piles.",
        "With fewer than 5 players the cards left over are chosen at random and leave the game face down: nobody knows their currencies.",
        "Master-builder cards are taken from the display like money: alone, or together with other money cards worth 5 at most in total.",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """The 16 cards: money of value 3, four per currency."""
        return [
            CardType(code, "money", currency, value, module=self.id) for code, currency, value, copies in CARD_FACES for _ in range(copies)
        ]

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Shuffle the cards and deal two face down to every seat (before the starting money); set
        aside, face down, those that will not go into the money piles."""
        n = state.config.players
        into_piles = sum(k for _, k in pile_shares(n))
        if self._explicit_setup(state, n, into_piles):
            return
        ids = list(card_ids(state))
        rng.shuffle(ids)
        secret: list[tuple[int, ...]] = []
        for s in range(n):
            got = ids[DEALT_PER_PLAYER * s : DEALT_PER_PLAYER * (s + 1)]
            state.players[s].hand.extend(got)
            secret.append(tuple(got))
        rest = ids[DEALT_PER_PLAYER * n :]
        state.mods[self.id] = MasterBuildersState(tuple(secret), tuple(sorted(rest[into_piles:])), ())

    def _explicit_setup(self, state: GameState, n: int, into_piles: int) -> bool:
        """Explicit chance (OpenSpiel): deal each seat's cards as chance nodes only it sees, then
        the cards set aside as chance nodes nobody sees (cards of one code are interchangeable).
        False in a seeded game."""
        ids = card_ids(state)
        code_of = state.components.card_code
        deal = module_deal(state, self.id, [code_of[c] for c in ids], [DEALT_PER_PLAYER] * n)
        if deal is None:
            return False
        hands, left = deal
        aside = module_draw(state, self.id, left, max(0, len(left) - into_piles), secret_to=NOBODY)
        assert aside is not None  # explicit chance, as the deal
        free = list(ids)

        def take(code: str) -> int:
            c = next(c for c in free if code_of[c] == code)
            free.remove(c)
            return c

        secret = [tuple(take(code) for code in hand) for hand in hands]
        for s, got in enumerate(secret):
            state.players[s].hand.extend(got)
        state.mods[self.id] = MasterBuildersState(tuple(secret), tuple(sorted(take(code) for code in aside)), ())
        return True

    def chance_items(self, config: GameConfig) -> list[str]:
        return list(CARD_CODES)

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Shuffle the cards that were neither dealt nor set aside into the 3rd and 5th piles."""
        sl = _slice(state)
        out = {c for ids in sl.secret for c in ids} | set(sl.set_aside)
        rest = [c for c in card_ids(state) if c not in out]
        rng.shuffle(rest)
        at = 0
        for pile, k in pile_shares(state.config.players):
            for c in rest[at : at + k]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)
            at += k

    # ----- spending ---------------------------------------------------------------------
    def card_spent(self, state: GameState, card: int) -> bool:
        """A master-builder card paid as money leaves the game (face up)."""
        sl = _slice(state)
        state.mods[self.id] = replace(sl, removed=(*sl.removed, card))
        return True

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """Keep ``secret`` in step with the hands: a secret card that left its hand was spent."""
        sl = _slice(state)
        for seat, mine in enumerate(sl.secret):
            hand = state.players[seat].hand
            for c in mine:
                if c not in hand:
                    sl = _forget(state, sl, seat, c, events)
        if sl is not state.mods[self.id]:
            state.mods[self.id] = sl

    # ----- the extra redesign -----------------------------------------------------------
    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """Ask the seat whose turn ends, if it may use a master-builder card."""
        seat = state.current
        if may_use(state, seat):
            state.pending.append(MasterBuildersChoice(seat))

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Wait for the seat's choice (close the question if it became pointless)."""
        if isinstance(pending, MasterBuildersRedesign):
            if not module_redesigns(state, pending.seat):  # pragma: no cover - the card was given up for one
                state.pending.pop()
            return
        if not may_use(state, pending.seat):
            state.pending.pop()

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """Every core redesign with every face of master-builder card held, ``builder use CARD``
        when another module offers a redesign of its own, then ``builder skip``; after ``builder
        use``: the other modules' redesigns."""
        seat = pending.seat
        if isinstance(pending, MasterBuildersRedesign):
            return module_redesigns(state, seat)
        code_of = state.components.card_code
        codes = sorted({code_of[c] for c in builder_cards_in_hand(state, seat)})
        out: list[Action] = [with_card(code, r) for r in redesign_options(state, seat) for code in codes]
        if module_redesigns(state, seat):
            out += [MasterBuildersUse(code) for code in codes]
        out.append(MasterBuildersSkip())
        return out

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        top = state.pending[-1] if state.pending else None
        if not isinstance(top, MasterBuildersChoice):
            raise WrongPhase(
                "a master-builder card buys an extra redesign only at the end of your own turn, after your new buildings are placed"
            )
        if isinstance(action, MasterBuildersSkip):
            return
        if not isinstance(action, MasterBuildersBuild | MasterBuildersRemove | MasterBuildersExchange | MasterBuildersUse):
            raise IllegalAction(f"{action} is not a master builders action")
        code_of = state.components.card_code
        if action.card not in CARD_CODES:
            raise IllegalAction(f"{action.card} is not a master-builder card ({', '.join(CARD_CODES)})")
        if not any(code_of[c] == action.card for c in builder_cards_in_hand(state, top.seat)):
            raise IllegalAction(f"you do not hold the master-builder card {action.card}")
        if isinstance(action, MasterBuildersUse):
            if not module_redesigns(state, top.seat):
                raise IllegalAction("no module offers a redesign of its own now (use builder build, remove or exchange)")
            return
        redesign = core_redesign(action)
        if redesign not in redesign_options(state, top.seat):
            raise _refusal(state, top.seat, redesign)

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked choice: spend the card, then redesign; or decline."""
        top = state.pending.pop()
        seat = top.seat
        if isinstance(action, MasterBuildersSkip):
            events.append(MasterBuildersDeclined(seat))
            return
        assert isinstance(action, MasterBuildersBuild | MasterBuildersRemove | MasterBuildersExchange | MasterBuildersUse)
        sl = _slice(state)
        code_of = state.components.card_code
        hand = state.players[seat].hand
        same = [c for c in hand if code_of[c] == action.card and is_builder_card(state, c)]
        # spend a copy the others have seen if there is one (they cannot tell the copies apart)
        card = next((c for c in same if c not in sl.secret[seat]), same[0])
        hand.remove(card)
        sl = replace(sl, removed=(*sl.removed, card))
        events.append(MasterBuildersUsed(seat, (action.card,)))
        if card in sl.secret[seat]:
            sl = _forget(state, sl, seat, card, events)
        state.mods[self.id] = sl
        if isinstance(action, MasterBuildersUse):
            state.pending.append(MasterBuildersRedesign(seat))
            return
        perform_redesign(state, seat, core_redesign(action), events)

    # ----- bots -------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """A master-builder card is money (the core counts its 3) plus a redesign in reserve."""
        flags = state.components.module_cards(MODULE_ID)[1]
        return [BOT_REDESIGN_VALUE * sum(1 for c in p.hand if flags[c]) for p in state.players]

    # ----- research -----------------------------------------------------------------------
    def observation_counts(self, config: GameConfig) -> tuple[tuple[str, int], ...]:
        """The view's ``held`` and ``secret``: master-builder cards in each seat's hand, and how
        many of them the others have never seen (public counts)."""
        most = sum(copies for _, _, _, copies in CARD_FACES)
        return (("held", most), ("secret", most))

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """At most two actions per turn: the end-of-turn choice (use one card, or skip) and, after
        ``builder use``, another module's redesign. For the research game length (a hook of the
        research branch; unused by this core)."""
        return 2

    # ----- accounting, views, persistence -----------------------------------------------
    def held_cards(self, state: GameState) -> list[int]:
        """The cards out of the game: set aside at setup and spent."""
        sl = _slice(state)
        return [*sl.set_aside, *sl.removed]

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: how many master-builder cards each seat holds and how many of them the others
        have never seen, the spent cards, how many were set aside; the viewer's own secret cards;
        and how many of each face the viewer has not seen (what a careful player knows)."""
        sl = _slice(state)
        comp = state.components
        code_of = comp.card_code
        flags = comp.module_cards(MODULE_ID)[1]
        unseen = dict.fromkeys(CARD_CODES, 0)
        for code, _, _, copies in CARD_FACES:
            unseen[code] = copies
        seen: list[int] = [c for c in state.display if c >= 0 and flags[c]] + list(sl.removed)
        for s, p in enumerate(state.players):
            mine = [c for c in p.hand if flags[c]]
            seen += mine if s == viewer else [c for c in mine if c not in sl.secret[s]]
        for c in seen:
            unseen[code_of[c]] -= 1
        return {
            "held": [len(builder_cards_in_hand(state, s)) for s in range(state.config.players)],
            "secret": [len(ids) for ids in sl.secret],
            "own_secret": None if viewer is None else sorted(code_of[c] for c in sl.secret[viewer]),
            "removed": [code_of[c] for c in sl.removed],
            "set_aside": len(sl.set_aside),
            "unseen": unseen,
        }

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The public part: the spent cards, and as many cards set aside as the view says, of faces
        the viewer has not seen (which ones is redrawn per sample by :meth:`sample_slice`). The
        secret cards are left out here (they are in the hands)."""
        comp = build_components(config)
        by_code: dict[str, list[int]] = {}
        for c in comp.module_cards(MODULE_ID)[0]:
            by_code.setdefault(comp.card_code[c], []).append(c)
        removed = [by_code[code].pop(0) for code in module_view["removed"]]
        unseen = {code: int(k) for code, k in module_view["unseen"].items()}
        set_aside: list[int] = []
        for _ in range(int(module_view["set_aside"])):
            code = max(sorted(unseen), key=lambda k: unseen[k])
            unseen[code] -= 1
            set_aside.append(by_code[code].pop(0))
        return MasterBuildersState(tuple(() for _ in range(config.players)), tuple(set_aside), tuple(removed))

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample: the cards set aside and the other seats' secret cards are master-builder
        cards the viewer has not seen, drawn at random from those (the rest of them stay in the
        draw pile). The sampler fills each other seat's unknown hand cards from all unseen cards
        and appends them to the hand; the non-master-builder cards among them trade places with
        master-builder cards of the draw pile. The viewer's own secret cards are found in its hand."""
        sl = _slice(state)
        flags = state.components.module_cards(MODULE_ID)[1]
        code_of = state.components.card_code
        slots: list[tuple[int, int]] = []
        for s, count in enumerate(module_view["secret"]):
            if s == viewer:
                continue
            hand = state.players[s].hand
            slots += [(s, i) for i in range(max(0, len(hand) - int(count)), len(hand))]
        deck = state.deck
        deck_at = [i for i, c in enumerate(deck) if flags[c]]
        in_slots = [state.players[s].hand[i] for s, i in slots]
        pool = list(sl.set_aside) + [c for c in in_slots if flags[c]] + [deck[i] for i in deck_at]
        others = [c for c in in_slots if not flags[c]]
        rng.shuffle(pool)
        k = len(sl.set_aside)
        set_aside = pool[:k]
        rest = pool[k:]
        fill = rest[: len(slots)]
        rest = rest[len(slots) :]
        short = len(slots) - len(fill)  # slots left without a master-builder card (only if the view is inconsistent)
        fill += others[:short]
        leftover = rest + others[short:]
        secret: list[tuple[int, ...]] = [() for _ in state.players]
        for (s, i), c in zip(slots, fill, strict=True):
            state.players[s].hand[i] = c
        for s, i in slots:
            c = state.players[s].hand[i]
            if flags[c]:
                secret[s] = (*secret[s], c)
        rng.shuffle(leftover)
        for i, c in zip(deck_at, leftover, strict=True):
            deck[i] = c
        own = list(module_view.get("own_secret") or [])
        for c in state.players[viewer].hand:
            if flags[c] and code_of[c] in own:
                own.remove(code_of[c])
                secret[viewer] = (*secret[viewer], c)
        return MasterBuildersState(tuple(secret), tuple(sorted(set_aside)), sl.removed)

    def slice_to_json(self, value: Any) -> Any:
        """``{"secret": [[id...] per seat], "set_aside": [id...], "removed": [id...]}``."""
        assert isinstance(value, MasterBuildersState)
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the :class:`MasterBuildersState`."""
        return MasterBuildersState.from_dict(data)


BOT_REDESIGN_VALUE: Final = 0.4
"""Points the bots' evaluation adds per master-builder card held, for the extra redesign it can
buy (on top of its money value, which the core counts)."""

MODULE: Final = MasterBuilders()
"""Master builders (Big Box module ``master_builders``): see ``README.md``."""
