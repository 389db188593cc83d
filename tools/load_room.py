"""A scripted load run of the ssh room: many sessions at once on loopback, some watching one
table, the others at the menu (`python -m tools.load_room --sessions 200 --watchers 50`).

It starts a room (its fork server on), connects the sessions (asyncssh clients with a pty
each, a few at a time), holds them all, measures the idle CPU of the room's processes
together, then plays moves at the table from this process and times each move to every
watcher's screen. Everything is bounded: the number of sessions, a time limit for the whole
run, and loopback only. At the end the clients go, the room closes, and the run checks that
no process of the room is left. It prints one JSON line and exits 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import asyncssh

from boardgames_tui.engine.tables import SQLiteStore, parse_seats, public_view
from boardgames_tui.session import place

ROOT = Path(__file__).resolve().parents[1]
KEEP = 20000  # characters of a screen's output kept
ANSI = re.compile(r"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else float("nan")


def _ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def room_pids(room: Path) -> list[int]:
    """The processes of this room (the server, its fork server and every session)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if str(room).encode() in (d / "cmdline").read_bytes():
                    out.append(int(d.name))
            except OSError:
                continue
    return out


class Session:
    """One client: its connection, its process and what its screen has shown."""

    def __init__(self, conn: Any, proc: Any) -> None:
        self.conn, self.proc = conn, proc
        self.text = ""  # the last KEEP characters shown
        self.dropped = 0  # characters shown before those
        self.changed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while True:
            data = await self.proc.stdout.read(65536)
            if not data:
                return
            new = ANSI.sub("", data.decode(errors="replace"))
            total = self.seen + len(new)
            self.text = (self.text + new)[-KEEP:]
            self.dropped = total - len(self.text)
            self.changed.set()

    @property
    def seen(self) -> int:
        """Characters shown so far (a position `until` takes)."""
        return self.dropped + len(self.text)

    def since(self, mark: int) -> str:
        return self.text[max(0, mark - self.dropped) :]

    async def until(self, text: str, since: int = 0, limit: float = 60.0) -> None:
        """Until `text` shows after position `since` ("": anything visible)."""
        end = time.monotonic() + limit
        while (text not in self.since(since)) if text else not self.since(since).strip():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))


async def _connect(port: int, name: str, ready: str, gate: asyncio.Semaphore) -> Session:
    async with gate:
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None, agent_path=None
        )
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        s = Session(conn, proc)
        await s.until(ready)
        return s


async def _run(room: Path, port: int, store: SQLiteStore, tid: str, a: argparse.Namespace) -> dict[str, Any]:  # fmt: skip
    gate = asyncio.Semaphore(a.at_once)
    names = [f"w{i:03d}" for i in range(a.watchers)]
    names += [f"m{i:03d}" for i in range(a.sessions - a.watchers)]
    for n in names[: a.watchers]:  # a watcher's session resumes at the table
        place.note(room / "saves" / n, {"table": tid})
    t0 = time.monotonic()
    sessions = await asyncio.gather(
        *(_connect(port, n, "to move" if n[0] == "w" else "welcome", gate) for n in names)
    )
    out: dict[str, Any] = {"held": len(sessions), "connect_all_s": time.monotonic() - t0}
    await asyncio.sleep(2.0)  # the last first frames settle
    pids = room_pids(room)
    before = {p: _ticks(p) for p in pids}
    t1 = time.monotonic()
    await asyncio.sleep(a.idle)
    used = sum(_ticks(p) - before[p] for p in pids) / os.sysconf("SC_CLK_TCK")
    out["idle_cpu_cores"] = used / (time.monotonic() - t1)
    out["processes"] = len(pids)
    watchers = sessions[: a.watchers]
    seen: list[float] = []
    rng = random.Random(7)
    for _ in range(a.moves):
        info, match = store.load(tid)
        if match.prompt is None:
            break
        marks = [w.seen for w in watchers]
        view = public_view(match)
        after = store.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
        t = time.monotonic()
        _, match = store.load(tid)
        if (
            after.to_move == info.to_move
            and public_view(match) == view
            and not match.steps[-1].lines_for(None)
        ):
            await asyncio.sleep(0.5)  # a move a spectator cannot see: nothing to wait for
            continue

        async def shown(w: Session, mark: int, t: float = t) -> float:
            # a watcher's screen is still while nothing happens: what it draws next is the
            # move (only the changed cells are sent, so no one text can be waited for)
            await w.until("", mark, 20.0)
            return time.monotonic() - t

        done = await asyncio.gather(
            *(shown(w, m) for w, m in zip(watchers, marks, strict=True)), return_exceptions=True
        )
        for d in done:
            if isinstance(d, float):
                seen.append(d)
            else:
                out["unseen"] = out.get("unseen", 0) + 1
                out.setdefault("unseen_moves", []).append(info.moves + 1)
        await asyncio.sleep(0.3)
    out["seen_p95_s"] = _pct(seen, 0.95)
    out["seen_median_s"] = _pct(seen, 0.5)
    out["seen_count"] = len(seen)
    for s in sessions:
        s.conn.close()
    await asyncio.gather(*(s.conn.wait_closed() for s in sessions), return_exceptions=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.load_room")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--watchers", type=int, default=50)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured")
    ap.add_argument("--at-once", type=int, default=8, help="connections being made at once")
    ap.add_argument("--limit", type=float, default=900.0, help="seconds for the whole run")
    ap.add_argument("--no-fork-server", action="store_true")
    a = ap.parse_args(argv)
    a.sessions = max(1, min(a.sessions, 500))
    a.watchers = max(0, min(a.watchers, a.sessions))
    result: dict[str, Any] = {"sessions": a.sessions, "watchers": a.watchers}
    with TemporaryDirectory() as tmp:
        room = Path(tmp) / "room"
        room.mkdir(mode=0o700)
        store = SQLiteStore(room / "tables.sqlite")
        tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 9, "alice").id
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "TEXTUAL"))}
        env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=tmp)
        serve = subprocess.Popen(
            [sys.executable, "-m", "boardgames_tui", "serve", "--port", "0", "--room", str(room),
             "--max-sessions", str(a.sessions + 8), "--registrations", str(a.sessions + 8),
             "--max-pending", str(a.at_once * 2 + 8),
             *(["--no-fork-server"] if a.no_fork_server else [])],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            assert serve.stdout is not None
            port = int(serve.stdout.readline().split("127.0.0.1:")[1].split()[0])
            result.update(asyncio.run(asyncio.wait_for(_run(room, port, store, tid, a), a.limit)))
        except BaseException as exc:  # said in the result: the run failed
            result["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            store.close()
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(serve.pid, signal.SIGKILL)
                serve.wait()
                result["error"] = result.get("error") or "the room did not close within 60 s"
            end = time.monotonic() + 10
            while room_pids(room) and time.monotonic() < end:
                time.sleep(0.1)
            left = room_pids(room)
            result["left_running"] = len(left)
            for pid in left:
                os.kill(pid, signal.SIGKILL)
    print(json.dumps(result), flush=True)
    return 1 if "error" in result or result["left_running"] or result.get("unseen") else 0


if __name__ == "__main__":
    sys.exit(main())
