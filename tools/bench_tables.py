"""The "shared tables" rows of `boardgames-tui bench`, for both stores in one run (a SQLite
file, and a throwaway PostgreSQL cluster on 127.0.0.1 when the server binaries are there):
append latency, how fast a move shows on another player's screen (the mover in this process,
and in a second process group over TCP), and appends per second with 1-16 writing processes
on one table and on a table each, the writers split between two process groups.

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

from boardgames_tui.engine.tables import Refused, TableStore, open_store, parse_seats

Row = Callable[..., dict[str, Any]]  # bench's row maker: (name, value, ref, unit, target)

ROOT = Path(__file__).resolve().parents[1]  # the checkout: tools/ is at its top
ANSI = re.compile(rb"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def _play_one(store: TableStore, tid: str, rng: random.Random) -> bool:
    """The seat to move plays a random legal move; False when the game is over."""
    info, match = store.load(tid)
    if match.prompt is None:
        return False
    store.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
    return True


def _new_table(store: TableStore, rng: random.Random) -> str:
    # (no limit on the tables open at once: a bench makes hundreds)
    return store.create(
        "notre-dame", parse_seats("ann,bo", "ann"), {}, rng.randrange(999), "ann", max_open=0
    ).id


def append_latency(tmp: str, count: int, where: str = "") -> tuple[list[float], list[float]]:
    """Seconds per append (the rules check, the insert, the commit) and per bare commit;
    `where`: the store (default: a SQLite file in `tmp`)."""
    store = open_store(where or str(Path(tmp) / "latency.sqlite"))
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
    return times, _bare_commits(tmp, count, where)


def _bare_commits(tmp: str, count: int, where: str) -> list[float]:
    """Seconds per bare insert-and-commit in the same kind of store."""
    ref = []
    if where:  # the same server, one row per transaction
        import psycopg

        with psycopg.connect(where.split("?")[0], autocommit=True) as pc:
            pc.execute("CREATE TEMP TABLE m (n integer PRIMARY KEY, v text)")
            for i in range(count):
                t = time.perf_counter()
                with pc.transaction():
                    pc.execute("INSERT INTO m VALUES (%s, %s)", (i, "move"))
                ref.append(time.perf_counter() - t)
        return ref
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
    return ref


def writer(path: str, seconds: str, seed: str, table: str = "", go: int = 0) -> None:
    """A writing process: connected and at its first table, it says "ready" and waits for
    the start (a time.time() read from `go`); then plays its own tables (or, given `table`,
    those tables one after the other, racing the other writers at each) for `seconds` and
    prints how many appends it made."""
    rng = random.Random(int(seed))
    store = open_store(path)
    shared = table.split(",") if table else []  # every writer at the first one not over
    tid = shared.pop(0) if shared else _new_table(store, rng)
    store.info(tid)  # the connection made, the first query done: nothing left to set up
    print("ready", flush=True)
    with os.fdopen(go) as f:
        start = float(f.readline())
    while time.time() < start:
        time.sleep(0.001)
    end = start + float(seconds)
    n = 0
    while time.time() < end:
        try:
            if _play_one(store, tid, rng):
                n += 1
            elif shared:
                tid = shared.pop(0)
            elif table:
                break
            else:
                tid = _new_table(store, rng)
        except Refused:  # another writer moved first at the shared table
            pass
    store.close()
    print(n, flush=True)


def group(path: str, seconds: str, seed: str, writers: str, table: str = "") -> None:
    """A process group (a "host"): forks `writers` writers after the imports, says "ready"
    once every one of them is, passes on the start time read from stdin, and prints the sum
    of their appends. The barrier keeps a loaded machine's slow start out of the window."""
    from boardgames_tui.engine.core import Match, all_games

    for game in all_games():
        Match.new(game, [f"P{i}" for i in range(game.min_players)], seed=1)
    outs, gos = [], []
    for k in range(int(writers)):
        r, w = os.pipe()
        go_r, go_w = os.pipe()
        if os.fork() == 0:
            os.close(r)
            os.close(go_w)
            os.dup2(w, 1)
            try:
                writer(path, seconds, str(int(seed) + k), table, go_r)
            finally:
                os._exit(0)
        os.close(w)
        os.close(go_r)
        outs.append(os.fdopen(r))
        gos.append(go_w)
    ready = sum(f.readline().strip() == "ready" for f in outs)
    print("ready" if ready == len(outs) else "failed", flush=True)
    start = sys.stdin.readline()
    for go in gos:
        with contextlib.suppress(OSError):
            os.write(go, start.encode())
        os.close(go)
    total = 0
    for f in outs:
        with f:
            total += int(f.read().strip() or 0)
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    print(total, flush=True)


