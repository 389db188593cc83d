"""`boardgames-tui bench`: speed and memory, each row against a reference measured in the same run.

These machines are noisy, so every figure is a median of repeats and is reported together with
a reference (an empty Textual app, a fixed pure-Python loop) and the ratio between them.
Run `python -m tools.bench` or `boardgames-tui bench [--quick] [--json FILE]`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import pty
import random
import select
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING, Any

from boardgames_tui.engine.core import Match, Seat, game_ids, get_game, get_title, saves
from boardgames_tui.engine.core.playout import random_playout

ROOT = Path(__file__).resolve().parents[1]

EMPTY_APP = textwrap.dedent(
    """
    from textual.app import App
    from textual.widgets import Footer, Header, Label

    class Empty(App):
        BINDINGS = [("1", "bump", "Bump"), ("q", "quit", "Quit")]
        def compose(self):
            yield Header()
            yield Label("0", id="n")
            yield Footer()
        def action_bump(self):
            lab = self.query_one("#n", Label)
            lab.update(str(int(str(lab.content)) + 1))

    Empty().run()
    """
)

if TYPE_CHECKING:
    from textual.app import ComposeResult


def _median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


# A row whose repeats spread wider than this (max − min over the median) is too noisy to judge.
NOISY = 0.5


def _spread(xs: list[float]) -> float:
    """How far repeats of one figure disagree: (max − min) / median (0 for one repeat)."""
    if len(xs) < 2:
        return 0.0
    mid = statistics.median(xs)
    return (max(xs) - min(xs)) / mid if mid else float("inf")


def _judged(row: dict[str, Any], repeats: list[float]) -> dict[str, Any]:
    """`row` with the spread of its repeats, and whether it is too noisy to judge."""
    spread = _spread(repeats)
    row["repeats"] = len(repeats)
    row["spread"] = round(spread, 3)
    row["noisy"] = len(repeats) < 2 or spread > NOISY
    return row


def _smoke() -> bool:
    """BENCH_SMOKE=1: one launch and a few presses per row (the suite's smoke test; every
    judged row then says it is too noisy to judge)."""
    return os.environ.get("BENCH_SMOKE") == "1"


def _row(name: str, value: float, ref: float, unit: str, target: str = "") -> dict[str, Any]:
    ratio = value / ref if ref else float("nan")
    return {
        "row": name,
        "value": round(value, 6),
        "reference": round(ref, 6),
        "ratio": round(ratio, 3),
        "unit": unit,
        "target": target,
    }


# ---- processes in a pseudo-terminal ------------------------------------------------------
def _pty_run(
    argv: list[str],
    env: dict[str, str],
    keys: list[bytes] | None = None,
    idle: float = 0.6,
    timeout: float = 30.0,
    size: tuple[int, int] = (120, 40),
) -> tuple[float, int, list[int]]:
    """Run in a pty: seconds to exit (or to first idle), bytes at start-up, bytes per key."""
    import fcntl
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # child: never return into the benchmark
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    t0 = time.perf_counter()
    start_bytes = 0
    per_key: list[int] = []

    def drain(quiet: float, limit: float) -> tuple[int, bool]:
        got, last, end = 0, time.perf_counter(), time.perf_counter() + limit
        while time.perf_counter() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return got, True
                if not data:
                    return got, True
                got += len(data)
                last = time.perf_counter()
            elif got and time.perf_counter() - last > quiet:
                return got, False
        return got, False

    start_bytes, closed = drain(idle, timeout)
    elapsed = time.perf_counter() - t0
    if not closed:
        for k in keys or []:
            os.write(fd, k)
            n, closed = drain(idle, timeout)
            per_key.append(n)
            if closed:
                break
        with contextlib.suppress(OSError):
            os.write(fd, b"\x11")  # ctrl+q
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    os.close(fd)
    return elapsed, start_bytes, per_key


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({"TERM": "xterm-256color", "PYTHONPATH": str(ROOT), **extra})
    for name in ("COLORTERM", "COLUMNS", "LINES"):  # the pty's own size and colours count
        env.pop(name, None)
    return env


def bench_startup(repeats: int) -> list[dict[str, Any]]:
    with TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty_app.py"
        empty.write_text(EMPTY_APP)
        env = _env(XDG_DATA_HOME=tmp)
        start = [sys.executable, "-m", "tools.bench_start"]
        app_t, ref_t, app_b, ref_b = [], [], [], []
        for _ in range(repeats):
            t, b, _ = _pty_run([*start, str(empty)], env, idle=5)
            ref_t.append(t)
            ref_b.append(b)
            t, b, _ = _pty_run([*start, "-m", "boardgames_tui"], env, idle=5)
            app_t.append(t)
            app_b.append(b)
    # each launch of the app is paired with the empty app's launch just before it: the
    # spread of the pairs' ratios says whether the machine's load moved under the figure
    ratios = [a / r for a, r in zip(app_t, ref_t, strict=True) if r]
    return [
        _judged(
            _row(
                "start-up to first frame (menu vs empty app)",
                _median(app_t),
                _median(ref_t),
                "s",
                "ratio <= 1.3",
            ),
            ratios,
        ),
        _row("bytes written at start-up", _median(app_b), _median(ref_b), "bytes"),
    ]


def bench_ssh_bytes(quick: bool) -> list[dict[str, Any]]:
    rows = []
    with TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty_app.py"
        empty.write_text(EMPTY_APP)
        env = _env(XDG_DATA_HOME=tmp, BOARDGAMES_BOT_DELAY="0")
        _, _, ref = _pty_run([sys.executable, str(empty)], env, keys=[b"1"] * 3, idle=0.8)
        ref_b = _median([float(x) for x in ref]) or 1.0
        for gid in game_ids():
            n = get_title(gid).players
            players = ",".join(f"P{i + 1}" for i in range(n))
            argv = [
                sys.executable,
                "-m",
                "boardgames_tui",
                "new",
                gid,
                "--players",
                players,
                "--seed",
                "5",
                "--no-handover",
            ]
            _, _, per = _pty_run(argv, env, keys=[b"1"] * (2 if quick else 5), idle=0.8)
            rows.append(
                _row(
                    f"bytes per move over a pty, {gid}",
                    _median([float(x) for x in per]),
                    ref_b,
                    "bytes",
                )
            )
    return rows


# ---- move latency through Pilot -----------------------------------------------------------
async def _press_times(
    app: Any, key: str, presses: int, until: Any = None
) -> tuple[list[float], list[float]]:
    """Per press of `key`: wall seconds until the screen settles, and the CPU seconds of the
    app's own thread in that time (the work done, without Pilot's waiting for the app to go
    idle). Not the whole process's: the autosave writer, the rules being laid out for the
    rules screen and other workers run in threads of their own, off the move's path, and
    whichever of them happened to fall in a press's window was counted as that move's work."""
    times, cpu = [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(presses):
            if until is not None and until():
                break
            t, c = time.perf_counter(), time.thread_time()
            await pilot.press(key)
            await pilot.pause()
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
    return times, cpu


async def _latency(gid: str, presses: int) -> tuple[float, float, float, float]:
    """One launch: median seconds from a move's key to the settled screen, and for a key
    that does nothing; then the same in CPU seconds.

    Pilot's own waiting is in both; their difference is the work a move costs. On the wall
    clock that difference also holds Pilot's idle polling, which grows with each burst of
    work; the CPU difference is the work alone.
    """
    from boardgames_tui.tui.app import BoardgamesApp, Launch

    n = get_title(gid).players
    wall, cpu = [], []
    # enter plays the highlighted move in every game (a digit may name no move of the
    # prompt, as in a multi-part choice whose keys stay with their moves)
    for key in ("enter", "f9"):
        with TemporaryDirectory() as tmp:
            m = Match.new(gid, [Seat(f"P{i + 1}") for i in range(n)], seed=11)
            m.settings["handover"] = False
            app = BoardgamesApp(Launch(saves_dir=tmp, match=m, bot_delay=0))
            times, used = await _press_times(app, key, presses, lambda m=m: m.over)
            wall.append(_median(times))
            cpu.append(_median(used))
    return wall[0], wall[1], cpu[0], cpu[1]


async def _latency_ref(presses: int) -> tuple[float, float, float, float]:
    from textual.app import App
    from textual.widgets import Footer, Header, Label

    class Empty(App[None]):
        BINDINGS = [("1", "bump", "Bump")]

        def compose(self) -> ComposeResult:
            yield Header()
            yield Label("0", id="n")
            yield Footer()

        def action_bump(self) -> None:
            lab = self.query_one("#n", Label)
            lab.update(str(time.perf_counter()))

    move, move_cpu = await _press_times(Empty(), "1", presses)
    idle, idle_cpu = await _press_times(Empty(), "f9", presses)
    return _median(move), _median(idle), _median(move_cpu), _median(idle_cpu)


def _run_latency(gid: str, presses: int) -> tuple[float, float, float, float]:
    return asyncio.run(_latency(gid, presses))


def _launches(
    measure: Callable[[], tuple[float, float, float, float]], launches: int
) -> list[tuple[float, float, float, float]]:
    return [measure() for _ in range(launches)]


def bench_latency(quick: bool) -> list[dict[str, Any]]:
    """Every figure is the median over `launches` launches of the median of `presses` key
    presses each; the spread over the launches says whether the row can be judged."""
    presses, launches = (8, 3) if quick else (25, 5)
    if _smoke():
        presses, launches = 3, 1
    refs = _launches(lambda: asyncio.run(_latency_ref(presses)), launches)
    ref_move = _median([r[0] for r in refs])
    ref_wall = _median([r[0] - r[1] for r in refs])
    ref_work = _median([r[2] - r[3] for r in refs])
    rows = []
    for gid in game_ids():
        runs = _launches(functools.partial(_run_latency, gid, presses), launches)
        moves = [r[0] for r in runs]
        walls = [max(0.0, r[0] - r[1]) for r in runs]
        works = [max(0.0, r[2] - r[3]) for r in runs]
        rows.append(
            _judged(
                _row(
                    f"move latency through Pilot, {gid}",
                    _median(moves),
                    ref_move,
                    "s",
                    "ratio reported",
                ),
                moves,
            )
        )
        # the wall-clock difference is reported; the target is on the work (CPU) alone
        for label, values, ref, target in (
            ("a move's wall time", walls, ref_wall, "ratio reported"),
            ("a move's own work, CPU", works, ref_work, "<= 0.020 s"),
        ):
            name = f"{label} (move key − no-op key), {gid}"
            rows.append(_judged(_row(name, _median(values), max(1e-4, ref), "s", target), values))
    return rows


# ---- engine -------------------------------------------------------------------------------
def reference_loop() -> float:
    """A fixed pure-Python workload (dict/list churn like a rules engine) in seconds."""
    t = time.perf_counter()
    rng = random.Random(1)
    d: dict[int, list[int]] = {}
    for i in range(200_000):
        k = rng.randrange(64)
        d.setdefault(k, []).append(i)
        if len(d[k]) > 8:
            d[k].pop(0)
    return time.perf_counter() - t


def bench_engine(quick: bool) -> list[dict[str, Any]]:
    rows = []
    ref = _median([reference_loop() for _ in range(3)])
    for gid in game_ids():
        game = get_game(gid)
        for n in range(game.min_players, game.max_players + 1):
            count = 2 if quick else 40
            t = time.perf_counter()
            moves = 0
            for s in range(count):
                moves += len(random_playout(game, n, 1000 + s).moves)
            el = time.perf_counter() - t
            target = ">= 50 games/s" if n == get_title(gid).players else ""
            row = _row(f"random games/s, {gid} {n}p", count / el, 1 / ref, "games/s", target)
            row["moves_per_second"] = round(moves / el, 1)
            rows.append(row)
    return rows


def _finished(gid: str, seed: int = 3) -> Match:
    n = get_title(gid).players
    m = Match.new(gid, [Seat(f"P{i + 1}") for i in range(n)], seed=seed)
    rng = random.Random(seed)
    while m.prompt is not None:
        p = m.prompt
        m.play(p.moves[rng.randrange(len(p.moves))].id)
    return m


def _time(fn: Callable[[], Any], repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return _median(out)


def _history_rows(gid: str, tmp: str, ref: float, quick: bool) -> list[dict[str, Any]]:
    m = _finished(gid)
    n = m.length
    short, long_ = min(50, n), min(500, n)
    rng = random.Random(1)

    def undo_at(k: int) -> None:
        m.goto(k)
        m.undo()
        m.redo()

    rows = [
        _row(
            f"undo one move at move {long_} / at move {short}, {gid}",
            _time(lambda: undo_at(long_), 50),
            _time(lambda: undo_at(short), 50),
            "s",
            "ratio ~1 (O(1))",
        ),
        _row(
            f"jump to any move of {n} / of {short}, {gid}",
            _time(lambda: m.goto(rng.randrange(n + 1)), 50),
            _time(lambda: m.goto(rng.randrange(short + 1)), 50),
            "s",
            "ratio ~1",
        ),
    ]
    m.goto(n)
    path = Path(tmp) / f"{gid}.toml"
    rows.append(
        _row(f"save write, {gid} ({n} moves)", _time(lambda: saves.save(m, path), 5), ref, "s")
    )
    rows.append(
        _row(
            f"save load (replay + digest), {gid}",
            _time(lambda: saves.load(path), 3 if quick else 7),
            ref,
            "s",
            "<= 0.100 s",
        )
    )
    return rows


def bench_history_and_saves(quick: bool) -> list[dict[str, Any]]:
    ref = _median([reference_loop() for _ in range(3)])
    with TemporaryDirectory() as tmp:
        return [row for gid in game_ids() for row in _history_rows(gid, tmp, ref, quick)]


# ---- memory -------------------------------------------------------------------------------
MEM_SCRIPT = textwrap.dedent(
    """
    import asyncio, random, sys, tempfile
    sys.path.insert(0, {root!r})
    gid = sys.argv[1]
    async def main():
        if gid == "empty":
            from textual.app import App
            from textual.widgets import Footer, Header, Label
            class Empty(App):
                def compose(self):
                    yield Header(); yield Label("x"); yield Footer()
            async with Empty().run_test(size=(120, 40)) as pilot:
                await pilot.pause()
            return
        from boardgames_tui.engine.core import Match, Seat
        from boardgames_tui.tui.app import BoardgamesApp, Launch
        n = int(sys.argv[2])
        m = Match.new(gid, [Seat(f"P{{i+1}}") for i in range(n)], seed=5)
        m.settings["handover"] = False
        rng = random.Random(5)
        with tempfile.TemporaryDirectory() as tmp:
            app = BoardgamesApp(Launch(saves_dir=tmp, match=m, bot_delay=0))
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                screen = app.screen
                while m.prompt is not None:
                    p = m.prompt
                    screen.play(p.moves[rng.randrange(len(p.moves))])
                    await pilot.pause(0)
    asyncio.run(main())
    # VmHWM, not ru_maxrss: the latter keeps the parent's peak across fork + exec
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            print(int(line.split()[1]))
    """
)


def bench_memory(quick: bool) -> list[dict[str, Any]]:
    script = MEM_SCRIPT.format(root=str(ROOT))

    def rss(*args: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", script, *args],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=ROOT,
        )
        return float(out.stdout.strip().splitlines()[-1]) / 1024.0

    ref = rss("empty")
    rows = []
    for gid in game_ids():
        n = get_title(gid).players
        rows.append(
            _row(
                f"peak RSS of a full game in the app, {gid}",
                rss(gid, str(n)),
                ref,
                "MiB",
                "ratio <= 2",
            )
        )
    return rows


# ---- computer players ---------------------------------------------------------------------
def bench_bots(quick: bool) -> list[dict[str, Any]]:
    from boardgames_tui.engine.bots import make_bot

    rows = []
    ref = _median([reference_loop() for _ in range(3)])
    for gid in game_ids():
        game = get_game(gid)
        n = get_title(gid).players
        m = Match.new(gid, [Seat(f"P{i + 1}") for i in range(n)], seed=9)
        rng = random.Random(9)
        positions: list[Any] = []
        while m.prompt is not None and len(positions) < (1 if quick else 12):
            p = m.prompt
            if len(p.moves) > 1 and rng.random() < 0.3:
                positions.append(m.state)
            m.play(p.moves[rng.randrange(len(p.moves))].id)
        for level in ("random", "greedy", "strong"):
            bot = make_bot(level, game, seed=1, think=0.1 if quick else None)
            times = []
            for st in positions:
                t = time.perf_counter()
                bot.choose(game.clone(st))
                times.append(time.perf_counter() - t)
            rows.append(
                _row(
                    f"{level} seconds per decision, {gid}",
                    _median(times),
                    ref,
                    "s",
                    "<= 1 s" if level == "strong" else "",
                )
            )
    return rows


def _bench_tables(quick: bool) -> list[dict[str, Any]]:
    from tools.bench_tables import bench_tables

    return bench_tables(quick, _row)


def _bench_room(quick: bool) -> list[dict[str, Any]]:
    from tools.bench_room import bench_room

    return bench_room(quick, _row)


def _line(row: dict[str, Any]) -> str:
    """One printed row; a judged row adds its spread and, when too noisy, says so."""
    text = (
        f"{row['row']:<62} {row['value']:>12.4g} {row['unit']:<8} ref {row['reference']:>10.4g}"
        f"  ratio {row['ratio']:>7.3f}  {row['target']}"
    )
    if "spread" in row:
        text += f"  spread {100 * row['spread']:.0f}% of {row['repeats']}"
        if row["noisy"]:
            text += "  TOO NOISY TO JUDGE"
    return text


def run_bench(quick: bool = False, json_path: str | None = None) -> int:
    sections = [
        ("engine", bench_engine),
        ("history and saves", bench_history_and_saves),
        ("move latency", bench_latency),
        ("start-up", lambda q: bench_startup(1 if _smoke() else 3 if q else 7)),
        ("over ssh", bench_ssh_bytes),
        ("memory", bench_memory),
        ("computer players", bench_bots),
        ("shared tables", _bench_tables),
        ("room", _bench_room),
    ]
    if quick:
        sections = [s for s in sections if s[0] not in ("memory", "over ssh", "room")]
    rows: list[dict[str, Any]] = []
    for name, fn in sections:
        for row in fn(quick):
            row["section"] = name
            rows.append(row)
            print(_line(row), flush=True)
    if json_path:
        Path(json_path).write_text(json.dumps({"quick": quick, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tools.bench")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    sys.exit(run_bench(a.quick, a.json))
