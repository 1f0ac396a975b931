"""A server process catches up with what another process stored (``TableService.refresh``, as
the Redis subscriber calls it): moves are read incrementally onto the log it holds, an undo or a
deletion is read whole, and nothing is announced twice or to the other processes again.
Two services over one database (a SQLite file, and PostgreSQL) stand for two processes; no Redis
is needed, as the tests call ``refresh`` where the subscriber would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from alhambra import legal_actions
from alhambra.serialize import state_to_json
from alhambra.server.db import Database, TableRow
from alhambra.server.rematch import rematch
from alhambra.server.service import SeatInfo, SeatSpec, ServiceError, Snapshot, TableService, final_actions, message
from alhambra.view import view


def _to_act(snap: Snapshot) -> int:
    seat = snap.state.to_act
    assert seat is not None
    return seat


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database for both services (and for every test here: each makes its own tables): a
    SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('refresh') / 'shared.sqlite3'}"
    else:
        from .scale_helpers import fresh_pg

        with fresh_pg() as pg:
            yield pg


@pytest.fixture
def pair(url: str) -> Iterator[tuple[TableService, TableService]]:
    """Two services (two processes) over one database."""
    a, b = TableService(Database(url)), TableService(Database(url))
    yield a, b
    a.db.close()
    b.db.close()


def _started(svc: TableService) -> str:
    """A two-person table whose game has started (both joined)."""
    table, tokens = svc.create_table([SeatSpec("person"), SeatSpec("person")])
    for tok in tokens.values():
        svc.join(table.id, tok, None)
    return table.id


def test_moves_stored_elsewhere_are_read_onto_the_log_this_process_holds(pair: tuple[TableService, TableService]) -> None:
    a, b = pair
    tid = _started(a)
    mine = b.table(tid)
    told: list[str] = []
    published: list[tuple[str, str]] = []
    b.listeners.append(told.append)
    b.local_listeners.append(lambda t, k: published.append((t, k)))
    held, start = mine.snap.events, mine.snap.n_events
    seen = message(mine, mine.snap, 0)
    for _ in range(3):  # turn-ending moves through A
        snap = a.tables[tid].snap
        a.submit(tid, _to_act(snap), final_actions(snap.state)[0], snap.version)
    b.refresh(tid)
    theirs, got = a.tables[tid].snap, mine.snap
    assert (got.version, got.epoch, got.status) == (3, 0, "playing") and got.record == theirs.record
    assert got.events is held and got.n_events == theirs.n_events > start  # the same list, extended
    assert got.events[: got.n_events] == theirs.events[: theirs.n_events]
    assert state_to_json(got.state) == state_to_json(theirs.state)
    assert told == [tid] and published == []  # B's watchers hear it; the other processes are not told again
    update = message(mine, got, 0, (seen["epoch"], len(seen["events"])))
    assert update["type"] == "update" and update["event_start"] == len(seen["events"])
    assert seen["events"] + update["events"] == message(mine, got, 0)["events"]
    b.refresh(tid)  # a late or repeated message changes nothing and tells nobody
    assert mine.snap is got and told == [tid]


def test_an_undo_stored_elsewhere_is_read_whole_with_its_new_epoch(pair: tuple[TableService, TableService]) -> None:
    a, b = pair
    tid = _started(a)
    for _ in range(20):  # turn-ending moves until the player to act has one that can be taken back
        snap = a.tables[tid].snap
        finals = final_actions(snap.state)
        undoable = [m.notation() for m in legal_actions(snap.state) if m.notation() not in finals]
        if undoable:
            break
        a.submit(tid, _to_act(snap), finals[0], snap.version)
    else:
        raise AssertionError("no move that can be taken back came up")
    seat = _to_act(snap)
    a.submit(tid, seat, undoable[0], snap.version)
    mine = b.table(tid)
    held = mine.snap.events
    a.undo(tid, seat, snap.version + 1)
    b.refresh(tid)
    theirs, got = a.tables[tid].snap, mine.snap
    assert (got.version, got.epoch) == (theirs.version, 1) and got.record == theirs.record
    assert got.events is not held and got.events[: got.n_events] == theirs.events[: theirs.n_events]
    assert state_to_json(got.state) == state_to_json(theirs.state)


def test_a_table_deleted_elsewhere_is_gone_here(pair: tuple[TableService, TableService]) -> None:
    a, b = pair
    table, _ = a.create_table([SeatSpec("person"), SeatSpec("bot", "random")], creator_token="creator-token-1234")
    mine = b.table(table.id)
    gone: list[str] = []
    b.gone_listeners.append(gone.append)
    a.delete_table(table.id, "creator-token-1234")
    b.refresh(table.id)  # the message said "changed"; the database says it is no more
    assert mine.gone and gone == [table.id] and table.id not in b.tables


def _finished(a: TableService, b: TableService) -> tuple[str, list[str]]:
    """A two-person table both processes hold as finished (the game itself does not matter here)."""
    table, tokens = a.create_table([SeatSpec("person", name="Ann"), SeatSpec("person", name="Bo")])
    for tok in tokens.values():
        a.join(table.id, tok, None)
    a.db.set_status(table.id, "finished")
    for svc in (a, b):
        svc.table(table.id)
        svc.refresh(table.id)
        assert svc.tables[table.id].snap.status == "finished"
    return table.id, [tokens[0], tokens[1]]


def _table_ids(svc: TableService) -> set[str]:
    with svc.db.session() as s:
        return set(s.scalars(select(TableRow.id)))


def _rematches(svc: TableService, tid: str) -> list[str]:
    with svc.db.session() as s:
        return list(s.scalars(select(TableRow.id).where(TableRow.rematch_of == tid)))


def test_a_rematch_asked_for_through_two_processes_is_one_table(pair: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = pair
    # B asks after A made it, before A's message came: B finds it in the database and tells its watchers
    tid, tokens = _finished(a, b)
    told: list[str] = []
    b.listeners.append(told.append)
    made, _, _ = rematch(a, tid, tokens[0])
    got, seat, _ = rematch(b, tid, tokens[1])
    assert got.id == made.id and seat == 1 and b.tables[tid].rematch == made.id and tid in told
    assert _rematches(a, tid) == [made.id] and a.db.table(made.id).status == "playing"  # both joined it
    # both ask at the same moment (neither sees the other's yet): the one stored first counts, the other's insert fails
    tid, tokens = _finished(a, b)
    first, _, _ = rematch(a, tid, tokens[0])
    real_rematch_id = b.db.rematch_id
    asked: list[str] = []

    def not_yet(of: str) -> str | None:  # B's first look misses A's rematch; later looks find it
        asked.append(of)
        return None if len(asked) == 1 else real_rematch_id(of)

    monkeypatch.setattr(b.db, "rematch_id", not_yet)
    stored, held = _table_ids(a), set(b.tables)
    got, _, _ = rematch(b, tid, tokens[1])
    monkeypatch.undo()
    assert got.id == first.id and _rematches(a, tid) == [first.id]
    assert _table_ids(a) == stored and set(b.tables) - held == {first.id}  # the table B made and lost is gone


def test_strangers_joining_through_two_processes_never_share_a_seat(pair: tuple[TableService, TableService]) -> None:
    a, b = pair
    for svc in (a, b):
        svc.db.shared = True  # as Coordinator.attach sets it
    open_seat = SeatSpec("person", open=True)
    table, _ = a.create_table([open_seat, open_seat, SeatSpec("bot", "random")], public=True)
    tid = table.id
    b.table(tid)  # B holds the table with both seats open, and hears of nothing below
    seat_a, token_a = a.join(tid, None, "Ann")
    seat_b, token_b = b.join(tid, None, "Bo")  # B's memory still says seat 0 is open: the database says not
    assert (seat_a, seat_b) == (0, 1) and token_a and token_b
    assert a.seat_of(tid, token_a) == 0 and b.seat_of(tid, token_b) == 1  # Ann kept her seat
    assert [s.name for s in b.tables[tid].snap.seats[:2]] == ["Ann", "Bo"] and b.tables[tid].snap.status == "playing"
    with pytest.raises(ServiceError) as refused:  # A's memory still says seat 1 is open
        a.join(tid, None, "Cy")
    assert refused.value.status == 409 and "no seat" in refused.value.message
    assert [r.name for r in a.db.seats(tid)[:2]] == ["Ann", "Bo"]


def test_the_periodic_sync_catches_up_with_seats_and_deletions_whose_message_never_came(pair: tuple[TableService, TableService]) -> None:
    """``sync_stale`` (every 2 s with Redis) for a process killed between its commit and its
    message: a stranger taking an open seat changes neither the version nor the status, yet the
    other process must stop offering that seat and show who sits there; each seat then gets its
    own view; a deletion is caught up too. Nothing is announced twice."""
    a, b = pair
    for svc in (a, b):
        svc.db.shared = True
    table, tokens = a.create_table([SeatSpec("person", open=True), SeatSpec("person", name="Bo")], public=True, creator_token="c" * 24)
    tid = table.id
    b.table(tid)
    told: list[str] = []
    b.listeners.append(told.append)
    assert b.sync_stale() == [] and told == []
    assert a.join(tid, None, "Ann")[0] == 0  # stored by A; its message never comes
    assert b.tables[tid].snap.seats[0].open and [t["id"] for t in b.list_tables("open")] == [tid]  # B is behind
    assert b.sync_stale() == [tid] and told == [tid]
    snap = b.tables[tid].snap
    assert (snap.version, snap.status) == (0, "waiting") and snap.seats[0] == SeatInfo(0, "person", None, "Ann", True, False)
    assert message(b.tables[tid], snap, None)["table"]["seats"][0]["name"] == "Ann" and b.list_tables("open") == []
    assert b.sync_stale() == [] and told == [tid]
    a.join(tid, tokens[1], "Bob")  # the last seat: the game starts (through A again, unannounced)
    assert b.sync_stale() == [tid] and b.tables[tid].snap.status == "playing"
    state = a.tables[tid].snap.state
    for seat in (0, 1):  # every seat gets its own view from B, never the other's
        got = message(b.tables[tid], b.tables[tid].snap, seat)
        assert got["seat"] == seat and got["view"] == view(state, seat) and got["view"] != view(state, 1 - seat)
    assert [s["name"] for s in got["table"]["seats"]] == ["Ann", "Bob"]
    gone, _ = a.create_table([SeatSpec("person"), SeatSpec("person")], creator_token="d" * 24)
    b.table(gone.id)
    a.delete_table(gone.id, "d" * 24)
    assert b.sync_stale() == [gone.id] and gone.id not in b.tables
