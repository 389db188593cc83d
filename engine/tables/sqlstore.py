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
import json
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..core import BOT_LEVELS, HUMAN, Match
from ..core.match import now_iso
from ..core.protocol import SetupError
from ..core.registry import UnknownGame, get_game
from .social import SocialSQL
from .store import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    ID_RE,
    LEASE_SECONDS,
    PLAYING,
    WAITING,
    Damaged,
    MoveRow,
    Refused,
    SeatInfo,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    UnknownTable,
    cached_match,
    check_append,
    check_moves,
    check_undo,
    check_user,
    new_table_id,
    new_table_probe,
    normalize_id,
    printable,
    queue_turn_notice,
    quoted,
    table_digest,
)

COLUMNS = (
    "id, game, seed, options, settings, creator, created, updated, status, moves, rev, to_move_seat"
)
KINDS = (HUMAN, *BOT_LEVELS)
_SEATS = (
    'SELECT s.seat, s.kind, s."user", o."user" FROM bg_seats s LEFT JOIN bg_offers o '
    "ON o.table_id = s.table_id AND o.seat = s.seat WHERE s.table_id = ? ORDER BY s.seat"
)
_INSERT_TABLE = (
    "INSERT INTO bg_tables (id, game, seed, options, settings, creator, created, updated, "
    "status, moves, rev, to_move_seat) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_SEAT = 'INSERT INTO bg_seats (table_id, seat, kind, "user") VALUES (?,?,?,?)'
_INSERT_OFFER = 'INSERT INTO bg_offers (table_id, seat, "user") VALUES (?,?,?)'
_INSERT_MOVE = 'INSERT INTO bg_moves (table_id, n, move_id, seat, "user", at) VALUES (?,?,?,?,?,?)'


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


class SQLStore(SocialSQL, TableStore):
    """A table store in SQL tables (`bg_tables`, `bg_seats`, `bg_moves`): everything but the
    connection, the schema and live updates."""

    ROW_LOCK = ""  # appended to the read of the table's row in a change
    TARGET_NUMBERS = "bg_targets"  # where a move finds the numbers of the targets it owes
    _cache: dict[str, Match]  # table id -> its match, replayed

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
    def _info(self, q: Sql, table_id: str, lock: bool = False) -> TableInfo:
        """The table's row and its seats (`lock`: the row locked for a change; else one
        statement, one round trip)."""
        tid = normalize_id(table_id)
        if lock:  # the seats read after the lock is held: a statement of their own
            row = q.one(f"SELECT {COLUMNS} FROM bg_tables WHERE id = ?{self.ROW_LOCK}", (tid,))
            if row is None:
                raise UnknownTable(table_id)
            return row_info(row, q(_SEATS, (tid,)))
        cols = ", ".join(f"t.{k.strip()}" for k in COLUMNS.split(","))
        rows = q(
            f'SELECT {cols}, s.seat, s.kind, s."user", o."user" FROM bg_tables t '
            "LEFT JOIN bg_seats s ON s.table_id = t.id LEFT JOIN bg_offers o "
            "ON o.table_id = s.table_id AND o.seat = s.seat WHERE t.id = ? ORDER BY s.seat",
            (tid,),
        )
        if not rows:
            raise UnknownTable(table_id)
        return row_info(rows[0][:12], [r[12:] for r in rows if r[12] is not None])

    def info(self, table_id: str) -> TableInfo:
        with self._tx(write=False) as q:
            return self._info(q, table_id)

    def tables(self) -> list[TableInfo]:
        with self._tx(write=False) as q:
            rows = q(f"SELECT {COLUMNS} FROM bg_tables ORDER BY updated DESC")
            seats: dict[str, list[tuple[int, str, str | None, str | None]]] = {}
            for tid, seat, kind, user, offered in q(
                'SELECT s.table_id, s.seat, s.kind, s."user", o."user" FROM bg_seats s '
                "LEFT JOIN bg_offers o ON o.table_id = s.table_id AND o.seat = s.seat "
                "ORDER BY s.table_id, s.seat"
            ):
                seats.setdefault(tid, []).append((seat, kind, user, offered))
        out = []
        for r in rows:  # one damaged table is listed as such; the others as they are
            try:
                out.append(row_info(r, seats.get(r[0], [])))
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

    def _match(self, q: Sql, info: TableInfo) -> Match:
        return cached_match(self._cache, info, self._move_ids(q, info.id))

    def load(self, table_id: str) -> tuple[TableInfo, Match]:
        with self._tx(write=False, snapshot=True) as q:
            info = self._info(q, table_id)
            return info, self._match(q, info)

    # ---- changing ------------------------------------------------------------------------
    def create(
        self,
        game: str,
        seats: Sequence[SeatInfo],
        options: Mapping[str, str],
        seed: int,
        creator: str,
        settings: Mapping[str, Any] | None = None,
        max_open: int | None = None,
    ) -> TableInfo:
        self._as(creator)
        p = new_table_probe(game, seats, options, seed, creator, settings)
        with self._tx() as q:
            for s in p.seats:
                if s.user is not None:
                    self._check_open_count(q, s.user, max_open)
            return self._insert_new(q, p)

    def _insert_new(self, q: Sql, p: TableInfo) -> TableInfo:
        """The checked table `p` stored under a new id (its turn notice queued)."""
        for _ in range(20):
            tid = new_table_id()
            if q.one("SELECT 1 FROM bg_tables WHERE id = ?", (tid,)) is None:
                break
        else:  # pragma: no cover - 28 million ids
            raise StoreError("no free table id: the store is full")
        q(_INSERT_TABLE, _table_row(dataclasses.replace(p, id=tid)))
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
        q(
            "UPDATE bg_tables SET status = ?, rev = rev + 1, updated = ? WHERE id = ?",
            (WAITING if still_open else PLAYING, now_iso(), info.id),
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
                info = self._info(q, table_id, lock=True)  # this table's row only
                if info.moves != expected:
                    raise Stale(info.id, expected, info.moves)
                lease_ok = False
                if lease is not None:
                    held = q.one(
                        "SELECT lease_owner, lease_until FROM bg_tables WHERE id = ?", (info.id,)
                    )
                    lease_ok = held is not None and held[0] == lease and held[1] >= time.time()
                match = self._match(q, info)
                seat = check_append(info, match, user, move_id, lease_ok)
                try:
                    match.play(move_id)
                    prompt = match.prompt
                    stamp = now_iso()
                    status = FINISHED if prompt is None else info.status
                    to_move = None if prompt is None else prompt.seat
                    who = user or info.seats[seat].kind
                    q(_INSERT_MOVE, (info.id, expected + 1, move_id, seat, who, stamp))
                    q(
                        "UPDATE bg_tables SET moves = moves + 1, rev = rev + 1, updated = ?, "
                        "status = ?, to_move_seat = ? WHERE id = ?",
                        (stamp, status, to_move, info.id),
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
                    )
                    queue_turn_notice(q, done, match, user, self.TARGET_NUMBERS)
                    return done
                except BaseException:
                    self._cache.pop(info.id, None)  # rolled back: so is the cache
                    raise
        except Conflict:
            raise Stale(normalize_id(table_id), expected, expected + 1) from None

    def undo(self, table_id: str, user: str, expected: int) -> TableInfo:
        self._as(user)
        with self._tx() as q:
            info = self._info(q, table_id, lock=True)
            if info.moves != expected:
                raise Stale(info.id, expected, info.moves)
            match = self._match(q, info)
            check_undo(info, match, user)
            self._cache.pop(info.id, None)
            gone = q.count(
                "DELETE FROM bg_moves WHERE table_id = ? AND n = ?", (info.id, info.moves)
            )
            if gone != 1:  # row-level security hid the row: not this role's move
                raise Refused(f"the table store refused it: {self._role_name()} may not undo that")
            q(
                "UPDATE bg_tables SET moves = moves - 1, rev = rev + 1, updated = ?, "
                "status = ?, to_move_seat = ? WHERE id = ?",
                (now_iso(), PLAYING, match.steps[-1].seat, info.id),
            )
            return self._info(q, info.id)

    def _role_name(self) -> str:
        """Who this connection acts as, for a refusal by the database."""
        return "this connection"

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
            q.many(_INSERT_MOVE, [(info.id, *r) for r in rows])
            stored = self._info(q, info.id)
            if table_digest(stored, self._move_ids(q, info.id)) != digest:
                raise StoreError(f"table {info.id} does not replay the same in {self.path}")


def _table_row(t: TableInfo) -> tuple[Any, ...]:
    return (
        t.id,
        t.game,
        t.seed,
        json.dumps(t.options),
        json.dumps(t.settings),
        t.creator,
        t.created,
        t.updated,
        t.status,
        t.moves,
        t.rev,
        t.to_move_seat,
    )


def row_info(row: Sequence[Any], seats: Sequence[Sequence[Any]]) -> TableInfo:
    """A `bg_tables` row (COLUMNS) and its seats' rows as a TableInfo; Damaged, one line
    saying what is wrong, for rows that make no sense (edited by hand, a fault)."""
    (tid, game, seed, options, settings, creator, created, updated, status, moves, rev, tm) = row
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
        check_user(str(creator))
    except StoreError as exc:
        raise bad(f"its creator: {exc}") from None
    if status not in (WAITING, PLAYING, FINISHED, ABANDONED):
        raise bad(f"its status {quoted(status)} is not waiting, playing, finished or abandoned")
    if int(moves) < 0:
        raise bad(f"its move count {moves} is below 0")
    infos = _seats(bad, g, seats)
    if tm is not None and not (_whole(tm) and 0 <= int(tm) < len(infos)):
        raise bad(f"the seat to move ({quoted(tm)}) is not one of its {len(infos)} seats")
    return TableInfo(
        id=tid,
        game=g.id,
        seed=int(seed),
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
    for s, kind, user, *rest in rows:  # rest: the user an open seat is offered to
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
                check_user(str(user))
            except StoreError as exc:
                raise bad(f"{label}: {exc}") from None
        offered = rest[0] if rest and user is None and kind == HUMAN else None
        out[s] = SeatInfo(s, kind, user, offered)
    missing = [k for k in range(max(out) + 1) if k not in out]
    if missing:
        raise bad(f"seat {missing[0] + 1} is missing")
    try:
        game.check_players(len(out))
    except SetupError as exc:
        raise bad(f"{len(out)} seats: {exc}") from None
    return tuple(out[k] for k in range(len(out)))
