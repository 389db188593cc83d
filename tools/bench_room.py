"""The "room" rows of `boardgames-tui bench`: a real `serve` on 127.0.0.1, asyncssh clients.

Connect to first frame and a key's round trip, each against the same app started locally on
a pseudo-terminal in the same run; memory per session; sessions held at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import asyncssh

from boardgames_tui.room.server import _set_size

Row = Callable[..., dict[str, Any]]
ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(rb"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")


def _text(data: bytes) -> str:
    return ANSI.sub(b"", data).decode("utf-8", "replace")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else float("nan")


class _Screen:
    """A terminal's side of a session: bytes in, wait for a text."""

    def __init__(self, read: Callable[[], Any], write: Callable[[bytes], None]) -> None:
        self.read, self.write = read, write
        self.seen = b""

    async def until(self, text: str, limit: float = 60.0) -> None:
        mark = len(self.seen)
        end = time.monotonic() + limit
        while text not in _text(self.seen[mark:]):
            self.seen += await asyncio.wait_for(self.read(), max(0.1, end - time.monotonic()))

    async def quiet(self, seconds: float = 0.4) -> None:
        """Read until nothing has come for `seconds`."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.seen += await asyncio.wait_for(self.read(), seconds)

    async def round_trip(self) -> float:
        """Seconds from a key (`?`: the menu's help) to the first bytes of its redraw; Escape
        closes the help again."""
        await self.quiet()
        t0 = time.monotonic()
        self.write(b"?")
        self.seen += await asyncio.wait_for(self.read(), 10)
        took = time.monotonic() - t0
        await self.quiet()
        self.write(b"\x1b")
        await self.quiet()
        return took


async def _local(env: dict[str, str], argv: list[str]) -> tuple[float, _Screen, Any, int]:
    """The app started here on a pseudo-terminal: seconds to its greeting."""
    master, slave = os.openpty()
    _set_size(slave, 120, 40)
    t0 = time.monotonic()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True
    )
    os.close(slave)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes] = asyncio.Queue()

    def readable() -> None:
        try:
            queue.put_nowait(os.read(master, 65536))
        except OSError:
            loop.remove_reader(master)

    loop.add_reader(master, readable)

    def write(data: bytes) -> None:
        os.write(master, data)

    screen = _Screen(queue.get, write)
    await screen.until("welcome")
    return time.monotonic() - t0, screen, proc, master


async def _remote(port: int, name: str, key: Any) -> tuple[float, _Screen, Any]:
    t0 = time.monotonic()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None, agent_path=None
    )
    proc = await conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
    screen = _Screen(lambda: proc.stdout.read(65536), proc.stdin.write)
    await screen.until("welcome")
    return time.monotonic() - t0, screen, conn


def _pss_kb(pid: int) -> int:
    """A process's proportional set size: its unique pages, and its share of those it shares
    (with the fork server and the other sessions)."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    return int(rollup.split("\nPss:")[1].split()[0])


def _uss_kb(pid: int) -> int:
    """A process's pages of its own (private clean and dirty): what each more session adds."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    return sum(
        int(rollup.split(f"\n{k}:")[1].split()[0]) for k in ("Private_Clean", "Private_Dirty")
    )


def _rss_kb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return int(status.split("VmRSS:")[1].split()[0])


async def _measure(tmp: Path, port: int, quick: bool) -> dict[str, Any]:
    room = tmp / "room"
    repeats, held = (3, 8) if quick else (10, 30)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "COLUMNS", "LINES"))}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", SSH_CONNECTION="127.0.0.1 0 0 0")
    local_argv = [
        sys.executable, "-m", "boardgames_tui", "--user", "local", "--confine",
        "--saves", str(tmp / "local"), "--store", str(room / "tables.sqlite"),
    ]  # fmt: skip
    out: dict[str, Any] = {"local": [], "remote": [], "local_key": [], "remote_key": []}
    local_rss, local_pss, local_uss = [], [], []
    key = asyncssh.generate_private_key("ssh-ed25519")
    for i in range(repeats):
        t, screen, proc, master = await _local(env, local_argv)
        out["local"].append(t)
        if i == 0:
            out["local_key"] = [await screen.round_trip() for _ in range(repeats)]
        local_rss.append(_rss_kb(proc.pid))
        local_pss.append(_pss_kb(proc.pid))
        local_uss.append(_uss_kb(proc.pid))
        asyncio.get_running_loop().remove_reader(master)
        os.close(master)  # its terminal hangs up: the app saves and goes
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        t, screen, conn = await _remote(port, "bench", key)
        out["remote"].append(t)
        if i == 0:
            out["remote_key"] = [await screen.round_trip() for _ in range(repeats)]
        conn.close()
        await asyncio.sleep(0.3)
    keys = {f"b{i:02d}": asyncssh.generate_private_key("ssh-ed25519") for i in range(held)}
    results = await asyncio.gather(
        *(_remote(port, n, k) for n, k in keys.items()), return_exceptions=True
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    log = (room / "room.log").read_text().splitlines()
    pids = [int(x.split(" pid ")[1]) for x in log if " start " in x][-len(ok) :] if ok else []
    rss = [r for r in (_rss_kb(p) for p in pids) if r]
    pss = [r for r in (_pss_kb(p) for p in pids) if r]
    out["pss_mb"] = statistics.mean(pss) / 1024 if pss else float("nan")
    uss = [r for r in (_uss_kb(p) for p in pids) if r]
    out["uss_mb"] = statistics.mean(uss) / 1024 if uss else float("nan")
    out["held"], out["held_of"] = len(ok), held
    out["rss_mb"] = statistics.mean(rss) / 1024 if rss else float("nan")
    local_rss = [r for r in local_rss if r]
    out["local_rss_mb"] = statistics.mean(local_rss) / 1024 if local_rss else float("nan")
    local_pss = [r for r in local_pss if r]
    out["local_pss_mb"] = statistics.mean(local_pss) / 1024 if local_pss else float("nan")
    local_uss = [r for r in local_uss if r]
    out["local_uss_mb"] = statistics.mean(local_uss) / 1024 if local_uss else float("nan")
    for r in ok:
        r[2].close()
    await asyncio.sleep(1.0)
    return out


def load_rows(row: Row, sessions: int = 200, watchers: int = 50) -> list[dict[str, Any]]:
    """The room at scale (tools/load_room.py in a process of its own): `sessions` held at
    once, their idle CPU together, and a move to `watchers` other screens."""
    out = subprocess.run(
        [sys.executable, "-m", "tools.load_room", "--sessions", str(sessions),
         "--watchers", str(watchers), "--moves", "12", "--idle", "15"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    lines = [x for x in out.stdout.splitlines() if x.startswith("{")]
    r = json.loads(lines[-1]) if lines else {"error": out.stderr[-300:]}
    if "error" in r:
        print(f"bench: the load run failed: {r['error']}", file=sys.stderr)
    nan = float("nan")
    return [
        row(f"room sessions held at once ({sessions} asked)", r.get("held", 0), sessions, "sessions"),
        row(f"idle CPU of {sessions} room sessions together (share of a core)", r.get("idle_cpu_cores", nan), 1.0, "cores", "<= 0.25"),
        row(f"move to {watchers} other screens, 95th percentile", r.get("seen_p95_s", nan), 0.5, "s", "<= 0.5 s"),
        row("processes left running after the load run", r.get("left_running", nan), 0, "processes", "0"),
    ]  # fmt: skip


def bench_room(quick: bool, row: Row) -> list[dict[str, Any]]:
    with TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        serve = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "boardgames_tui",
                "serve",
                "--port",
                "0",
                "--room",
                str(tmp / "room"),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        try:
            assert serve.stdout is not None
            first = serve.stdout.readline()
            port = int(first.split("127.0.0.1:")[1].split()[0])
            m = asyncio.run(_measure(tmp, port, quick))
        finally:
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(15)
            except subprocess.TimeoutExpired:
                serve.kill()
    med = statistics.median
    return [
        row("connect to first frame, median (room vs local)", med(m["remote"]), med(m["local"]), "s", "ratio <= 1.2"),
        row("connect to first frame, 95th percentile", _pct(m["remote"], 0.95), _pct(m["local"], 0.95), "s"),
        row("key round trip, median (room vs local)", med(m["remote_key"]), med(m["local_key"]), "s"),
        row("memory per session (RSS of its process; ref: the local app)", m["rss_mb"], m["local_rss_mb"], "MB"),
        row(f"memory per session, PSS with {m['held']} held (ref: the local app's)", m["pss_mb"], m["local_pss_mb"], "MB", "<= 20 MB"),
        row("memory per session, its own pages (USS; ref: the local app's)", m["uss_mb"], m["local_uss_mb"], "MB"),
        row("sessions held at once (reached the menu)", m["held"], m["held_of"], "sessions"),
    ] + ([] if quick else load_rows(row))  # fmt: skip
