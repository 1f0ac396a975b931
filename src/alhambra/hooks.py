"""The module plug-in protocol: the documented points where a Big Box module hooks into the core.

A module is a package ``alhambra.modules.<id>`` (folder name = module id) whose ``MODULE``
attribute is an instance of a :class:`Module` subclass. The core never imports a module by
name: :func:`load_module` finds it from the id in the game configuration. Third-party
packages can add modules through the ``alhambra.modules`` entry-point group.

Every hook has a do-nothing default, so a module overrides only what it changes. The full
catalogue with call order is in ``docs/hooks.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, ClassVar, Final, final

from .errors import ConfigError
from .slices import ModuleState

if TYPE_CHECKING:
    from .actions import Action
    from .companion.hooks import CompanionHooks
    from .components import CardType, TileType
    from .events import Event
    from .state import GameConfig, GameState, Pending, PlaceTiles


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A per-module option a game may set (``GameConfig.options``): its key, default value
    (bool, int or str), a sentence for the lobby and, for a str option, the allowed choices."""

    key: str
    default: bool | int | str
    description: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Offer:
    """Something besides a market square that can be bought (a bazaar, a sultan card, chests...).

    ``item`` is its notation token (starts with a letter; unique among the offers of the moment):
    ``buy ITEM CARDS``. ``ways`` are the currency sets one payment may mix (one payment uses one
    way only). ``exact_only`` refuses overpayment; ``again_if_exact`` gives another action for
    an exact payment on a turn. ``tile`` >= 0 is a building tile that joins the turn's bought
    tiles (it is placed like a market tile; a market tile too: then ``offer_bought`` takes it off
    its square). ``out_of_turn`` lets out-of-turn purchases
    (``engine.purchase_options(..., out_of_turn=True)``) buy it too.
    """

    item: str
    module: str
    price: int
    ways: tuple[frozenset[int], ...]
    exact_only: bool = False
    again_if_exact: bool = True
    tile: int = -1
    out_of_turn: bool = False
    label: str = ""
    building: bool = False
    """The price pays for a building although no tile changes hands (completing a building
    site): modules that react to building purchases (change, exchange certificates) treat it as
    one. An offer with a ``tile`` is a building purchase anyway."""
    never_exact: bool = False
    """Such a purchase is never regarded as paying the exact amount (a building site), whatever
    was paid: no extra action, and its ``ItemBought`` event and :class:`Purchase` record say
    not exact (``exact`` False), so no module reacts to it as to an exact payment."""
    change: bool = False
    """An overpayment of it gives change like an overpaid building (the change module): a
    character card ("Players also receive change if they pay too much to obtain character
    cards")."""
    minimal: bool = False
    """Nothing is given for an overpayment (no change, no extra action: treasure chests): only
    payments from which no card or money source could be left out with the rest still paying
    the price are listed and accepted (otherwise "at least 8 in any mix" lists thousands)."""

    @property
    def buys_building(self) -> bool:
        """Whether buying it buys a building tile (``tile`` >= 0 or :attr:`building`)."""
        return self.tile >= 0 or self.building


@dataclass(frozen=True, slots=True)
class MoneySource:
    """Money a seat holds outside the hand (a change coin, a stored credit, a caravanserai marker):
    it pays like a money card of ``currency`` worth ``value``. ``token`` names it in a payment
    (``buy 2 b7+cb``): a word of lower-case letters and digits that is no card code of the game;
    several sources may share a token when they are alike (two blue coins). Listed by
    :meth:`Module.money_sources`; once spent, :meth:`Module.source_spent` disposes of it.
    ``buildings_only``: it pays only when buying a building tile (a market square, an offer with a
    tile or :attr:`Offer.building`), never for another offer (a certificate's credit)."""

    token: str
    currency: int
    value: int
    module: str
    buildings_only: bool = False


