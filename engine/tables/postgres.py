"""The PostgreSQL backend (psycopg 3): one server shared by every host of a room.

The same tables as the SQLite file, in a schema of their own (`?schema=NAME` in the address,
default `boardgames`). Every change is one transaction that first locks the table's row
(`SELECT … FOR UPDATE`), so moves at different tables never wait for each other, and then
applies the same `check_append` / `check_undo` / lease rules as SQLite. A trigger NOTIFYs the
table id when a table changes; `version()` reads those notifications without a round trip
and, because NOTIFY is best-effort, also polls a fingerprint every few seconds.

Identity: when players connect as their own roles, row-level security makes the server
refuse a move, join or undo in another user's name; the owner of the schema (the room's
service role) is exempt, as PostgreSQL exempts a table's owner.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pgerr
from psycopg import sql

from ..core import Match
from .sqlstore import Conflict, Sql, SQLStore
from .store import (
    CLOCK_TABLES,
    FORMAT,
    NOTICE_TABLES,
    SOCIAL_TABLES,
    UNDO_CLOCK,
    Disconnected,
    NoStore,
    Refused,
    StoreUnavailable,
    upgrade_steps,
)

BUSY_SECONDS = 5.0  # lock_timeout: a row held longer than this by another session
CONNECT_SECONDS = 3.0
RETRY_SECONDS = 1.0  # after a failed connection, calls fail at once for this long
POLL_SECONDS = 2.0  # the fallback for a missed notification
DEFAULT_SCHEMA = "boardgames"
_CACHE: dict[str, dict[str, Match]] = {}
# `shared_cache` stores of this process hand their connection on (a script calling the
# command line again and again then connects once), with what `_setup` found: (role, rls,
# where the targets' numbers are read)
_IDLE: dict[str, psycopg.Connection[Any]] = {}
_READY: dict[str, tuple[str, bool, str]] = {}

PLAY_POLICY = (
    # a move at a person's seat by that person; at a computer seat as its level; or by the
    # computer for a person who is absent or out of time ("autopilot", played by any process
    # holding the table's lease, as a computer seat's move is)
    """CREATE POLICY bg_play ON bg_moves FOR INSERT WITH CHECK (
    EXISTS (SELECT 1 FROM bg_seats s WHERE s.table_id = bg_moves.table_id
            AND s.seat = bg_moves.seat
            AND ((s.kind = 'human' AND s."user" = current_user AND bg_moves."user" = current_user)
                 OR (s.kind = 'human' AND bg_moves."user" = 'autopilot')
                 OR (s.kind <> 'human' AND bg_moves."user" = s.kind))))""",
)
# this backend's own steps after the shared ones of the same number (store.UPGRADES)
PG_UPGRADES = {3: ("DROP POLICY bg_play ON bg_moves", *PLAY_POLICY)}


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
ALTER TABLE bg_tables ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_read ON bg_tables FOR SELECT USING (true);
CREATE POLICY bg_create ON bg_tables FOR INSERT WITH CHECK (creator = current_user);
CREATE POLICY bg_change ON bg_tables FOR UPDATE USING (true);
ALTER TABLE bg_seats ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_read ON bg_seats FOR SELECT USING (true);
CREATE POLICY bg_seat ON bg_seats FOR INSERT WITH CHECK (
    EXISTS (SELECT 1 FROM bg_tables t WHERE t.id = table_id AND t.creator = current_user));
CREATE POLICY bg_join ON bg_seats FOR UPDATE USING ("user" IS NULL)
    WITH CHECK ("user" = current_user);
ALTER TABLE bg_moves ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_read ON bg_moves FOR SELECT USING (true);
CREATE POLICY bg_undo ON bg_moves FOR DELETE USING ("user" = current_user);
""" + ";\n".join((*NOTICE_TABLES, *CLOCK_TABLES, *SOCIAL_TABLES, *UNDO_CLOCK, *PLAY_POLICY))

