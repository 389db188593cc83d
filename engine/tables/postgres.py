"""The PostgreSQL backend (psycopg 3): one server shared by every host of a room.

The same tables as the SQLite file, in a schema of their own (`?schema=NAME` in the address,
default `boardgames`). Every change is one transaction that first locks the table's row
(`SELECT … FOR UPDATE`), so moves at different tables never wait for each other, and then
applies the same `check_append` / `check_undo` / lease rules as SQLite. A trigger NOTIFYs the
table id when a table changes; `version()` reads those notifications without a round trip
and, because NOTIFY is best-effort, also polls a fingerprint every few seconds.

Trust: any process that can replay a table can read every hand, so only a room's hosts read
the tables: the owner of the schema and roles with BYPASSRLS (one service role per host).
Every table is under row-level security with no policy for anyone else: a player's role, if
one exists, reads no move and no seed and writes nothing but its own notification targets,
and the app refuses to open the store as one (players are named by the room: ssh keys).
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pgerr
from psycopg import sql
from psycopg.conninfo import make_conninfo

from ..core import Match
from .sqlstore import Conflict, Sql, SQLStore
from .store import (
    CLOCK_TABLES,
    FORMAT,
    NOTICE_TABLES,
    SOCIAL_TABLES,
    Disconnected,
    NoStore,
    Refused,
    StoreError,
    StoreUnavailable,
    normalize_id,
    upgrade_steps,
)

BUSY_SECONDS = 5.0  # lock_timeout: a row held longer than this by another session
CONNECT_SECONDS = 3.0
RETRY_SECONDS = 1.0  # after a failed connection, calls fail at once for this long
POLL_SECONDS = 2.0  # the fallback for a missed notification
DEFAULT_SCHEMA = "boardgames"
APP_NAME = "boardgames-tui"  # how the connections show in pg_stat_activity
_CACHE: dict[str, dict[str, Match]] = {}
# what `_setup` found for `shared_cache` stores of this process (a script calling the
# command line again and again sets up once): (role, where the targets' numbers are read)
_READY: dict[str, tuple[str, str]] = {}
_NO_TX = psycopg.pq.TransactionStatus.IDLE


class _Link:
    """What every store of this process on one schema shares: one connection for queries
    (one transaction at a time), one that LISTENs, and what the notifications said. A room
    session has several stores (its screens, its turn watch, a table's watch thread): each
    with connections of its own, 200 sessions would need more than a server allows."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.stores = 0  # the open stores using it
        self.conn: psycopg.Connection[Any] | None = None
        self.lock = threading.Lock()  # held by the transaction using `conn`
        self.owner: int | None = None  # the thread in a transaction on `conn`
        self.listener: psycopg.Connection[Any] | None = None
        # the listener is read by one thread at a time (`reader`); the others wait on `news`
        self.news = threading.Condition()
        self.reader: int | None = None
        self.version = 0
        self.resets = 0  # reconnections and missed notifications: any table may have changed
        self.bumps: dict[str, int] = {}  # table id -> its notifications
        self.fingerprint: tuple[int, int] | None = None
        self.next_poll = 0.0

    def notified(self, table_id: str) -> None:
        self.version += 1
        self.bumps[table_id] = self.bumps.get(table_id, 0) + 1


_LINKS: dict[tuple[str, str], _Link] = {}
_LINKS_LOCK = threading.Lock()


def _link(conninfo: str, schema: str) -> _Link:
    """This process's link to the schema (a forked child makes its own: a connection is
    never used by two processes)."""
    with _LINKS_LOCK:
        link = _LINKS.get((conninfo, schema))
        if link is None or link.pid != os.getpid():
            link = _LINKS[(conninfo, schema)] = _Link()
        link.stores += 1
        return link


PLAY_POLICY = (
    # (format 3-5, players as their own roles) a move at a person's seat by that person; at
    # a computer seat as its level; or by the computer for a person who is absent or out of
    # time; dropped by format 6 with every other policy that let a player's role read or write
    """CREATE POLICY bg_play ON bg_moves FOR INSERT WITH CHECK (
    EXISTS (SELECT 1 FROM bg_seats s WHERE s.table_id = bg_moves.table_id
            AND s.seat = bg_moves.seat
            AND ((s.kind = 'human' AND s."user" = current_user AND bg_moves."user" = current_user)
                 OR (s.kind = 'human' AND bg_moves."user" = 'autopilot')
                 OR (s.kind <> 'human' AND bg_moves."user" = s.kind))))""",
)
# 5 -> 6: only hosts read the tables. Any role that can read the moves and the seed can
# replay a table and read every hand, so no policy lets a role that is not a host (the
# owner, a superuser, a BYPASSRLS role) read or write anything but its own notification
# targets and read the messages owed to it: row-level security on every table, with the
# players' policies of formats 3-5 dropped (reading moves and seeds, moving, joining,
# undoing, changing a table's row, owing another player a message)
HOSTS_ONLY = (
    *(
        f"DROP POLICY IF EXISTS {policy} ON {table}"
        for table, policy in (
            ("bg_tables", "bg_read"),
            ("bg_tables", "bg_create"),
            ("bg_tables", "bg_change"),
            ("bg_seats", "bg_read"),
            ("bg_seats", "bg_seat"),
            ("bg_seats", "bg_join"),
            ("bg_moves", "bg_read"),
            ("bg_moves", "bg_undo"),
            ("bg_moves", "bg_play"),
            ("bg_notices", "bg_own_change"),
            ("bg_notices", "bg_own_forget"),
            ("bg_notices", "bg_owe"),
        )
    ),
    *(
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY"
        for table in (
            "bg_meta",
            "bg_tables",
            "bg_seats",
            "bg_moves",
            "bg_clocks",
            "bg_away",
            "bg_prefs",
            "bg_events",
            "bg_offers",
            "bg_rematches",
            "bg_invites",
            "bg_talk",
            "bg_talkers",
        )
    ),
)
# this backend's own steps after the shared ones of the same number (store.UPGRADES)
PG_UPGRADES = {
    3: ("DROP POLICY IF EXISTS bg_play ON bg_moves", *PLAY_POLICY),
    5: HOSTS_ONLY,
    # the view of the targets' numbers shows which take the talk
    8: (
        "DO $$ BEGIN IF to_regclass('bg_target_numbers') IS NOT NULL THEN "
        'CREATE OR REPLACE VIEW bg_target_numbers AS SELECT "user", n, talk FROM bg_targets; '
        "END IF; END $$",
    ),
}
SCHEMA_FORMAT = 5  # the format SCHEMA writes: a new store is then upgraded like an old one


# the tables of format SCHEMA_FORMAT (row-level security comes with the upgrade to 6)
SCHEMA = """
CREATE TABLE bg_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE bg_tables (
    id text PRIMARY KEY,
    game text NOT NULL,
    seed bigint NOT NULL,
    options text NOT NULL,
    settings text NOT NULL,
    creator text NOT NULL,
    created text NOT NULL,
    updated text NOT NULL,
    status text NOT NULL,
    moves integer NOT NULL DEFAULT 0,
    rev integer NOT NULL DEFAULT 0,
    to_move_seat integer,
    lease_owner text,
    lease_until double precision NOT NULL DEFAULT 0
);
CREATE TABLE bg_seats (
    table_id text NOT NULL REFERENCES bg_tables(id),
    seat integer NOT NULL,
    kind text NOT NULL,
    "user" text,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX bg_seats_user ON bg_seats ("user");
CREATE TABLE bg_moves (
    table_id text NOT NULL REFERENCES bg_tables(id),
    n integer NOT NULL,
    move_id text NOT NULL,
    seat integer NOT NULL,
    "user" text NOT NULL,
    at text NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX bg_tables_updated ON bg_tables (updated);
CREATE FUNCTION bg_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.bg_tables', NEW.id);
    RETURN NULL;
END $$;
CREATE TRIGGER bg_tables_new AFTER INSERT ON bg_tables
    FOR EACH ROW EXECUTE FUNCTION bg_notify();
CREATE TRIGGER bg_tables_changed AFTER UPDATE ON bg_tables
    FOR EACH ROW WHEN (OLD.rev IS DISTINCT FROM NEW.rev) EXECUTE FUNCTION bg_notify();
""" + ";\n".join((*NOTICE_TABLES, *CLOCK_TABLES, *SOCIAL_TABLES))

# A notification target's URL may hold a secret (a webhook token, a mail password): a role
# that is not a host sees and changes its own targets only, and reads (never writes) the
# messages owed to it. A move owes the next player a message through the view of the
# targets' numbers (without their URLs). Added to a store made before them when its owner
# opens it (`_notice_policies`).
TARGET_NUMBERS = "bg_target_numbers"
NOTICE_POLICIES = f"""
CREATE VIEW {TARGET_NUMBERS} AS SELECT "user", n, talk FROM bg_targets;
ALTER TABLE bg_targets ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_own ON bg_targets FOR ALL USING ("user" = current_user)
    WITH CHECK ("user" = current_user);
ALTER TABLE bg_notices ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_own ON bg_notices FOR SELECT USING ("user" = current_user);
"""


def player_role_line(path: str, role: str) -> str:
    """Why the app does not open a store as a role that is not one of the room's hosts."""
    return (
        f"the table store {path}: role {role} is not a host of this room (only hosts read the "
        "tables: whoever can replay a table can read every hand); play through the room "
        "(boardgames-tui serve, docs/ssh.md), or have the host make this role one (docs/tables.md)"
    )


def split_address(url: str) -> tuple[str, str, str]:
    """(the URL psycopg is given, the schema, the URL as shown: no password)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), DEFAULT_SCHEMA)
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    conninfo = urlunsplit(parts._replace(query=rest))
    netloc = parts.netloc
    if "@" in netloc:
        cred, host = netloc.rsplit("@", 1)
        netloc = f"{cred.split(':', 1)[0]}@{host}"
    shown = urlunsplit(parts._replace(netloc=netloc, query=urlencode([("schema", schema)])))
    return conninfo, schema, shown


class PostgresStore(SQLStore):
    """Tables in one PostgreSQL schema. `create_file`: create the schema if it is missing;
    `busy`: how long to wait for a table's row held by another session."""

    ROW_LOCK = " FOR UPDATE"
    NOW_SQL = "extract(epoch FROM clock_timestamp())::float8"  # the server's clock

    def __init__(
        self,
        url: str,
        create_file: bool = True,
        busy: float = BUSY_SECONDS,
        shared_cache: bool = False,
        connect_timeout: float = CONNECT_SECONDS,
    ) -> None:
        self.url = url
        self.conninfo, self.schema, self.path = split_address(url)
        if not self.schema.replace("_", "").isalnum():
            raise StoreUnavailable(f"{self.path}: a schema name is letters, digits and '_'")
        self.busy = busy
        self.connect_timeout = connect_timeout
        self._cache: dict[str, Match] = _CACHE.setdefault(self.path, {}) if shared_cache else {}
        self._synced = {}
        self._retry_at = 0.0
        self._seen = 0  # the notifications' count when `version` last looked
        self.role = ""
        self.shared = shared_cache
        self._link: _Link | None = _link(self.conninfo, self.schema)
        if shared_cache and self.path in _READY:
            self.role, self.TARGET_NUMBERS = _READY[self.path]
            return
        try:
            self._setup(create_file)
        except BaseException:
            self.close()
            raise
        if shared_cache:
            _READY[self.path] = (self.role, self.TARGET_NUMBERS)

    @property
    def conn(self) -> psycopg.Connection[Any] | None:
        """The connection for queries (this process's, for this schema)."""
        return None if self._link is None else self._link.conn

    @conn.setter
    def conn(self, value: psycopg.Connection[Any] | None) -> None:
        if self._link is not None:
            self._link.conn = value

    @property
    def _listener(self) -> psycopg.Connection[Any] | None:
        """The connection that LISTENs (this process's, for this schema)."""
        return None if self._link is None else self._link.listener

    # ---- plumbing ------------------------------------------------------------------------
    def _connect(self) -> psycopg.Connection[Any]:
        now = time.monotonic()
        if now < self._retry_at:
            raise Disconnected(f"the table store {self.path} is unreachable: reconnecting…")
        try:
            info = self.conninfo
            if "application_name" not in info:
                info = make_conninfo(info, application_name=APP_NAME)
            conn = psycopg.connect(
                info, autocommit=True, connect_timeout=max(1, round(self.connect_timeout))
            )
        except psycopg.OperationalError as exc:
            self._retry_at = now + RETRY_SECONDS
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            raise Disconnected(
                f"the table store {self.path} is unreachable ({first}): reconnecting…"
            ) from None
        conn.prepare_threshold = None  # nothing is prepared: batches are bound by the client
        try:
            conn.execute(
                "SELECT set_config('search_path', %s, false), "
                "set_config('lock_timeout', %s, false)",
                (sql.Identifier(self.schema).as_string(conn), f"{int(self.busy * 1000)}ms"),
            )
        except psycopg.Error:
            conn.close()
            raise
        return conn

    def _linked(self) -> _Link:
        """The process's link (a store used again after `close` takes it up again)."""
        if self._link is None:
            self._link = _link(self.conninfo, self.schema)
        return self._link

    def _conn(self) -> psycopg.Connection[Any]:
        self._linked()
        if self.conn is None or self.conn.closed or self.conn.broken:
            self._drop(self.conn)
            self.conn = self._connect()
        return self.conn

    @contextlib.contextmanager
    def _using(self) -> Iterator[psycopg.Connection[Any]]:
        """The process's connection for one transaction, the other threads' waiting for
        it; a transaction begun inside another of the same thread's gets one of its own."""
        link = self._linked()
        me = threading.get_ident()
        if link.owner == me:
            conn = self._connect()
            try:
                yield conn
            finally:
                self._drop(conn)
            return
        with link.lock:
            link.owner = me
            try:
                yield self._conn()
            finally:
                link.owner = None

    @staticmethod
    def _drop(conn: psycopg.Connection[Any] | None) -> None:
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """The server's errors as one sentence naming the store."""
        try:
            yield
        except (pgerr.LockNotAvailable, pgerr.QueryCanceled):
            raise StoreUnavailable(
                f"the table store {self.path} is busy: another session held the table for more "
                f"than {self.busy:g} s; try again"
            ) from None
        except (pgerr.UniqueViolation, pgerr.SerializationFailure, pgerr.DeadlockDetected):
            raise Conflict(
                f"the table store {self.path}: another session changed the table at the same "
                "moment; try again"
            ) from None
        except pgerr.InsufficientPrivilege as exc:
            raise Refused(
                f"the table store refused it: role {self.role or '?'} may not do that "
                f"({_first_line(exc)})"
            ) from None
        except psycopg.OperationalError as exc:
            if self.conn is not None and (self.conn.closed or self.conn.broken):
                self._drop(self.conn)
                self.conn = None
                raise Disconnected(
                    f"the table store {self.path} was lost ({_first_line(exc)}): reconnecting…"
                ) from None
            raise StoreUnavailable(f"the table store {self.path}: {_first_line(exc)}") from None
        except psycopg.InterfaceError as exc:
            self._drop(self.conn)
            self.conn = None
            raise Disconnected(
                f"the table store {self.path} was lost ({_first_line(exc)}): reconnecting…"
            ) from None
        except psycopg.Error as exc:
            raise StoreUnavailable(f"the table store {self.path}: {_first_line(exc)}") from None

    @contextlib.contextmanager
    def _cursor(self) -> Iterator[psycopg.Cursor[Any]]:
        """One transaction, on a cursor (the schema's own statements)."""
        with self._errors(), self._using() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    @contextlib.contextmanager
    def _tx(self, write: bool = True, snapshot: bool = False) -> Iterator[Sql]:
        """A change locks the rows it reads FOR UPDATE (`ROW_LOCK`); `snapshot`: one view
        of the whole transaction (the default isolation is per statement). Its statements
        go in batches (`_Batched`): BEGIN with the first, the changes with the COMMIT."""
        begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if snapshot else "BEGIN"
        with self._errors(), self._using() as conn:
            q = _Batched(conn, begin)
            try:
                yield q
                q.commit()
            except BaseException:
                conn = q.cur.connection
                if not conn.closed and conn.info.transaction_status != _NO_TX:
                    with contextlib.suppress(psycopg.Error):
                        conn.execute("ROLLBACK")
                raise
            finally:
                q.cur.close()

    def _setup(self, create: bool) -> None:
        with self._cursor() as c:
            c.execute("SELECT current_user")
            self.role = str(_one(c)[0])
            c.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (self.schema,),
            )
            names = {r[0] for r in c.fetchall()}
            if names and "bg_meta" not in names:
                raise StoreUnavailable(f"{self.path}: schema {self.schema} is not a table store")
            if not names:
                if not create:
                    raise NoStore(
                        f"no table store at {self.path} (create a table first: `table new`)"
                    )
                # two processes creating the store at once: the second waits, then finds it
                c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))
                c.execute("SELECT to_regclass(%s)", (f"{self.schema}.bg_meta",))
                if _one(c)[0] is None:
                    c.execute(
                        sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
                            sql.Identifier(self.schema)
                        )
                    )
                    c.execute(SCHEMA.encode())
                    # the view as format SCHEMA_FORMAT had it (the talk column comes with 9)
                    c.execute(NOTICE_POLICIES.replace(", talk FROM", " FROM").encode())
                    c.execute("INSERT INTO bg_meta VALUES ('format', %s)", (str(SCHEMA_FORMAT),))
            elif "bg_moves" in names:  # before anything else: one line, nothing changed
                c.execute("SELECT row_security_active('bg_moves')")
                if _one(c)[0]:
                    raise StoreUnavailable(player_role_line(self.path, self.role))
        with self._cursor() as c:
            c.execute("SELECT value FROM bg_meta WHERE key = 'format'")
            row = c.fetchone()
        if upgrade_steps(row and row[0], self.path):
            with self._cursor() as c:  # an older store: upgraded in place, all or nothing
                # one upgrader at a time, holding no lock on the tables it alters while it
                # waits (a reader of bg_meta waiting for its row would deadlock with ALTER)
                c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))
                c.execute("SELECT value FROM bg_meta WHERE key = 'format'")
                row = c.fetchone()
                for stmt in upgrade_steps(row and row[0], self.path, PG_UPGRADES):
                    c.execute(stmt.encode())
                self._after_upgrade(_Postgres(c), int(row[0]) if row else FORMAT)
                c.execute("UPDATE bg_meta SET value = %s WHERE key = 'format'", (str(FORMAT),))
        self._notice_policies()
        self._hosts_only()

    def _hosts_only(self) -> None:
        """Row-level security on every table of the schema, a table added later included
        (a future format's, one made by hand): a role that is not a host gets no row of a
        table no policy opens to it."""
        with self._cursor() as c:
            c.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s AND NOT rowsecurity "
                "AND pg_has_role(tableowner, 'USAGE')",
                (self.schema,),
            )
            for (table,) in c.fetchall():
                c.execute(
                    sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(
                        sql.Identifier(table)
                    )
                )

    def _notice_policies(self) -> None:
        """The targets' view and policies on a store made before them, added by its owner."""
        with self._cursor() as c:
            c.execute("SELECT to_regclass(%s)", (f"{self.schema}.{TARGET_NUMBERS}",))
            if _one(c)[0] is not None:
                self.TARGET_NUMBERS = TARGET_NUMBERS
                return
            c.execute(
                "SELECT pg_has_role(tableowner, 'USAGE') FROM pg_tables "
                "WHERE schemaname = %s AND tablename = 'bg_targets'",
                (self.schema,),
            )
            row = c.fetchone()
            if not (row and row[0]):
                return
            c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))
            c.execute("SELECT to_regclass(%s)", (f"{self.schema}.{TARGET_NUMBERS}",))
            if _one(c)[0] is None:
                c.execute(NOTICE_POLICIES.encode())
            self.TARGET_NUMBERS = TARGET_NUMBERS

    def _role_name(self) -> str:
        return f"role {self.role}"

    def close(self) -> None:
        link, self._link = self._link, None
        if link is None:
            return
        with _LINKS_LOCK:
            link.stores -= 1
            if link.stores > 0:
                return
            if _LINKS.get((self.conninfo, self.schema)) is link and not self.shared:
                del _LINKS[(self.conninfo, self.schema)]
        conn, lis = link.conn, link.listener
        link.listener = None
        self._drop(lis)
        if not (
            self.shared
            and conn is not None
            and not conn.closed
            and not conn.broken
            and conn.info.transaction_status == _NO_TX
        ):  # (a `shared_cache` store leaves its connection to the process's next one)
            link.conn = None
            self._drop(conn)

    def version(self, table_id: str | None = None) -> int:
        """Bumped by every notification, by a changed fingerprint (polled every few seconds)
        and by a reconnection (notifications may have been missed); given `table_id`, by
        that table's notifications and by what may have missed one (no round trip)."""
        link = self._listen()
        with link.news:
            if link.reader is None:  # nobody waits on the socket: read what arrived
                link.reader = threading.get_ident()
                try:
                    self._drain(link)
                finally:
                    link.reader = None
                    link.news.notify_all()
            self._seen = link.version
            if table_id is None:
                return link.version
            return (link.resets << 32) + link.bumps.get(normalize_id(table_id), 0)

    def reopen(self) -> PostgresStore:
        return PostgresStore(
            self.url, create_file=False, busy=self.busy, connect_timeout=self.connect_timeout
        )

    def wait(self, seconds: float) -> None:
        """Until a notification arrives (or `seconds` pass) since `version` last looked: no
        round trip. One thread of the process waits on the listener's socket; the others
        are told by it."""
        link = self._link
        lis = None if link is None else link.listener
        if link is None or lis is None or lis.closed or lis.broken:
            time.sleep(seconds)
            return
        end = time.monotonic() + seconds
        with link.news:
            while link.version == self._seen:
                left = end - time.monotonic()
                if left <= 0:
                    return
                if link.reader is None:
                    link.reader = threading.get_ident()
                    break
                link.news.wait(left)
            else:
                return
        try:
            try:
                ready = select.select([lis.pgconn.socket], [], [], left)[0]
            except (OSError, ValueError, psycopg.OperationalError):  # the link is lost
                ready = []
                time.sleep(max(0.0, end - time.monotonic()))  # asked again after the wait
            if ready:
                with link.news, contextlib.suppress(StoreError):
                    self._drain(link, poll=False)
        finally:
            with link.news:
                link.reader = None
                link.news.notify_all()

    def _listen(self) -> _Link:
        """The link, its listener connected (LISTEN) if it was not."""
        link = self._linked()
        with self._errors(), link.news:
            lis = link.listener
            if lis is None or lis.closed or lis.broken:
                self._drop(lis)
                link.listener = None
                lis = self._connect()
                lis.add_notify_handler(lambda n: link.notified(n.payload))
                lis.execute(sql.SQL("LISTEN {}").format(sql.Identifier(f"{self.schema}.bg_tables")))
                link.listener = lis
                link.version += 1
                link.resets += 1
                link.next_poll = 0.0
                link.news.notify_all()
        return link

    def _drain(self, link: _Link, poll: bool = True) -> None:
        """What has arrived on the listener, without a round trip; `poll`: the fingerprint
        too when it is due. By the thread that is `link.reader`."""
        lis = link.listener
        if lis is None:
            return
        try:
            # twice: a session cut by the server reads as its error message first, then as
            # the closed socket
            lis.pgconn.consume_input()
            lis.pgconn.consume_input()
            while (note := lis.pgconn.notifies()) is not None:
                link.notified(note.extra.decode(errors="replace"))
            if lis.pgconn.status != psycopg.pq.ConnStatus.OK:
                raise psycopg.OperationalError("the connection was closed by the server")
            now = time.monotonic()
            if poll and now >= link.next_poll:
                link.next_poll = now + POLL_SECONDS
                row = lis.execute(
                    "SELECT count(*), coalesce(sum(rev), 0) FROM bg_tables"
                ).fetchone()
                fp = (int(row[0]), int(row[1])) if row else (0, 0)
                if fp != link.fingerprint:
                    link.fingerprint = fp
                    link.version += 1
                    link.resets += 1  # a notification may have been missed
        except psycopg.Error as exc:
            self._drop(lis)
            link.listener = None
            raise Disconnected(
                f"the table store {self.path} was lost ({_first_line(exc)}): reconnecting…"
            ) from None


