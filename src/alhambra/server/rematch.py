"""Rematch: "Play again" on the end screen, with the same seats, bots and game.

A player of a finished table asks with their seat token (``POST /api/tables/{id}/rematch``).
The first one creates the new table: the same game, modules and variants, the same names in
the same seats, the same bot levels, a fresh deal. Every later request (any player of the old
table) gets the same new table. Each player's new seat token is derived from the hash of
their old one and the new table's id (:func:`rematch_token`): the server stores no token, and
only the holder of the old seat token can ask for the new one. The asker has joined the new
table at once; the others join when they press "Play again" (their end screen says a rematch
is waiting) and bots are seated from the start, so a game against bots starts at once.

One rematch per table, also with several server processes on one database: the new table is
stored with ``rematch_of`` (a unique column, revision 0004) in the transaction that creates it,
so of two processes asked at the same moment one stores its table and the other's insert fails
and hands out that table.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import secrets

from .db import RematchTaken
from .hints import allow_hints
from .service import BOT, FINISHED, PERSON, SeatSpec, ServiceError, Table, TableService, hash_token

__all__ = ["rematch", "rematch_token"]

log = logging.getLogger("alhambra.server")


def rematch_token(old_token_hash: str, new_table_id: str) -> str:
    """The seat token at the rematch ``new_table_id`` of the player whose old seat token has the
    hash ``old_token_hash`` (the hash never leaves the server, so nobody else can compute it)."""
    return hashlib.sha256(f"alhambra rematch|{new_table_id}|{old_token_hash}".encode()).hexdigest()[:40]


def rematch(service: TableService, table_id: str, token: str | None) -> tuple[Table, int, str]:
    """The rematch of finished table ``table_id`` for the player of ``token``: the new table,
    the player's seat at it (the same as before) and their new seat token; the player has
    joined it. 401 without a token, 409 while the game is still being played."""
    if token is None:
        raise ServiceError("only a player of this table can ask for a rematch: send your seat token", 401)
    seat = service.seat_of(table_id, token)
    assert seat is not None
    old = service.table(table_id)
    with old.lock:
        if old.snap.status != FINISHED:
            raise ServiceError("the game is not over yet: a rematch starts after it", 409)
        known = old.rematch
        if old.rematch is None:
            old.rematch = service.db.rematch_id(table_id)  # another process may have made it
        if old.rematch is None:
            rows = {r.seat: r for r in service.db.seats(table_id)}
            new_id = secrets.token_hex(8)
            hashes = {
                s.seat: hash_token(rematch_token(str(rows[s.seat].token_hash), new_id))
                for s in old.snap.seats
                if s.kind == PERSON and rows[s.seat].token_hash
            }
            specs = [SeatSpec(s.kind, s.bot if s.kind == BOT else None, s.name) for s in old.snap.seats]
            try:
                new, _tokens = service.create_table(
                    specs,
                    old.config.modules,
                    old.name,
                    old.public,
                    tuple(old.config.options),
                    None,
                    old.config.game,
                    table_id=new_id,
                    rematch_of=table_id,
                    token_hashes=hashes,
                )
            except RematchTaken:  # another server process made it a moment ago: that one it is
                old.rematch = service.db.rematch_id(table_id)
                log.info("table %s: rematch %s made by another process", table_id, old.rematch)
            else:
                if old.hints:
                    allow_hints(service, new)
                old.rematch = new.id
                log.info("table %s: rematch %s", table_id, new.id)
        assert old.rematch is not None
        if known is None:
            # a new snapshot object (same game, empty cache): the hub sends it to every open socket,
            # and no cached message still says "no rematch"
            old.snap = dataclasses.replace(old.snap, cache={})
            service.notify(table_id)
        new_id = old.rematch
    row = service.db.seats(table_id)[seat]
    new_token = rematch_token(str(row.token_hash), new_id)
    service.join(new_id, new_token, None)
    return service.table(new_id), seat, new_token