def appends_per_second(
    tmp: str, writers: int, seconds: float, where: str = "", shared: bool = False
) -> float:
    """Appends per second of `writers` processes in two process groups (one with one
    writer); `shared`: all at one table (most of their appends then lose the race). The
    window opens once every writer has connected and is waiting (nan if one never was)."""
    path = where or str(Path(tmp) / f"w{writers}{'s' if shared else ''}.sqlite")
    store = open_store(path)
    rng = random.Random(writers)
    # enough games one after the other for the whole run (a game is ~100 moves)
    table = ",".join(_new_table(store, rng) for _ in range(150)) if shared else ""
    store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    split = [writers] if writers == 1 else [writers - writers // 2, writers // 2]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tools.bench_tables",
                "group",
                path,
                str(seconds),
                str(100 * g),
                str(n),
                table,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        for g, n in enumerate(split)
    ]
    said = []
    for p in procs:
        assert p.stdout is not None
        said.append(p.stdout.readline().strip())
    start = time.time() + 0.05  # every writer is connected and waiting: the clock starts
    for p in procs:
        assert p.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            p.stdin.write(f"{start!r}\n")
            p.stdin.close()
        p.stdin = None
    totals = []
    for p in procs:
        assert p.stdout is not None
        totals.append(p.stdout.read())
        p.stdout.close()
        p.wait()
    if any(s != "ready" for s in said):
        return float("nan")
    return sum(int(t.strip() or 0) for t in totals) / seconds


def mover(path: str, tid: str, seed: str) -> None:
    """The other player in a second process group: for each line on stdin plays ann's move
    (over TCP for PostgreSQL) and answers with a line."""
    rng = random.Random(int(seed))
    store = open_store(path)
    for _line in sys.stdin:
        _play_one(store, tid, rng)
        print(store.info(tid).to_move, flush=True)


def screen_latency(
    tmp: str, moves: int, where: str = "", remote: bool = False
) -> tuple[list[float], list[float]]:
    """Seconds from a move committed by one process to its showing on another player's
    screen (the app in a pty, polling the store), and from a key to its answer on screen;
    `remote`: the move is made by a process in a second process group."""
    path = where or str(Path(tmp) / "screen.sqlite")
    store = open_store(path)
    rng = random.Random(3)
    tid = _new_table(store, rng)
    other = None
    if remote:
        other = subprocess.Popen(
            [sys.executable, "-m", "tools.bench_tables", "mover", path, tid, "3"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
            start_new_session=True,
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT), XDG_DATA_HOME=tmp)
    for name in ("COLORTERM", "COLUMNS", "LINES"):
        env.pop(name, None)
    argv = [sys.executable, "-m", "boardgames_tui", "--user", "bo", "--store", str(path)]
    argv += ["table", "join", tid]
    pid, fd = spawn_in_pty(argv, env)
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

    seen: list[float] = []
    keys: list[float] = []
    try:
        wait_for(b"ann to move", 60)
        while len(seen) < moves:
            info = store.info(tid)
            if info.finished:
                break
            if info.to_move == "ann":
                # ann moves in this process (or the second group's); bo's screen (another
                # process) shows his turn
                if other is not None:
                    assert other.stdin is not None and other.stdout is not None
                    other.stdin.write("move\n")
                    other.stdin.flush()
                    t0 = time.perf_counter()
                    to_move = other.stdout.readline().strip()
                    if to_move == "bo":
                        seen.append(wait_for(b"Your turn") + (time.perf_counter() - t0) / 2)
                    continue
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
        if other is not None:
            other.kill()
            other.wait()
    return seen, keys


def _cpu_seconds(pid: int) -> float:
    """CPU seconds the threads of a process have used, to the nanosecond where the kernel
    says (/proc/PID/task/*/schedstat: an idle app uses less than a clock tick in 20 s, so
    ticks made the idle rows' ratio 0/0), else in clock ticks (/proc/PID/stat)."""
    try:
        total = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError):  # a thread that just ended
                total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spawn_in_pty(argv: list[str], env: dict[str, str]) -> tuple[int, int]:
    """Start `argv` on a new 120x40 pty: its pid and the pty's file descriptor."""
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
    return pid, fd