def _one(c: psycopg.Cursor[Any]) -> Any:
    row = c.fetchone()
    assert row is not None
    return row


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _Postgres(Sql):
    """The shared SQL on a psycopg cursor (`?` becomes `%s`)."""

    def __init__(self, cur: psycopg.Cursor[Any]) -> None:
        self.cur = cur

    def __call__(self, q: str, p: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.cur.execute(q.replace("?", "%s").encode(), p or None)
        return self.cur.fetchall() if self.cur.description else []

    def many(self, q: str, rows: Iterable[Sequence[Any]]) -> None:
        self.cur.executemany(q.replace("?", "%s").encode(), rows)

    def count(self, q: str, p: Sequence[Any] = ()) -> int:
        self.cur.execute(q.replace("?", "%s").encode(), p or None)
        return self.cur.rowcount


class _Batched(Sql):
    """The shared SQL of one transaction in as few round trips as it can (each one costs two
    wake-ups, and a change holds its table's row lock across them): a change whose result
    nobody reads (a write without RETURNING) waits to go with the next statement whose rows
    are read, or with the COMMIT; `each` sends several reads at once. The statements are
    bound by the client (psycopg's quoting) so that a batch is one simple query."""

    def __init__(self, conn: psycopg.Connection[Any], begin: str) -> None:
        self.cur: psycopg.ClientCursor[Any] = psycopg.ClientCursor(conn)
        self.begin = begin
        self.pending = [begin]

    def _bind(self, q: str, p: Sequence[Any]) -> str:
        return self.cur.mogrify(q.replace("?", "%s"), p or None)

    def _send(self, stmts: Sequence[str]) -> list[list[tuple[Any, ...]]]:
        """What is pending and `stmts`, as one query: the rows of each of `stmts`."""
        batch, self.pending = [*self.pending, *stmts], []
        self.cur.execute("; ".join(batch))
        out = []
        for k in range(len(batch)):
            if k >= len(batch) - len(stmts):
                res = self.cur.pgresult  # (not `description`: it builds every column anew)
                rows = res is not None and res.status == psycopg.pq.ExecStatus.TUPLES_OK
                out.append(self.cur.fetchall() if rows else [])
            if k < len(batch) - 1:
                self.cur.nextset()
        return out

    def __call__(self, q: str, p: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        stmt = self._bind(q, p)
        if _deferrable(q):
            self.pending.append(stmt)
            return []
        return self._send([stmt])[0]

    def each(self, stmts: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple[Any, ...]]]:
        return self._send([self._bind(q, p) for q, p in stmts])

    def many(self, q: str, rows: Iterable[Sequence[Any]]) -> None:
        self.pending.extend(self._bind(q, r) for r in rows)

    def count(self, q: str, p: Sequence[Any] = ()) -> int:
        self._send([self._bind(q, p)])
        return self.cur.rowcount

    def commit(self) -> None:
        """The changes still pending, and COMMIT (nothing at all if nothing was sent)."""
        if self.pending != [self.begin]:
            self._send(["COMMIT"])
        self.pending = []


def _deferrable(q: str) -> bool:
    """A change whose result nobody reads: it may wait for the next round trip."""
    head = q.lstrip()[:6].upper()
    return head in ("INSERT", "UPDATE", "DELETE") and "RETURNING" not in q.upper()
