"""Storage: SQLAlchemy 2 models and the few transactions the server needs.

Three tables, portable SQL only (SQLite by default, PostgreSQL through any SQLAlchemy URL):

* ``game_tables``: one row per table: configuration, seed, the current ``version`` and a
  snapshot of the full state (:func:`alhambra.serialize.state_to_json`) at that version;
* ``seats``: one row per seat: person or bot, optional name, the SHA-256 of the seat's secret
  token (the token itself is never stored);
* ``actions``: one row per accepted action with the version it created, the seat, the action
  in notation and the engine events it caused. Undone actions stay (``undone`` is set).

Every change to a game is one transaction that inserts or updates the action rows and moves the
table row from version ``v`` to ``v + 1`` with ``WHERE version = v`` (optimistic concurrency),
so two writers can never both win and a crash leaves either the old or the new version.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .schema import ActionRow, Base, SeatRow, TableRow, add_missing_columns, utc_now  # re-exported (__all__)

__all__ = [
    "ActionRow",
    "Base",
    "Conflict",
    "Database",
    "RematchTaken",
    "SeatRow",
    "Stored",
    "TableRow",
    "add_missing_columns",
    "default_database_url",
]


_TABLES: Table = TableRow.__table__  # type: ignore[assignment]
_ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]
_INSERT_ACTION = insert(_ACTIONS)
_MOVE_TABLE = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_old"))
    .values(version=bindparam("b_new"), snapshot_json=bindparam("b_snapshot"), status=bindparam("b_status"), updated_at=bindparam("b_at"))
)


class Conflict(Exception):
    """The table row was not at the expected version (another writer won)."""


class RematchTaken(Exception):
    """The finished table already has a rematch (another request or process made it first)."""


@dataclass(frozen=True, slots=True)
class NewAction:
    """What :meth:`Database.append_action` stores for one accepted action."""

    seq: int
    version: int
    seat: int
    turn: int
    notation: str
    events: list[dict[str, Any]]
    final: bool


@dataclass(frozen=True, slots=True)
class Facts:
    """What is stored of a table's progress and seats (:meth:`Database.facts`)."""

    version: int
    epoch: int
    status: str
    seats: list[SeatRow]
    rematch: str | None


@dataclass(frozen=True, slots=True)
class Stored:
    """A table as stored, for a process catching up (:meth:`Database.stored_after`)."""

    row: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]
    """The actions after the version the process holds (empty when it is not behind)."""
    rematch: str | None


