"""Every test here runs against both backends: a SQLite file, and a schema of its own on a
real PostgreSQL server (a throwaway cluster per test process, or $BOARDGAMES_TEST_PG)."""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.tables import TableStore, open_store


class Backend:
    """One store location and what a test needs to reach behind the store's back."""

    def __init__(self, kind: str, location: str, cluster: Any = None, base: str = "") -> None:
        self.kind, self.location, self.cluster, self.base = kind, location, cluster, base

    @property
    def pg(self) -> bool:
        return self.kind == "postgres"

    def open(self, **kw: Any) -> TableStore:
        return open_store(self.location, **kw)

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement on a connection of its own (committed), its rows."""
        if not self.pg:
            with contextlib.closing(sqlite3.connect(self.location, isolation_level=None)) as c:
                return c.execute(statement, params).fetchall()
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as c:
            c.execute(f"SET search_path TO {self.schema}")
            cur = c.execute(statement.replace("?", "%s"), params or None)
            return cur.fetchall() if cur.description else []

    def to_format_3(self) -> None:
        """Make the store what format 3 wrote: no clocks, notices without a kind, none of the
        tables of rematches, invites and talk, no seeds' kinds."""
        from boardgames_tui.engine.tables.store import NOTICE_TABLES

        self.sql("DROP TABLE bg_notices")
        for stmt in NOTICE_TABLES[1:]:
            self.sql(stmt)
        for col in ("turn_limit", "on_timeout", "autopilot", "vacation", "turn_since"):
            self.sql(f"ALTER TABLE bg_tables DROP COLUMN {col}")
        self.sql("ALTER TABLE bg_tables DROP COLUMN timed_out")
        self.sql("ALTER TABLE bg_tables DROP COLUMN seed_kind")
        self.sql("ALTER TABLE bg_tables DROP COLUMN reminded")
        self.sql("ALTER TABLE bg_tables DROP COLUMN ended_turn_since")  # format 7
        for table in ("bg_clocks", "bg_away", "bg_prefs", "bg_events"):
            self.sql(f"DROP TABLE {table}")
        for table in ("bg_offers", "bg_rematches", "bg_invites", "bg_talk", "bg_talkers"):
            self.sql(f"DROP TABLE {table}")
        self.before_results()
        self.sql("UPDATE bg_meta SET value = '3' WHERE key = 'format'")

    def before_talk_targets(self) -> None:
        """Take away what format 9 added: the targets' talk column (and on PostgreSQL the view
        of the targets' numbers that shows it, made again without it), proposals, presence
        and what each person last looked at."""
        if self.pg:
            self.sql("DROP VIEW IF EXISTS bg_target_numbers")
        self.sql("ALTER TABLE bg_targets DROP COLUMN talk")
        for table in ("bg_proposals", "bg_presence", "bg_looked"):
            self.sql(f"DROP TABLE {table}")
        if self.pg:
            self.sql('CREATE VIEW bg_target_numbers AS SELECT "user", n FROM bg_targets')

    def before_results(self) -> None:
        """Make the store what it was before it kept results (format 7): without them, nor
        what the next format added (talk targets, proposals, presence, what each last saw)."""
        from boardgames_tui.engine.tables.results import RESULTS_FORMAT

        self.sql("DROP TABLE bg_result_seats")
        self.sql("DROP TABLE bg_results")
        if self.sql("SELECT value FROM bg_meta WHERE key = 'format'") == [("9",)]:
            self.before_talk_targets()
        self.sql(f"UPDATE bg_meta SET value = '{RESULTS_FORMAT - 1}' WHERE key = 'format'")

    @property
    def schema(self) -> str:
        return self.location.rsplit("schema=", 1)[1]

    @contextlib.contextmanager
    def hold(self, table_id: str) -> Iterator[None]:
        """Another session holds the table for as long as the block runs."""
        if not self.pg:
            c = sqlite3.connect(self.location, isolation_level=None)
            c.execute("BEGIN EXCLUSIVE")
            try:
                yield
            finally:
                c.execute("ROLLBACK")
                c.close()
            return
        import psycopg

        with psycopg.connect(self.base) as conn:
            conn.execute(
                f"SELECT 1 FROM {self.schema}.bg_tables WHERE id = %s FOR UPDATE", (table_id,)
            )
            yield
            conn.rollback()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """A PostgreSQL server for this test process: $BOARDGAMES_TEST_PG, or a throwaway
    cluster started here and stopped (no postmaster left) when the session ends."""
    given = os.environ.get("BOARDGAMES_TEST_PG")
    if given:
        yield given
        return
    from tools.throwaway_pg import Cluster, ClusterUnavailable, alive

    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("PostgreSQL cases: psycopg is not installed (pip install '.[postgres]')")
    try:
        cluster = Cluster()
    except ClusterUnavailable as exc:
        pytest.skip(f"PostgreSQL cases: no throwaway server could be started ({exc})")
    yield cluster
    pid = cluster.pid()
    cluster.close()
    assert pid is not None and cluster.pid() is None and not alive(pid)  # no postmaster left


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", str(tmp_path / "tables.sqlite"))
        return
    cluster = request.getfixturevalue("pg_cluster")
    base = cluster if isinstance(cluster, str) else cluster.url()
    schema = f"t_{secrets.token_hex(4)}"
    sep = "&" if "?" in base else "?"
    b = Backend(
        "postgres",
        f"{base}{sep}schema={schema}",
        None if isinstance(cluster, str) else cluster,
        base,
    )
    yield b
    with contextlib.suppress(Exception):
        b.sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def store(backend: Backend) -> Iterator[TableStore]:
    s = backend.open()
    yield s
    s.close()
