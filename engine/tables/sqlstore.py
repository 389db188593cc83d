"""What the SQL backends do alike: every table operation written once, over a small dialect.

A backend opens transactions (`_tx`) whose statements are written here once, in the SQL both
SQLite and PostgreSQL read alike: `?` placeholders (a backend translates them) and `"user"`
quoted. What differs is small and named: how a change locks its table (`ROW_LOCK`: `FOR
UPDATE` on a server, nothing where `BEGIN IMMEDIATE` has taken the file's write lock already),
which of the database's errors mean "someone else changed it at the same moment" (`Conflict`,
turned into `Stale`), and whether the connection may act for a user (`_as`). Connecting, live
updates (`version`), the schema and its upgrades, and the roles stay with each backend.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from ..core import BOT_LEVELS, HUMAN, Match
from ..core.match import now_iso
from ..core.protocol import SetupError
from ..core.registry import UnknownGame, get_game
from . import results
from .agree import AgreeSQL
from .clock import (
    AUTOPILOT,
    COMPUTER,
    DEFAULT_REMIND,
    LEFT,
    STRIKES_OUT,
    TIMEOUT,
    TIMEOUTS,
    ClockRules,
    away_credit,
    pilot_reason,
    seconds_left,
    spoken_duration,
    turn_begins,
)
from .social import SocialSQL
from .store import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    ID_RE,
    LEASE_SECONDS,
    PLAYING,
    PRESENT_SECONDS,
    SEED_CHOSEN,
    SEED_SECRET,
    SEED_SHOWN,
    WAITING,
    Damaged,
    MoveRow,
    Refused,
    SeatInfo,
    Stale,
    StoreError,
    StoreUnavailable,
    TableEvent,
    TableInfo,
    TableStore,
    UnknownTable,
    cached_match,
    check_append,
    check_moves,
    check_undo,
    check_user,
    extend_match,
    lookalike,
    new_table_id,
    new_table_probe,
    normalize_id,
    owe_notice,
    play_line,
    printable,
    queue_turn_notice,
    quoted,
    seed_from_row,
    seed_to_row,
    table_digest,
)

COLUMNS = (
    "id, game, seed, options, settings, creator, created, updated, status, moves, rev, "
    "to_move_seat, turn_limit, on_timeout, autopilot, vacation, turn_since, timed_out, seed_kind"
)
KINDS = (HUMAN, *BOT_LEVELS)
SEED_KINDS = (SEED_SECRET, SEED_CHOSEN, SEED_SHOWN)
NCOL = len(COLUMNS.split(","))
# a seat with its clock and its owner's time away
SEAT_COLUMNS = (
    's.seat, s.kind, s."user", c.pilot, c.strikes, c.paused, c.vacation_used, a.starts, a.ends, '
    'o."user"'
)
SEAT_JOINS = (
    "LEFT JOIN bg_clocks c ON c.table_id = s.table_id AND c.seat = s.seat "
    'LEFT JOIN bg_away a ON a."user" = s."user" '
    "LEFT JOIN bg_offers o ON o.table_id = s.table_id AND o.seat = s.seat"
)
_SEATS = f"SELECT {SEAT_COLUMNS} FROM bg_seats s {SEAT_JOINS} WHERE s.table_id = ? ORDER BY s.seat"
_INSERT_TABLE = f"INSERT INTO bg_tables ({COLUMNS}) VALUES ({','.join('?' * NCOL)})"
_CLOCK = (
    "INSERT INTO bg_clocks (table_id, seat, pilot, strikes) VALUES (?,?,?,?) "
    "ON CONFLICT (table_id, seat) DO UPDATE SET pilot = excluded.pilot, strikes = excluded.strikes"
)
_BANK = (
    "INSERT INTO bg_clocks (table_id, seat, paused, vacation_used) VALUES (?,?,?,?) "
    "ON CONFLICT (table_id, seat) DO UPDATE SET paused = bg_clocks.paused + excluded.paused, "
    "vacation_used = bg_clocks.vacation_used + excluded.vacation_used"
)
_INSERT_SEAT = 'INSERT INTO bg_seats (table_id, seat, kind, "user") VALUES (?,?,?,?)'
_INSERT_OFFER = 'INSERT INTO bg_offers (table_id, seat, "user") VALUES (?,?,?)'
_NEW_MOVES = 'SELECT n, move_id, "user" FROM bg_moves WHERE table_id = ? AND n > ? ORDER BY n'
_INSERT_MOVE = 'INSERT INTO bg_moves (table_id, n, move_id, seat, "user", at) VALUES (?,?,?,?,?,?)'


# what a cancelled table leaves nowhere (its messages owed stay: they tell its players)
CANCELLED = (
    "bg_proposals",
    "bg_looked",
    "bg_seats",
    "bg_moves",
    "bg_offers",
    "bg_invites",
    "bg_talk",
    "bg_events",
    "bg_clocks",
)


class Conflict(StoreUnavailable):
    """Two sessions wrote the same row at once (a unique or serialization failure)."""


class Sql:
    """The statements of one open transaction, in the shared SQL (`?` placeholders); a
    backend provides the three calls. Also a `Run`, for the notification methods."""

    @abstractmethod
    def __call__(self, q: str, p: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One statement: its rows (none for a change without RETURNING)."""

    @abstractmethod
    def many(self, q: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement once per row of parameters."""

    @abstractmethod
    def count(self, q: str, p: Sequence[Any] = ()) -> int:
        """One change: how many rows it touched."""

    def one(self, q: str, p: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self(q, p)
        return rows[0] if rows else None

    def each(self, stmts: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple[Any, ...]]]:
        """Several statements, the rows of each (a backend may send them at once)."""
        return [self(q, p) for q, p in stmts]


class SQLStore(AgreeSQL, SocialSQL, TableStore):
    """A table store in SQL tables (`bg_tables`, `bg_seats`, `bg_moves`): everything but the
    connection, the schema and live updates."""

    ROW_LOCK = ""  # appended to the read of the table's row in a change
    TARGET_NUMBERS = "bg_targets"  # where a move finds the numbers of the targets it owes
    NOW_SQL = "0"  # the store's clock in seconds since the epoch (a backend's expression)
    clock_skew = 0.0  # seconds added to the store's clock (tests of day-long waits)
    _cache: dict[str, Match]  # table id -> its match, replayed
    # table id -> (its cached match, the revision and move count it was last seen at): a
    # table that has not changed since is not read again
    _synced: dict[str, tuple[Match, int, int]]

    @abstractmethod
    def _tx(
        self, write: bool = True, snapshot: bool = False
    ) -> contextlib.AbstractContextManager[Sql]:
        """One transaction (committed unless the block raises); `write`: it changes rows;
        `snapshot`: all its reads see the same moment."""

    def _as(self, user: str | None) -> None:
        """Refused when this connection may not act for `user` (anyone may, by default)."""

    @contextlib.contextmanager
    def _session(self) -> Iterator[Sql]:
        with self._tx() as q:
            yield q

    # ---- reading -------------------------------------------------------------------------
    def _info(
        self, q: Sql, table_id: str, lock: bool = False, moves: int | None = None
    ) -> TableInfo:
        """The table's row and its seats (`lock`: the row locked for a change; else one
        statement, one round trip). `moves`: the change expects that many moves, else Stale
        (the row is then not locked at all)."""
        tid = normalize_id(table_id)
        now = self.NOW_SQL
        if lock:  # the seats read after the lock is held: a statement of their own
            if moves is not None and self.ROW_LOCK:
                # the count in the lock's own condition: a session that waited for the lock
                # while a move was committed gets no row and goes at once, instead of every
                # loser of a race taking the lock in turn only to find the count changed;
                # the seats and the count as they are then go in the same round trip
                rows, seats, found = q.each(
                    (
                        (
                            f"SELECT {COLUMNS}, {now} FROM bg_tables WHERE id = ? AND moves = ?"
                            f"{self.ROW_LOCK}",
                            (tid, moves),
                        ),
                        (_SEATS, (tid,)),
                        ("SELECT moves FROM bg_tables WHERE id = ?", (tid,)),
                    )
                )
                if not found:
                    raise UnknownTable(table_id)
                if not rows:
                    raise Stale(tid, moves, int(found[0][0]))
                return row_info(rows[0], seats, self.clock_skew)
            row = q.one(
                f"SELECT {COLUMNS}, {now} FROM bg_tables WHERE id = ?{self.ROW_LOCK}", (tid,)
            )
            if row is None:
                raise UnknownTable(table_id)
            info = row_info(row, q(_SEATS, (tid,)), self.clock_skew)
            if moves is not None and info.moves != moves:
                raise Stale(info.id, moves, info.moves)
            return info
        return self._info_of(table_id, q(self._read_sql(), (tid,)))

    def _read_sql(self) -> str:
        """The table's row and its seats, one row a seat, in one statement (its id: `?`)."""
        return _read_sql(self.NOW_SQL)

    def _info_of(self, table_id: str, rows: Sequence[Sequence[Any]]) -> TableInfo:
        """The table as `_read_sql` read it."""
        if not rows:
            raise UnknownTable(table_id)
        seats = [r[NCOL + 1 :] for r in rows if r[NCOL + 1] is not None]
        return row_info(rows[0][: NCOL + 1], seats, self.clock_skew)

    def info(self, table_id: str) -> TableInfo:
        with self._tx(write=False) as q:
            return self._info(q, table_id)

    def tables(self) -> list[TableInfo]:
        with self._tx(write=False) as q:
            rows = q(f"SELECT {COLUMNS}, {self.NOW_SQL} FROM bg_tables ORDER BY updated DESC")
            seats: dict[str, list[tuple[Any, ...]]] = {}
            for tid, *seat in q(
                f"SELECT s.table_id, {SEAT_COLUMNS} FROM bg_seats s {SEAT_JOINS} "
                "ORDER BY s.table_id, s.seat"
            ):
                seats.setdefault(tid, []).append(tuple(seat))
        out = []
        for r in rows:  # one damaged table is listed as such; the others as they are
            try:
                out.append(row_info(r, seats.get(r[0], []), self.clock_skew))
            except Damaged as exc:
                out.append(damaged_info(r, exc))
        return out

    def move_ids(self, table_id: str) -> list[str]:
        with self._tx(write=False) as q:
            info = self._info(q, table_id)
            return self._move_ids(q, info.id)

    @staticmethod
    def _move_ids(q: Sql, tid: str) -> list[str]:
        return check_moves(
            tid, q("SELECT n, move_id FROM bg_moves WHERE table_id = ? ORDER BY n", (tid,))
        )

    def _match(self, q: Sql, info: TableInfo, new: Sequence[Sequence[Any]] | None = None) -> Match:
        """The table's match at its last move: the cached one as it is when the table has
        not changed since it was read (no move read), brought up to date with the new moves
        only when moves were only added since, else checked against every move. `new`: the
        moves after the cached ones, read already in the same snapshot (`_NEW_MOVES`)."""
        m = self._cache.get(info.id)
        mark = self._synced.pop(info.id, None)
        if m is not None and mark is not None and mark[0] is m:
            _, rev, k = mark
            added = info.moves - k
            # every change bumps the revision once, and only an append adds a move: as many
            # revisions as new moves means nothing but appends (no undo, no other change)
            if info.rev - rev == added >= 0 and m.cursor == len(m.steps) == k:
                if added:
                    rows = q(_NEW_MOVES, (info.id, k)) if new is None else new
                    ids = check_moves(info.id, [(n, mid) for n, mid, _ in rows], first=k + 1)
                    if len(ids) != added:
                        raise Damaged(info.id, f"{k + len(ids)} moves stored, {info.moves} counted")
                    try:
                        extend_match(m, info, [*m.move_ids(), *ids])
                    except StoreError:
                        self._cache.pop(info.id, None)
                        raise
                    m.autopilot |= {int(n) for n, _, who in rows if who == AUTOPILOT}
                self._synced[info.id] = (m, info.rev, info.moves)
                return m
        rows = q(
            'SELECT n, move_id, "user" FROM bg_moves WHERE table_id = ? ORDER BY n', (info.id,)
        )
        ids = check_moves(info.id, [r[:2] for r in rows])
        auto = [int(n) for n, _, who in rows if who == AUTOPILOT]
        m = cached_match(self._cache, info, ids, auto)
        self._synced[info.id] = (m, info.rev, info.moves)
        return m

    def load(self, table_id: str) -> tuple[TableInfo, Match]:
        tid = normalize_id(table_id)
        mark = self._synced.get(tid)
        with self._tx(write=False, snapshot=True) as q:
            if mark is None or self._cache.get(tid) is not mark[0]:
                info = self._info(q, table_id)
                return info, self._match(q, info)
            # a table read before: the moves after those cached go with the table's row
            # (none, usually), one round trip instead of two
            rows, new = q.each(((self._read_sql(), (tid,)), (_NEW_MOVES, (tid, mark[2]))))
            info = self._info_of(table_id, rows)
            return info, self._match(q, info, new)

    # ---- changing ------------------------------------------------------------------------
    def create(
        self,
        game: str,
        seats: Sequence[SeatInfo],
        options: Mapping[str, str],
        seed: int | None,
        creator: str,
        settings: Mapping[str, Any] | None = None,
        *,
        rules: ClockRules | None = None,
        max_open: int | None = None,
        chosen: bool = False,
    ) -> TableInfo:
        self._as(creator)
        p = new_table_probe(game, seats, options, seed, creator, settings, rules, chosen)
        with self._tx() as q:
            for s in p.seats:
                for user in (s.user, s.offered):
                    if user is not None:
                        self._check_lookalike(q, user)
                if s.user is not None:
                    self._check_open_count(q, s.user, max_open)
            return self._insert_new(q, p)

    def _check_lookalike(self, q: Sql, user: str) -> None:
        """Refused when `user` would pass for another user of this store (`Alice`, `a1ice`
        for alice): one name, one person, at every table and in talk."""
        others = q(
            'SELECT DISTINCT "user" FROM bg_seats WHERE "user" IS NOT NULL AND "user" <> ?',
            (user,),
        )
        other = lookalike(user, (str(o) for (o,) in others))
        if other is not None:
            raise Refused(
                f"the name {user} looks like {other}, who plays at this store: one of you "
                "needs another name"
            )

    def _insert_new(self, q: Sql, p: TableInfo) -> TableInfo:
        """The checked table `p` stored under a new id (its turn notice queued)."""
        for _ in range(20):
            tid = new_table_id()
            if q.one("SELECT 1 FROM bg_tables WHERE id = ?", (tid,)) is None:
                break
        else:  # pragma: no cover - 28 million ids
            raise StoreError("no free table id: the store is full")
        since = self._now(q) if p.status == PLAYING else None
        q(_INSERT_TABLE, _table_row(dataclasses.replace(p, id=tid, turn_since=since)))
        q.many(_INSERT_SEAT, [(tid, s.seat, s.kind, s.user) for s in p.seats])
        q.many(_INSERT_OFFER, [(tid, s.seat, s.offered) for s in p.seats if s.offered])
        made = self._info(q, tid)
        if made.status == PLAYING:
            queue_turn_notice(q, made, self._match(q, made), p.creator, self.TARGET_NUMBERS)
        return made

    def join(self, table_id: str, user: str, max_open: int | None = None) -> int | None:
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            mine = info.seat_of(user)
            if mine is not None:
                return mine
            seat = info.offered_to(user)
            if seat is None:
                if info.private and not info.finished and info.first_open() is not None:
                    raise Refused(
                        f"table {info.id} is private: a player there gives you an invite code "
                        "(`table invite`), then `table join CODE`"
                    )
                seat = info.first_open()
            if seat is None or info.finished:
                return None
            return self._sit(q, info, seat, user, max_open)

    def _sit(self, q: Sql, info: TableInfo, seat: int, user: str, max_open: int | None) -> int:
        """`user` takes open seat `seat` of the locked table (an offer of it is accepted)."""
        self._check_lookalike(q, user)
        self._check_open_count(q, user, max_open)
        taken = q.count(
            'UPDATE bg_seats SET "user" = ? WHERE table_id = ? AND seat = ? '
            'AND "user" IS NULL AND kind = ?',
            (user, info.id, seat, HUMAN),
        )
        if taken != 1:  # pragma: no cover - the lock makes this impossible
            raise Stale(info.id, info.moves, info.moves)
        q("DELETE FROM bg_offers WHERE table_id = ? AND seat = ?", (info.id, seat))
        still_open = any(s.is_open and s.seat != seat for s in info.seats)
        q(  # the game begins: so does the first turn's clock
            "UPDATE bg_tables SET status = ?, rev = rev + 1, updated = ?, turn_since = ? "
            "WHERE id = ?",
            (
                WAITING if still_open else PLAYING,
                now_iso(),
                None if still_open else info.now,
                info.id,
            ),
        )
        if not still_open:
            now = self._info(q, info.id)
            queue_turn_notice(q, now, self._match(q, now), user, self.TARGET_NUMBERS)
        return seat

    def append(
        self, table_id: str, user: str | None, move_id: str, expected: int, lease: str | None = None
    ) -> TableInfo:
        self._as(user)
        try:
            with self._tx() as q:
                info = self._info(q, table_id, lock=True, moves=expected)  # this row only
                lease_ok = False
                if lease is not None:
                    held = q.one(
                        "SELECT lease_owner, lease_until FROM bg_tables WHERE id = ?", (info.id,)
                    )
                    lease_ok = held is not None and held[0] == lease and held[1] >= time.time()
                match = self._match(q, info)
                seat = check_append(info, match, user, move_id, lease_ok)
                sat = info.seats[seat]
                reason = pilot_reason(info) if user is None and not sat.is_bot else None
                before = match.prompt
                try:
                    match.play(move_id)
                    prompt = match.prompt
                    stamp = now_iso()
                    status = FINISHED if prompt is None else info.status
                    to_move = None if prompt is None else prompt.seat
                    who = user or (AUTOPILOT if reason else sat.kind)
                    q(_INSERT_MOVE, (info.id, expected + 1, move_id, seat, who, stamp))
                    if reason:
                        match.autopilot.add(expected + 1)
                    new_turn = turn_begins(before, prompt)
                    timed_out = (info.timed_out or reason == TIMEOUT) and not new_turn
                    since = info.now if new_turn else info.turn_since
                    q(  # a turn ended: when it began is kept, for an undo of this move
                        "UPDATE bg_tables SET moves = moves + 1, rev = rev + 1, updated = ?, "
                        "status = ?, to_move_seat = ?, turn_since = ?, timed_out = ?, "
                        "reminded = CASE WHEN ? THEN 0 ELSE reminded END, "
                        "ended_turn_since = CASE WHEN ? THEN ? ELSE ended_turn_since END "
                        "WHERE id = ?",
                        (
                            stamp,
                            status,
                            to_move,
                            since,
                            int(timed_out),
                            new_turn,
                            new_turn,
                            info.turn_since,
                            info.id,
                        ),
                    )
                    # the row as updated, without reading it back (every round trip counts
                    # while the row is locked)
                    done = dataclasses.replace(
                        info,
                        moves=info.moves + 1,
                        rev=info.rev + 1,
                        updated=stamp,
                        status=status,
                        to_move_seat=to_move,
                        turn_since=since,
                        timed_out=timed_out,
                    )
                    if status == FINISHED:  # its result, in the same transaction
                        results.record(q, done, match, self._now(q))
                    if self._clock_after_move(q, info, sat, user, reason, new_turn):
                        done = self._info(q, info.id)  # a seat's clock changed
                    queue_turn_notice(q, done, match, user, self.TARGET_NUMBERS)
                except BaseException:
                    self._cache.pop(info.id, None)  # rolled back: so is the cache
                    raise
        except Conflict:
            raise Stale(normalize_id(table_id), expected, expected + 1) from None
        # committed: the cached match is the table as stored (the next read reads no move)
        self._synced[done.id] = (match, done.rev, done.moves)
        return done

    def undo(self, table_id: str, user: str, expected: int) -> TableInfo:
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True, moves=expected)
            match = self._match(q, info)
            check_undo(info, match, user)
            self._cache.pop(info.id, None)
            self._synced.pop(info.id, None)
            gone = q.count(
                "DELETE FROM bg_moves WHERE table_id = ? AND n = ?", (info.id, info.moves)
            )
            if gone != 1:  # row-level security hid the row: not this role's move
                raise Refused(f"the table store refused it: {self._role_name()} may not undo that")
            back = match.steps[-1].seat
            since = info.turn_since
            if back != info.to_move_seat:  # the mover's turn again, with the time it had used
                row = q.one("SELECT ended_turn_since FROM bg_tables WHERE id = ?", (info.id,))
                since = info.now if row is None or row[0] is None else float(row[0])
            q(
                "UPDATE bg_tables SET moves = moves - 1, rev = rev + 1, updated = ?, "
                "status = ?, to_move_seat = ?, turn_since = ? WHERE id = ?",
                (now_iso(), PLAYING, back, since, info.id),
            )
            done = self._info(q, info.id)
        # committed: the cached match one move back is the table as stored (no replay)
        match.goto(match.cursor - 1)
        match.truncate()
        self._cache[done.id] = match
        self._synced[done.id] = (match, done.rev, done.moves)
        return done

    def _role_name(self) -> str:
        """Who this connection acts as, for a refusal by the database."""
        return "this connection"

    # ---- clocks, absent people, the table's own log lines --------------------------------
    def _now(self, q: Sql) -> float:
        row = q.one(f"SELECT {self.NOW_SQL}")
        assert row is not None
        return float(row[0]) + self.clock_skew

    def clock_now(self) -> float:
        with self._tx(write=False) as q:
            return self._now(q)

    def _event(self, q: Sql, info: TableInfo, text: str, bump: bool = True) -> None:
        """A log line at the table after its last move (`bump`: tell the screens)."""
        row = q.one("SELECT coalesce(max(k), 0) FROM bg_events WHERE table_id = ?", (info.id,))
        k = int(row[0]) + 1 if row else 1
        q(
            "INSERT INTO bg_events (table_id, k, n, at, text) VALUES (?,?,?,?,?)",
            (info.id, k, info.moves, now_iso(), text),
        )
        if bump:
            q("UPDATE bg_tables SET rev = rev + 1, updated = ? WHERE id = ?", (now_iso(), info.id))

    def _clock_after_move(
        self,
        q: Sql,
        info: TableInfo,
        sat: SeatInfo,
        user: str | None,
        reason: str | None,
        new_turn: bool,
    ) -> bool:
        """A move's effect on the mover's clock: a timeout counted (the third in a row hands
        the seat to the computer), a person's own move ending the run, vacation banked at
        the end of a turn. True if the seat's clock changed."""
        changed = False
        level = info.rules.autopilot
        if reason == TIMEOUT and not info.timed_out:
            strikes = sat.strikes + 1
            out = strikes >= STRIKES_OUT
            q(_CLOCK, (info.id, sat.seat, TIMEOUTS if out else None, strikes))
            if out:
                # how to take it back is each front end's to say (a key, a word, a command)
                text = (
                    f"{sat.user} missed {strikes} turns in a row: the computer ({level}) plays "
                    f"seat {sat.seat + 1} until they take it back"
                )
            else:
                text = (
                    f"{sat.user} ran out of time: the computer ({level}) plays this turn "
                    f"({strikes} of {STRIKES_OUT} in a row)"
                )
            self._event(q, info, text, bump=False)
            changed = True
        elif user is not None and sat.strikes:
            q(_CLOCK, (info.id, sat.seat, None, 0))
            changed = True
        if new_turn and not sat.is_bot:
            credit = away_credit(info, sat)
            if credit or sat.paused:
                q(_BANK, (info.id, sat.seat, -sat.paused, credit))
                changed = True
        return changed

    def _bank(self, q: Sql, user: str) -> list[TableInfo]:
        """Credit `user`'s away time to the turns they are on (before their away changes);
        their unfinished tables, locked."""
        out = []
        for (tid,) in q(
            "SELECT DISTINCT t.id FROM bg_tables t JOIN bg_seats s ON s.table_id = t.id "
            'WHERE s."user" = ? AND t.status <> ? ORDER BY t.id',
            (user, FINISHED),
        ):
            info = self._info(q, tid, lock=True)
            seat = info.seats[info.seat_of(user) or 0]
            credit = away_credit(info, seat)
            if credit:
                q(_BANK, (info.id, seat.seat, credit, credit))
            out.append(info)
        return out

    def set_away(self, user: str, until: float | None) -> list[TableInfo]:
        self._as(user)
        with self._tx() as q:
            infos = self._bank(q, user)
            now = self._now(q)
            if until is not None and until <= now:
                raise StoreError("--until: that time has passed already")
            q(
                'INSERT INTO bg_away ("user", starts, ends) VALUES (?,?,?) ON CONFLICT ("user") '
                "DO UPDATE SET starts = excluded.starts, ends = excluded.ends",
                (user, now, until),
            )
            when = "" if until is None else f" until {shown_time(until)}"
            for info in infos:
                self._event(q, info, f"{user} is away{when}: {away_effect(info)}")
            return [self._info(q, i.id) for i in infos]

    def end_away(self, user: str) -> list[TableInfo]:
        self._as(user)
        with self._tx() as q:
            return self._end_away(q, user)

    def _end_away(self, q: Sql, user: str) -> list[TableInfo]:
        if q.one('SELECT 1 FROM bg_away WHERE "user" = ?', (user,)) is None:
            return []
        infos = self._bank(q, user)
        q('DELETE FROM bg_away WHERE "user" = ?', (user,))
        for info in infos:
            self._event(q, info, f"{user} is back")
        return [self._info(q, i.id) for i in infos]

    def away(self, user: str) -> tuple[float, float | None] | None:
        with self._tx(write=False) as q:
            row = q.one('SELECT starts, ends FROM bg_away WHERE "user" = ?', (user,))
            now = self._now(q)
        if row is None or (row[1] is not None and float(row[1]) <= now):
            return None
        return float(row[0]), None if row[1] is None else float(row[1])

    def _own_seat(self, q: Sql, table_id: str, user: str, over: str = "") -> tuple[TableInfo, int]:
        """The table, locked, and `user`'s seat at it; Refused when they have none or the
        game is over (`over`: what the refusal adds)."""
        info = self._info(q, table_id, lock=True)
        seat = info.seat_of(user)
        if seat is None:
            raise Refused(f"you ({user}) have no seat at table {info.id}")
        if info.finished:
            raise Refused(f"table {info.id} is over{over}")
        return info, seat

    def leave(self, table_id: str, user: str) -> TableInfo:
        self._as(user)
        with self._tx() as q:
            info, seat = self._own_seat(q, table_id, user, ": there is nothing to leave")
            if info.seats[seat].pilot == LEFT:
                raise Refused(f"you left table {info.id} already")
            q(_CLOCK, (info.id, seat, LEFT, 0))
            self._event(
                q,
                info,
                f"{user} left the table: the computer ({info.rules.autopilot}) plays seat "
                f"{seat + 1} from now on",
            )
            return self._info(q, info.id)

    def reclaim(self, table_id: str, user: str) -> TableInfo:
        self._as(user)
        with self._tx() as q:
            info, seat = self._own_seat(q, table_id, user)
            mine = info.seats[seat]
            was_away = bool(self._end_away(q, user))
            if mine.pilot is None:
                if was_away:
                    return self._info(q, info.id)
                raise Refused(
                    f"your seat at table {info.id} is yours already: nobody plays it for you"
                )
            q(_CLOCK, (info.id, seat, None, 0))
            if info.to_move_seat == seat:  # back on your turn: its time starts now
                q(
                    "UPDATE bg_tables SET turn_since = ?, timed_out = 0 WHERE id = ?",
                    (self._now(q), info.id),
                )
            self._event(q, info, f"{user} took back seat {seat + 1}")
            return self._info(q, info.id)

    def cancel(self, table_id: str, user: str) -> TableInfo:
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            if info.creator != user:
                raise Refused(f"only {info.creator}, who made table {info.id}, can cancel it")
            if info.status != WAITING or info.moves:
                raise Refused(
                    f"table {info.id} has begun: a game under way is not cancelled (`table "
                    f"leave {info.id}` gives your seat to the computer)"
                )
            title = f"Table {info.id} was cancelled"
            body = (
                f"{user} cancelled table {info.id} ({get_game(info.game).title}) before it began."
            )
            for s in info.seats:
                if s.user is not None and s.user != user:
                    owe_notice(q, self.TARGET_NUMBERS, info.id, -1, s.user, title, body, "cancel")
            for table in CANCELLED:
                q(f"DELETE FROM {table} WHERE table_id = ?", (info.id,))
            q("DELETE FROM bg_tables WHERE id = ?", (info.id,))
            self._cache.pop(info.id, None)
            return info

    def here(self, user: str) -> None:
        with self._tx() as q:
            q(
                'INSERT INTO bg_presence ("user", seen) VALUES (?,?) ON CONFLICT ("user") '
                "DO UPDATE SET seen = excluded.seen",
                (user, self._now(q)),
            )

    def gone(self, user: str) -> None:
        with self._tx() as q:
            q('DELETE FROM bg_presence WHERE "user" = ?', (user,))

    def present(self) -> set[str]:
        with self._tx(write=False) as q:
            since = self._now(q) - PRESENT_SECONDS
            return {
                str(u) for (u,) in q('SELECT "user" FROM bg_presence WHERE seen >= ?', (since,))
            }

    def looked(self, table_id: str, user: str) -> tuple[int, int] | None:
        with self._tx(write=False) as q:
            row = q.one(
                'SELECT moves, talk FROM bg_looked WHERE table_id = ? AND "user" = ?',
                (normalize_id(table_id), user),
            )
        return None if row is None else (int(row[0]), int(row[1]))

    def look(self, table_id: str, user: str, moves: int, talk: int) -> None:
        with self._tx() as q:
            q(
                'INSERT INTO bg_looked (table_id, "user", moves, talk) VALUES (?,?,?,?) '
                'ON CONFLICT (table_id, "user") DO UPDATE SET moves = excluded.moves, '
                "talk = excluded.talk",
                (normalize_id(table_id), user, moves, talk),
            )

    def events(self, table_id: str) -> list[TableEvent]:
        with self._tx(write=False) as q:
            rows = q(
                "SELECT n, at, text FROM bg_events WHERE table_id = ? ORDER BY k",
                (normalize_id(table_id),),
            )
        return [TableEvent(int(n), str(at), str(text)) for n, at, text in rows]

    def set_remind(self, user: str, hours: float) -> None:
        self._as(user)
        with self._tx() as q:
            q(
                'INSERT INTO bg_prefs ("user", remind) VALUES (?,?) ON CONFLICT ("user") '
                "DO UPDATE SET remind = excluded.remind",
                (user, hours),
            )

    def remind_hours(self, user: str) -> float:
        with self._tx(write=False) as q:
            row = q.one('SELECT remind FROM bg_prefs WHERE "user" = ?', (user,))
        return DEFAULT_REMIND if row is None or row[0] is None else float(row[0])

    def due_tables(self) -> list[str]:
        with self._tx(write=False) as q:
            rows = q(
                "SELECT t.id FROM bg_tables t JOIN bg_seats s ON s.table_id = t.id "
                "AND s.seat = t.to_move_seat LEFT JOIN bg_clocks c ON c.table_id = t.id "
                "AND c.seat = s.seat WHERE t.status = ? AND s.kind = ? AND (c.pilot IS NOT NULL "
                "OR (t.turn_limit IS NOT NULL AND t.on_timeout = ?) "
                'OR s."user" IN (SELECT "user" FROM bg_away)) ORDER BY t.updated',
                (PLAYING, HUMAN, COMPUTER),
            )
            infos = [self._info(q, tid) for (tid,) in rows]
        return [i.id for i in infos if pilot_reason(i) is not None]

    def queue_reminders(self) -> int:
        with self._tx(write=False) as q:  # usually nothing is due: no write lock for that
            if not self._reminders_due(q, self._now(q)):
                return 0
        done = 0
        with self._tx() as q:
            now = self._now(q)
            for tid, moves, user, since in self._reminders_due(q, now):
                claimed = q.count(
                    "UPDATE bg_tables SET reminded = 1 WHERE id = ? AND moves = ? AND reminded = 0",
                    (tid, moves),
                )
                if claimed != 1:
                    continue
                info = self._info(q, tid)
                title, body = reminder_text(info, str(user), now - float(since))
                owe_notice(q, self.TARGET_NUMBERS, tid, moves, user, title, body, "remind")
                done += 1
        return done

    def _reminders_due(self, q: Sql, now: float) -> list[tuple[Any, ...]]:
        """(table, moves, user, turn since) of each turn owed a reminder now."""
        return q(
            'SELECT t.id, t.moves, s."user", t.turn_since FROM bg_tables t JOIN bg_seats s '
            "ON s.table_id = t.id AND s.seat = t.to_move_seat LEFT JOIN bg_clocks c "
            'ON c.table_id = t.id AND c.seat = s.seat LEFT JOIN bg_prefs p ON p."user" = s."user" '
            "WHERE t.status = ? AND s.kind = ? AND c.pilot IS NULL AND t.reminded = 0 "
            f"AND t.turn_since IS NOT NULL AND coalesce(p.remind, {DEFAULT_REMIND}) > 0 "
            f"AND t.turn_since + coalesce(p.remind, {DEFAULT_REMIND}) * 3600 <= ? "
            f'AND EXISTS (SELECT 1 FROM {self.TARGET_NUMBERS} g WHERE g."user" = s."user") '
            'AND s."user" NOT IN (SELECT "user" FROM bg_away WHERE starts <= ? '
            "AND (ends IS NULL OR ends > ?))",
            (PLAYING, HUMAN, now, now, now),
        )

    def take_lease(self, table_id: str, owner: str, seconds: float = LEASE_SECONDS) -> bool:
        now = time.time()
        with self._tx() as q:
            return (
                q.count(
                    "UPDATE bg_tables SET lease_owner = ?, lease_until = ? WHERE id = ? AND "
                    "(lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)",
                    (owner, now + seconds, normalize_id(table_id), owner, now),
                )
                == 1
            )

    def release_lease(self, table_id: str, owner: str) -> None:
        with self._tx() as q:
            q(
                "UPDATE bg_tables SET lease_owner = NULL, lease_until = 0 WHERE id = ? AND "
                "lease_owner = ?",
                (normalize_id(table_id), owner),
            )

    # ---- results ---------------------------------------------------------------------------
    def results(
        self, game: str | None = None, table_id: str | None = None
    ) -> list[results.TableResult]:
        with self._tx(write=False, snapshot=True) as q:
            return results.read(q, game, None if table_id is None else normalize_id(table_id))

    def _after_upgrade(self, q: Sql, found: int) -> None:
        """What an upgrade from format `found` does beyond SQL, in its transaction: the tables
        finished before results were kept are replayed into them."""
        if found < results.RESULTS_FORMAT:
            for (tid,) in q("SELECT id FROM bg_tables WHERE status = ?", (FINISHED,)):
                try:
                    info = self._info(q, tid)
                    match = self._match(q, info)
                except (StoreError, SetupError, UnknownGame, ValueError):
                    continue  # a damaged or unknown table has no result to keep
                if match.over:
                    results.record(q, info, match)

    # ---- copying -------------------------------------------------------------------------
    def export_table(self, table_id: str) -> tuple[TableInfo, list[MoveRow]]:
        with self._tx(write=False, snapshot=True) as q:
            info = self._info(q, table_id)
            rows = q(
                'SELECT n, move_id, seat, "user", at FROM bg_moves WHERE table_id = ? ORDER BY n',
                (info.id,),
            )
        return info, [(int(n), str(m), int(s), str(u), str(a)) for n, m, s, u, a in rows]

    def import_table(self, info: TableInfo, rows: Sequence[MoveRow], digest: str) -> None:
        with self._tx() as q:
            q(_INSERT_TABLE, _table_row(info))
            q.many(_INSERT_SEAT, [(info.id, s.seat, s.kind, s.user) for s in info.seats])
            q.many(_INSERT_OFFER, [(info.id, s.seat, s.offered) for s in info.seats if s.offered])
            q.many(_INSERT_MOVE, [(info.id, *r) for r in rows])
            stored = self._info(q, info.id)
            if table_digest(stored, self._move_ids(q, info.id)) != digest:
                raise StoreError(f"table {info.id} does not replay the same in {self.path}")
            if stored.status == FINISHED:  # its result, as the store it came from has it
                results.record(q, stored, self._match(q, stored))


