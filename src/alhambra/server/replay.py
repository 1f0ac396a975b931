"""Replays: a game record turned into frames to step through, and moves told in sentences.

:func:`replay_frames` re-applies a :class:`~alhambra.record.GameRecord` through the engine and
returns one frame per position (the deal, then the position after each action): the market,
the face-up money, the piles, every Alhambra and reserve board, the scores and every hand. A
record holds the seed, so once a game is over nothing about it is hidden any more: the server
hands out replays only of finished games (and of any record file a visitor uploads, which holds
its own seed).

:func:`Narrator` words the engine's events for people: seats by their names, tiles as
"Garden 8 (walls north, east)", cards as "7 denar", places relative to the fountain; never the
notation of the record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..actions import Action, parse_action
from ..engine import apply, new_game
from ..errors import AlhambraError, IllegalAction, RecordError
from ..events import Event
from ..hooks import load_module
from ..record import GameRecord
from ..state import GameState
from ..view import catalogue, view
from .service import FINISHED, ServiceError, Table

__all__ = [
    "MAX_STEPS",
    "REPLAY_UPLOADS_PER_MINUTE",
    "Narrator",
    "describe_hint",
    "frame_of",
    "replay_frames",
    "table_replay",
    "uploaded_replay",
]

MAX_STEPS = 5000
"""The most actions a replayed record may hold (a whole game has a few hundred)."""

REPLAY_UPLOADS_PER_MINUTE = 30
"""Record files one client address may have replayed a minute (``POST /api/replay``; 429 beyond)."""

QUIET_EVENTS = frozenset({"GameStarted", "TurnStarted", "TurnEnded", "DisplayRefilled", "MarketRefilled", "DeckReshuffled"})
"""Events the move list leaves out (bookkeeping that the board shows by itself)."""

_SIDES = {"n": "north", "e": "east", "s": "south", "w": "west"}
_CODES = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:\+[A-Za-z][A-Za-z0-9]*)*\b")
_PLACE = re.compile(r"(?:\bat )?(?<![\w-])(-?\d+),(-?\d+)(?![\w,])")
_PLAYER = re.compile(r"\bplayer (\d+)\b")
_TWICE = re.compile(r"\b(\w+ card) \1\b")
_SQUARE = re.compile(r"\bsquare ([1-9])\b")


class Narrator:
    """Words events and actions of one game (its catalogue, the seats' names) as sentences."""

    def __init__(self, record_or_config: GameRecord | Any, names: Sequence[str | None] = (), market: Sequence[str] = ()) -> None:
        config = record_or_config.config if isinstance(record_or_config, GameRecord) else record_or_config
        self.market: list[str] = list(market)
        """The currency (colour word) of each market square, to say "the dirham square"."""
        self.players = config.players
        self.names: list[str] = [names[i] or f"Player {i + 1}" if i < len(names) else f"Player {i + 1}" for i in range(config.players)]
        cat = catalogue(config)
        self.tiles: dict[str, dict[str, Any]] = cat["tiles"]
        self.cards: dict[str, dict[str, Any]] = cat["cards"]
        self.currency_names = {c["colour"]: c["name"] for c in cat["currencies"]}
        self.kind_names: dict[str, str] = dict(zip(cat["kinds"], cat["kind_names"], strict=True))
        self.wall: str = cat["wall_name"]
        self.tokens: dict[str, str] = {}
        for token, mid in cat["money_tokens"].items():
            try:
                title = load_module(mid).title or mid
            except AlhambraError:  # pragma: no cover - the config loaded it already
                title = mid
            self.tokens[token] = f"{title} money"

    # ------------------------------------------------------------------------- names
    def seat(self, seat: int) -> str:
        """A seat's name ("Dirk" for the neutral player of 2-player games)."""
        return self.names[seat] if 0 <= seat < self.players else "Dirk"

    def tile(self, code: str) -> str:
        """A tile's name, e.g. "Garden 8 (walls north, east)" (Granada: "Park 8 (moats north, east)")."""
        t = self.tiles.get(code)
        if t is None:
            return code
        kind = self.kind_names.get(t["kind"]) or str(t["kind"]).replace("_", " ").capitalize()
        if t["kind"] == "fountain":
            return kind
        walls = [_SIDES[c] for c in str(t["walls"] or "") if c in _SIDES]
        return f"{kind} {t['price']} ({self.wall + 's ' + ', '.join(walls) if walls else 'no ' + self.wall + 's'})"

    def card(self, code: str) -> str:
        """A card's name, e.g. "7 denar" (a module's card by its kind: "exchange card")."""
        if code in self.tokens:
            return self.tokens[code]
        c = self.cards.get(code)
        if c is None:
            return code
        currency = self.currency_names.get(c["currency"], c["currency"])
        if c["kind"] == "money":
            return f"{c['value']} {currency}"
        kind = f"{str(c['kind']).replace('_', ' ')} card"
        return f"{kind} ({currency})" if currency else kind

    def code(self, code: str) -> str | None:
        """The name of a tile or card code, or None when ``code`` is a plain word."""
        if code in self.tiles:
            return self.tile(code)
        if code in self.cards or code in self.tokens:
            return self.card(code)
        return None

    def place(self, x: int, y: int) -> str:
        """A place of an Alhambra relative to its fountain, e.g. "2 east and 1 north of the fountain"."""
        parts = []
        if x:
            parts.append(f"{abs(x)} {'east' if x > 0 else 'west'}")
        if y:
            parts.append(f"{abs(y)} {'south' if y > 0 else 'north'}")
        return " and ".join(parts) + " of the fountain" if parts else "on the fountain"

    def square(self, square: int) -> str:
        """A market square by its currency ("the dirham square"); "square N" when unknown."""
        if 1 <= square <= len(self.market):
            colour = self.market[square - 1]
            return f"the {self.currency_names.get(colour, colour)} square"
        return f"square {square}"

    # ------------------------------------------------------------------------- sentences
    def words(self, text: str) -> str:
        """An engine text with names for seats, tiles and cards and places in words."""
        text = _PLAYER.sub(lambda m: self.seat(int(m.group(1)) - 1), text)

        def codes(m: re.Match[str]) -> str:
            parts = m.group(0).split("+")
            named = [self.code(p) for p in parts]
            if any(n is None for n in named) and len(parts) > 1:
                return m.group(0)
            return " and ".join(n or p for n, p in zip(named, parts, strict=True))

        text = _CODES.sub(codes, text)
        text = _PLACE.sub(lambda m: self.place(int(m.group(1)), int(m.group(2))), text)
        text = _SQUARE.sub(lambda m: self.square(int(m.group(1))), text)
        text = _TWICE.sub(r"\1", text)  # "sultan card sultan card (denar)": the engine's word and the name
        return text[:1].upper() + text[1:]

    def event(self, event: dict[str, Any]) -> str | None:
        """A sentence for one event (JSON form with ``text``), or None for bookkeeping."""
        kind = event.get("type")
        if kind in QUIET_EVENTS:
            return None
        if kind == "RoundScored":
            pts = ", ".join(f"{self.seat(i)} {p:+d}" for i, p in enumerate(event["points"]))
            counts = event.get("counts") or {}
            if any(len(c) > len(event["points"]) for c in counts.values()):  # the neutral player scored too
                pts += f", Dirk {int(event.get('neutral_points', 0)):+d}"
            return f"Scoring round {event['round']}: {pts}"
        if kind == "GameEnded":
            winners = " and ".join(self.seat(s) for s in event["winners"])
            best = max(event["scores"]) if event["scores"] else 0
            verb = "win" if len(event["winners"]) > 1 else "wins"
            return f"Game over: {winners} {verb} with {best} points"
        if kind == "ScoringCardDrawn":
            return f"A scoring card is drawn: scoring round {event['round']} follows"
        if kind == "TileTurnedOver":
            paid = " and ".join(self.card(c) for c in event["payment"])
            tile, face = self.tile(event["tile"]), self.tile(event["face"])
            return f"{self.seat(event['seat'])} pays {paid} to turn {tile} over: it is built as {face}"
        if kind == "MarkerSwitched":
            return f"The black marker turns to the {event['face']} side"
        if kind == "NeutralTilesReceived":
            tiles = [self.tile(t) for t in event.get("tiles", [])]
            return f"Dirk receives {', '.join(tiles) or 'nothing'}"
        text = event.get("text")
        return self.words(str(text)) if text else None

    def events(self, events: Sequence[dict[str, Any]], seat: int | None = None) -> list[str]:
        """The sentences of the events of one move (the turn's end spelt out only when nothing
        else happened)."""
        out = [s for e in events if (s := self.event(e))]
        if not out and seat is not None:
            ended = any(e.get("type") == "TurnEnded" for e in events)
            out.append(f"{self.seat(seat)} {'ends the turn' if ended else 'moves'}")
        return out


# ---------------------------------------------------------------------------------- frames
def frame_of(state: GameState) -> dict[str, Any]:
    """What the replay viewer draws of one position: the spectator's view with every hand
    shown (the game is over: nothing of it is hidden), without legal actions."""
    v = view(state, None, with_legal_actions=False)
    comp = state.components
    for s, p in enumerate(state.players):
        hand = sorted(p.hand, key=lambda c: (comp.card_currency[c], comp.card_value[c], state.card_code(c)))
        v["seats"][s]["hand"] = [state.card_code(c) for c in hand]
    for k in ("pending_stack", "discard", "legal_actions", "viewer"):
        v.pop(k, None)
    return v


def replay_frames(record: GameRecord, names: Sequence[str | None] = ()) -> dict[str, Any]:
    """Every position of a recorded game with the moves between them, in sentences.

    Returns ``{"players", "modules", "names", "catalogue", "frames", "moves"}``: ``frames[0]``
    is the deal, ``frames[i]`` the position after the ``i``-th action; ``moves[i - 1]`` says who
    made that action (``seat``, ``turn``), what happened (``sentences``) and the action in the
    record's ``notation`` (shown only to those who ask for it). :class:`RecordError`
    (with the failing step) when the record does not replay.
    """
    if len(record.actions) > MAX_STEPS:
        raise RecordError(f"the record has {len(record.actions)} actions; a replay takes at most {MAX_STEPS}")
    try:
        state, start = new_game(record.config, record.seed)
    except AlhambraError as e:
        raise RecordError(f"cannot set up the game: {e}") from None
    frames = [frame_of(state)]
    narrator = Narrator(record, names, [sq["currency"] for sq in frames[0]["market"]])
    moves: list[dict[str, Any]] = []
    start_text = [narrator.words(e.describe()) for e in start if type(e).__name__ == "GameStarted"]
    for i, action in enumerate(record.actions):
        seat = state.to_act
        turn = state.turn
        try:
            state, evs = apply(state, action)
        except IllegalAction as e:
            raise RecordError(f"step {i + 1}: {e.reason}", i) from None
        frames.append(frame_of(state))
        moves.append({"step": i + 1, "seat": seat, "turn": turn, "sentences": narrator.events(_public(evs), seat), "notation": str(action)})
    return {
        "players": record.config.players,
        "modules": list(record.config.modules),
        "names": narrator.names,
        "catalogue": catalogue(record.config),
        "start": start_text,
        "frames": frames,
        "moves": moves,
        "outcome": state.outcome,
    }


def _public(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [dict(e.to_dict(), text=e.describe()) for e in events]


def describe_hint(narrator: Narrator, state: GameState, action: Action, seat: int) -> str:
    """A sentence for a move ``seat`` could make now, without telling anything it would reveal:
    the move is tried on a copy, and only the events before the turn ends or anything hidden
    shows (a card from the pile, a tile from the bag) are told, as ``seat`` would see them."""
    try:
        _, events = apply(state, action, seat=seat)
    except AlhambraError:
        return "No hint for this position"
    told: list[dict[str, Any]] = []
    for e in events:
        if type(e).__name__ in ("TurnEnded", "DisplayRefilled", "MarketRefilled", "DeckReshuffled") or e.reveals:
            break
        seen = e.seen_by(seat)
        told.append(dict(seen.to_dict(), text=seen.describe()))
    you = narrator.seat(seat) + " "
    out = [("You " + _second_person(s[len(you) :])) if s.startswith(you) else s for s in narrator.events(told, seat)]
    return "; ".join(out)


_IRREGULAR = {"does": "do", "is": "are", "has": "have"}


def _second_person(text: str) -> str:
    """ "buys a tile" -> "buy a tile": the verb of a sentence about a seat, said to that seat."""
    verb, _, rest = text.partition(" ")
    if verb in _IRREGULAR:
        verb = _IRREGULAR[verb]
    elif verb.endswith(("sses", "shes", "ches", "xes")):
        verb = verb[:-2]
    elif verb.endswith("s"):
        verb = verb[:-1]
    return f"{verb} {rest}".rstrip()


# ---------------------------------------------------------------------------------- the server's side
def table_replay(table: Table) -> dict[str, Any]:
    """The replay of a finished table, with the seats' names (409 before the end: until then
    the record, and its seed, would tell the hidden hands, pile and bag). Kept with the final
    snapshot, which never changes."""
    snap = table.snap
    if snap.status != FINISHED:
        raise ServiceError("a replay can be watched once the game is over", 409)
    got = snap.cache.get("replay")
    if got is None:
        record = GameRecord(table.config, table.seed, [parse_action(e.notation) for e in snap.record])
        got = replay_frames(record, [s.name for s in snap.seats])
        got["table"] = table.info(snap)
        snap.cache["replay"] = got
    result: dict[str, Any] = got
    return result


def uploaded_replay(data: Any) -> dict[str, Any]:
    """The replay of a record file's JSON (422 with the reason for anything that is not a
    record that replays)."""
    try:
        record = GameRecord.from_json(data)
        return replay_frames(record)
    except RecordError as e:
        raise ServiceError(f"this file is not a game record that replays: {e}", 422) from None
