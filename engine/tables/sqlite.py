"""The SQLite backend: one file shared by every process on the host (WAL, busy timeout).

Every change is one `BEGIN IMMEDIATE` transaction: it takes the write lock first, then reads
the table's move count, replays the match (cached per process, so usually only the new moves),
checks the move, inserts it and bumps the count. Two terminals racing therefore queue on the
lock, and the second one finds the count changed and gets `Stale`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..core import Match
from .results import RESULT_TABLES
from .sqlstore import Conflict, Sql, SQLStore
from .store import (
    CLOCK_TABLES,
    FORMAT,
    NOTICE_TABLES,
    SEED_TABLES,
    SOCIAL_TABLES,
    TALK_TARGETS,
    UNDO_CLOCK,
    NoStore,
    StoreUnavailable,
    normalize_id,
    upgrade_steps,
)

BUSY_SECONDS = 5.0
FULL_BYTES = 256 * 1024  # less free space than this, after an I/O error: the disk is full
SQLITE_FULL, SQLITE_IOERR = 13, 10
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
""" + ";\n".join(
    (
        *NOTICE_TABLES,
        *CLOCK_TABLES,
        *SOCIAL_TABLES,
        *SEED_TABLES,
        *UNDO_CLOCK,
        *RESULT_TABLES,
        *TALK_TARGETS,
    )
)


class SQLiteStore(SQLStore):
    """Tables in one SQLite file. `create_file`: make the file (and its folder) if missing;
    `busy`: how long to wait for another process's write before giving up."""

    # the writer's clock: SQLite has no server, so the process that writes reads the time
    NOW_SQL = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(
        self,
        path: str | Path,
        create_file: bool = True,
        busy: float = BUSY_SECONDS,
        shared_cache: bool = False,
        share_group: str | None = None,
    ) -> None:
        self.path = str(Path(path).expanduser())
        self.busy = busy
        p = Path(self.path)
        try:
            is_dir, exists = p.is_dir(), p.exists()
        except OSError as exc:  # a folder on the way that this user may not search
            raise StoreUnavailable(
                f"the table store {self.path} cannot be reached: {exc.strerror} (a folder on "
                "its path does not let you in: check its permissions, or choose another --store)"
            ) from None
        if is_dir:
            raise StoreUnavailable(f"{self.path} is a folder, not a table store")
        if not exists:
            if not create_file:
                raise NoStore(f"no table store at {self.path} (create a table first: `table new`)")
            _create(p, share_group)
        elif share_group is not None:
            _share(p, share_group)
        # the matches replayed, brought up to date on every read; `shared_cache`: shared with
        # this process's other stores of the same file (a script calling the command line
        # again and again then replays only the new moves)
        self._cache: dict[str, Match] = _CACHE.setdefault(self.path, {}) if shared_cache else {}
        self._synced = {}
        # what `version` last saw, per table ("" for all): (data_version and this
        # connection's commits, the rows' mark, the number returned)
        self._versions: dict[str, tuple[tuple[int, int], tuple[Any, ...], int]] = {}
        self._commits = 0
        # set when the disk is full: the store was opened to be read only, and says why
        self.read_only: str | None = None
        self._full = False
        with self._errors():
            self.conn = sqlite3.connect(
                self.path, timeout=busy, isolation_level=None, check_same_thread=False
            )
        try:
            with self._errors():
                self._setup()
        except BaseException:
            self.conn.close()
            if not (self._full and self._open_to_read()):
                raise

    def _open_to_read(self) -> bool:
        """The disk is full, so a new connection cannot make its shared-memory index (SQLite
        calls it a disk I/O error): open the file as it stands, to be read only. Only when
        no commit waits in the write-ahead log (a process that has one has the index already)."""
        wal = Path(self.path + "-wal")
        try:
            if wal.exists() and wal.stat().st_size > 0:
                return False
        except OSError:
            return False
        uri = f"file:{urllib.parse.quote(self.path)}?mode=ro&immutable=1"
        try:
            self.conn = sqlite3.connect(
                uri, uri=True, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error:
            return False
        try:
            with self._errors():
                row = self.conn.execute("SELECT value FROM bg_meta WHERE key='format'").fetchone()
                if upgrade_steps(row and row[0], self.path):  # an upgrade needs a write
                    raise StoreUnavailable(self._full_line())
        except BaseException:
            self.conn.close()
            raise
        self.read_only = self._full_line()
        return True

    def _full_line(self) -> str:
        return (
            f"the table store {self.path} cannot be changed: the disk is full (free some "
            "space, then try again; the tables can be read meanwhile)"
        )

    def _disk_full(self, exc: sqlite3.Error) -> bool:
        """SQLite's error means the disk is full: SQLITE_FULL, or an I/O error with next to
        no space left where the store lives."""
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code == SQLITE_FULL:
            return True
        if code != SQLITE_IOERR and "disk I/O" not in str(exc):
            return False
        try:
            st = os.statvfs(Path(self.path).parent)
        except OSError:
            return False
        return st.f_bavail * st.f_frsize < FULL_BYTES

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
            if self._disk_full(exc):
                self._full = True
                raise StoreUnavailable(self._full_line()) from None
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
            raise StoreUnavailable(f"the table store {self.path}: {msg}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreUnavailable(
                f"{self.path} is not a table store (not an SQLite database: {exc})"
            ) from None

    @contextlib.contextmanager
    def _tx(self, write: bool = True, snapshot: bool = False) -> Iterator[Sql]:
        """A change takes the file's write lock first (`BEGIN IMMEDIATE`): no row lock is
        needed after it. A read is a snapshot already (WAL)."""
        if write and self.read_only:
            raise StoreUnavailable(self.read_only)
        with self._errors():
            self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SQLite(self.conn)
            except BaseException:
                # SQLite may have rolled back already (a full disk does): the error that
                # ended the transaction is the one to report
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
            if write:
                self._commits += 1

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
                self._after_upgrade(tx, int(found[0]) if found else FORMAT)
                tx("UPDATE bg_meta SET value = ? WHERE key = 'format'", (str(FORMAT),))

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def version(self, table_id: str | None = None) -> int:
        """`PRAGMA data_version` (the other connections' commits) with this connection's own
        commits: while neither moved, nothing is read; after, the table's revision (or the
        tables' count and revisions) says whether the tables changed, not just the file (a
        session saying it is here, a look recorded)."""
        with self._errors():
            at = (int(self.conn.execute("PRAGMA data_version").fetchone()[0]), self._commits)
            key = "" if table_id is None else normalize_id(table_id)
            seen = self._versions.get(key)
            if seen is not None and seen[0] == at:
                return seen[2]
            if table_id is None:
                row = self.conn.execute(
                    "SELECT count(*), coalesce(sum(rev), 0), coalesce(max(updated), '') "
                    "FROM bg_tables"
                ).fetchone()
            else:
                row = self.conn.execute("SELECT rev FROM bg_tables WHERE id = ?", (key,)).fetchone()
            mark = tuple(row) if row else ()
            n = 0 if seen is None else seen[2] + (seen[1] != mark)
            self._versions[key] = (at, mark, n)
            return n

    def reopen(self) -> SQLiteStore:
        return SQLiteStore(self.path, create_file=False, busy=self.busy)

    def integrity(self) -> str:
        """`PRAGMA integrity_check`: "ok" for a sound file."""
        with self._errors():
            return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])