@dataclass(frozen=True, slots=True)
class Purchase:
    """One purchase that has just been paid (for :meth:`Module.purchase_made`).

    ``square`` is the market square (1-4) of a building tile bought from the market, 0 for a
    module offer (``offer``). ``tile`` is the building tile bought (-1 if none: a card, chests...).
    ``paid`` is the value of the money spent (cards and money sources), ``exact`` whether it was
    exactly ``price`` (never for an offer with :attr:`Offer.never_exact`).
    ``out_of_turn``: bought outside the buyer's own turn action (vizier...).
    """

    seat: int
    square: int
    offer: Offer | None
    tile: int
    price: int
    paid: int
    payment: tuple[str, ...]
    exact: bool
    out_of_turn: bool

    @property
    def building(self) -> bool:
        """Whether this paid for a building: a market tile, an offer's tile, or an offer that
        says so (:attr:`Offer.building`)."""
        return self.square > 0 or (self.offer is not None and (self.offer.tile >= 0 or self.offer.building))

    @property
    def overpaid(self) -> int:
        """How much more than the price was paid (0 for an exact payment)."""
        return self.paid - self.price


@dataclass(frozen=True, slots=True)
class PaymentOption:
    """A way to pay that a module allows: spend ``special`` cards (ids) and pay the price with
    money cards of any of ``currencies``."""

    special: tuple[int, ...]
    currencies: frozenset[int]
    """Without ``special`` cards, an option lets money of other currencies pay (diamonds pay for
    any square, on their own)."""


