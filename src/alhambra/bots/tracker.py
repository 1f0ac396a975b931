"""What a careful player knows from the public history, and full states consistent with it.

* :class:`Tracker` reads the public events as they come and keeps what a careful human keeps
  in mind: every seat's hand by card face (starting money is dealt face up, money is taken
  from the display by face, cards a module gives are announced by ``CardsReceived``
  (``engine.services.give_cards``; a secret gift by its count only), payments are seen by the
  table), how often the deck was
  reshuffled, which scoring cards came up, and the tiles still to be placed in the final
  distribution.
* :class:`Sampler` turns an :class:`~alhambra.bots.base.Observation` into full
  :class:`~alhambra.state.GameState` objects: everything public is copied from the view, the
  hands come from the tracker, and the unknown order of the draw pile and of the tile bag is
  drawn at random per sample. Cards and tiles that are nowhere in sight are in the draw pile
  and the bag. Before the first reshuffle the special cards (scoring cards, module cards) lie
  where the setup put them: scoring card 1 in pile 2, scoring card 2 in pile 4, module cards
  wherever their module's ``deck_piles`` puts them; the sampler learns those places from the
  engine's own setup (``new_game`` with unrelated seeds) and keeps only places below the
  cards already drawn. After a reshuffle the draw pile is a uniform shuffle.

States are built with the engine's constructors (``new_game`` for the configuration, then
the fields are overwritten), carry a fresh random seed (the game's seed is unknown) and keep
every card and tile in exactly one place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .. import city as geo
from ..components import ComponentSet
from ..engine import new_game
from ..hooks import load_module
from ..state import STAGE_FINAL, STAGE_SETUP, GameConfig, GameState, Pending, PlayerState
from .base import Observation, log

__all__ = ["Sampler", "Tracker", "special_card_depths"]


class Tracker:
    """Public knowledge accumulated from the event history (feed it with :meth:`update`)."""

    def __init__(self) -> None:
        self.seen = 0
        """Number of events read so far."""
        self.first: dict[str, Any] | None = None
        """The first event of the history (tells another game's history from this one's)."""
        self.start: dict[str, Any] | None = None
        """``GameStarted`` once read (None during setup decisions)."""
        self.players = 0
        self.hands: list[Counter[str]] = []
        """Every seat's hand by card face."""
        self.reshuffles = 0
        self.scoring_drawn: list[int] = []
        """Scoring rounds whose cards came up, in order."""

    def update(self, events: Sequence[dict[str, Any]]) -> None:
        """Read the events not read yet (a history of another game starts over)."""
        if self.first is not None and (len(events) < self.seen or not events or events[0] != self.first):
            self.__init__()  # type: ignore[misc]
        if self.first is None and events:
            self.first = events[0]  # the game's first event (a setup decision's, or GameStarted)
        for e in events[self.seen :]:
            self._read(e)
        self.seen = len(events)

    def _read(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "GameStarted":
            self.start = e
            self.players = e["players"]
            self.hands = [Counter(m) for m in e["starting_money"]]
        elif kind == "MoneyTaken" or kind == "CardsReceived":
            self.hands[e["seat"]].update(e["cards"])
        elif kind == "DeckReshuffled":
            self.reshuffles += 1
        elif kind == "ScoringCardDrawn":
            self.scoring_drawn.append(e["round"])
        elif "payment" in e and "seat" in e:  # BuildingBought and any module purchase (VizierUsed ...)
            hand = self.hands[e["seat"]]
            hand.subtract(e["payment"])
            for code in [c for c, k in hand.items() if k <= 0]:
                if hand[code] < 0:  # a card dealt in secret by a module (nobody else saw it until now)
                    log.debug("tracker: seat %d paid %s it was not known to hold", e["seat"], code)
                del hand[code]


_DEPTHS: dict[tuple[int, tuple[str, ...], str], dict[str, list[float]]] = {}
_DEPTH_SAMPLES = 400


def special_card_depths(config: GameConfig) -> dict[str, list[float]]:
    """For each special (non-money) card of the deck: the share of the starting draw pile's
    money cards that lie above it, over many setups by the engine itself (cached per
    configuration). Scoring card 1 lies between 1/5 and 2/5, scoring card 2 between 3/5 and 4/5."""
    key = (config.players, config.modules, config.game)
    got = _DEPTHS.get(key)
    if got is not None:
        return got
    cfg = GameConfig(config.players, config.modules, game=config.game)
    out: dict[str, list[float]] = {}
    for k in range(_DEPTH_SAMPLES):
        state, _ = new_game(cfg, 7_000_003 + 7919 * k)
        cards = state.components.cards
        total = sum(1 for c in state.deck if cards[c].is_money)
        money = 0
        for c in reversed(state.deck):  # top first
            if cards[c].is_money:
                money += 1
            else:
                out.setdefault(cards[c].code, []).append(money / max(1, total))
    for v in out.values():
        v.sort()
    _DEPTHS[key] = out
    return out


TOP_CARDS = 32
"""Cards on top of a sampled draw pile that are drawn at random (see :func:`_shuffle_top`)."""
TOP_TILES = 16
"""Tiles on top of a sampled bag that are drawn at random."""


def _shuffle_top(seq: list[int], k: int, rng: random.Random) -> None:
    """Make the last ``k`` places of ``seq`` (the top of a pile: the engine draws from the end)
    a uniformly random draw from all of ``seq``: the first ``k`` steps of a Fisher-Yates
    shuffle. A search looks a few turns ahead, so the order further down never matters and
    shuffling all of it would be wasted time."""
    rand = rng.random
    n = len(seq)
    for i in range(n - 1, max(0, n - k) - 1, -1):
        j = int(rand() * (i + 1))
        seq[i], seq[j] = seq[j], seq[i]


class Sampler:
    """Full game states consistent with one observation (hidden order drawn per sample)."""

    def __init__(self, obs: Observation, tracker: Tracker | None = None) -> None:
        self.obs = obs
        if tracker is None:
            tracker = Tracker()
        tracker.update(obs.events)
        self.tracker = tracker
        self.config = obs.config
        self._analysed = False
        """Whether the base state's Alhambras were analysed (the first sample does it)."""
        self._hidden_hands: dict[int, int] = {}
        """Seats whose hand holds cards nobody else has seen (dealt in secret by a module): how many."""
        self._setup_hand_pool: list[int] | None = None
        """Before the deal: the unseen cards a module dealt in secret, the only ones the hidden
        hands can hold (None after the deal: any unseen card)."""
        self._base, self._unknown_cards, self._unknown_tiles = self._build()
        self.comp: ComponentSet = self._base.components
        cards = self._base.components.cards
        pool = self._unknown_cards if self._setup_hand_pool is None else self._setup_hand_pool
        self._hand_pool = [c for c in pool if cards[c].kind != "scoring"]
        self._depths = special_card_depths(self.config) if tracker.reshuffles == 0 else {}
        cards = self.comp.cards
        self._special = [c for c in self._unknown_cards if not cards[c].is_money]
        self._money = [c for c in self._unknown_cards if cards[c].is_money]
        self._money_drawn = self._original_money() - len(self._money)
        drawn = self._money_drawn
        size = drawn + len(self._money)
        self._places: dict[int, list[int]] = {}
        """For each unseen special card: its possible places (money cards above it in the draw pile)."""
        for c in self._special:
            shares = self._depths.get(cards[c].code, ())
            self._places[c] = [d - drawn for d in (round(x * size) for x in shares) if drawn <= d <= size]

    # ----------------------------------------------------------------------------- public
    def base(self) -> GameState:
        """The state the samples start from: hidden cards and tiles in a fixed (unshuffled)
        order. Cards a module dealt in secret into other seats' hands are not in it (each
        :meth:`sample` draws them), so use it for the acting seat's own decision only."""
        return self._base

    def sample(self, rng: random.Random) -> GameState:
        """A fresh full state: hidden orders and the seed drawn from ``rng``."""
        base = self._base
        if not self._analysed:  # once: every sample shares the Alhambras' analyses (a cache)
            walls = base.walls
            for p in base.players:
                p.analysis(walls)
            self._analysed = True
        s = base.copy()
        s.seed, s.deck, s.bag = self._hidden(rng)
        if self._hidden_hands:
            # cards dealt in secret: any unseen cards, drawn per sample, leave the draw pile
            k = sum(self._hidden_hands.values())
            chosen = rng.sample(self._hand_pool, k)
            gone = set(chosen)
            s.deck = [c for c in s.deck if c not in gone]
            i = 0
            for seat, m in sorted(self._hidden_hands.items()):
                s.players[seat].hand.extend(chosen[i : i + m])
                i += m
        view = self.obs.view
        for mid, mv in view["module_views"].items():
            got = load_module(mid).sample_slice(s, mv, self.obs.seat, rng)
            if got is not None:
                s.mods[mid] = got
        return s

    @property
    def plain(self) -> bool:
        """True when a sample differs from :meth:`base` only by the seed, the draw pile and the
        bag (no cards dealt in secret, no module's hidden facts): :meth:`hidden` draws them."""
        return not self._hidden_hands and not self.obs.view["module_views"]

    def hidden(self, rng: random.Random) -> tuple[int, list[int], list[int]]:
        """The seed, draw pile and bag of a fresh sample of a :attr:`plain` sampler, drawn from
        ``rng`` exactly as :meth:`sample` draws them (the native search puts them into a copy of
        the native twin of :meth:`base`)."""
        if not self.plain:
            raise ValueError("this observation hides more than the draw pile and the bag")
        return self._hidden(rng)

    def hidden_plan(self) -> tuple[list[int], list[int], list[int], list[list[int]], bool, int, int]:
        """What :meth:`hidden` draws from, for the native twin of it (``native/sample.pxi``):
        the unknown tiles, money cards and special cards, each special card's possible depths,
        whether the draw pile was reshuffled, and the shuffled top sizes (cards, tiles)."""
        if not self.plain:
            raise ValueError("this observation hides more than the draw pile and the bag")
        places = [self._places[c] for c in self._special]
        return self._unknown_tiles, self._money, self._special, places, bool(self.tracker.reshuffles), TOP_CARDS, TOP_TILES

    def _hidden(self, rng: random.Random) -> tuple[int, list[int], list[int]]:
        seed = rng.randrange(1 << 62)
        bag = self._unknown_tiles[:]
        _shuffle_top(bag, TOP_TILES, rng)
        return seed, self._deck(rng), bag

    # ----------------------------------------------------------------------------- deck
    def _original_money(self) -> int:
        """Money cards in the draw pile right after setup."""
        start = self.tracker.start
        dealt = sum(len(m) for m in start["starting_money"]) if start else 0
        total = sum(1 for c in self.comp.cards if c.is_money)
        return total - dealt - len(self.obs.view["display"])

    def _deck(self, rng: random.Random) -> list[int]:
        money = self._money[:]
        if not self._special:
            _shuffle_top(money, TOP_CARDS, rng)
            return money
        if self.tracker.reshuffles:
            deck = money + self._special
            _shuffle_top(deck, TOP_CARDS, rng)
            return deck
        _shuffle_top(money, TOP_CARDS, rng)
        money.reverse()  # below, money[0] is the top of the pile
        left = len(money)
        placed: list[tuple[int, float, int]] = []
        for c in self._special:
            ok = self._places[c]
            depth = ok[int(rng.random() * len(ok))] if ok else int(rng.random() * (left + 1))
            placed.append((depth, rng.random(), c))
        placed.sort()
        top_first: list[int] = []
        i = 0
        for depth, _, c in placed:
            if i < depth:
                top_first += money[i:depth]
                i = depth
            top_first.append(c)
        top_first += money[i:]
        top_first.reverse()
        return top_first

    # ----------------------------------------------------------------------------- building
    def _build(self) -> tuple[GameState, list[int], list[int]]:
        obs = self.obs
        v = obs.view
        tr = self.tracker
        state, _ = new_game(self.config, 0)
        comp = state.components
        n = self.config.players
        free: dict[str, list[int]] = {}
        for i, c in enumerate(comp.cards):
            free.setdefault(c.code, []).append(i)

        def take(code: str) -> int:
            pool = free.get(code)
            if not pool:
                raise ValueError(f"card {code} is accounted for twice")
            return pool.pop()

        hands: list[list[int]] = []
        for s in range(n):
            if s == obs.seat:
                codes: list[str] = list(v["seats"][s]["hand"])
            else:
                codes = list(tr.hands[s].elements()) if s < len(tr.hands) else []  # none dealt yet (setup)
                count = v["seats"][s]["hand_count"]
                if len(codes) < count:
                    self._hidden_hands[s] = count - len(codes)
                elif len(codes) > count:
                    log.warning("tracker: seat %d holds %d cards, not %d", s, count, len(codes))
            hands.append([take(c) for c in codes])
        display = [take(c) if c is not None else -1 for c in v["display"]]
        discard = [take(c) for c in v["discard"]]
        removed = [take(f"S{r}") for r in tr.scoring_drawn]
        mods: dict[str, Any] = {}
        for mid, mv in v["module_views"].items():
            got = load_module(mid).slice_from_view(mv, self.config)
            if got is not None:
                mods[mid] = got
            elif mid in state.mods:
                log.info("sampler: module %s cannot rebuild its slice from its view; its fresh setup state is used", mid)
        state.mods.update(mods)
        state.set_changed_walls(v.get("walls") or {})  # walls a module changed are public
        held_tiles: set[int] = set()
        code_of = comp.card_code
        for mid in state.mods:
            m = load_module(mid)
            for cid in m.held_cards(state):
                pool = free.get(code_of[cid])
                if pool and cid in pool:
                    pool.remove(cid)
                elif pool:
                    pool.pop()
            held_tiles.update(m.held_tiles(state))
        unknown_cards = [c for pool in free.values() for c in pool]
        if v["stage"] == STAGE_SETUP:  # before the deal the draw pile holds what the setup put there,
            # as in a fresh game: the base money and a module's money shuffled in at setup (diamonds)
            if state.stage == STAGE_SETUP:
                at_setup = {code_of[c] for c in state.deck}
                # the other seats' hidden cards are what a module dealt in secret at setup (master
                # builders), never money of the draw pile; the module's other cards wait for the deal
                dealt = {code_of[c] for p in state.players for c in p.hand} - at_setup
                self._setup_hand_pool = sorted(c for c in unknown_cards if code_of[c] in dealt)
                unknown_cards = [c for c in unknown_cards if code_of[c] in at_setup]
            else:
                unknown_cards = [c for c in unknown_cards if comp.cards[c].module is None and comp.cards[c].is_money]
        unknown_cards.sort()
        expected = v["deck_count"] + (0 if self._setup_hand_pool is not None else sum(self._hidden_hands.values()))
        if len(unknown_cards) != expected:
            log.warning("sampler: %d unseen cards for a draw pile of %d", len(unknown_cards), v["deck_count"])
            unknown_cards = unknown_cards[:expected]

        tid = comp.tile_ids
        placed_tiles: set[int] = set()

        phys = comp.physical  # two-sided tiles (Granada): a tile is seen on either face

        def tile(code: str) -> int:
            t = tid[code]
            placed_tiles.add(phys(t))
            return t

        players: list[PlayerState] = []
        for s in range(n):
            sv = v["seats"][s]
            city: dict[int, int] = {}
            for cell in sv["alhambra"]:
                code = cell["tile"]
                city[geo.pos(cell["x"], cell["y"])] = comp.fountains[s] if code == "F" else tile(code)
            players.append(PlayerState(hands[s], city, [tile(c) for c in sv["reserve"]]))
        market = [tile(sq["tile"]) if sq["tile"] is not None else -1 for sq in v["market"]]
        neutral = None if v["neutral"] is None else [tile(c) for c in v["neutral"]["tiles"]]
        pending = self._pending()
        for p in pending:
            for code in (*getattr(p, "tiles", ()), *getattr(p, "bought", ())):
                tile(code)
        fountains = set(comp.fountains)
        unknown_tiles = [
            i
            for i, t in enumerate(comp.tiles)
            if i not in placed_tiles and i not in fountains and i not in held_tiles and (t.module is None or t.in_bag) and phys(i) == i
        ]
        if len(unknown_tiles) != v["bag_count"]:
            log.warning("sampler: %d unseen tiles for a bag of %d", len(unknown_tiles), v["bag_count"])
            unknown_tiles = unknown_tiles[: v["bag_count"]]

        state.deck = unknown_cards[:]
        state.display = display
        state.discard = discard
        state.market = market
        state.bag = unknown_tiles[:]
        state.players = players
        state.scores = [sv["score"] for sv in v["seats"]]
        state.neutral = neutral
        state.neutral_score = 0 if v["neutral"] is None else v["neutral"]["score"]
        state.removed = removed
        state.current = v["current"]
        state.turn = v["turn"]
        state.stage = v["stage"]
        state.pending = pending
        state.scoring_queue = list(tr.scoring_drawn[v["rounds_scored"] :])  # drawn, not scored yet
        state.rounds_scored = v["rounds_scored"]
        state.reshuffles = tr.reshuffles
        state.outcome = v["outcome"]
        state.market_exhausted = v["stage"] == STAGE_FINAL
        state.score_history = [tuple(h) for h in v["score_history"]]
        state.flow = int(v.get("flow", 0))
        state.market_face = 1 if v.get("market_face") == "odd" else 0
        state.turned = tuple(tid[c] for c in v.get("turned", ()))
        return state, unknown_cards, unknown_tiles

    def _pending(self) -> list[Pending]:
        """The decisions the game waits on, bottom first: every pending is public."""
        return [Pending.from_dict(d) for d in self.obs.view["pending_stack"]]
