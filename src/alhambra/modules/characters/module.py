"""Characters: ten character cards; six are shuffled into the 2nd, 3rd and 4th money piles (two
each), four lie face down as the surplus pile. A character drawn from the money pile is auctioned
at once; the winner owns it and uses its ability.

Flow (plug-in hooks):

* ``extra_cards``: ten cards of one back (code ``char``): which character a drawn card shows is
  drawn when it is turned up (``engine.module_draw`` / ``module_random``) from the characters no
  one has seen yet, so nobody (not even the bots' samples) knows which six are in the piles.
  ``deck_piles`` puts two into each of piles 2-4; the other four are the surplus pile.
* ``card_drawn``: a character drawn for the display is set aside for its auction (another card is
  drawn). ``after_refill`` (after the end-of-turn display refill) and ``after_action`` (a refill
  inside an action: a thief, the Beggar) push :class:`Auction`: bids in turn from the seat due to
  play next, each higher than the last and payable in one currency, until all but the highest
  bidder have passed; the winner pays (:class:`CharacterPayment`). Nobody bids: the card is out.
* Abilities: see :data:`CHARACTERS` and the README (turn start: Dancer, Beggar; turn actions:
  Rich Patron, Moneychanger; purchases: Miser; take limit: Trader; turn end: Master Builder;
  scoring: Wise Man (half a building), City Watch; at the end: the Entertainer's 8 points).

The module is split by concern: ``components`` (the data file), ``state`` (the slice and the
pending choices), ``actions`` (and their notation), ``events``, ``auction``, ``abilities``,
``scoring``, ``bots`` and ``view``; this file plugs them into the engine's hooks.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Final

from ...actions import Action
from ...components import CardType
from ...errors import IllegalAction
from ...events import Event
from ...hooks import Module, Offer, Purchase
from ...state import GameConfig, GameState, Pending
from . import abilities, auction, bots, scoring, view as views
from .abilities import TURN_ABILITY_ACTIONS
from .components import ITEM, MAX_BID, MODULE_ID, NAMES, card_ids, data
from .state import CharactersState, chars

__all__ = ["MODULE", "Characters"]


class Characters(Module):
    """Characters."""

    id = MODULE_ID
    title = "Characters"
    summary = "Ten characters with special abilities are auctioned as they come up."
    description = (
        "Ten characters with special abilities; six are shuffled into the money piles. A character that comes up is "
        "auctioned at once (bids in one currency); the winner may use it from then on."
    )
    assumptions = (
        "A bid must be payable in one currency (diamonds alone count as one) with what the bidder holds, but need not be "
        "payable exactly: the winner may pay more (the rulebook gives change for overpaid characters, p.18). Exchange "
        "cards do not pay for characters; change coins and caravanserai markers do, as money of their currency.",
        "The auction: the seat due to play next (the player whose turn is under way, for a card the Beggar draws) bids "
        "first or passes; then clockwise every seat still in raises or passes for good, until one bidder is left. With "
        "2 players the neutral player never bids and owns no character.",
        "Several characters drawn in one refill are auctioned one after the other, in the order drawn, right after the "
        "display refill (before the market refill and before a scoring round drawn in the same refill).",
        "A 'round' in the usage rule is one turn of the owner: an ability with the round symbol is used at most once in "
        "each of the owner's turns; the Rich Patron leaves the game once used.",
        "The Dancer and the Beggar are used at the very start of the owner's own turn (before the caravanserai "
        "marker move). The old tile of the Dancer goes back into the bag at a random place; the new one is drawn as "
        "for a market refill.",
        "A scoring card the Beggar draws is scored at the end of the turn, like one drawn by the display refill.",
        "The Rich Patron and the Miser act only on purchases in the owner's own turn (not with the vizier). The "
        "Patron's purchase counts as an exact payment (another action) with no money paid.",
        "The Travelling Entertainer kept is worth 8 points in the final scoring; swapped, it goes to the bottom of the "
        "surplus pile face down and the surplus pile's top card is owned at once.",
        "The Wise Man's half building counts for the chosen kind even with no building of it (so it can take a place).",
        "The City Watch adds 1 point per 3 points the owner scores for the longest wall in each scoring round.",
    )
    component_assumptions = (
        "Which usage symbol each card carries is unknown (the symbols are lost in the rule text): Wise Man and City "
        "Watch crown; Rich Patron once; Entertainer and Beggar none; the other five once per turn (components.json).",
    )

    # ----- components and setup ---------------------------------------------------------
    def extra_cards(self, config: GameConfig) -> list[CardType]:
        """Ten character cards of one back."""
        return [CardType(data().code, "character", module=self.id) for _ in range(10)]

    def check_config(self, config: GameConfig) -> None:
        """Any table of the Alhambra (2-6 players)."""

    def setup(self, state: GameState, rng: random.Random) -> None:
        """The slice; every card is held here until ``deck_piles`` puts six into the piles."""
        n = state.config.players
        state.mods[self.id] = CharactersState(card_ids(state), ((),) * n, wise=("",) * n)

    def deck_piles(self, state: GameState, piles: list[list[int]], rng: random.Random) -> None:
        """Two cards into each of piles 2, 3 and 4 (shuffled in); four stay as the surplus pile."""
        sl = chars(state)
        ids = list(sl.cards)
        k = data().per_pile
        at = 0
        for pile in data().piles:
            for c in ids[at : at + k]:
                piles[pile].insert(rng.randrange(len(piles[pile]) + 1), c)
            at += k
        state.mods[self.id] = replace(sl, cards=tuple(ids[at:]), surplus=len(ids) - at)

    def chance_items(self, config: GameConfig) -> list[str]:
        """The ten characters (which one a turned-up card shows)."""
        return list(NAMES)

    def held_cards(self, state: GameState) -> list[int]:
        """Every character card not in the money pile (they never go back into it)."""
        return list(chars(state).cards)

    def max_actions_between_turns(self, config: GameConfig) -> int:
        """Auctions of up to four cards one refill draws (bids rise by at least 1 up to 99, each
        seat passes once, a payment and the Entertainer's choice), plus the abilities one turn
        can use (:data:`.abilities.TURN_ABILITY_ACTIONS`)."""
        return 4 * (MAX_BID + config.players + 2) + TURN_ABILITY_ACTIONS

    def notation_items(self, config: GameConfig) -> list[str]:
        """The offer item of a won character's payment."""
        return [ITEM]

    # ----- draws and auctions (:mod:`.auction`) -------------------------------------------
    def card_drawn(self, state: GameState, card: int, events: list[Event]) -> bool:
        """A character card drawn is turned up and set aside for its auction."""
        auction.card_drawn(state, card, events)
        return True

    def after_refill(self, state: GameState, events: list[Event]) -> None:
        """The end-of-turn refill drew characters: auction the first."""
        auction.start_next(state)

    def after_action(self, state: GameState, events: list[Event]) -> None:
        """A refill inside an action (a thief's, the Beggar's draw) drew characters: auction them."""
        auction.start_next(state)

    def resume(self, state: GameState, pending: Pending, events: list[Event]) -> None:
        """Settle pendings with nothing to decide; chain auctions; end turn-start choices."""
        auction.resume(state, pending, events)
        abilities.resume(state, pending)

    def offers(self, state: GameState, seat: int, out_of_turn: bool) -> list[Offer]:
        """The won character, only to its winner while it pays (one currency per payment)."""
        return auction.offers(state, seat)

    def offer_bought(self, state: GameState, seat: int, offer: Offer, events: list[Event]) -> None:
        """Nothing to deliver here: :meth:`perform` hands the card over."""

    # ----- abilities (:mod:`.abilities`) --------------------------------------------------
    def turn_started(self, state: GameState, seat: int, events: list[Event]) -> None:
        """A new turn: round abilities are fresh; the Dancer and the Beggar may act first."""
        abilities.turn_started(state, seat)

    def turn_ending(self, state: GameState, events: list[Event]) -> None:
        """The Master Builder's extra redesign, after the new buildings are placed."""
        abilities.turn_ending(state)

    def before_scoring(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """The Wise Man's owner names a kind for this round."""
        abilities.before_scoring(state, round_no)

    def purchase_made(self, state: GameState, purchase: Purchase, events: list[Event]) -> None:
        """The Miser: a building of price 10 or more bought in the owner's own turn."""
        abilities.purchase_made(state, purchase)

    def take_limit(self, state: GameState, seat: int) -> int | None:
        """The Trader: several money cards up to 7."""
        return abilities.take_limit(state, seat)

    # ----- actions ------------------------------------------------------------------------
    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        """Rich Patron (a building for free) and Moneychanger (a free exchange)."""
        return abilities.turn_actions(state, seat)

    def pending_actions(self, state: GameState, pending: Pending) -> list[Action]:
        """The choices of this module's pendings."""
        return auction.choices(state, pending) or abilities.choices(state, pending)

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is allowed now."""
        if isinstance(action, auction.ACTIONS):
            auction.check(state, action)
        elif isinstance(action, abilities.ACTIONS):
            abilities.check(state, action)
        else:
            raise IllegalAction(f"{action} is not a characters action")

    def perform(self, state: GameState, action: Action, events: list[Event]) -> None:
        """Carry out a checked action."""
        if isinstance(action, auction.ACTIONS):
            auction.perform(state, action, events)
        else:
            abilities.perform(state, action, events)

    # ----- scoring (:mod:`.scoring`) ------------------------------------------------------
    def building_counts(self, state: GameState, seat: int, counts: dict[str, float]) -> None:
        """The Wise Man's half building of the kind its owner named for this round."""
        scoring.building_counts(state, seat, counts)

    def round_points(self, state: GameState, round_no: int) -> list[int] | None:
        """City Watch: 1 per 3 wall points; the Entertainer kept: 8 in the final scoring."""
        return scoring.round_points(state, round_no)

    def round_scored(self, state: GameState, round_no: int, events: list[Event]) -> None:
        """The Wise Man's choice holds for one round."""
        scoring.round_scored(state)

    # ----- bots (:mod:`.bots`) --------------------------------------------------------------
    def bot_values(self, state: GameState) -> list[float] | None:
        """Owned characters at their value for the rest of the game; an auction's lead at the
        card's value less what the bid costs."""
        return bots.bot_values(state)

    # ----- views (:mod:`.view`) -------------------------------------------------------------
    def view(self, state: GameState, viewer: int | None) -> dict[str, Any]:
        """Public: who owns which character, those out, those waiting, the surplus pile, ..."""
        return views.view(state)

    def slice_from_view(self, module_view: dict[str, Any], config: GameConfig) -> Any:
        """The whole slice is public; the held card ids are any of the character cards."""
        return views.slice_from_view(module_view, config)

    def slice_from_json(self, data: Any) -> Any:
        """Read the slice back."""
        return CharactersState.from_dict(data)


MODULE: Final = Characters()