class Module:
    """Base class of every module. Override the hooks you need; keep them pure."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    """What the module does, in one line (the lobby's picker, ``alhambra modules``)."""
    description: ClassVar[str] = ""
    """The module's rules in a few sentences (the lobby's "more", ``alhambra modules --json``)."""
    assumptions: ClassVar[tuple[str, ...]] = ()
    """Documented readings where the rulebook is silent or open (shown to players)."""
    component_assumptions: ClassVar[tuple[str, ...]] = ()
    """Component facts that are unknown and assumed in the module's data file (an owner of the box
    can correct them there). A module with any is marked "rests on assumptions"."""
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    """Per-module options (``GameConfig.options``)."""
    games: ClassVar[tuple[str, ...]] = ("alhambra",)
    """The games of the family (ruleset ids, ``GameConfig.game``) this module works with; the
    core refuses any other game with a :class:`ConfigError` before ``check_config``."""
    state_type: ClassVar[type[ModuleState] | None] = None
    """The declared type of the module's state slice (a :class:`~alhambra.slices.ModuleState`):
    with it, :meth:`slice_to_json`, :meth:`slice_from_json`, a public :meth:`view` (the slice's
    JSON form) and :meth:`slice_from_view` come by default. Override ``view`` (and
    ``slice_from_view`` / ``sample_slice``) only to hide something or show more."""

    # ----- components and setup -------------------------------------------------------
    def check_config(self, config: GameConfig) -> None:
        """Raise :class:`ConfigError` if this module cannot be played with ``config``."""

    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """Cards this module adds to the game (they get ids after the base cards)."""
        return []

    def extra_tiles(self, config: GameConfig) -> list[TileType]:
        """Building tiles this module adds to the game."""
        return []

    def extra_currencies(self, config: GameConfig) -> list[str]:
        """Names of currencies this module adds (diamonds); they get the indices after the four
        base currencies, in module order. Module money cards use them as ``CardType.currency``.
        No market square takes them and the end-of-game hand-out never counts them."""
        return []

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Change the five money piles before they are stacked (pile 0 ends on top).

        The module's extra cards are not in any pile yet; put them where the rules say.
        """

    def setup(self, state: GameState, rng: random.Random) -> None:
        """Create the module's state slice in ``state.mods[self.id]`` (an immutable value)."""

    def setup_decisions(self, state: GameState) -> list[Pending]:
        """Decisions the players take during setup, before the building market is filled and the
        starting money dealt (street traders: each player's secret choice of citizens). Called
        once, after every module's :meth:`setup`; the pendings are asked in the order returned.
        While any is open the game is in ``STAGE_SETUP`` (market, display and hands empty; no
        starting player yet); once all are resolved the core finishes the setup (``GameStarted``)
        and the first turn starts. A secret choice must be hidden by the module's ``view`` and
        events until every seat has chosen."""
        return []

    def game_set_up(self, state: GameState, events: list[Event]) -> None:
        """The game is set up (market, money, display dealt; ``GameStarted`` is in ``events``)
        and the first turn has not started: announce what the module laid out at setup with
        public events (the score cards drawn...), so that logs and replays show it."""

    # ----- actions --------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Extra actions the player may choose as a turn action (the ``ChooseAction`` phase).

        Their :meth:`perform` must close the action with
        :func:`alhambra.engine.finish_turn_action` (another action allowed, or the phase ends)."""
        return []

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """Legal actions for one of this module's own pending choices."""
        return []

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`~alhambra.errors.IllegalAction` if this module's action is not allowed now."""

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out this module's (already checked) action on ``state`` in place."""

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Called when this module's pending choice is on top of the stack and nobody has acted
        on it yet (it was just pushed, or what was above it was resolved). It may do automatic
        work, replace itself, or pop itself when nobody needs to decide."""

    # ----- turn points (protocol 2) ---------------------------------------------------
    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        """Right after ``TurnStarted`` (the ``ChooseAction`` is on the stack); may push a pending above it."""

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """Right after any action was carried out (``events``: what it caused so far), before the
        flow runs on. May push a pending decision (a citizen moving into a building placed where
        the street trader stood...)."""

    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """Before scoring round ``round_no`` is scored (rounds 1 and 2 after the turn's refills,
        round 3 after the last tiles are handed out). May push a pending decision (a bonus card
        played at the last moment); the round is scored once it is resolved. Once per round."""

    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """The turn's actions and placements are done, before ``TurnEnded`` and the refills.
        May push a pending; the flow resumes once it is resolved. Called once per turn."""

    def after_refill(self, state: GameState, events: list[Event]) -> None:
        """Right after the display refill at the end of a turn, before the market refill and the
        queued scoring rounds. May push a pending decision about a card this module set aside in
        ``card_drawn`` (a character card auctioned the moment it is drawn); the flow resumes once
        it is resolved. Called once per turn (refills inside an action are followed by
        ``after_action`` instead)."""

    def take_limit(self, state: GameState, seat: int) -> int | None:
        """The most several money cards taken together may total for ``seat`` now (None: no
        change). The core uses the highest answer and the rule's 5 when none is higher."""
        return None

    # ----- draws (protocol 2) ---------------------------------------------------------
    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """A card of this module was drawn from the money pile for the display (or during setup).
        Return True if the module took it (the core draws another card instead)."""
        return False

    def tile_drawn(self, state: GameState, tile: int, events: list[Event]) -> bool:
        """A tile was drawn from the bag to refill the market. Return True if the module took it
        (set aside, or held while a pending it pushed decides: the refill then pauses and goes on
        once the stack is clear; :func:`alhambra.engine.put_on_market` returns a held tile)."""
        return False

    # ----- between turns (protocol 2) -------------------------------------------------
    def may_interrupt(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` is to be asked in the window between turns. Public facts only: never
        skip a seat because of what it holds in secret."""
        return False

    def interrupt_actions(self, state: GameState, seat: int) -> list[Action]:
        """This module's out-of-turn actions for ``seat`` in the window between turns."""
        return []

    # ----- purchases (protocol 2) -----------------------------------------------------
    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """Things besides the market squares that ``seat`` may buy now (see :class:`Offer`)."""
        return []

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """Deliver a bought offer (take it off the module's display, give it to ``seat``...). The
        core has paid for it already; a tile offer joins the bought tiles by the core."""

    def card_spent(self, state: GameState, card: int) -> bool:
        """A card of this module was spent in a payment. Return True if the module disposed of it
        (removed from the game, put back into a bag...); False sends it to the discard pile."""
        return False

    def money_sources(self, state: GameState, seat: int) -> list[MoneySource]:
        """Money ``seat`` holds outside the hand that pays like money cards (see
        :class:`MoneySource`). Public facts only, like everything a payment shows."""
        return []

    def source_spent(self, state: GameState, seat: int, source: MoneySource) -> None:
        """One of this module's money sources was spent in a payment: dispose of it (a coin back
        into the bag, a marker back to 0, a credit cleared)."""

    def payment_tokens(self, config: GameConfig) -> list[str]:
        """Every token this module's money sources may have in a game of ``config`` (the research
        token encoding has one card token per token)."""
        return []

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """A purchase was just paid (a market tile, a module offer, in or out of turn), after the
        turn action was closed (another action after an exact payment, or the placement of the
        bought tiles). May push a pending decision on top (store an overpayment...) or act at
        once (give change)."""

    def held_money(self, state: GameState, seat: int, currency: int) -> int:
        """Money of ``currency`` that ``seat`` holds outside the hand and that counts in the
        end-of-game hand-out of the last market tiles."""
        return 0

    # ----- payments and placement -----------------------------------------------------
    def payment_options(self, state: GameState, seat: int, currency: int) -> list[PaymentOption]:
        """Extra ways ``seat`` may pay for a tile whose square takes ``currency``."""
        return []

    def placement_problem(self, state: GameState, seat: int, tile: int, position: int) -> str | None:
        """An extra building rule: a reason why ``tile`` may not go to ``position``, or None."""
        return None

    def target_problem(self, state: GameState, seat: int, tile: int, target: str) -> str | None:
        """A reason why the waiting ``tile`` may not go to ``target`` (``"reserve"`` or
        ``"neutral"``: the neutral player of a 2-player game), or None. Asked for every such
        ``place`` the core lists or checks (a square is never given to the neutral player)."""
        return None

    def place_actions(self, state: GameState, pending: PlaceTiles) -> list[Action]:
        """This module's own actions for the tiles waiting in ``pending`` (the ``PlaceTiles`` on
        top: after a purchase, a vizier, a sultan claim, the final hand-out): listed after the
        core's ``place`` actions, action kind = module id (a magical building turned, a tile
        built through a city gate). The module's ``check`` must refuse them unless ``pending``
        is on top; its ``perform`` moves the tile with :func:`alhambra.engine.place_waiting`."""
        return []

    def entry_walls(self, state: GameState, seat: int, tile: int) -> tuple[int, ...] | None:
        """The wall masks ``tile`` may show as it enters ``seat``'s Alhambra when this module
        turns it (a magical building: every way it can be turned), or None: it is built as it
        lies. A module that builds tiles by its own actions (a city gate) builds such a tile
        turned in the same move; the module giving the turns is then not asked its
        ``placement_problem`` for that tile (which only refuses the tile as it lies)."""
        return None

    def redesign_actions(self, state: GameState, seat: int) -> list[Action]:
        """This module's own redesigns ``seat`` may make now (a magical building built turned, a
        tile built through a city gate): the same actions its ``turn_actions`` offers as a
        turn's redesign, asked by :func:`alhambra.engine.module_redesigns` for an extra
        redesign (master builders). The module's ``check`` accepts them while
        :func:`alhambra.engine.redesign_seat` names the seat, and its ``perform`` ends with
        :func:`alhambra.engine.finish_redesign`."""
        return []

    def removal_problem(self, state: GameState, seat: int, tile: int, position: int, incoming: int | None = None) -> str | None:
        """A reason why ``tile`` may not leave ``position`` of ``seat``'s Alhambra in a redesign
        (``redesign remove``, or the city tile of a ``redesign exchange``), or None: a module's
        veto beside the core's building rules (a gated tile is never redesigned). ``incoming``
        is the tile that takes ``position`` in an exchange (None: a removal), so a veto can judge
        the Alhambra as it will be (a watchtower keeps a building of its colour). Asked for every
        removal and exchange the core lists or checks, and by
        :func:`alhambra.engine.redesign_options`."""
        return None

    def occupied_places(self, state: GameState, seat: int) -> list[int]:
        """Places (packed positions) of ``seat``'s Alhambra that this module's pieces fill without
        being tiles of ``PlayerState.city`` (camps outside the city walls): the core builds no
        tile there and counts them as filled in its hole test, and other modules read them
        through :func:`alhambra.engine.occupied_places` (a trader tile stands only on an empty
        place)."""
        return []

    def unbuilt_tiles(self, state: GameState, seat: int) -> list[int]:
        """Tiles of ``seat``'s Alhambra that are not buildings yet (a building site before it is
        completed): their walls count, but nothing that goes into a building (a treasure chest, a
        citizen) may go onto them. Read through :func:`alhambra.engine.unbuilt_tiles`."""
        return []

    def final_starting(self, state: GameState, events: list[Event]) -> None:
        """The market could not be refilled: the game ends. Called once, before the remaining
        market tiles are handed out to the players with the most money of their currency (it may
        change hands: reveal building sites and discard money). No pending may be pushed here."""

    # ----- flow and events ------------------------------------------------------------
    def after_turn(self, state: GameState, events: list[Event]) -> None:
        """After a turn has completely finished (refills and scoring done), before the next
        player's turn. Push a pending choice here to interrupt the order of play."""

    def on_events(self, state: GameState, events: list[Event]) -> None:
        """Every event the core or another module caused, after the action is complete."""

    # ----- scoring --------------------------------------------------------------------
    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """Adjust the per-kind counts a seat scores with (``seat`` -1 is the neutral player)."""

    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """Extra points per seat in a scoring round (listed in the round's ``extra``), or None.
        Negative points are allowed (no floor). In a 2-player game one more entry, after the
        seats', goes to the neutral player (it may be left out: then he gets nothing)."""
        return None

    def wall_points(self, state: GameState, seat: int, round_no: int, points: int) -> int:
        """The points ``seat`` scores for walls in scoring round ``round_no`` (1-3), given
        ``points``, what the core (the longest outer wall) and the modules before this one in
        id order made of them: return the new value (or ``points`` unchanged). A chain: each
        user gets the previous one's answer. Read it through :func:`alhambra.engine.wall_points`."""
        return points

    def round_scored(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """Directly after scoring round ``round_no`` (1-3, ``RoundScored`` is in the events when
        they are built), in every stage: adjust scores (:func:`alhambra.engine.add_points`, with a
        floor), reveal something, turn up new components. No pending may be pushed here."""

    def kind_points(self, state: GameState, round_no: int, kind: str) -> tuple[int, ...] | None:
        """The points for 1st, 2nd ... most buildings of ``kind`` in scoring round ``round_no``
        (1-3), replacing the game's scoring table (for every seat and the neutral player), or
        None to keep the table. The first module in id order that answers decides. Read it
        through :func:`alhambra.engine.kind_points`."""
        return None

    @final
    def option(self, config: GameConfig, key: str) -> bool | int | str:
        """The value of this module's option ``key`` in a game (its declared default when unset);
        :class:`ConfigError` for a key the module does not declare. A helper, not a hook (final)."""
        for m, k, v in config.options:
            if m == self.id and k == key:
                return v
        for spec in self.options:
            if spec.key == key:
                return spec.default
        raise ConfigError(f"the module {self.id!r} has no option {key!r}")

    # ----- the scoring companion -------------------------------------------------------
    def companion(self) -> CompanionHooks | None:
        """This module's part in scoring a game played on a real table (``alhambra score`` of a
        whole table, the "Score a real game" page): its inputs and its scoring from them (see
        :mod:`alhambra.companion.hooks`). None: it changes nothing in a scoring round. The
        engine never calls it. By convention the default finds ``COMPANION`` in the module
        package's ``companion.py`` (which imports the module's rules, never the other way round);
        None when the package has no such file."""
        package = type(self).__module__.rpartition(".")[0]
        if not package:
            return None
        try:
            found = importlib.import_module(f"{package}.companion")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.companion":
                raise
            return None
        hooks: CompanionHooks | None = getattr(found, "COMPANION", None)
        return hooks

    def layout_walls(self, tile: TileType) -> tuple[int, ...]:
        """The wall masks this module's building ``tile`` may show in an Alhambra on a real table
        (``alhambra score`` layouts and tables that name the module), the first the one assumed
        when a layout gives no walls: its printed walls (default), every way it can be turned
        (a magical building), or its printed walls with segments added (city walls). The
        engine never calls it."""
        return (tile.walls,)

    def layout_gates(self) -> int:
        """How many city gates this module brings (city gates: 6): a layout (``alhambra score``)
        naming the module may give a tile a ``gate`` over a printed double wall, at most this many
        in all. The engine never calls it."""
        return 0

    def layout_segments(self) -> int:
        """How many wooden wall segments this module brings that players build on tiles (city
        walls: 12): a layout (``alhambra score``) naming the module may give a tile ``added``
        walls, at most this many segments in all. The engine never calls it."""
        return 0

    # ----- bots ------------------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """For the bots' evaluation (greedy, and MCTS at its leaves): what this module is worth to
        each seat (``players`` floats, in points), beyond what the core already counts: points
        it will likely score, resources held (cards, pieces, money outside the hand), minus what
        it will cost. Must be cheap: it runs once per evaluated state. None: nothing to add."""
        return None

    # ----- accounting, views, persistence ---------------------------------------------
    def held_cards(self, state: GameState) -> list[int]:
        """Card ids kept in this module's own state slice (for conservation checks)."""
        return []

    def held_tiles(self, state: GameState) -> list[int]:
        """Tile ids kept in this module's own state slice."""
        return []

    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """The module's part of a view; must not show what ``viewer`` may not see. Default: with
        a :attr:`state_type`, the whole slice (its JSON form, public); else nothing."""
        value = state.mods.get(self.id) if self.state_type is not None else None
        return value.to_dict() if isinstance(value, ModuleState) else {}

    def observation_flags(self, config: GameConfig) -> tuple[str, ...]:
        """Keys of :meth:`view` whose value is a list with one boolean per seat (the vizier:
        ``("awake",)``). The research observation tensor has a block of per-seat flags for
        each of them, read from every view generically."""
        return ()

    def observation_counts(self, config: GameConfig) -> tuple[tuple[str, int], ...]:
        """Keys of :meth:`view` whose value is a list with one whole number per seat (cards or
        pieces each seat holds in the module: the thieves' ``counts``), each with the most it can
        reach. The research observation has a block of per-seat counts for each, read from every
        view generically and divided by that most (clipped to 1)."""
        return ()

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """An upper bound on the actions (of all seats together: purchases, passes and the
        placements they lead to) this module can ask for between two turns. Sizes the maximum
        game length the OpenSpiel game declares (:func:`alhambra.openspiel.max_game_length`)."""
        return 0

    def chance_items(self, config: GameConfig) -> list[str]:
        """Every item this module's random draws during play can give in a game of ``config``
        (the codes it passes to :func:`alhambra.engine.module_draw`). In explicit-chance mode
        each such draw is a chance node; OpenSpiel numbers its outcomes ``MODULE:ITEM`` after
        the cards and tiles (:func:`alhambra.openspiel.chance_codes`)."""
        return []

    def notation_items(self, config: GameConfig) -> list[str]:
        """Every ``item`` word this module's actions and offers may use in a game of ``config``
        (words starting with a letter, unique among the modules); the research token encoding
        has one token per item. An action argument of type ``item`` can only be spelled with
        one of these."""
        return []

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """This module's state slice rebuilt from its public view (:meth:`view` output), for the
        bots' sampler, which builds full states consistent with what a seat sees. Return None
        when the view does not determine the slice (the sampler then keeps the slice of a fresh
        setup and logs it). Default: with a :attr:`state_type` and the default :meth:`view`, the
        slice read back from that view; else None."""
        if self.state_type is not None and type(self).view is Module.view:
            return self.state_type.from_dict(module_view)
        return None

    def sample_slice(self, state: GameState, module_view: dict[str, Any], viewer: int, rng: random.Random) -> Any:
        """Per sample of the bots' sampler: this module's slice with its hidden parts redrawn
        (with ``rng``) consistently with ``module_view``, what ``viewer`` sees. ``state`` is the
        sample being built (hands and public facts already in place). Default: the fixed
        :meth:`slice_from_view`; None keeps the slice the sample has."""
        return self.slice_from_view(module_view, state.config)

    def slice_to_json(self, value: Any) -> Any:
        """JSON form of this module's state slice (default: the value's ``to_dict``)."""
        if value is None:
            return None
        return value.to_dict()

    def slice_from_json(self, data: Any) -> Any:
        """Rebuild the module's state slice from :meth:`slice_to_json` output (default: with a
        :attr:`state_type`, its ``from_dict``; else None)."""
        return None if self.state_type is None else self.state_type.from_dict(data)


@dataclass(frozen=True, slots=True)
class Facet:
    """A group of :class:`Module` hooks with one concern, and whether it is *passive*: its
    hooks leave the turn flow alone (the core calls them at setup, in scoring, at the end and
    for views, bots and persistence, never while a turn is played)."""

    name: str
    passive: bool
    hooks: tuple[str, ...]
    doc: str


FACETS: Final = (
    Facet("setup", True, ("check_config", "extra_tiles", "deck_piles", "setup", "game_set_up"), "the game's set-up"),
    Facet("components", False, ("extra_cards", "extra_currencies"), "cards and currencies that reach the turn's draws and payments"),
    Facet(
        "actions",
        False,
        ("setup_decisions", "turn_actions", "pending_actions", "check", "perform", "resume", "take_limit"),
        "the module's own actions and pendings (also the decisions taken during setup)",
    ),
    Facet(
        "flow",
        False,
        ("turn_started", "after_action", "before_scoring", "turn_ending", "after_refill", "after_turn", "on_events"),
        "points of the turn",
    ),
    Facet("draws", False, ("card_drawn", "tile_drawn"), "cards and tiles drawn during play"),
    Facet("window", False, ("may_interrupt", "interrupt_actions"), "out-of-turn moves between turns"),
    Facet(
        "purchases",
        False,
        ("offers", "offer_bought", "card_spent", "money_sources", "source_spent", "payment_tokens", "purchase_made", "payment_options"),
        "what can be bought and how it is paid",
    ),
    Facet(
        "building",
        False,
        (
            "placement_problem",
            "target_problem",
            "place_actions",
            "entry_walls",
            "redesign_actions",
            "removal_problem",
            "occupied_places",
            "unbuilt_tiles",
        ),
        "building rules, the module's own placements, redesign vetoes and unfinished buildings",
    ),
    Facet(
        "scoring",
        True,
        ("final_starting", "building_counts", "round_points", "wall_points", "round_scored", "kind_points", "held_money"),
        "scoring rounds and the end of the game",
    ),
    Facet("bots", True, ("bot_values", "slice_from_view", "sample_slice"), "what the bots value and sample"),
    Facet(
        "observer",
        True,
        (
            "held_cards",
            "held_tiles",
            "view",
            "observation_flags",
            "observation_counts",
            "max_actions_between_turns",
            "chance_items",
            "notation_items",
        ),
        "accounting, views and the research observation",
    ),
    Facet("persistence", True, ("slice_to_json", "slice_from_json"), "the state slice's JSON"),
    Facet(
        "companion",
        True,
        ("companion", "layout_walls", "layout_segments", "layout_gates"),
        "scoring a game played on a real table (the engine never calls it)",
    ),
)
"""Every hook of :class:`Module`, each in one facet (``tests/test_engine_rooms.py`` checks it)."""

PASSIVE_HOOKS: Final = frozenset(hook for facet in FACETS if facet.passive for hook in facet.hooks)
"""The hooks of the passive facets: a game whose modules override only these plays its turns on
the flow of a game without modules (``engine.plain_flow``)."""


def available_modules() -> list[str]:
    """Ids of every module that can be loaded (built-in packages and entry points)."""
    from . import modules as pkg

    ids = {m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg}
    ids |= {ep.name for ep in entry_points(group="alhambra.modules")}
    return sorted(ids)


def parse_module_ids(text: str | None) -> tuple[str, ...]:
    """The module ids of a list written ``vizier,currency_exchange`` or
    ``vizier+currency_exchange`` (the command line's ``--modules``, OpenSpiel's ``modules``
    parameter), in order, without blanks or empty entries; not checked (see :func:`load_module`).
    ``all`` stands for every available module (:func:`available_modules`): a game of them all
    is refused with the rule's reason if the rules forbid a combination (``check_config``)."""
    if not text:
        return ()
    out: list[str] = []
    for m in (m.strip() for m in re.split(r"[,+]", text)):
        if m == "all":
            out += [a for a in available_modules() if a not in out]
        elif m:
            out.append(m)
    return tuple(out)


_CACHE: dict[str, Module] = {}


def load_module(module_id: str) -> Module:
    """The :class:`Module` for an id; :class:`ConfigError` if there is none."""
    if module_id in _CACHE:
        return _CACHE[module_id]
    mod: Module | None = None
    if module_id.isidentifier():
        for ep in entry_points(group="alhambra.modules"):
            if ep.name == module_id:
                mod = ep.load()
        if mod is None:
            try:
                pkg = importlib.import_module(f"alhambra.modules.{module_id}")
            except ModuleNotFoundError:
                pkg = None
            if pkg is not None:
                mod = getattr(pkg, "MODULE", None)
    if not isinstance(mod, Module):
        known = ", ".join(available_modules()) or "none"
        raise ConfigError(f"unknown module {module_id!r} (known: {known})")
    _CACHE[module_id] = mod
    return mod


def register_module(module: Module) -> None:
    """Make ``module`` loadable by its id without a package in ``alhambra.modules`` or an entry
    point: a module kept elsewhere (the guide's example in ``examples/``, a notebook, a test).
    Refuses an id that is no identifier or that another module already has."""
    if not module.id.isidentifier():
        raise ConfigError(f"bad module id {module.id!r}")
    known = _CACHE.get(module.id)
    if known is not None and known is not module:
        raise ConfigError(f"module id {module.id!r} is taken")
    if known is None and module.id in available_modules():
        raise ConfigError(f"module id {module.id!r} is taken")
    _CACHE[module.id] = module


_BY_CONFIG: dict[tuple[str, ...], list[Module]] = {}
_USERS: dict[tuple[tuple[str, ...], str], tuple[Module, ...]] = {}


def hook_users(config: GameConfig, hook: str) -> tuple[Module, ...]:
    """The modules of ``config`` whose class overrides ``hook`` (cached): the core calls a hook
    only on these, so a hook that no loaded module uses costs nothing."""
    key = (config.modules, hook)
    got = _USERS.get(key)
    if got is None:
        base = getattr(Module, hook)
        got = _USERS[key] = tuple(m for m in modules_of(config) if getattr(type(m), hook) is not base)
    return got


def modules_of(config: GameConfig) -> list[Module]:
    """The loaded modules of a configuration, in id order (do not mutate the list)."""
    got = _BY_CONFIG.get(config.modules)
    if got is None:
        got = _BY_CONFIG[config.modules] = [load_module(m) for m in config.modules]
    return got
