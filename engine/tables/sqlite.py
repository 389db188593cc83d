"""The SQLite backend: one file shared by every process on the host (WAL, busy timeout).

Every change is one `BEGIN IMMEDIATE` transaction: it takes the write lock first, then reads
the table's move count, replays the match (cached per process, so usually only the new moves),
checks the move, inserts it and bumps the count. Two terminals racing therefore queue on the
lock, and the second one finds the count changed and gets `Stale`.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import HUMAN, Match
from ..core.match import now_iso
from ..core.protocol import SetupError
from ..core.registry import UnknownGame, get_game
from .store import (
    FINISHED,
    FORMAT,
    LEASE_SECONDS,
    NOTICE_TABLES,
    PLAYING,
    WAITING,
    MoveRow,
    Run,
    SeatInfo,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    UnknownTable,
    build_match,
    check_append,
    check_undo,
    extend_match,
    new_table_id,
    normalize_id,
    queue_turn_notice,
    seat_names,
    table_digest,
    upgrade_steps,
)

BUSY_SECONDS = 5.0
_CACHE: dict[str, dict[str, Match]] = {}  # store path -> table id -> its match, replayed

SCHEMA = """
CREATE TABLE bg_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE bg_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    settings TEXT NOT NULL,
    creator TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    status TEXT NOT NULL,
    moves INTEGER NOT NULL DEFAULT 0,
    rev INTEGER NOT NULL DEFAULT 0,
    to_move_seat INTEGER,
    lease_owner TEXT,
    lease_until REAL NOT NULL DEFAULT 0
);
CREATE TABLE bg_seats (
    table_id TEXT NOT NULL REFERENCES bg_tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    user TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX bg_seats_user ON bg_seats(user);
CREATE TABLE bg_moves (
    table_id TEXT NOT NULL REFERENCES bg_tables(id),
    n INTEGER NOT NULL,
    move_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    user TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX bg_tables_updated ON bg_tables (updated);
""" + ";\n".join(NOTICE_TABLES)

_COLUMNS = (
    "id, game, seed, options, settings, creator, created, updated, status, moves, rev, to_move_seat"
)


class SQLiteStore(TableStore):
    """Tables in one SQLite file. `create_file`: make the file (and its folder) if missing;
    `busy`: how long to wait for another process's write before giving up."""

    def __init__(
        self,
        path: str | Path,
        create_file: bool = True,
        busy: float = BUSY_SECONDS,
        shared_cache: bool = False,
    ) -> None:
        self.path = str(Path(path).expanduser())
        self.busy = busy
        p = Path(self.path)
        if p.is_dir():
            raise StoreUnavailable(f"{self.path} is a folder, not a table store")
        if not p.exists():
            if not create_file:
                raise StoreUnavailable(
                    f"no table store at {self.path} (create a table first: `table new`)"
                )
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreUnavailable(
                    f"cannot create the table store {self.path}: {exc.strerror or exc}"
                ) from None
        # the matches replayed, brought up to date on every read; `shared_cache`: shared with
        # this process's other stores of the same file (a script calling the command line
        # again and again then replays only the new moves)
        self._cache: dict[str, Match] = _CACHE.setdefault(self.path, {}) if shared_cache else {}
        with self._errors():
            self.conn = sqlite3.connect(
                self.path, timeout=busy, isolation_level=None, check_same_thread=False
            )
        try:
            with self._errors():
                self._setup()
        except BaseException:
            self.conn.close()
            raise

    # ---- plumbing ------------------------------------------------------------------------
    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors as one sentence naming the store."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            msg = str(exc)
            if "locked" in msg or "busy" in msg:
                raise StoreUnavailable(
                    f"the table store {self.path} is busy: another process held it for more "
                    f"than {self.busy:g} s; try again"
                ) from None
            if "readonly" in msg or "read-only" in msg:
                raise StoreUnavailable(
                    f"the table store {self.path} cannot be written (read-only)"
                ) from None
            if "unable to open" in msg:
                raise StoreUnavailable(
                    f"the table store {self.path} cannot be opened (check the folder and its permissions)"
                ) from None
            if "disk" in msg and "full" in msg:
                raise StoreUnavailable(f"the disk of the table store {self.path} is full") from None
            raise StoreUnavailable(f"the table store {self.path}: {msg}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreUnavailable(
                f"{self.path} is not a table store (not an SQLite database: {exc})"
            ) from None

    @contextlib.contextmanager
    def _tx(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        with self._errors():
            self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextlib.contextmanager
    def _session(self) -> Iterator[Run]:
        with self._tx() as c:
            yield _run(c)

    def _setup(self) -> None:
        c = self.conn
        c.execute(f"PRAGMA busy_timeout = {int(self.busy * 1000)}")
        names = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and "bg_meta" not in names:
            raise StoreUnavailable(f"{self.path} is an SQLite database but not a table store")
        if c.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            c.execute("PRAGMA journal_mode = WAL")
        # WAL + NORMAL: a commit survives any process crash; only a power cut may lose the
        # last commits (never the file's consistency)
        c.execute("PRAGMA synchronous = NORMAL")
        if not names:
            with self._tx() as tx:
                known = {r[0] for r in tx.execute("SELECT name FROM sqlite_master")}
                if "bg_meta" not in known:  # another process may have won the race
                    for stmt in SCHEMA.split(";"):
                        if stmt.strip():
                            tx.execute(stmt)
                    tx.execute("INSERT INTO bg_meta VALUES ('format', ?)", (str(FORMAT),))
        row = c.execute("SELECT value FROM bg_meta WHERE key='format'").fetchone()
        if upgrade_steps(row and row[0], self.path):
            with self._tx() as tx:  # an older store: upgraded in place, all or nothing
                row = tx.execute("SELECT value FROM bg_meta WHERE key='format'").fetchone()
                for stmt in upgrade_steps(row and row[0], self.path):
                    tx.execute(stmt)
                tx.execute("UPDATE bg_meta SET value = ? WHERE key = 'format'", (str(FORMAT),))

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def version(self) -> int:
        with self._errors():
            return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # ---- reading -------------------------------------------------------------------------
    def _info(self, c: sqlite3.Connection, table_id: str) -> TableInfo:
        tid = normalize_id(table_id)
        row = c.execute(f"SELECT {_COLUMNS} FROM bg_tables WHERE id = ?", (tid,)).fetchone()
        if row is None:
            raise UnknownTable(table_id)
        seats = c.execute(
            "SELECT seat, kind, user FROM bg_seats WHERE table_id = ? ORDER BY seat", (tid,)
        ).fetchall()
        return _row_info(row, seats)

    def info(self, table_id: str) -> TableInfo:
        with self._tx(write=False) as c:
            return self._info(c, table_id)

    def tables(self) -> list[TableInfo]:
        with self._tx(write=False) as c:
            rows = c.execute(f"SELECT {_COLUMNS} FROM bg_tables ORDER BY updated DESC").fetchall()
            seats: dict[str, list[tuple[int, str, str | None]]] = {}
            for tid, seat, kind, user in c.execute(
                "SELECT table_id, seat, kind, user FROM bg_seats ORDER BY table_id, seat"
            ):
                seats.setdefault(tid, []).append((seat, kind, user))
        return [_row_info(r, seats.get(r[0], [])) for r in rows]

    def move_ids(self, table_id: str) -> list[str]:
        with self._tx(write=False) as c:
            self._info(c, table_id)
            return self._move_ids(c, normalize_id(table_id))

    @staticmethod
    def _move_ids(c: sqlite3.Connection, tid: str) -> list[str]:
        rows = c.execute("SELECT n, move_id FROM bg_moves WHERE table_id = ? ORDER BY n", (tid,))
        out: list[str] = []
        for n, mid in rows:
            if n != len(out) + 1:
                raise StoreError(f"table {tid}: move {len(out) + 1} is missing")
            out.append(mid)
        return out

    def _match(self, c: sqlite3.Connection, info: TableInfo) -> Match:
        """The match at the table's last move: the cached one brought up to date."""
        ids = self._move_ids(c, info.id)
        if len(ids) != info.moves:
            raise StoreError(f"table {info.id}: {len(ids)} moves stored, {info.moves} counted")
        m = self._cache.get(info.id)
        names = seat_names(info.seats)
        if m is not None and m.names == names and m.length >= m.cursor:
            have = m.move_ids(m.length)
            k = min(len(have), len(ids))
            if have[:k] == ids[:k]:
                m.goto(min(len(have), len(ids)))
                m.truncate()
                try:
                    extend_match(m, info, ids)
                except StoreError:
                    self._cache.pop(info.id, None)
                    raise
                return m
        m = build_match(info, ids)
        self._cache[info.id] = m
        return m

    def load(self, table_id: str) -> tuple[TableInfo, Match]:
        with self._tx(write=False) as c:
            info = self._info(c, table_id)
            return info, self._match(c, info)

    # ---- changing ------------------------------------------------------------------------
    def create(
        self,
        game: str,
        seats: Sequence[SeatInfo],
        options: Mapping[str, str],
        seed: int,
        creator: str,
        settings: Mapping[str, bool] | None = None,
    ) -> TableInfo:
        try:
            g = get_game(game)
        except UnknownGame as exc:
            raise StoreError(str(exc)) from None
        seats = [SeatInfo(i, s.kind, s.user) for i, s in enumerate(seats)]
        opts = dict(options)
        sets = {"strict": bool((settings or {}).get("strict", False))}
        stamp = now_iso()
        status = WAITING if any(s.is_open for s in seats) else PLAYING
        try:
            g.check_players(len(seats))
            opts = g.check_options(opts)
        except SetupError as exc:
            raise StoreError(str(exc)) from None
        probe = TableInfo(
            "new", g.id, seed, opts, sets, creator, stamp, stamp, status, 0, 0, 0, tuple(seats)
        )
        match = build_match(probe, [])
        to_move = match.prompt.seat if match.prompt else None
        with self._tx() as c:
            for _ in range(20):
                tid = new_table_id()
                if not c.execute("SELECT 1 FROM bg_tables WHERE id = ?", (tid,)).fetchone():
                    break
            else:  # pragma: no cover - 28 million ids
                raise StoreError("no free table id: the store is full")
            c.execute(
                "INSERT INTO bg_tables (id, game, seed, options, settings, creator, created, "
                "updated, status, moves, rev, to_move_seat) VALUES (?,?,?,?,?,?,?,?,?,0,0,?)",
                (
                    tid,
                    g.id,
                    seed,
                    json.dumps(opts),
                    json.dumps(sets),
                    creator,
                    stamp,
                    stamp,
                    status,
                    to_move,
                ),
            )
            c.executemany(
                "INSERT INTO bg_seats (table_id, seat, kind, user) VALUES (?,?,?,?)",
                [(tid, s.seat, s.kind, s.user) for s in seats],
            )
            made = self._info(c, tid)
            queue_turn_notice(_run(c), made, match, creator)
            return made

    def join(self, table_id: str, user: str) -> int | None:
        with self._tx() as c:
            info = self._info(c, table_id)
            mine = info.seat_of(user)
            if mine is not None:
                return mine
            seat = info.first_open()
            if seat is None or info.finished:
                return None
            cur = c.execute(
                "UPDATE bg_seats SET user = ? WHERE table_id = ? AND seat = ? AND user IS NULL "
                "AND kind = ?",
                (user, info.id, seat, HUMAN),
            )
            if cur.rowcount != 1:  # pragma: no cover - the write lock makes this impossible
                return None
            still_open = any(s.is_open and s.seat != seat for s in info.seats)
            c.execute(
                "UPDATE bg_tables SET status = ?, rev = rev + 1, updated = ? WHERE id = ?",
                (WAITING if still_open else PLAYING, now_iso(), info.id),
            )
            if not still_open:
                now = self._info(c, info.id)
                queue_turn_notice(_run(c), now, self._match(c, now), user)
            return seat

    def append(
        self, table_id: str, user: str | None, move_id: str, expected: int, lease: str | None = None
    ) -> TableInfo:
        with self._tx() as c:
            info = self._info(c, table_id)
            if info.moves != expected:
                raise Stale(info.id, expected, info.moves)
            lease_ok = False
            if lease is not None:
                owner, until = c.execute(
                    "SELECT lease_owner, lease_until FROM bg_tables WHERE id = ?", (info.id,)
                ).fetchone()
                lease_ok = owner == lease and until >= time.time()
            match = self._match(c, info)
            seat = check_append(info, match, user, move_id, lease_ok)
            try:
                match.play(move_id)
            except Exception:
                self._cache.pop(info.id, None)
                raise
            try:
                prompt = match.prompt
                c.execute(
                    "INSERT INTO bg_moves (table_id, n, move_id, seat, user, at) VALUES (?,?,?,?,?,?)",
                    (
                        info.id,
                        expected + 1,
                        move_id,
                        seat,
                        user or info.seats[seat].kind,
                        now_iso(),
                    ),
                )
                c.execute(
                    "UPDATE bg_tables SET moves = moves + 1, rev = rev + 1, updated = ?, "
                    "status = ?, to_move_seat = ? WHERE id = ?",
                    (
                        now_iso(),
                        FINISHED if prompt is None else info.status,
                        None if prompt is None else prompt.seat,
                        info.id,
                    ),
                )
                done = self._info(c, info.id)
                queue_turn_notice(_run(c), done, match, user)
                return done
            except BaseException:
                self._cache.pop(info.id, None)  # the transaction is rolled back: so is the cache
                raise

    def undo(self, table_id: str, user: str, expected: int) -> TableInfo:
        with self._tx() as c:
            info = self._info(c, table_id)
            if info.moves != expected:
                raise Stale(info.id, expected, info.moves)
            match = self._match(c, info)
            check_undo(info, match, user)
            self._cache.pop(info.id, None)
            c.execute("DELETE FROM bg_moves WHERE table_id = ? AND n = ?", (info.id, info.moves))
            seat = match.steps[-1].seat
            c.execute(
                "UPDATE bg_tables SET moves = moves - 1, rev = rev + 1, updated = ?, "
                "status = ?, to_move_seat = ? WHERE id = ?",
                (now_iso(), PLAYING, seat, info.id),
            )
            return self._info(c, info.id)

    def take_lease(self, table_id: str, owner: str, seconds: float = LEASE_SECONDS) -> bool:
        now = time.time()
        with self._tx() as c:
            cur = c.execute(
                "UPDATE bg_tables SET lease_owner = ?, lease_until = ? WHERE id = ? AND "
                "(lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)",
                (owner, now + seconds, normalize_id(table_id), owner, now),
            )
            return cur.rowcount == 1

    def release_lease(self, table_id: str, owner: str) -> None:
        with self._tx() as c:
            c.execute(
                "UPDATE bg_tables SET lease_owner = NULL, lease_until = 0 WHERE id = ? AND "
                "lease_owner = ?",
                (normalize_id(table_id), owner),
            )

    def export_table(self, table_id: str) -> tuple[TableInfo, list[MoveRow]]:
        with self._tx(write=False) as c:
            info = self._info(c, table_id)
            rows = c.execute(
                "SELECT n, move_id, seat, user, at FROM bg_moves WHERE table_id = ? ORDER BY n",
                (info.id,),
            ).fetchall()
        return info, [(int(n), str(m), int(s), str(u), str(a)) for n, m, s, u, a in rows]

    def import_table(self, info: TableInfo, rows: Sequence[MoveRow], digest: str) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO bg_tables (id, game, seed, options, settings, creator, created, "
                "updated, status, moves, rev, to_move_seat) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    info.id,
                    info.game,
                    info.seed,
                    json.dumps(info.options),
                    json.dumps(info.settings),
                    info.creator,
                    info.created,
                    info.updated,
                    info.status,
                    info.moves,
                    info.rev,
                    info.to_move_seat,
                ),
            )
            c.executemany(
                "INSERT INTO bg_seats (table_id, seat, kind, user) VALUES (?,?,?,?)",
                [(info.id, s.seat, s.kind, s.user) for s in info.seats],
            )
            c.executemany(
                "INSERT INTO bg_moves (table_id, n, move_id, seat, user, at) VALUES (?,?,?,?,?,?)",
                [(info.id, *r) for r in rows],
            )
            stored = self._info(c, info.id)
            if table_digest(stored, self._move_ids(c, info.id)) != digest:
                raise StoreError(f"table {info.id} does not replay the same in {self.path}")

    def integrity(self) -> str:
        """`PRAGMA integrity_check`: "ok" for a sound file."""
        with self._errors():
            return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])


def _run(c: sqlite3.Connection) -> Run:
    return lambda q, p: c.execute(q, p).fetchall()


def _row_info(row: Sequence[Any], seats: Sequence[Sequence[Any]]) -> TableInfo:
    (tid, game, seed, options, settings, creator, created, updated, status, moves, rev, tm) = row
    return TableInfo(
        id=str(tid),
        game=str(game),
        seed=int(seed),
        options=json.loads(str(options)),
        settings=json.loads(str(settings)),
        creator=str(creator),
        created=str(created),
        updated=str(updated),
        status=str(status),
        moves=int(moves),
        rev=int(rev),
        to_move_seat=None if tm is None else int(tm),
        seats=tuple(SeatInfo(int(s), str(k), u) for s, k, u in seats),
    )
