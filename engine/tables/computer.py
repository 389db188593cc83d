"""Computer seats at a table: whichever process holds the table's lease plays them, and the
seats of people the computer plays for now (left, out of time, away: `clock.pilot_reason`).

There is no daemon: any process that reads a table (a screen's poll, a `table` command,
`table wait`) calls `settle`, which plays what is due under the lease; the store's move-number
check makes a second, racing attempt fail, so a turn is played once."""

from __future__ import annotations

import random
import threading
import uuid
from typing import Any

from ..bots import make_bot
from ..core import Match
from .clock import pilot_reason
from .store import LEASE_SECONDS, Refused, StoreError, TableInfo, TableStore


def lease_owner() -> str:
    """A token naming this process as a lease holder."""
    return uuid.uuid4().hex[:12]


def computer_to_move(info: TableInfo, match: Match) -> bool:
    """A computer seat is to move, or the computer plays the person's seat to move now (at
    the store's clock when `info` was read)."""
    p = match.prompt
    if p is None or info.status == "waiting":
        return False
    return info.seats[p.seat].is_bot or pilot_reason(info) is not None


def choose(info: TableInfo, match: Match, think: float | None = None) -> str:
    """The computer's move for the seat to move (a bot error falls back to a random move)."""
    prompt = match.prompt
    assert prompt is not None
    seat = info.seats[prompt.seat]
    kind = seat.kind if seat.is_bot else info.rules.autopilot
    bot: Any = make_bot(
        kind, match.game, seed=info.seed * 31 + prompt.seat + match.cursor, think=think
    )
    try:
        move_id: str = bot.choose(match.game.clone(match.state), prompt)
        return move_id
    except Exception:  # a bot bug must not stop the table
        return random.Random(match.cursor).choice(prompt.moves).id


def play_computers(
    store: TableStore,
    table_id: str,
    owner: str,
    think: float | None = None,
    limit: int = 10_000,
    lease: float = LEASE_SECONDS,
) -> int:
    """Play the table's computer moves while a computer is to move and this process holds
    the lease; returns how many were played (another holder or a race ends it early). The
    lease is renewed while a computer thinks, however long that takes."""
    played = 0
    while played < limit:
        info, match = store.load(table_id)
        if not computer_to_move(info, match):
            break
        if not store.take_lease(table_id, owner, lease):
            break  # another process plays the computers
        done = threading.Event()
        renewer = threading.Thread(
            target=_renew, args=(store, table_id, owner, lease, done), daemon=True
        )
        renewer.start()
        try:
            move_id = choose(info, match, think)
        finally:
            done.set()
            renewer.join()
        try:
            store.append(table_id, None, move_id, info.moves, lease=owner)
        except Refused:
            break
        played += 1
    return played


def _renew(
    store: TableStore, table_id: str, owner: str, lease: float, done: threading.Event
) -> None:
    """Renew the lease every third of its length until `done` (a lost lease stops it)."""
    while not done.wait(lease / 3):
        try:
            if not store.take_lease(table_id, owner, lease):
                return
        except StoreError:
            return


def settle(store: TableStore, owner: str | None = None, think: float | None = None) -> int:
    """What is due at any table now, by the store's clock: the moves the computer plays for
    people (played here if this process gets the lease) and the reminders owed. How many
    moves were played here. A store that cannot be reached settles nothing (the next reader
    does it once it is back)."""
    owner = owner or lease_owner()
    played = 0
    try:
        store.queue_reminders()
        for table_id in store.due_tables():
            try:
                played += play_computers(store, table_id, owner, think)
            finally:  # the next reader (another process) may play what comes due next
                store.release_lease(table_id, owner)
    except StoreError:
        return played
    return played
