"""A server process catches up with what another process stored (``TableService.refresh``, as
the Redis subscriber calls it): moves are read incrementally onto the log it holds, an undo or a
deletion is read whole, and nothing is announced twice or to the other processes again.
Two services over one SQLite file stand for two processes (no Redis needed)."""

from __future__ import annotations

from pathlib import Path

from alhambra import legal_actions
from alhambra.serialize import state_to_json
from alhambra.server.db import Database
from alhambra.server.service import SeatSpec, TableService, final_actions, message


def _pair(tmp_path: Path) -> tuple[TableService, TableService]:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    return TableService(Database(url)), TableService(Database(url))


def test_moves_stored_elsewhere_are_read_onto_the_log_this_process_holds(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    table, tokens = a.create_table([SeatSpec("person"), SeatSpec("person")])
    for tok in tokens.values():
        a.join(table.id, tok, None)
    tid = table.id
    mine = b.table(tid)
    told: list[str] = []
    published: list[tuple[str, str]] = []
    b.listeners.append(told.append)
    b.local_listeners.append(lambda t, k: published.append((t, k)))
    held, start = mine.snap.events, mine.snap.n_events
    seen = message(mine, mine.snap, 0)
    for _ in range(3):  # turn-ending moves through A
        snap = a.tables[tid].snap
        a.submit(tid, snap.state.to_act, final_actions(snap.state)[0], snap.version)
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


def test_an_undo_stored_elsewhere_is_read_whole_with_its_new_epoch(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    table, tokens = a.create_table([SeatSpec("person"), SeatSpec("person")])
    for tok in tokens.values():
        a.join(table.id, tok, None)
    tid = table.id
    for _ in range(20):  # turn-ending moves until the player to act has one that can be taken back
        snap = a.tables[tid].snap
        finals = final_actions(snap.state)
        undoable = [m.notation() for m in legal_actions(snap.state) if m.notation() not in finals]
        if undoable:
            break
        a.submit(tid, snap.state.to_act, finals[0], snap.version)
    else:
        raise AssertionError("no move that can be taken back came up")
    seat = snap.state.to_act
    a.submit(tid, seat, undoable[0], snap.version)
    mine = b.table(tid)
    held = mine.snap.events
    a.undo(tid, seat, snap.version + 1)
    b.refresh(tid)
    theirs, got = a.tables[tid].snap, mine.snap
    assert (got.version, got.epoch) == (theirs.version, 1) and got.record == theirs.record
    assert got.events is not held and got.events[: got.n_events] == theirs.events[: theirs.n_events]
    assert state_to_json(got.state) == state_to_json(theirs.state)


def test_a_table_deleted_elsewhere_is_gone_here(tmp_path: Path) -> None:
    a, b = _pair(tmp_path)
    table, _ = a.create_table([SeatSpec("person"), SeatSpec("bot", "random")], creator_token="creator-token-1234")
    mine = b.table(table.id)
    gone: list[str] = []
    b.gone_listeners.append(gone.append)
    a.delete_table(table.id, "creator-token-1234")
    b.refresh(table.id)  # the message said "changed"; the database says it is no more
    assert mine.gone and gone == [table.id] and table.id not in b.tables