@functools.cache
def _read_sql(now: str) -> str:
    cols = ", ".join(f"t.{k.strip()}" for k in COLUMNS.split(","))
    return (
        f"SELECT {cols}, {now}, {SEAT_COLUMNS} FROM bg_tables t "
        f"LEFT JOIN bg_seats s ON s.table_id = t.id {SEAT_JOINS} WHERE t.id = ? "
        "ORDER BY s.seat"
    )


def shown_time(when: float) -> str:
    """A store-clock time for people: local, to the minute."""
    return datetime.fromtimestamp(when).astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def away_effect(info: TableInfo) -> str:
    """What someone's being away means at this table."""
    if info.rules.vacation <= 0:
        return f"no vacation at this table, the computer ({info.rules.autopilot}) plays for them"
    if info.rules.turn_limit is None:
        return "no clock at this table, it waits for them"
    return "their clock is paused (vacation)"


def reminder_text(info: TableInfo, user: str, waited: float) -> tuple[str, str]:
    """The reminder's title and body (public text only, as a turn's message)."""
    from ..core import get_game

    title = f"Reminder: your turn at table {info.id} ({get_game(info.game).title})"
    lines = [f"It has been your turn ({user}) at table {info.id} for {spoken_duration(waited)}."]
    left = seconds_left(info)
    if left is not None and left > 0:
        lines.append(f"Time left for this turn: {spoken_duration(left)}.")
    lines.append(play_line(info.id, user))
    return title, "\n".join(lines)