# A notification target's URL may hold a secret (a webhook token, a mail password): each role
# sees and changes its own targets and messages only. A move still owes the next player a
# message: the view of the targets' numbers, without their URLs, runs with its owner's rights
# (readable by every role the schema lets in: players granted the tables before the view
# existed must not have their moves refused). Added to a store made before them when its
# owner opens it (`_setup`).
TARGET_NUMBERS = "bg_target_numbers"
# a message is owed for the table's present move (a turn), or about the table itself (n < 0:
# abandoned, a rematch offered), to a person seated there or offered a seat
OWE_POLICY = """CREATE POLICY bg_owe ON bg_notices FOR INSERT WITH CHECK (
    (bg_notices.n < 0 OR EXISTS (SELECT 1 FROM bg_tables t WHERE t.id = bg_notices.table_id
            AND t.moves = bg_notices.n))
    AND (EXISTS (SELECT 1 FROM bg_seats s WHERE s.table_id = bg_notices.table_id
                AND s."user" = bg_notices."user")
         OR EXISTS (SELECT 1 FROM bg_offers o WHERE o.table_id = bg_notices.table_id
                AND o."user" = bg_notices."user")));"""
NOTICE_POLICIES = f"""
CREATE VIEW {TARGET_NUMBERS} AS SELECT "user", n FROM bg_targets;
GRANT SELECT ON {TARGET_NUMBERS} TO PUBLIC;
ALTER TABLE bg_targets ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_own ON bg_targets FOR ALL USING ("user" = current_user)
    WITH CHECK ("user" = current_user);
ALTER TABLE bg_notices ENABLE ROW LEVEL SECURITY;
CREATE POLICY bg_own ON bg_notices FOR SELECT USING ("user" = current_user);
CREATE POLICY bg_own_change ON bg_notices FOR UPDATE USING ("user" = current_user);
CREATE POLICY bg_own_forget ON bg_notices FOR DELETE USING ("user" = current_user);
{OWE_POLICY}
"""


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
        self.conn: psycopg.Connection[Any] | None = None
        self._listener: psycopg.Connection[Any] | None = None
        self._retry_at = 0.0
        self._version = 0
        self._fingerprint: tuple[int, int] | None = None
        self._next_poll = 0.0
        self.role = ""
        self.rls = False  # True when the server holds this role to its own seats
        self.shared = shared_cache
        if shared_cache and self.path in _READY:
            self.conn = _IDLE.pop(self.path, None)
            self.role, self.rls, self.TARGET_NUMBERS = _READY[self.path]
            return
        self._setup(create_file)
        if shared_cache:
            _READY[self.path] = (self.role, self.rls, self.TARGET_NUMBERS)

    # ---- plumbing ------------------------------------------------------------------------
    def _connect(self) -> psycopg.Connection[Any]:
        now = time.monotonic()
        if now < self._retry_at:
            raise Disconnected(f"the table store {self.path} is unreachable: reconnecting…")
        try:
            conn = psycopg.connect(
                self.conninfo, autocommit=True, connect_timeout=max(1, round(self.connect_timeout))
            )
        except psycopg.OperationalError as exc:
            self._retry_at = now + RETRY_SECONDS
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            raise Disconnected(
                f"the table store {self.path} is unreachable ({first}): reconnecting…"
            ) from None
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

    def _conn(self) -> psycopg.Connection[Any]:
        if self.conn is None or self.conn.closed or self.conn.broken:
            self._drop(self.conn)
            self.conn = self._connect()
        return self.conn

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
        with self._errors():
            conn = self._conn()
            with conn.transaction(), conn.cursor() as cur:
                yield cur

    @contextlib.contextmanager
    def _tx(self, write: bool = True, snapshot: bool = False) -> Iterator[Sql]:
        """A change locks the rows it reads FOR UPDATE (`ROW_LOCK`); `snapshot`: one view
        of the whole transaction (the default isolation is per statement)."""
        with self._cursor() as cur:
            if snapshot:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield _Postgres(cur)

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
                    c.execute(NOTICE_POLICIES.encode())
                    c.execute("INSERT INTO bg_meta VALUES ('format', %s)", (str(FORMAT),))
        with self._cursor() as c:  # an older store: upgraded in place, all or nothing
            c.execute("SELECT value FROM bg_meta WHERE key = 'format'")
            row = c.fetchone()
            if upgrade_steps(row and row[0], self.path):
                c.execute("SELECT value FROM bg_meta WHERE key = 'format' FOR UPDATE")
                row = c.fetchone()
                for stmt in upgrade_steps(row and row[0], self.path, PG_UPGRADES):
                    c.execute(stmt.encode())
                c.execute("UPDATE bg_meta SET value = %s WHERE key = 'format'", (str(FORMAT),))
            c.execute("SELECT row_security_active('bg_moves')")
            self.rls = bool(_one(c)[0])
        self._notice_policies()

    def _notice_policies(self) -> None:
        """The targets' policies and view on a store made before them, added by its owner
        (another role goes on without them: it owes messages through `bg_targets`)."""
        with self._cursor() as c:
            c.execute("SELECT to_regclass(%s)", (f"{self.schema}.{TARGET_NUMBERS}",))
            if _one(c)[0] is not None:
                self.TARGET_NUMBERS = TARGET_NUMBERS
                c.execute(  # a store from before the notices about a table: its owner updates
                    "SELECT pg_has_role(tableowner, 'USAGE') FROM pg_tables t WHERE "
                    "schemaname = %s AND tablename = 'bg_notices' AND NOT EXISTS (SELECT 1 "
                    "FROM pg_policies p WHERE p.schemaname = t.schemaname AND p.tablename = "
                    "'bg_notices' AND p.policyname = 'bg_owe' AND p.with_check LIKE '%%bg_offers%%')",
                    (self.schema,),
                )
                row = c.fetchone()
                if row and row[0]:
                    c.execute("DROP POLICY IF EXISTS bg_owe ON bg_notices")
                    c.execute(OWE_POLICY.encode())
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

    def _as(self, user: str | None) -> None:
        """A role the server holds to its own seats plays only as itself (one line)."""
        if self.rls and user is not None and user != self.role:
            raise Refused(
                f"you are connected to the table store as {self.role}: you cannot play as "
                f"{user} (leave out --user, or connect as {user})"
            )

    def _role_name(self) -> str:
        return f"role {self.role}"

    def close(self) -> None:
        conn = self.conn
        if (
            self.shared
            and conn is not None
            and not conn.closed
            and not conn.broken
            and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
            and self.path not in _IDLE
        ):
            _IDLE[self.path] = conn
        else:
            self._drop(conn)
        self._drop(self._listener)
        self.conn = self._listener = None

    def version(self) -> int:
        """Bumped by every notification, by a changed fingerprint (polled every few seconds)
        and by a reconnection (notifications may have been missed)."""
        with self._errors():
            lis = self._listener
            if lis is None or lis.closed or lis.broken:
                self._drop(lis)
                self._listener = None
                lis = self._connect()
                lis.add_notify_handler(self._notified)
                lis.execute(sql.SQL("LISTEN {}").format(sql.Identifier(f"{self.schema}.bg_tables")))
                self._listener = lis
                self._version += 1
                self._next_poll = 0.0
            try:
                # what has arrived, without a round trip (twice: a session cut by the server
                # reads as its error message first, then as the closed socket)
                lis.pgconn.consume_input()
                lis.pgconn.consume_input()
                while lis.pgconn.notifies() is not None:
                    self._version += 1
                if lis.pgconn.status != psycopg.pq.ConnStatus.OK:
                    raise psycopg.OperationalError("the connection was closed by the server")
                now = time.monotonic()
                if now >= self._next_poll:
                    self._next_poll = now + POLL_SECONDS
                    row = lis.execute(
                        "SELECT count(*), coalesce(sum(rev), 0) FROM bg_tables"
                    ).fetchone()
                    fp = (int(row[0]), int(row[1])) if row else (0, 0)
                    if fp != self._fingerprint:
                        self._fingerprint = fp
                        self._version += 1
            except psycopg.Error as exc:
                self._drop(lis)
                self._listener = None
                raise Disconnected(
                    f"the table store {self.path} was lost ({_first_line(exc)}): reconnecting…"
                ) from None
        return self._version

    def _notified(self, _n: psycopg.Notify) -> None:
        self._version += 1


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