def idle_cpu(argv: list[str], env: dict[str, str], ready: bytes, seconds: float) -> float:
    """CPU seconds per second of the app in a pty (120x40), idle once `ready` is drawn: its
    screen left alone for `seconds`, its output read and thrown away."""
    pid, fd = spawn_in_pty(argv, env)
    buf = bytearray()
    try:
        end = time.monotonic() + 60
        while ready not in ANSI.sub(b"", bytes(buf)) and time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                buf.extend(os.read(fd, 65536))
        end = time.monotonic() + 5.0  # start-up's last work (the rules parsed, …) is done
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                os.read(fd, 65536)
        t0, c0 = time.monotonic(), _cpu_seconds(pid)
        while time.monotonic() - t0 < seconds:
            if select.select([fd], [], [], 0.1)[0]:
                os.read(fd, 65536)
        used = _cpu_seconds(pid) - c0
        return used / (time.monotonic() - t0)
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def idle_rows(tmp: str, where: str, _row: Row, tag: str, seconds: float) -> list[dict[str, Any]]:
    """An idle table screen's CPU against an idle local game screen's, in the same run."""
    path = where or str(Path(tmp) / "idle.sqlite")
    store = open_store(path)
    tid = _new_table(store, random.Random(5))
    store.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "TEXTUAL"))}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT), XDG_DATA_HOME=tmp)
    for name in ("COLORTERM", "COLUMNS", "LINES"):
        env.pop(name, None)
    app = [sys.executable, "-m", "boardgames_tui"]
    local = idle_cpu(
        [*app, "new", "notre-dame", "--players", "ann,bo", "--no-handover"],
        env,
        b"to move",
        seconds,
    )
    table = idle_cpu(
        [*app, "--user", "bo", "--store", path, "table", "join", tid], env, b"to move", seconds
    )
    return [
        _row(
            "idle table screen, CPU share of a core (ref: an idle local game)" + tag,
            table,
            local,
            "cores",
            "ratio <= 1.5",
        )
    ]


def bench_tables(quick: bool, _row: Row) -> list[dict[str, Any]]:
    """The rows; `_row` makes one (bench's own, passed in: this module imports no bench).
    The full bench measures PostgreSQL too, on a throwaway cluster of its own."""
    rows = []
    with TemporaryDirectory() as tmp:
        stores = [("SQLite", "")]
        cluster = None
        if not quick:
            try:
                from tools.throwaway_pg import Cluster, ClusterUnavailable

                cluster = Cluster()
                stores.append(("PostgreSQL", cluster.url() + "?schema=bench"))
            except (ImportError, ClusterUnavailable) as exc:
                print(f"bench: no PostgreSQL rows ({exc})", file=sys.stderr)
        try:
            for name, where in stores:
                rows += _store_rows(tmp, quick, _row, name, where)
        finally:
            if cluster is not None:
                cluster.close()
    return rows


def _store_rows(tmp: str, quick: bool, _row: Row, name: str, where: str) -> list[dict[str, Any]]:
    rows = []
    tag = f" [{name}]"
    rows += idle_rows(tmp, where, _row, tag, 5.0 if quick else 20.0)
    times, ref = append_latency(tmp, 40 if quick else 400, where)
    med = sorted(ref)[len(ref) // 2]
    rows.append(_row("table append latency, median" + tag, _pct(times, 0.5), med, "s"))
    rows.append(_row("table append latency, 95th percentile" + tag, _pct(times, 0.95), med, "s"))
    if quick:  # the rows below start processes and take minutes: the full bench only
        return rows
    for remote in (False, True):
        seen, keys = screen_latency(tmp, 15, where, remote)
        ref_key = _pct(keys, 0.5)
        by = ", mover in a second process group" + (" over TCP" if where else "") if remote else ""
        rows.append(
            _row(
                f"move to another player's screen{by}, 95th percentile" + tag,
                _pct(seen, 0.95),
                ref_key,
                "s",
                "<= 0.5 s",
            )
        )
        rows.append(
            _row(
                f"move to another player's screen{by}, median" + tag, _pct(seen, 0.5), ref_key, "s"
            )
        )
    for shared in (False, True):
        where_to = "one table" if shared else "a table each"
        one = appends_per_second(tmp, 1, 2.5, where, shared)
        for n in (1, 2, 4, 8, 16):
            value = one if n == 1 else appends_per_second(tmp, n, 2.5, where, shared)
            rows.append(
                _row(
                    f"appends/s, {n} writing processes, {where_to}" + tag,
                    value,
                    one,
                    "appends/s",
                    "ratio >= 0.5" if shared and n == 16 else "",
                )
            )
    return rows


if __name__ == "__main__":
    role, *rest = sys.argv[1:]
    roles: dict[str, Callable[..., object]] = {"group": group, "mover": mover}
    roles[role](*rest)
