"""Hostile players against the room (`serve`): each limit holds, and an honest player, from
the same loopback address, logs in and plays a move meanwhile."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from tests.shell.test_room import SSH, Room, room_processes

pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason="needs OpenSSH's client")


def _table(room: Room) -> tuple[str, str]:
    """A two-player table of alice and bob in the room's store; (id, alice's first move)."""
    store = SQLiteStore(room.dir / "tables.sqlite")
    try:
        tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
        _, match = store.load(tid)
        assert match.prompt is not None
        return tid, match.prompt.moves[0].id
    finally:
        store.close()


async def _connect(room: Room, user: str, key: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", room.port, username=user, client_keys=[str(room.key(key))],
        known_hosts=None, agent_path=None,
    )  # fmt: skip


async def _logged(room: Room, text: str, count: int, limit: float = 20) -> None:
    """Wait until the room's log has `text` `count` times."""
    end = time.monotonic() + limit
    while room.log().count(text) < count:
        assert time.monotonic() < end, room.log()[-800:]
        await asyncio.sleep(0.05)


def test_exec_runs_are_sessions_with_a_channel_limit_and_a_time_limit(tmp_path: Path) -> None:
    """Table commands by exec count as sessions, for their key and for the room; a
    connection opens only so many channels; a command that runs too long is stopped. (The
    store is held locked, so each `table play` waits and stays counted meanwhile.)"""
    room = Room(
        tmp_path, "--max-sessions", "3", "--per-key", "2", "--channels", "2",
        "--exec-timeout", "2",
    )  # fmt: skip
    try:
        tid, move = _table(room)
        for who in ("alice", "eve", "frank"):  # each key registers its name
            assert room.run(who, who, "table", "list").returncode == 0
        lock = sqlite3.connect(str(room.dir / "tables.sqlite"), isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        play = f"table play {tid} {move}"

        async def main() -> dict[str, Any]:
            seen: dict[str, Any] = {}
            a1 = await _connect(room, "alice", "alice")
            t0 = time.monotonic()
            runs = [asyncio.create_task(a1.run(play)) for _ in range(2)]
            await _logged(room, f"'alice': table play {tid}", 2)
            try:  # a third channel on the same connection
                await a1.run("table list")
                seen["channel"] = "opened"
            except asyncssh.ChannelOpenError as exc:
                seen["channel"] = exc.reason
            a2 = await _connect(room, "alice", "alice")  # the same key, another connection
            seen["per_key"] = await a2.run("table list")
            e = await _connect(room, "eve", "eve")
            eve = asyncio.create_task(e.run(play))
            await _logged(room, f"'eve': table play {tid}", 1)
            try:  # the room is full: 3 sessions, all of them commands
                f = await _connect(room, "frank", "frank")
                seen["frank"] = await f.run("table list")
                f.close()
            except asyncssh.PermissionDenied:
                seen["frank"] = "refused"
            seen["runs"] = [await r for r in runs]
            seen["took"] = time.monotonic() - t0
            await eve
            for c in (a1, a2, e):
                c.close()
            return seen

        try:
            seen = asyncio.run(main())
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert seen["channel"] == "at most 2 channels at once on one connection"
        assert seen["per_key"].exit_status == 1
        assert "this key has 2 sessions open already" in seen["per_key"].stderr
        assert seen["frank"] == "refused"
        assert "the room is full (3 sessions)" in room.log()
        for r in seen["runs"]:
            assert r.exit_status == 1
            assert "the command ran for 2 s and was stopped" in r.stderr, r.stderr
        assert seen["took"] < 4.5  # stopped at 2 s, not at the store's 5 s busy wait
        ok = room.run("alice", "alice", "table", "play", tid, move)  # counts were given back
        assert ok.returncode == 0, ok.stderr
    finally:
        room.close()
    assert room_processes(room) == []


class Flood:
    """Bare TCP connections to the room (no ssh at all), each opened again as soon as the
    room closes it: `count` of them at all times, until `stop`."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.opened = 0
        self.done = threading.Event()
        self.threads = [threading.Thread(target=self._hold) for _ in range(count)]
        for t in self.threads:
            t.start()

    def _hold(self) -> None:
        while not self.done.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
                    self.opened += 1
                    s.settimeout(0.2)
                    while not self.done.is_set():
                        try:
                            if not s.recv(4096):
                                break  # closed by the room: connect again at once
                        except TimeoutError:
                            continue
            except OSError:
                continue

    def stop(self) -> None:
        self.done.set()
        for t in self.threads:
            t.join()


def test_a_flood_of_bare_connections_does_not_keep_an_honest_login_out(tmp_path: Path) -> None:
    """30 bare TCP connections from the players' own address, reopened as soon as they are
    closed (the room allows 20 connections at --max-sessions 2): alice still logs in and
    plays a move (before her ssh command's own time-out), and the drops are logged, not one
    line each."""
    room = Room(tmp_path, "--max-sessions", "2")
    try:
        tid, move = _table(room)
        assert room.run("alice", "alice", "table", "list").returncode == 0
        flood = Flood(room.port, 30)
        try:
            while flood.opened < 30:
                time.sleep(0.05)
            ok = room.run("alice", "alice", "table", "play", tid, move)
        finally:
            flood.stop()
        assert ok.returncode == 0, ok.stderr
        drops = [line for line in room.log().splitlines() if " drop 127.0.0.1" in line]
        assert drops and len(drops) <= 2, drops  # at most once a minute
    finally:
        room.close()


def test_registering_is_rate_limited_per_address(tmp_path: Path) -> None:
    """A fourth new name from one address in an hour is refused (--registrations 3); a
    player already registered still logs in from there."""
    room = Room(tmp_path, "--registrations", "3")
    try:
        for i in range(3):
            assert room.run(f"k{i}", f"n{i}", "table", "list").returncode == 0
        fourth = room.run("k3", "n3", "table", "list")
        assert fourth.returncode == 255
        assert "3 new names from your address this hour already: try later" in fourth.stderr
        assert room.run("k0", "n0", "table", "list").returncode == 0
    finally:
        room.close()


def test_a_strangers_wrong_codes_do_not_spend_the_players_code(tmp_path: Path) -> None:
    """While alice's code for a new key waits, a stranger connecting as alice types wrong
    codes on several connections: each connection has its own tries, the code stays, and
    alice's laptop then adds its key with it."""
    from boardgames_tui.room.folder import Room as Folder

    room = Room(tmp_path)
    try:
        assert room.run("alice", "alice", "table", "list").returncode == 0
        code = Folder(room.dir).new_code("alice")
        wrong = "000-000" if code != "000-000" else "111-111"

        async def typed(key: str, codes: list[str]) -> str:
            conn = await _connect(room, "alice", key)
            proc = await conn.create_process(
                term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            got = await asyncio.wait_for(proc.stdout.read(4096), 10)
            for c in codes:
                want = b"left): " if c == wrong else b"welcome"
                before = got.count(want)
                proc.stdin.write(c.encode() + b"\r")
                while got.count(want) == before:
                    chunk = await asyncio.wait_for(proc.stdout.read(65536), 30)
                    if not chunk:
                        got += await asyncio.wait_for(proc.stderr.read(4096), 5)
                        break
                    got += chunk
            conn.close()
            return got.decode(errors="replace")

        for _ in range(3):  # 12 wrong codes, more than a code's 5 tries
            shown = asyncio.run(typed("mallory", [wrong] * 4))
            assert "that is not the code (1 try left): " in shown, shown
        right = asyncio.run(typed("laptop", [wrong, code]))
        assert "that is not the code (4 tries left)" in right
        assert "The key is now alice's" in right
        assert room.run("laptop", "alice", "table", "list").returncode == 0
    finally:
        room.close()


def test_a_name_that_looks_like_a_players_or_the_apps_is_not_registered(tmp_path: Path) -> None:
    """alice is in the room: `Alice`, `ALICE` and `a1ice` are refused, as are the app's own
    names (autopilot, me, the computer levels), each with one line."""
    room = Room(tmp_path)
    try:
        assert room.run("alice", "alice", "table", "list").returncode == 0
        for i, fake in enumerate(("Alice", "ALICE", "a1ice")):
            no = room.run(f"m{i}", fake, "table", "list")
            assert no.returncode == 255
            assert f"the name {fake} looks like alice, who is in this room already" in no.stderr
        for name in ("autopilot", "me", "Greedy"):
            no = room.run("m9", name, "table", "list")
            assert no.returncode == 255 and "reserved" in no.stderr, no.stderr
        assert sorted(json.loads((room.dir / "players.json").read_text())) == ["alice"]
    finally:
        room.close()
