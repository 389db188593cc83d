"""The SQLite backend: one file shared by every process on the host (WAL, busy timeout).

Every change is one `BEGIN IMMEDIATE` transaction: it takes the write lock first, then reads
the table's move count, replays the match (cached per process, so usually only the new moves),
checks the move, inserts it and bumps the count. Two terminals racing therefore queue on the
lock, and the second one finds the count changed and gets `Stale`.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..core import Match
from .sqlstore import Conflict, Sql, SQLStore
from .store import FORMAT, NOTICE_TABLES, SOCIAL_TABLES, StoreUnavailable, upgrade_steps

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
""" + ";\n".join((*NOTICE_TABLES, *SOCIAL_TABLES))


class SQLiteStore(SQLStore):
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
        except sqlite3.IntegrityError:  # not reached while BEGIN IMMEDIATE serializes writers
            raise Conflict(
                f"the table store {self.path}: another process changed the table at the same "
                "moment; try again"
            ) from None
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
    def _tx(self, write: bool = True, snapshot: bool = False) -> Iterator[Sql]:
        """A change takes the file's write lock first (`BEGIN IMMEDIATE`): no row lock is
        needed after it. A read is a snapshot already (WAL)."""
        with self._errors():
            self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SQLite(self.conn)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

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
                known = {r[0] for r in tx("SELECT name FROM sqlite_master")}
                if "bg_meta" not in known:  # another process may have won the race
                    for stmt in SCHEMA.split(";"):
                        if stmt.strip():
                            tx(stmt)
                    tx("INSERT INTO bg_meta VALUES ('format', ?)", (str(FORMAT),))
        row = c.execute("SELECT value FROM bg_meta WHERE key='format'").fetchone()
        if upgrade_steps(row and row[0], self.path):
            with self._tx() as tx:  # an older store: upgraded in place, all or nothing
                found = tx.one("SELECT value FROM bg_meta WHERE key='format'")
                for stmt in upgrade_steps(found[0] if found else None, self.path):
                    tx(stmt)
                tx("UPDATE bg_meta SET value = ? WHERE key = 'format'", (str(FORMAT),))

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def version(self) -> int:
        with self._errors():
            return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def integrity(self) -> str:
        """`PRAGMA integrity_check`: "ok" for a sound file."""
        with self._errors():
            return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])


class _SQLite(Sql):
    """The shared SQL on a SQLite connection (it reads `?` and `"user"` as they are)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __call__(self, q: str, p: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(q, p).fetchall()

    def many(self, q: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(q, rows)

    def count(self, q: str, p: Sequence[Any] = ()) -> int:
        return self.conn.execute(q, p).rowcount
