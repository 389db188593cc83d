"""How many PostgreSQL connections one session holds: its screen's store, the turn watch and
a table's watch thread share one connection for queries and one that LISTENs (a room of 200
sessions then stays within what a server allows)."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.tables import open_store, parse_seats
from tools.bench_tables import ANSI, spawn_in_pty

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg_url(pg_cluster: Any) -> Iterator[str]:
    """A schema of its own on the tests' PostgreSQL server, dropped after."""
    base = pg_cluster if isinstance(pg_cluster, str) else pg_cluster.url()
    schema = f"t_{secrets.token_hex(4)}"
    yield f"{base}{'&' if '?' in base else '?'}schema={schema}"
    import psycopg

    with contextlib.suppress(psycopg.Error), psycopg.connect(base, autocommit=True) as c:
        c.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def _ports(pid: int) -> set[int]:
    """The local TCP ports of process `pid`'s sockets (/proc: its fds, the kernel's table)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            m = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(fd))
            if m:
                inodes.add(m[1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                f = line.split()
                if f[9] in inodes:
                    ports.add(int(f[1].rsplit(":", 1)[1], 16))
    return ports


def test_a_session_at_a_table_holds_two_connections(pg_url: str, tmp_path: Path) -> None:
    """A table screen in a real app process (its store, the turn watch, the watch thread
    woken by the other player's move): at every moment its connections in pg_stat_activity
    are at most two (one for queries, one that LISTENs)."""
    import psycopg

    store = open_store(pg_url)
    tid = store.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 7, "ann", max_open=0).id
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "TEXTUAL"))}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path))
    for name in ("COLORTERM", "COLUMNS", "LINES"):
        env.pop(name, None)
    argv = [sys.executable, "-m", "boardgames_tui", "--user", "bo", "--store", pg_url]
    pid, fd = spawn_in_pty([*argv, "table", "join", tid], env)
    base = pg_url.split("?")[0]
    most: list[tuple[Any, ...]] = []
    screen = bytearray()

    def session() -> list[tuple[Any, ...]]:
        ports = list(_ports(pid))
        with psycopg.connect(base, autocommit=True) as c:
            return c.execute(
                "SELECT client_port, query FROM pg_stat_activity WHERE client_port = ANY(%s)",
                (ports,),
            ).fetchall()

    def until(text: bytes, limit: float = 60.0) -> None:
        """Read the screen until `text` shows, counting the connections all along."""
        nonlocal most
        end = time.monotonic() + limit
        while text not in ANSI.sub(b"", bytes(screen)):
            assert time.monotonic() < end, f"{text!r} never showed"
            if select.select([fd], [], [], 0.05)[0]:
                screen.extend(os.read(fd, 65536))
            now = session()
            if len(now) > len(most):
                most = now
        screen.clear()

    try:
        until(b"ann to move")
        info, match = store.load(tid)
        assert match.prompt is not None
        store.append(tid, "ann", match.prompt.moves[0].id, info.moves)
        until(b"Your turn")  # woken by the watch thread: it is listening now
        os.write(fd, b"1")  # bo's own move, through the screen's store
        until(b"ann to move")
        assert store.info(tid).moves == 2
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
        store.close()
    assert 1 <= len(most) <= 2, most