def _table_row(t: TableInfo) -> tuple[Any, ...]:
    return (
        t.id,
        t.game,
        seed_to_row(t.seed),
        json.dumps(t.options),
        json.dumps(t.settings),
        t.creator,
        t.created,
        t.updated,
        t.status,
        t.moves,
        t.rev,
        t.to_move_seat,
        t.rules.turn_limit,
        t.rules.on_timeout,
        t.rules.autopilot,
        t.rules.vacation,
        t.turn_since,
        int(t.timed_out),
        t.seed_kind,
    )


def row_info(row: Sequence[Any], seats: Sequence[Sequence[Any]], skew: float = 0.0) -> TableInfo:
    """A `bg_tables` row (COLUMNS and the store's clock) and its seats' rows (SEAT_COLUMNS)
    as a TableInfo; Damaged, one line saying what is wrong, for rows that make no sense
    (edited by hand, a fault)."""
    (tid, game, seed, options, settings, creator, created, updated, status, moves, rev, tm) = row[
        :12
    ]
    limit, on_timeout, autopilot, vacation, since, timed_out, seed_kind, now = row[12:20]
    tid = str(tid)

    def bad(problem: str) -> Damaged:
        return Damaged(tid, problem)

    if not ID_RE.match(tid):
        raise bad(f"its id {quoted(tid, 20)} is not a table id")
    try:
        g = get_game(str(game))
    except UnknownGame:
        raise bad(f"game {quoted(game)} is not a game this version knows") from None
    for what, value in (("seed", seed), ("move count", moves), ("revision", rev)):
        if not _whole(value):
            raise bad(f"its {what} {quoted(value)} is not a whole number")
    opts = _json_dict(bad, "options", options)
    sets = _json_dict(bad, "settings", settings)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in opts.items()):
        raise bad(f"its options {quoted(options)} are not names and values")
    try:
        check_user(str(creator), stored=True)
    except StoreError as exc:
        raise bad(f"its creator: {exc}") from None
    if status not in (WAITING, PLAYING, FINISHED, ABANDONED):
        raise bad(f"its status {quoted(status)} is not waiting, playing, finished or abandoned")
    if seed_kind not in SEED_KINDS:
        raise bad(f"its seed's kind {quoted(seed_kind)} is not {', '.join(SEED_KINDS)}")
    if int(moves) < 0:
        raise bad(f"its move count {moves} is below 0")
    infos = _seats(bad, g, seats)
    if tm is not None and not (_whole(tm) and 0 <= int(tm) < len(infos)):
        raise bad(f"the seat to move ({quoted(tm)}) is not one of its {len(infos)} seats")
    try:
        rules = ClockRules(
            None if limit is None else float(limit),
            str(on_timeout),
            str(autopilot),
            float(vacation),
        )
        turn_since = None if since is None else float(since)
    except (TypeError, ValueError):
        raise bad(f"its clock ({quoted(limit)}, {quoted(on_timeout)}) is not a clock") from None
    return TableInfo(
        id=tid,
        game=g.id,
        seed=seed_from_row(int(seed)),
        options=opts,
        # flags as booleans; a setting with a value of its own (spectators) as it is
        settings={str(k): v if isinstance(v, str) else bool(v) for k, v in sets.items()},
        creator=str(creator),
        created=str(created),
        updated=str(updated),
        status=str(status),
        moves=int(moves),
        rev=int(rev),
        to_move_seat=None if tm is None else int(tm),
        seats=infos,
        rules=rules,
        turn_since=turn_since,
        timed_out=bool(timed_out),
        now=float(now) + skew,
        seed_kind=str(seed_kind),
    )


