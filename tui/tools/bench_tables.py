"""The "shared tables" rows of `boardgames-tui bench`: append latency, how fast a move shows
on another player's screen, and appends per second with 2, 4 and 8 writing processes.

Every row has a reference measured in the same run: a bare SQLite insert-and-commit in the
same kind of file (latency), the player's own move by a key on that same screen (screen),
one writer (throughput).
"""

from __future__ import annotations

import contextlib
import os
import pty
import random
import re
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from engine.tables import SQLiteStore, parse_seats

Row = Callable[..., dict[str, Any]]  # bench's row maker: (name, value, ref, unit, target)

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(rb"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def _play_one(store: SQLiteStore, tid: str, rng: random.Random) -> bool:
    """The seat to move plays a random legal move; False when the game is over."""
    info, match = store.load(tid)
    if match.prompt is None:
        return False
    store.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
    return True


def _new_table(store: SQLiteStore, rng: random.Random) -> str:
    return store.create(
        "notre-dame", parse_seats("ann,bo", "ann"), {}, rng.randrange(999), "ann"
    ).id


def append_latency(tmp: str, count: int) -> tuple[list[float], list[float]]:
    """Seconds per append (the rules check, the insert, the commit) and per bare commit."""
    store = SQLiteStore(Path(tmp) / "latency.sqlite")
    rng = random.Random(1)
    tid = _new_table(store, rng)
    times = []
    for _ in range(count):
        t = time.perf_counter()
        if not _play_one(store, tid, rng):
            tid = _new_table(store, rng)
            continue
        times.append(time.perf_counter() - t)
    store.close()
    ref = []
    c = sqlite3.connect(Path(tmp) / "bare.sqlite", isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    c.execute("CREATE TABLE m (n INTEGER PRIMARY KEY, v TEXT)")
    for i in range(count):
        t = time.perf_counter()
        c.execute("BEGIN IMMEDIATE")
        c.execute("INSERT INTO m VALUES (?, ?)", (i, "move"))
        c.execute("COMMIT")
        ref.append(time.perf_counter() - t)
    c.close()
    return times, ref


def writer(path: str, start: str, seconds: str, seed: str) -> None:
    """A writing process: from `start` (a time.time()), plays its own tables for `seconds`
    and prints how many appends it made."""
    rng = random.Random(int(seed))
    store = SQLiteStore(path)
    tid = _new_table(store, rng)
    while time.time() < float(start):
        time.sleep(0.005)
    end = float(start) + float(seconds)
    n = 0
    while time.time() < end:
        if _play_one(store, tid, rng):
            n += 1
        else:
            tid = _new_table(store, rng)
    print(n, flush=True)


def appends_per_second(tmp: str, writers: int, seconds: float) -> float:
    path = str(Path(tmp) / f"w{writers}.sqlite")
    SQLiteStore(path).close()
    start = time.time() + 1.5 + 0.25 * writers  # after every writer has started
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tui.tools.bench_tables",
                path,
                str(start),
                str(seconds),
                str(k),
            ],
            stdout=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        for k in range(writers)
    ]
    total = sum(int(p.communicate()[0] or 0) for p in procs)
    return total / seconds


def screen_latency(tmp: str, moves: int) -> tuple[list[float], list[float]]:
    """Seconds from a move committed by one process to its showing on another player's
    screen (the app in a pty, polling the store), and from a key to its answer on screen."""
    path = Path(tmp) / "screen.sqlite"
    store = SQLiteStore(path)
    rng = random.Random(3)
    tid = _new_table(store, rng)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT), XDG_DATA_HOME=tmp)
    for name in ("COLORTERM", "COLUMNS", "LINES"):
        env.pop(name, None)
    argv = [sys.executable, "-m", "tui.cli", "--user", "bo", "--store", str(path)]
    argv += ["table", "join", tid]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            import fcntl
            import struct
            import termios

            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    buf = bytearray()

    def wait_for(text: bytes, limit: float = 20.0) -> float:
        """Seconds until `text` is drawn (inf if never)."""
        t0 = time.perf_counter()
        buf.clear()
        while time.perf_counter() - t0 < limit:
            r, _, _ = select.select([fd], [], [], 0.01)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                buf.extend(data)
                if text in ANSI.sub(b"", bytes(buf)):
                    return time.perf_counter() - t0
        return float("inf")

    seen, keys = [], []
    try:
        wait_for(b"ann to move", 60)
        while len(seen) < moves:
            info = store.info(tid)
            if info.finished:
                break
            if info.to_move == "ann":
                # ann moves in this process; bo's screen (another process) shows his turn
                _play_one(store, tid, rng)
                if store.info(tid).to_move == "bo":
                    seen.append(wait_for(b"Your turn"))
                continue
            # bo plays by a key on his own screen: the reference (a screen answering its
            # own player); a move that leaves him to move again is not timed
            before = info.moves
            time.sleep(0.05)
            os.write(fd, b"1")
            took = wait_for(b"ann to move", 3)
            if store.info(tid).moves == before:
                _play_one(store, tid, rng)  # the key did not take: play on anyway
            elif took != float("inf"):
                keys.append(took)
    finally:
        os.write(fd, b"\x11")
        time.sleep(0.3)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
        store.close()
    return seen, keys


def bench_tables(quick: bool, _row: Row) -> list[dict[str, Any]]:
    """The rows; `_row` makes one (bench's own, passed in: this module imports no bench)."""
    rows = []
    with TemporaryDirectory() as tmp:
        times, ref = append_latency(tmp, 40 if quick else 400)
        med = sorted(ref)[len(ref) // 2]
        rows.append(_row("table append latency, median", _pct(times, 0.5), med, "s"))
        rows.append(_row("table append latency, 95th percentile", _pct(times, 0.95), med, "s"))
        if quick:  # the rows below start processes and take a minute: the full bench only
            return rows
        seen, keys = screen_latency(tmp, 20)
        ref_key = _pct(keys, 0.5)
        rows.append(
            _row(
                "move to another player's screen, 95th percentile",
                _pct(seen, 0.95),
                ref_key,
                "s",
                "<= 0.5 s",
            )
        )
        rows.append(_row("move to another player's screen, median", _pct(seen, 0.5), ref_key, "s"))
        one = appends_per_second(tmp, 1, 4.0)
        for n in (2, 4, 8):
            rows.append(
                _row(
                    f"appends/s, {n} writing processes (one file)",
                    appends_per_second(tmp, n, 4.0),
                    one,
                    "appends/s",
                )
            )
    return rows


if __name__ == "__main__":
    writer(*sys.argv[1:])