def default_database_url() -> str:
    """The embedded default: a SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("alhambra", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'alhambra.sqlite3'}"


class Database:
    """The server's storage (thread-safe: one short session per call). Opening it migrates the
    schema to the newest revision (:mod:`.migrate`) unless ``migrate`` is False."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.shared = False
        """Other server processes write to this database too (set when Redis coordinates them)."""
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        if migrate:
            from .migrate import upgrade

            upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed on success, rolled back on any error."""
        with self._sessions() as s, s.begin():
            yield s

    # ----------------------------------------------------------------------------- writes
    def insert_table(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """Store a new table with its seats (one transaction). :class:`RematchTaken` when the
        table is a rematch (``rematch_of``) and that table has one already: nothing is stored."""
        try:
            with self.session() as s:
                s.add(table)
                s.flush()
                s.add_all(seats)
        except IntegrityError:
            if table.rematch_of is not None and self.rematch_id(table.rematch_of) is not None:
                raise RematchTaken(table.rematch_of) from None
            raise

    def append_action(self, table_id: str, old_version: int, action: NewAction, snapshot: dict[str, Any], status: str) -> None:
        """Store one accepted action and the new snapshot in one transaction (:class:`Conflict`
        when the table is no longer at ``old_version``). Prepared Core statements: the hot path."""
        with self.engine.begin() as conn:
            self._move(conn, table_id, old_version, action.version, snapshot, status)
            conn.execute(
                _INSERT_ACTION,
                {
                    "table_id": table_id,
                    "seq": action.seq,
                    "version": action.version,
                    "seat": action.seat,
                    "turn": action.turn,
                    "notation": action.notation,
                    "events_json": json.dumps(action.events, separators=(",", ":")),
                    "final": action.final,
                    "undone": False,
                    "created_at": utc_now(),
                },
            )

    def undo_actions(self, table_id: str, old_version: int, new_version: int, versions: Sequence[int], snapshot: dict[str, Any]) -> None:
        """Mark the actions that created ``versions`` as undone and store the snapshot (one transaction)."""
        with self.engine.begin() as conn:
            self._move(conn, table_id, old_version, new_version, snapshot, "playing")
            conn.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(epoch=_TABLES.c.epoch + 1))
            conn.execute(
                update(_ACTIONS)
                .where(_ACTIONS.c.table_id == table_id, _ACTIONS.c.version.in_(list(versions)))
                .values(undone=True, undone_version=new_version)
            )

    def _move(self, conn: Connection, table_id: str, old: int, new: int, snapshot: dict[str, Any], status: str) -> None:
        res = conn.execute(
            _MOVE_TABLE,
            {
                "b_id": table_id,
                "b_old": old,
                "b_new": new,
                "b_snapshot": json.dumps(snapshot, separators=(",", ":")),
                "b_status": status,
                "b_at": utc_now(),
            },
        )
        if res.rowcount != 1:
            raise Conflict(f"table {table_id} is not at version {old}")

    def delete_table(self, table_id: str, only_status: str | None = None) -> bool:
        """Delete a table with its seats and actions (only while its status is ``only_status``,
        when given); False when no such table (in that status) was there."""
        with self.session() as s:
            q = delete(TableRow).where(TableRow.id == table_id)
            if only_status is not None:
                q = q.where(TableRow.status == only_status)
            if s.execute(q).rowcount != 1:  # type: ignore[attr-defined]
                return False
            # the foreign keys cascade; deleting the rows explicitly too keeps a database without them clean
            s.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            return True

    def abandoned_tables(self, waiting_before: dt.datetime, idle_before: dt.datetime, limit: int = 500) -> list[str]:
        """Ids of tables never started and created before ``waiting_before``, and of unfinished
        tables last changed before ``idle_before`` (naive UTC times)."""
        with self.session() as s:
            waiting = select(TableRow.id).where(TableRow.status == "waiting", TableRow.created_at < waiting_before)
            idle = select(TableRow.id).where(TableRow.status.in_(["waiting", "playing"]), TableRow.updated_at < idle_before)
            return sorted(set(s.scalars(waiting.limit(limit))) | set(s.scalars(idle.limit(limit))))

    def start_if_all_joined(self, table_id: str) -> bool:
        """Waiting -> playing once every seat has joined, decided by the stored seats (so two
        people joining through two processes at once cannot both miss the start); True when
        the table is playing now."""
        with self.session() as s:
            missing = select(SeatRow.id).where(SeatRow.table_id == table_id, SeatRow.joined.is_(False)).exists()
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "waiting", ~missing)
                .values(status="playing", updated_at=utc_now())
            )
            return s.scalar(select(TableRow.status).where(TableRow.id == table_id)) == "playing"

    def set_status(self, table_id: str, status: str) -> None:
        """Change a table's status (waiting -> playing)."""
        with self.session() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status, updated_at=utc_now()))

    def update_seat(self, table_id: str, seat: int, only_open: bool = False, **values: Any) -> bool:
        """Change fields of one seat row (name, joined, token_hash); with ``only_open`` only while
        it is a person seat open for strangers (no token yet: another process may have given it
        to someone meanwhile). True when the row was changed."""
        with self.session() as s:
            q = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            if only_open:
                q = q.where(SeatRow.kind == "person", SeatRow.token_hash.is_(None))
            return bool(s.execute(q.values(**values)).rowcount == 1)  # type: ignore[attr-defined]

    # ----------------------------------------------------------------------------- reads
    def table(self, table_id: str) -> TableRow | None:
        """One table row, or None."""
        with self.session() as s:
            return s.get(TableRow, table_id)

    def rematch_id(self, table_id: str) -> str | None:
        """The id of the rematch of table ``table_id``, or None when nobody asked for one."""
        with self.session() as s:
            got = s.scalars(select(TableRow.id).where(TableRow.rematch_of == table_id).limit(1)).first()
            return str(got) if got is not None else None

    def seats(self, table_id: str) -> list[SeatRow]:
        """The seat rows of a table, by seat number."""
        with self.session() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))

    def seat_by_token_hash(self, token_hash: str) -> SeatRow | None:
        """The seat whose token has this hash, or None."""
        with self.session() as s:
            return s.scalars(select(SeatRow).where(SeatRow.token_hash == token_hash)).first()

    def actions(self, table_id: str) -> list[ActionRow]:
        """The actions of a table that are not undone, in game order."""
        with self.session() as s:
            rows = s.scalars(
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.undone.is_(False))
                .order_by(ActionRow.seq, ActionRow.version)
            )
            return list(rows)

    def facts(self, table_ids: Sequence[str], chunk: int = 500) -> dict[str, Facts]:
        """What a process compares with the tables it holds (:meth:`TableService.sync_stale`):
        version, epoch, status, seats and rematch of each of these tables still stored, read in
        one transaction per ``chunk`` tables."""
        ids = list(table_ids)
        out: dict[str, Facts] = {}
        for i in range(0, len(ids), chunk):
            part = ids[i : i + chunk]
            with self.session() as s:
                q = select(TableRow.id, TableRow.version, TableRow.epoch, TableRow.status).where(TableRow.id.in_(part))
                rows = list(s.execute(q))
                seats: dict[str, list[SeatRow]] = {}
                for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(part)).order_by(SeatRow.table_id, SeatRow.seat)):
                    seats.setdefault(seat.table_id, []).append(seat)
                rematches = {
                    str(of): str(tid)
                    for tid, of in s.execute(select(TableRow.id, TableRow.rematch_of).where(TableRow.rematch_of.in_(part)))
                }
            for tid, version, epoch, status in rows:
                out[tid] = Facts(version, epoch or 0, status, seats.get(tid, []), rematches.get(tid))
        return out

    def stored_after(self, table_id: str, version: int) -> Stored | None:
        """What is stored of a table for a process that holds it at ``version``, read in one
        transaction: its row, its seats, the actions (not undone) after that version, in order,
        and its rematch once finished. None when the table is no more."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            actions: list[ActionRow] = []
            if row.version > version:
                q = select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.undone.is_(False), ActionRow.version > version)
                actions = list(s.scalars(q.order_by(ActionRow.version)))
            seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))
            rematch = None
            if row.status == "finished":
                rematch = s.scalars(select(TableRow.id).where(TableRow.rematch_of == table_id).limit(1)).first()
            return Stored(row, seats, actions, None if rematch is None else str(rematch))

    def table_ids(self, statuses: Sequence[str]) -> list[str]:
        """Ids of the tables in any of these statuses (oldest first)."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status.in_(list(statuses))).order_by(TableRow.created_at)))

    def tables_with_bots_and_people(self, statuses: Sequence[str]) -> list[str]:
        """Ids of the tables in these statuses that have both a bot seat and a person seat (oldest first)."""
        bots = select(SeatRow.id).where(SeatRow.table_id == TableRow.id, SeatRow.kind == "bot").exists()
        people = select(SeatRow.id).where(SeatRow.table_id == TableRow.id, SeatRow.kind == "person").exists()
        with self.session() as s:
            q = select(TableRow.id).where(TableRow.status.in_(list(statuses)), bots, people).order_by(TableRow.created_at)
            return list(s.scalars(q))

    def recent_tables(self, statuses: Sequence[str], public_only: bool, limit: int) -> list[TableRow]:
        """The newest tables in these statuses."""
        with self.session() as s:
            q = select(TableRow).where(TableRow.status.in_(list(statuses)))
            if public_only:
                q = q.where(TableRow.public.is_(True))
            return list(s.scalars(q.order_by(TableRow.created_at.desc()).limit(limit)))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal: a commit is in the log file before it returns, so killing the server
    never loses it; ``synchronous=NORMAL`` keeps commits fast (only an OS crash or power loss
    could lose the newest commits)."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
