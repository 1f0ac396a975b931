"""The table service: games in memory, every change stored before anyone is told.

The engine is the single source of truth. A :class:`Table` holds an immutable
:class:`Snapshot` (version, state, public event log, record); every accepted action, undo or
join replaces it under the table's lock *after* the database transaction that stores it has
committed, and only then are the listeners (the WebSocket hub, the bot pool) told.

Everything a seat or spectator receives is built by :func:`message`, which uses only
:func:`alhambra.view.view` and :func:`alhambra.view.view_events`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import logging
import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, action_data, parse_action
from ..bots import Bot, Observation, make_bot
from ..bots.levels import BOT_LEVELS
from ..engine import apply, apply_unchecked, build_components, check_options, new_game
from ..errors import AlhambraError, ConfigError, GameOver, IllegalAction, NotationError, NotYourTurn
from ..events import Event, TurnEnded, event_from_dict
from ..hooks import load_module, modules_of
from ..record import GameRecord
from ..serialize import state_from_json, state_to_json
from ..state import GameConfig, GameState
from ..view import table_actions, view, view_events
from .db import ActionRow, Conflict, Database, NewAction, SeatRow, Stored, TableRow

__all__ = [
    "BOT_LEVELS",
    "BotRequest",
    "ServiceError",
    "Snapshot",
    "Table",
    "TableService",
    "final_actions",
    "message",
    "offered_actions",
]

log = logging.getLogger("alhambra.server")

PERSON = "person"
BOT = "bot"
WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"


MAX_NAME = 40


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status, ``message`` a sentence for the client."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


def _not_found(table_id: str) -> ServiceError:
    return ServiceError(f"there is no table {table_id!r}", 404)


def hash_token(token: str) -> str:
    """SHA-256 of a seat token (the database keeps only this)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name: str | None) -> str | None:
    """A player name with control characters removed and spaces collapsed (None if empty)."""
    if name is None:
        return None
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if len(text) > MAX_NAME:
        raise ServiceError(f"a name has at most {MAX_NAME} characters", 422)
    return text or None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts of one seat."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    joined: bool
    open: bool = False
    """A person seat still open for strangers at a public table (no invitation link): an anonymous
    join takes only such seats; the person seats the creator filled in stay theirs."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        label = BOT_LEVELS[self.bot][0] if self.bot in BOT_LEVELS else None
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "bot_label": label,
            "name": self.name,
            "joined": self.joined,
            "open": self.open,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    """One action of the game record as the server keeps it."""

    seq: int
    version: int
    seat: int
    turn: int
    notation: str
    final: bool


@dataclass(eq=False)
class Snapshot:
    """The table at one version. ``events[:n_events]`` is its public log (the list is shared
    with later snapshots, which only append; an undo starts a new list and a new ``epoch``)."""

    version: int
    state: GameState
    events: list[Event]
    n_events: int
    epoch: int
    record: tuple[Entry, ...]
    status: str
    seats: tuple[SeatInfo, ...]
    cache: dict[Any, Any] = field(default_factory=dict)


class Table:
    """One table: static facts, the current snapshot and the seats' bots."""

    def __init__(self, row: TableRow, config: GameConfig, snap: Snapshot) -> None:
        self.id = row.id
        self.name = row.name
        self.public = bool(row.public)
        self.hints = bool(row.hints)
        self.rematch: str | None = None
        """The id of this finished table's rematch, once a player asked for one."""
        self.created_at = row.created_at.isoformat() + "Z"
        self.config = config
        self.seed = row.seed
        self.lock = threading.RLock()
        self.snap = snap
        self.creator_hash = row.creator_token_hash
        self.gone = False
        """Deleted or expired: a request still holding this object gets 404 (set under ``lock``)."""
        self.last_used = time.monotonic()
        """When the table was last looked up (``time.monotonic()``): idle tables are evicted."""
        self.bots: dict[int, Bot] = {}
        self.bot_rng = random.Random(secrets.randbits(64))
        self._logs: dict[int | None, tuple[int, list[dict[str, Any]]]] = {}
        self._log_lock = threading.Lock()

    def events_for(self, snap: Snapshot, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The public log of ``snap`` from ``start`` as ``viewer`` may see it (view_events)."""
        with self._log_lock:
            epoch, got = self._logs.get(viewer, (-1, []))
            if epoch != snap.epoch or len(got) > snap.n_events:
                epoch, got = snap.epoch, []
                self._logs[viewer] = (epoch, got)
            if len(got) < snap.n_events:
                got.extend(view_events(snap.events[len(got) : snap.n_events], viewer))
            return got[start : snap.n_events]

    def info(self, snap: Snapshot | None = None) -> dict[str, Any]:
        """Public facts of the table."""
        snap = snap or self.snap
        return {
            "id": self.id,
            "name": self.name,
            "public": self.public,
            "hints": self.hints,
            "status": snap.status,
            "players": self.config.players,
            "modules": list(self.config.modules),
            "game": self.config.game,
            "seats": [s.to_json() for s in snap.seats],
            "version": snap.version,
            "created_at": self.created_at,
            "rematch": self.rematch,
        }


# ---------------------------------------------------------------------------------- pure helpers
def is_final(before: GameState, after: GameState, events: Sequence[Event]) -> bool:
    """True when an action ended the turn or revealed something hidden (a card drawn from the
    pile, a tile from the bag, a reshuffle, a module event that ``reveals``): such an action can
    never be taken back."""
    return (
        after.outcome is not None
        or len(after.deck) != len(before.deck)
        or len(after.bag) != len(before.bag)
        or after.reshuffles != before.reshuffles
        or any(isinstance(e, TurnEnded) or e.reveals for e in events)
    )


def final_actions(state: GameState, offered: Sequence[Action] | None = None) -> list[str]:
    """The offered actions (``offered``, by default :func:`~alhambra.view.table_actions`) that
    end the turn or reveal something (tried on copies of the state)."""
    out: list[str] = []
    for a in table_actions(state) if offered is None else offered:
        trial = state.copy()
        evs = apply_unchecked(trial, a)
        if is_final(state, trial, evs):
            out.append(str(a))
    return out


def undo_problem(snap: Snapshot, seat: int) -> str | None:
    """Why ``seat`` cannot take back its last action now (None: it can)."""
    if snap.status != PLAYING:
        return "only a game in progress has moves to take back"
    if not snap.record:
        return "there is nothing to take back"
    last = snap.record[-1]
    if last.seat != seat or snap.state.to_act != seat:
        return "only your own last move of your current turn can be taken back"
    if last.final or last.turn != snap.state.turn:
        return "that move ended the turn or revealed something new; it cannot be taken back"
    return None


def offered_actions(snap: Snapshot) -> list[Action]:
    """The seat to act's offered actions (:func:`~alhambra.view.table_actions`), once per snapshot."""
    got: list[Action] | None = snap.cache.get("offered")
    if got is None:
        got = snap.cache["offered"] = table_actions(snap.state)
    return got


def message(table: Table, snap: Snapshot, viewer: int | None, since: tuple[int, int] | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat or None for a spectator) is sent for ``snap``.

    A person to act also gets ``actions``: every legal action as structured data (notation,
    keyword, arguments from the declared grammar: :func:`alhambra.actions.action_data`), in the
    order of the view's ``legal_actions``, so that the browser never parses the notation.

    ``since`` is ``(epoch, number of events the client has)``: when it still fits the log only
    the new events are sent (``type`` "update"), otherwise the whole log (``type`` "state").
    """
    full = since is None or since[0] != snap.epoch or not 0 <= since[1] <= snap.n_events
    start = 0 if full else since[1]  # type: ignore[index]
    key = ("view", viewer)
    v = snap.cache.get(key)
    if v is None:  # the offered actions are listed once per snapshot (the view, finals, structured)
        v = view(snap.state, viewer, with_legal_actions=False)
        if viewer is not None and viewer == snap.state.to_act:
            v["legal_actions"] = [str(a) for a in offered_actions(snap)]
        snap.cache[key] = v
    person_to_act = viewer is not None and snap.status == PLAYING and snap.state.to_act == viewer and snap.seats[viewer].kind == PERSON
    finals: list[str] = []
    actions: list[dict[str, Any]] = []
    if person_to_act:
        finals = snap.cache.get("finals")  # type: ignore[assignment]
        if finals is None:
            finals = snap.cache["finals"] = final_actions(snap.state, offered_actions(snap))
        actions = snap.cache.get("actions")  # type: ignore[assignment]
        if actions is None:
            actions = snap.cache["actions"] = [action_data(a) for a in offered_actions(snap)]
    return {
        "type": "state" if full else "update",
        "table": table.info(snap),
        "version": snap.version,
        "seat": viewer,
        "view": v,
        "epoch": snap.epoch,
        "event_start": start,
        "events": table.events_for(snap, viewer, start),
        "final_actions": finals,
        "actions": actions,
        "can_undo": viewer is not None and undo_problem(snap, viewer) is None,
    }


# ---------------------------------------------------------------------------------- service
@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for when creating a table."""

    kind: str
    bot: str | None = None
    name: str | None = None
    open: bool = False
    """A person seat left open for strangers (public tables only): no invitation link."""


class TableService:
    """Tables in memory over the database; thread-safe (one lock per table)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.listeners: list[Callable[[str], None]] = []
        """Called with a table id after every change of that table (any thread)."""
        self.gone_listeners: list[Callable[[str], None]] = []
        """Called with a table id when the table was deleted or expired (any thread)."""
        self.local_listeners: list[Callable[[str, str], None]] = []
        """Called with ``(table id, "changed" or "gone")`` for the changes made by this process
        only (not those :meth:`refresh` brings in from other processes): the Redis publisher."""

    def _tell_local(self, table_id: str, kind: str) -> None:
        for fn in list(self.local_listeners):
            try:
                fn(table_id, kind)
            except Exception:  # the change is stored; other processes catch up on their next access
                log.exception("could not tell the other processes about table %s", table_id)

    # ----------------------------------------------------------------------------- plumbing
    def notify(self, table_id: str) -> None:
        """Tell the listeners that table ``table_id`` changed (its facts, not only its game)."""
        self._notify(table_id)

    def _notify(self, table_id: str, local: bool = True) -> None:
        if local:
            self._tell_local(table_id, "changed")
        for fn in list(self.listeners):
            try:
                fn(table_id)
            except Exception:  # a listener must never break a commit that already happened
                log.exception("listener failed for table %s", table_id)

    def table(self, table_id: str) -> Table:
        """The table with this id (loaded from the database on first use); 404 if unknown."""
        if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 32:
            raise _not_found(str(table_id)[:40])
        t = self.tables.get(table_id)
        if t is None:
            with self._lock:
                t = self.tables.get(table_id)
                if t is None:
                    t = self._load(table_id)
                    self.tables[table_id] = t
        t.last_used = time.monotonic()
        return t

    def _load(self, table_id: str) -> Table:
        row = self.db.table(table_id)
        if row is None:
            raise _not_found(table_id)
        config = GameConfig.from_dict(json.loads(row.config_json))
        modules_of(config)  # register the modules' events and actions before reading them
        table = Table(row, config, self._read_whole(row, self.db.seats(table_id)))
        if row.status == FINISHED:
            table.rematch = self.db.rematch_id(table_id)
        return table

    def _read_whole(self, row: TableRow, seats: Sequence[SeatRow]) -> Snapshot:
        """The stored table of ``row`` as a snapshot: its start, every action, a log list of its own."""
        events: list[Event] = [event_from_dict(d) for d in json.loads(row.start_events_json)]
        record: list[Entry] = []
        for a in self.db.actions(row.id):
            events.extend(_events_of(a))
            record.append(_entry(a))
        return _snapshot(row, seats, state_from_json(json.loads(row.snapshot_json)), events, tuple(record))

    def _read_after(self, table: Table, stored: Stored) -> Snapshot | None:
        """The stored table as a snapshot built on ``table.snap`` from the actions after its version
        alone, their events appended to its log list (which later snapshots share, as in
        :meth:`submit`). None when the stored game did not only go on (an undo, a gap, a list that
        is not the newest): then it is read whole. Call under ``table.lock``."""
        old, row, rows = table.snap, stored.row, stored.actions
        if (row.epoch or 0) != old.epoch or row.version < old.version or len(old.events) != old.n_events:
            return None
        if [a.version for a in rows] != list(range(old.version + 1, row.version + 1)):
            return None  # pragma: no cover - a concurrent write between the two reads: read it whole
        added = [e for a in rows for e in _events_of(a)]
        state = state_from_json(json.loads(row.snapshot_json)) if rows else old.state
        old.events.extend(added)
        return _snapshot(row, stored.seats, state, old.events, (*old.record, *map(_entry, rows)))

    def recover(self) -> list[str]:
        """After a restart, load the games in progress where a bot may have to answer a person
        and tell the listeners about each. Every other table is loaded on its first access
        (a table of bots only plays once someone watches it), so thousands of stored tables
        do not slow the start or fill the memory."""
        ids = self.db.tables_with_bots_and_people([PLAYING])
        for tid in ids:
            self.table(tid)
        for tid in ids:
            self._notify(tid)
        return ids

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token acts for at this table (None for no token: a spectator).

        401 for an unknown token, 403 for a token of another table.
        """
        table = self.table(table_id)
        if token is None:
            return None
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            raise ServiceError("this seat token is not valid", 401)
        row = self.db.seat_by_token_hash(hash_token(token))
        if row is None:
            raise ServiceError("this seat token is not valid", 401)
        if row.table_id != table.id:
            raise ServiceError("this seat token belongs to another table", 403)
        return row.seat

    # ----------------------------------------------------------------------------- tables
    def create_table(
        self,
        seats: Sequence[SeatSpec],
        modules: Sequence[str] = (),
        name: str | None = None,
        public: bool = False,
        options: tuple[tuple[str, str, bool | int | str], ...] = (),
        creator_token: str | None = None,
        game: str = "alhambra",
        *,
        table_id: str | None = None,
        rematch_of: str | None = None,
        token_hashes: Mapping[int, str] | None = None,
    ) -> tuple[Table, dict[int, str]]:
        """Deal a new game of ``game`` (a ruleset id: alhambra, granada); returns the table and the secret token of every person seat.
        ``creator_token`` (only its hash is stored) may delete the table before it starts.

        For a rematch (:mod:`alhambra.server.rematch`): the new table's ``table_id``, the finished
        table it is the ``rematch_of`` (:class:`~alhambra.server.db.RematchTaken` when that table
        has a rematch already: nothing is created) and the ``token_hashes`` of person seats
        whose tokens the players derive themselves (no token is returned for those seats)."""
        if not 2 <= len(seats) <= 6:
            raise ServiceError("a table has 2 to 6 seats", 422)
        try:
            mods = tuple(modules)
            for m in mods:
                load_module(m)
            config = GameConfig(players=len(seats), modules=mods, options=options, game=game)
            build_components(config)  # refuses a module that does not declare the game
            check_options(config)
            for mod in modules_of(config):
                mod.check_config(config)
        except ConfigError as e:
            raise ServiceError(str(e), 422) from None
        infos: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        open_seats = False
        rows: list[SeatRow] = []
        table_id = table_id or secrets.token_hex(8)
        derived = dict(token_hashes or {})
        # unnamed bots of one level are told apart by a number ("Beginner bot 1", "Beginner bot 2")
        unnamed = Counter(spec.bot or "greedy" for spec in seats if spec.kind == BOT and not clean_name(spec.name))
        numbered: Counter[str] = Counter()
        for i, spec in enumerate(seats):
            nm = clean_name(spec.name)
            if spec.kind == PERSON and spec.open:
                if not public:
                    raise ServiceError(f"seat {i + 1}: only a public table has seats open for strangers", 422)
                if spec.bot is not None:
                    raise ServiceError(f"seat {i + 1} is a person and cannot have a bot level", 422)
                open_seats = True
                rows.append(SeatRow(table_id=table_id, seat=i, kind=PERSON, bot=None, name=nm, token_hash=None, joined=False))
                infos.append(SeatInfo(i, PERSON, None, nm, False, True))
            elif spec.kind == PERSON:
                if spec.bot is not None:
                    raise ServiceError(f"seat {i + 1} is a person and cannot have a bot level", 422)
                if i in derived:
                    token_hash = derived[i]
                else:
                    token = secrets.token_urlsafe(24)
                    tokens[i] = token
                    token_hash = hash_token(token)
                rows.append(SeatRow(table_id=table_id, seat=i, kind=PERSON, bot=None, name=nm, token_hash=token_hash, joined=False))
                infos.append(SeatInfo(i, PERSON, None, nm, False))
            elif spec.kind == BOT:
                level = spec.bot or "greedy"
                if level not in BOT_LEVELS:
                    raise ServiceError(f"unknown bot level {level!r} for seat {i + 1} (choose from {', '.join(BOT_LEVELS)})", 422)
                if not nm:
                    numbered[level] += 1
                    nm = f"{BOT_LEVELS[level][0]} bot" + (f" {numbered[level]}" if unnamed[level] > 1 else "")
                rows.append(SeatRow(table_id=table_id, seat=i, kind=BOT, bot=level, name=nm, token_hash=None, joined=True))
                infos.append(SeatInfo(i, BOT, level, nm, True))
            else:
                raise ServiceError(f"seat {i + 1}: kind must be 'person' or 'bot'", 422)
        seed = secrets.randbits(62)
        state, events = new_game(config, seed)
        status = PLAYING if not tokens and not derived and not open_seats else WAITING
        row = TableRow(
            id=table_id,
            name=clean_name(name),
            public=bool(public),
            status=status,
            config_json=json.dumps(config.to_dict()),
            seed=seed,
            version=0,
            snapshot_json=json.dumps(state_to_json(state), separators=(",", ":")),
            start_events_json=json.dumps([e.to_dict() for e in events], separators=(",", ":")),
            creator_token_hash=hash_token(creator_token) if creator_token else None,
            rematch_of=rematch_of,
        )
        self.db.insert_table(row, rows)
        snap = Snapshot(0, state, list(events), len(events), 0, (), status, tuple(infos))
        table = Table(row, config, snap)
        with self._lock:
            self.tables[table_id] = table
        log.info("table %s created: %d seats, modules %s", table_id, len(seats), ",".join(mods) or "none")
        self._notify(table_id)
        return table, tokens

    def join(self, table_id: str, token: str | None, name: str | None) -> tuple[int, str | None]:
        """Take a seat: with a token, the seat of that token (a name may be set); without one,
        the first free person seat of a public table, which gets a fresh token (returned)."""
        table = self.table(table_id)
        nm = clean_name(name)
        new_token: str | None = None
        with table.lock:
            if table.gone:
                raise _not_found(table_id)
            snap = table.snap
            values: dict[str, Any] = {"joined": True}
            if nm is not None:
                values["name"] = nm
            if token is not None:
                seat = self.seat_of(table_id, token)
                assert seat is not None
                if nm is not None and nm != snap.seats[seat].name and snap.status == FINISHED:
                    raise ServiceError("the game is over: the names stay as they were played", 409)
                self.db.update_seat(table_id, seat, **values)
            else:
                if not table.public:
                    raise ServiceError("this table is private: join it through your invitation link", 403)
                new_token = secrets.token_urlsafe(24)
                values["token_hash"] = hash_token(new_token)
                free = [s.seat for s in snap.seats if s.kind == PERSON and s.open and not s.joined]
                # the first of them still open in the database (another process may have given some away)
                got = next((s for s in free if self.db.update_seat(table_id, s, only_open=True, **values)), None)
                if got is None:
                    raise ServiceError("no seat at this table is open for strangers any more", 409)
                seat = got
            info = snap.seats[seat]
            seats = list(snap.seats)
            seats[seat] = SeatInfo(seat, info.kind, info.bot, nm if nm is not None else info.name, True)
            status = snap.status
            if status == WAITING and self.db.start_if_all_joined(table_id):
                status = PLAYING  # the last seat joined (perhaps the others through other processes)
            if self.db.shared:  # other processes may have seated people meanwhile: the stored seats count
                seats = [_seat_info(r) for r in self.db.seats(table_id)]
            # same game state, so the views may be kept; the messages cached for clients name the
            # seats and the status, which just changed (a stale one would keep a page at "join")
            cache = {k: v for k, v in snap.cache.items() if not (isinstance(k, tuple) and k[:1] == ("json",))}
            table.snap = Snapshot(
                snap.version, snap.state, snap.events, snap.n_events, snap.epoch, snap.record, status, tuple(seats), cache
            )
        log.info("table %s: seat %d joined", table_id, seat)
        self._notify(table_id)
        return seat, new_token

    def list_tables(self, which: str = "open", limit: int = 50) -> list[dict[str, Any]]:
        """Public tables: ``open`` (a seat is open for strangers), ``playing`` or ``finished``."""
        statuses = {"open": [WAITING], "playing": [PLAYING], "finished": [FINISHED]}.get(which)
        if statuses is None:
            raise ServiceError("list 'open', 'playing' or 'finished' tables", 422)
        out = []
        for row in self.db.recent_tables(statuses, True, limit):
            try:
                table = self.table(row.id)
                if which == "open" and not any(seat.open for seat in table.snap.seats):
                    continue  # waiting only for the people the creator invited
                out.append(table.info())
            except (ServiceError, AlhambraError):  # pragma: no cover - a corrupt row is skipped, not fatal
                log.exception("cannot load table %s", row.id)
        return out

    def delete_table(self, table_id: str, creator_token: str | None) -> None:
        """Delete a table that has not started, for its creator: 401 without the creator's token,
        403 with another token, 409 once the game has started. Watchers are told (gone listeners)."""
        table = self.table(table_id)
        if creator_token is None:
            raise ServiceError("deleting a table needs its creator token (Authorization: Bearer <creator_token>)", 401)
        if table.creator_hash is None or not secrets.compare_digest(hash_token(creator_token), table.creator_hash):
            raise ServiceError("only the table's creator may delete it (this is not its creator token)", 403)
        with table.lock:
            if table.snap.status != WAITING:
                raise ServiceError("the game has started: the table can no longer be deleted", 409)
            if not self.db.delete_table(table_id, only_status=WAITING):
                raise ServiceError("the game has started: the table can no longer be deleted", 409)
            table.gone = True
        self._forget(table_id)
        log.info("table %s deleted by its creator", table_id)

    def _forget(self, table_id: str, local: bool = True) -> None:
        with self._lock:
            self.tables.pop(table_id, None)
        if local:
            self._tell_local(table_id, "gone")
        for fn in list(self.gone_listeners):
            try:
                fn(table_id)
            except Exception:
                log.exception("gone listener failed for table %s", table_id)

    def evict_idle(self, idle_seconds: float, keep: Callable[[str], bool] = lambda _tid: False) -> list[str]:
        """Drop from memory the tables not looked up for ``idle_seconds`` (they stay in the
        database and are loaded again on the next access), except those ``keep`` names."""
        cutoff = time.monotonic() - idle_seconds
        with self._lock:
            old = [tid for tid, t in self.tables.items() if t.last_used <= cutoff]
        gone: list[str] = []
        for tid in old:
            if keep(tid):
                continue
            with self._lock:
                t = self.tables.get(tid)
                if t is not None and t.last_used <= cutoff:
                    del self.tables[tid]
                    gone.append(tid)
        if gone:
            log.info("evicted %d idle tables from memory", len(gone))
        return gone

    def expire_abandoned(self, waiting_seconds: float, idle_seconds: float) -> list[str]:
        """Delete the tables never started within ``waiting_seconds`` of their creation and the
        unfinished tables unchanged for ``idle_seconds`` (watchers are told, as for a deletion)."""
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        waiting_cut, idle_cut = now - dt.timedelta(seconds=waiting_seconds), now - dt.timedelta(seconds=idle_seconds)
        done: list[str] = []
        for tid in self.db.abandoned_tables(waiting_cut, idle_cut):
            table = self.tables.get(tid)
            with table.lock if table is not None else contextlib.nullcontext():
                row = self.db.table(tid)  # again, under the table's lock: no move can come in between
                if row is None or row.status == FINISHED:  # pragma: no cover - gone or finished meanwhile
                    continue
                if not ((row.status == WAITING and row.created_at < waiting_cut) or row.updated_at < idle_cut):
                    continue  # pragma: no cover - it moved on meanwhile
                if not self.db.delete_table(tid, only_status=row.status):  # pragma: no cover - idem
                    continue
                if table is not None:
                    table.gone = True
            self._forget(tid)
            done.append(tid)
        if done:
            log.info("expired %d abandoned tables", len(done))
        return done

    # ----------------------------------------------------------------------------- play
    def submit(self, table_id: str, seat: int, text: str, version: int) -> Snapshot:
        """Apply ``seat``'s action (notation) chosen on ``version``; store it, then tell the listeners."""
        table = self.table(table_id)
        if not isinstance(text, str) or len(text) > 200:
            raise ServiceError("an action is a line of notation of at most 200 characters", 422)
        try:
            action: Action = parse_action(text)
        except NotationError as e:
            raise ServiceError(f"cannot read the action: {e}", 422) from None
        with table.lock:
            if table.gone:
                raise _not_found(table_id)
            snap = table.snap
            self._check_playing(snap, version)
            try:
                state, events = apply(snap.state, action, seat=seat)
            except (NotYourTurn, GameOver) as e:
                raise ServiceError(e.reason, 409) from None
            except IllegalAction as e:
                raise ServiceError(e.reason, 422) from None
            final = is_final(snap.state, state, events)
            status = FINISHED if state.is_over else PLAYING
            entry = Entry(len(snap.record), snap.version + 1, seat, snap.state.turn, str(action), final)
            self._store(table, snap, entry, state, events, status)
            # a newer snapshot always extends the newest list; copy only if that ever fails
            log_list = snap.events if snap.n_events == len(snap.events) else snap.events[: snap.n_events]
            log_list.extend(events)
            new = Snapshot(entry.version, state, log_list, len(log_list), snap.epoch, (*snap.record, entry), status, snap.seats)
            table.snap = new
        log.info("table %s v%d: seat %d plays %s", table_id, new.version, seat, entry.notation)
        self._notify(table_id)
        return new

    def _check_playing(self, snap: Snapshot, version: int) -> None:
        if snap.status == WAITING:
            raise ServiceError("the game starts when every player has joined", 409)
        if snap.status == FINISHED:
            raise ServiceError("the game is over", 409)
        if version != snap.version:
            raise ServiceError(f"stale version {version}: the table is at version {snap.version}; fetch the view again", 409)

    def _store(self, table: Table, snap: Snapshot, entry: Entry, state: GameState, events: list[Event], status: str) -> None:
        new_action = NewAction(entry.seq, entry.version, entry.seat, entry.turn, entry.notation, [e.to_dict() for e in events], entry.final)
        try:
            self.db.append_action(table.id, snap.version, new_action, state_to_json(state), status)
        except Conflict:
            self._drop_stale(table)
            raise ServiceError("the table changed meanwhile; fetch the view again", 409) from None

    def _drop_stale(self, table: Table) -> None:
        """The database moved past this in-memory table (another process, or another copy of it
        loaded after an eviction, wrote first): bring it up to date in place, so its watchers
        get the stored state."""
        if self.tables.get(table.id) is table:
            self._reload(table)

    def refresh(self, table_id: str, gone: bool = False) -> None:
        """Another process changed (or deleted: ``gone``) this table: if it is in memory here, load
        what was stored and tell the listeners (not the local ones: the change is not ours)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        if gone:
            with table.lock:
                table.gone = True
            self._forget(table_id, local=False)
            return
        self._reload(table)

    def sync_stale(self) -> list[str]:
        """Reload the tables in memory that the database has moved past (a change whose message
        never came: its process was killed between the commit and the message), or deleted;
        returns them.

        Seats count as much as moves: a join (a seat taken, a name set, an open seat given to a
        stranger) changes neither the version nor the status, so the stored seats and rematch are
        compared too; otherwise this process would keep showing a seat as open or unnamed, and
        keep offering it, until the next move."""
        mine = {tid: (t.snap, t.rematch) for tid, t in list(self.tables.items())}
        if not mine:
            return []
        facts = self.db.facts(list(mine))
        stale = [tid for tid in mine if tid not in facts]  # deleted: _reload finds it gone
        for tid, got in facts.items():
            snap, rematch = mine[tid]
            stored = (got.version, got.epoch, got.status, tuple(_seat_info(s) for s in got.seats), got.rematch)
            if stored != (snap.version, snap.epoch, snap.status, snap.seats, rematch):
                stale.append(tid)
        for tid in stale:
            table = self.tables.get(tid)
            if table is not None:
                self._reload(table)
        return stale

    def _reload(self, table: Table) -> None:
        """Bring ``table.snap`` up to the stored state. When the stored game only went on, only the
        actions after this version are read and their events appended (:meth:`_read_after`), so
        clients keep getting updates, not whole logs; otherwise (an undo, a gap) it is read whole."""
        with table.lock:
            if table.gone:
                return
            old = table.snap
            stored = self.db.stored_after(table.id, old.version)  # one transaction
            if stored is None:  # deleted meanwhile
                table.gone = True
            else:
                if stored.row.version < old.version:
                    return  # a late message: this process is ahead already
                new = self._read_after(table, stored) or self._read_whole(stored.row, stored.seats)
                if (new.version, new.status, new.seats, new.epoch, stored.rematch) == (
                    old.version,
                    old.status,
                    old.seats,
                    old.epoch,
                    table.rematch,
                ):
                    return
                table.snap = new
                table.hints = bool(stored.row.hints)
                table.rematch = stored.rematch
        if stored is None:
            self._forget(table.id, local=False)
        else:
            self._notify(table.id, local=False)

    def undo(self, table_id: str, seat: int, version: int) -> Snapshot:
        """Take back ``seat``'s last action of its current turn (only while nothing was revealed)."""
        table = self.table(table_id)
        with table.lock:
            if table.gone:
                raise _not_found(table_id)
            snap = table.snap
            self._check_playing(snap, version)
            problem = undo_problem(snap, seat)
            if problem is not None:
                raise ServiceError(problem, 409)
            record = snap.record[:-1]
            state, events = new_game(table.config, table.seed)
            for e in record:
                state, evs = apply(state, parse_action(e.notation))
                events.extend(evs)
            new_version = snap.version + 1
            try:
                self.db.undo_actions(table.id, snap.version, new_version, [snap.record[-1].version], state_to_json(state))
            except Conflict:
                self._drop_stale(table)
                raise ServiceError("the table changed meanwhile; fetch the view again", 409) from None
            new = Snapshot(new_version, state, events, len(events), snap.epoch + 1, record, PLAYING, snap.seats)
            table.snap = new
        log.info("table %s v%d: seat %d takes back a move", table_id, new_version, seat)
        self._notify(table_id)
        return new

    def record(self, table_id: str) -> dict[str, Any]:
        """The game record (configuration, seed, actions) of a finished game; 409 before the end."""
        table = self.table(table_id)
        snap = table.snap
        if snap.status != FINISHED:
            raise ServiceError("the game record can be downloaded once the game is over", 409)
        rec = GameRecord(table.config, table.seed, [parse_action(e.notation) for e in snap.record])
        return rec.to_json()

    # ----------------------------------------------------------------------------- bots
    def bot_to_move(self, table_id: str) -> tuple[int, int] | None:
        """``(seat, version)`` when a bot must move at this table now, else None."""
        table = self.table(table_id)
        snap = table.snap
        seat = snap.state.to_act
        if snap.status != PLAYING or seat is None or snap.seats[seat].kind != BOT:
            return None
        return seat, snap.version

    def bot_request(self, table_id: str, version: int) -> BotRequest | None:
        """What the bot to act at ``version`` may know (None when no bot is to act then): its
        seat's :class:`Observation` (``view`` and the public events as that seat sees them) and
        nothing else, so it can be sent to another process."""
        table = self.table(table_id)
        snap = table.snap
        seat = snap.state.to_act
        if snap.version != version or snap.status != PLAYING or seat is None or snap.seats[seat].kind != BOT:
            return None
        obs = Observation(seat, view(snap.state, seat), tuple(table.events_for(snap, seat)))
        return BotRequest(table_id, version, seat, snap.seats[seat].bot or "greedy", obs, all(s.kind == BOT for s in snap.seats))

    def bot_choose(self, req: BotRequest) -> str | None:
        """Choose in this process with the table's own bot object (cheap bots); None if it failed."""
        table = self.table(req.table_id)
        bot = table.bots.get(req.seat)
        if bot is None:
            bot = table.bots[req.seat] = make_bot(req.spec)
        try:
            return str(bot.choose(req.obs, bot.budget, table.bot_rng))
        except Exception:
            log.exception("table %s: the bot of seat %d failed", req.table_id, req.seat)
            return None

    def bot_answer(self, req: BotRequest, choice: str | None) -> bool:
        """Play ``choice`` for the bot of ``req`` at the version it was computed for; a missing or
        illegal choice becomes a random legal move (logged). False when the table moved on
        meanwhile (a stale answer is dropped)."""
        legal = req.obs.legal
        if not legal:
            return False
        if choice not in legal:
            log.warning("table %s: the bot of seat %d gave no legal move (%s); it plays a random one", req.table_id, req.seat, choice)
            rng = self.table(req.table_id).bot_rng
            choice = legal[int(rng.random() * len(legal))]
        try:
            self.submit(req.table_id, req.seat, choice, req.version)
        except ServiceError as e:
            if e.status not in (404, 409):
                raise
            return False  # someone else changed (or deleted) the table first; the listeners reschedule
        return True

    def bot_move(self, table_id: str, version: int) -> bool:
        """Let the bot to act at ``version`` choose here and play (False when nothing was to do)."""
        req = self.bot_request(table_id, version)
        if req is None:
            return False
        return self.bot_answer(req, self.bot_choose(req))


@dataclass(frozen=True, slots=True)
class BotRequest:
    """A bot decision to make: where, at which version, which bot, and what its seat may see."""

    table_id: str
    version: int
    seat: int
    spec: str
    obs: Observation
    all_bots: bool
    """Every seat of the table is a bot (such tables play only while watched)."""


def _snapshot(row: TableRow, seats: Sequence[SeatRow], state: GameState, events: list[Event], record: tuple[Entry, ...]) -> Snapshot:
    """The snapshot of the stored ``row`` and ``seats`` with this state, log and record."""
    infos = tuple(_seat_info(s) for s in seats)
    return Snapshot(row.version, state, events, len(events), row.epoch or 0, record, row.status, infos)


def _entry(row: ActionRow) -> Entry:
    return Entry(row.seq, row.version, row.seat, row.turn, row.notation, row.final)


def _events_of(row: ActionRow) -> list[Event]:
    return [event_from_dict(d) for d in json.loads(row.events_json)]


def _seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.kind, row.bot, row.name, bool(row.joined), row.kind == PERSON and row.token_hash is None)