# who may open the file: its owner only, unless a group is asked for (a folder of its own,
# setgid so that the -wal and -shm files SQLite makes there belong to the group too)
PRIVATE = (0o700, 0o600)
GROUP_SHARED = (0o2770, 0o660)


def _group_id(group: str) -> int:
    import grp

    try:
        return int(group) if group.isdigit() else grp.getgrnam(group).gr_gid
    except KeyError:
        raise StoreUnavailable(f"--share-group {group}: there is no such group") from None


def _create(p: Path, group: str | None) -> None:
    """The store's file (and its folder, if missing): owner-only, or shared with `group`."""
    gid = None if group is None else _group_id(group)
    folder_mode, file_mode = PRIVATE if gid is None else GROUP_SHARED
    try:
        if not p.parent.exists():
            p.parent.mkdir(parents=True, mode=folder_mode)
            _own(p.parent, folder_mode, gid)
        try:
            os.close(os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, file_mode))
        except FileExistsError:  # another process made it first: theirs stands
            return
        _own(p, file_mode, gid)
    except OSError as exc:
        raise StoreUnavailable(
            f"cannot create the table store {p}: {exc.strerror or exc}"
            + ("" if gid is None else f" (to share it with group {group}, be a member of it)")
        ) from None


def _share(p: Path, group: str) -> None:
    """An existing store of this account's given to `group` (file 0660, folder 2770)."""
    gid = _group_id(group)
    try:
        if p.stat().st_uid != os.geteuid():
            raise StoreUnavailable(f"--share-group {group}: the table store {p} is not yours")
        if p.parent.stat().st_uid == os.geteuid():
            _own(p.parent, GROUP_SHARED[0], gid)
        for f in (p, Path(f"{p}-wal"), Path(f"{p}-shm")):
            if f.exists():
                _own(f, GROUP_SHARED[1], gid)
    except OSError as exc:
        raise StoreUnavailable(
            f"cannot share the table store {p} with group {group}: {exc.strerror or exc} "
            "(be a member of the group)"
        ) from None


def _own(path: Path, mode: int, gid: int | None) -> None:
    if gid is not None:
        os.chown(path, -1, gid)
    os.chmod(path, mode)  # after chown (which clears setgid), and whatever the umask


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