def _seat(r: Sequence[Any]) -> SeatInfo:
    seat, kind, user, pilot, strikes, paused, used, starts, ends, offered = r
    return SeatInfo(
        int(seat),
        str(kind),
        user,
        pilot=pilot,
        strikes=int(strikes or 0),
        paused=float(paused or 0),
        vacation_used=float(used or 0),
        away=None if starts is None else (float(starts), None if ends is None else float(ends)),
        offered=offered if user is None and kind == HUMAN else None,
    )


def damaged_info(row: Sequence[Any], damage: Damaged) -> TableInfo:
    """A damaged table as listed: its id, when it changed, and what is wrong."""
    tid, game, updated = str(row[0]), row[1], row[7]
    return TableInfo(
        id=tid if ID_RE.match(tid) else damage.table_id,
        game=printable(game, 40),
        seed=0,
        options={},
        settings={},
        creator="",
        created="",
        updated=printable(updated, 40),
        status=DAMAGED,
        moves=0,
        rev=0,
        to_move_seat=None,
        damage=damage.problem,
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json_dict(bad: Callable[[str], Damaged], what: str, text: Any) -> dict[str, Any]:
    try:
        value = json.loads(str(text))
    except ValueError:
        raise bad(f"its {what} {quoted(text)} are not JSON") from None
    if not isinstance(value, dict):
        raise bad(f"its {what} {quoted(text)} are not a JSON object")
    return value


def _seats(
    bad: Callable[[str], Damaged], game: Any, rows: Sequence[Sequence[Any]]
) -> tuple[SeatInfo, ...]:
    """The seats' rows checked: numbered 1..n with none missing, a known kind each, a valid
    user on a person's seat (or none while it is open), as many as the game seats."""
    if not rows:
        raise bad("it has no seats")
    out: dict[int, SeatInfo] = {}
    for r in rows:
        s, kind, user = r[0], r[1], r[2]
        if not _whole(s) or not 0 <= s < game.max_players:
            top = game.max_players
            raise bad(f"a seat row numbered {quoted(s)} is out of range (0-{top - 1})")
        label = f"seat {s + 1}"
        if kind not in KINDS:
            raise bad(f"{label} is of an unknown kind {quoted(kind)} ({', '.join(KINDS)})")
        if user is not None:
            if kind != HUMAN:
                raise bad(f"{label} is a computer ({kind}) with a user")
            try:
                check_user(str(user), stored=True)
            except StoreError as exc:
                raise bad(f"{label}: {exc}") from None
        out[s] = _seat(r)
    missing = [k for k in range(max(out) + 1) if k not in out]
    if missing:
        raise bad(f"seat {missing[0] + 1} is missing")
    try:
        game.check_players(len(out))
    except SetupError as exc:
        raise bad(f"{len(out)} seats: {exc}") from None
    return tuple(out[k] for k in range(len(out)))
