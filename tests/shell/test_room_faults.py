"""The room's faults: an idle session, a flood of refused logins, a hundred connections, a
session full of garbage, a locked store, a port in use, a folder it cannot use. Each gets
one clear line, loses nothing and leaves no process."""

from __future__ import annotations

import asyncio
import random
import socket
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from tests.root import ROOT
from tests.shell.ptydriver import base_env, plain
from tests.shell.test_room import (
    SSH,
    Room,
    assert_terminal_restored,
    gone_within,
    pids_started,
    room_processes,
)

pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason="needs OpenSSH's client")


class Banner(asyncssh.SSHClient):
    """A client that keeps the server's authentication banners (the room's refusals)."""

    def __init__(self) -> None:
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


async def _login(room: Room, user: str, key: Any) -> tuple[bool, list[str]]:
    """One login with `key` as `user`: whether it got in, and the banners it was shown."""
    client = Banner()
    try:
        conn, _ = await asyncssh.create_connection(
            lambda: client, "127.0.0.1", room.port, username=user, client_keys=[key],
            known_hosts=None, agent_path=None,
        )  # fmt: skip
    except asyncssh.PermissionDenied:
        return False, client.banners
    conn.close()
    await conn.wait_closed()
    return True, client.banners


async def _session(room: Room, user: str, key: Any) -> tuple[Any, Any]:
    conn = await asyncssh.connect(
        "127.0.0.1", room.port, username=user, client_keys=[key], known_hosts=None, agent_path=None
    )
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    return conn, proc


async def _read_to_end(proc: Any, limit: float) -> str:
    return plain(await _read_raw(proc, limit))


async def _read_raw(proc: Any, limit: float) -> bytes:
    got = b""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            chunk = await asyncio.wait_for(proc.stdout.read(65536), end - time.monotonic())
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    return got


def test_an_idle_session_is_saved_and_closed_with_a_line(tmp_path: Path) -> None:
    room = Room(tmp_path, "--idle-close", "1")
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:

        async def main() -> bytes:
            conn, proc = await _session(room, "alice", key)
            raw = b""
            while "New game" not in plain(raw):  # a key the menu ignores, until it is drawn
                proc.stdin.write(b"z")
                raw += await _read_raw(proc, 0.3)
            raw += await _read_raw(proc, 30)
            conn.close()
            return raw

        raw = asyncio.run(main())
        line = b"boardgames-tui: closed after 1 s without a key (your game is saved)\r\n"
        assert raw.endswith(line), raw[-300:]
        # the app was hung up and could not restore the player's terminal: the room did, so
        # the line is shown on the normal screen, and the shell after it gets no mouse codes
        assert_terminal_restored(raw[: -len(line)])
        assert "idle 'alice': closed after 1 s" in room.log()
        assert gone_within(pids_started(room), 2.0)
    finally:
        room.close()
    assert room_processes(room) == []


def test_a_client_that_never_logs_in_is_closed_after_the_grace_time(tmp_path: Path) -> None:
    room = Room(tmp_path, "--login-grace", "1")
    try:
        with socket.create_connection(("127.0.0.1", room.port), timeout=10) as s:
            s.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")  # and then nothing
            t0 = time.monotonic()
            got = b""
            while chunk := s.recv(4096):
                got += chunk
            waited = time.monotonic() - t0
        assert got.startswith(b"SSH-2.0-") and 0.9 < waited < 5, (got[:40], waited)
        assert "no login within 1 s" in room.log()
    finally:
        room.close()


def test_refused_logins_are_rate_limited_per_address(tmp_path: Path) -> None:
    """An invite-only room: 20 refused logins in a minute from one address, then that
    address is told to wait; a key the room knows still gets in (a stranger sharing the
    address, or flooding from it, must not lock its players out)."""
    room = Room(tmp_path, "--invite-only")
    try:
        known = room.key("bob")
        add = subprocess.run(
            [sys.executable, "-m", "boardgames_tui", "room", "add", "bob", f"{known}.pub", "--room", str(room.dir)],
            cwd=ROOT, env=room.env, capture_output=True, text=True,
        )  # fmt: skip
        assert add.returncode == 0, add.stderr
        stranger = asyncssh.generate_private_key("ssh-ed25519")

        async def main() -> list[tuple[bool, list[str]]]:
            tries = [await _login(room, f"s{i}", stranger) for i in range(20)]
            again = await _login(room, "s99", stranger)
            return [*tries, again, await _login(room, "bob", asyncssh.read_private_key(str(known)))]

        *tries, again, bob = asyncio.run(main())
        assert all(not ok for ok, _ in tries)
        assert all(any("invite-only" in b for b in banners) for _, banners in tries)
        assert again == (False, ["boardgames-tui: too many refused logins from your address: wait a minute\r\n"])  # fmt: skip
        assert bob == (True, [])
        assert room.log().count("too many refused logins") == 1
    finally:
        room.close()


def test_a_hundred_connections_and_garbage_bytes_leave_the_room_serving(tmp_path: Path) -> None:
    """100 connections at once, half sending garbage instead of ssh, half silent; a session
    whose player types 4 kB of random bytes. The room goes on serving: a table command works
    meanwhile, the garbage session's app never crashes, and nothing is left running."""
    room = Room(tmp_path)
    rng = random.Random(29)
    socks = []
    try:
        for i in range(100):
            s = socket.create_connection(("127.0.0.1", room.port), timeout=5)
            if i % 2:
                s.sendall(bytes(rng.randrange(256) for _ in range(512)))
            socks.append(s)
        ok = room.run("alice", "alice", "table", "list", "--json")
        assert ok.returncode == 0 and ok.stdout.strip() == "[]", ok.stderr
        for s in socks:
            s.close()
        key = asyncssh.read_private_key(str(room.key("alice")))

        quits = {3, 4, 17, 26, ord("q"), ord("Q")}  # Ctrl+C, Ctrl+D, Ctrl+Q, Ctrl+Z, q
        noise = bytes(b for b in (rng.randrange(256) for _ in range(6000)) if b not in quits)

        async def garbage() -> tuple[bool, str]:
            conn, proc = await _session(room, "alice", key)
            first = await asyncio.wait_for(proc.stdout.read(65536), 30)
            while b"welcome" not in plain(first).encode():
                first += await asyncio.wait_for(proc.stdout.read(65536), 30)
            for k in range(0, len(noise), 256):
                proc.stdin.write(noise[k : k + 256])
                await asyncio.sleep(0.02)
            text = await _read_to_end(proc, 2)
            [pid] = pids_started(room)
            alive = Path(f"/proc/{pid}").exists()
            conn.close()
            await conn.wait_closed()
            return alive, text

        alive, text = asyncio.run(garbage())
        assert alive and "Error" not in text, text[-800:]  # still playing, nothing raised
        assert gone_within(pids_started(room), 2.0)
        again = room.run("alice", "alice", "table", "list", "--json")
        assert again.returncode == 0
    finally:
        for s in socks:
            s.close()
        room.close()
    assert room_processes(room) == []


def test_a_locked_store_gets_a_line_and_loses_no_move(tmp_path: Path) -> None:
    """Another process holds the room's store for writing: a move by ssh gets one line and
    is not played; reads still work; once the lock goes the move plays."""
    room = Room(tmp_path)
    try:
        store = room.store()
        tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
        _, match = store.load(tid)
        move = match.prompt.moves[0].id
        assert room.run("alice", "alice", "table", "list").returncode == 0  # alice's key known
        lock = sqlite3.connect(str(room.dir / "tables.sqlite"), isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:  # both wait out the lock (5 s): side by side, as two of alice's terminals would
            with ThreadPoolExecutor(2) as pool:
                playing = pool.submit(room.run, "alice", "alice", "table", "play", tid, move)
                listing = pool.submit(room.run, "alice", "alice", "table", "list", "--json")
                busy, listed = playing.result(), listing.result()
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert busy.returncode == 1
        assert busy.stderr.strip().endswith("is busy: another process held it for more than 5 s; try again")  # fmt: skip
        assert listed.returncode == 0 and tid in listed.stdout
        assert store.info(tid).moves == 0
        done = room.run("alice", "alice", "table", "play", tid, move)
        assert done.returncode == 0 and store.info(tid).moves == 1
        store.close()
    finally:
        room.close()


def test_serve_refuses_a_port_in_use_a_folder_it_cannot_use_and_a_dead_store(tmp_path: Path) -> None:  # fmt: skip
    env = base_env(tmp_path)
    serve = [sys.executable, "-m", "boardgames_tui"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*serve, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=30
        )

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run("serve", "--port", str(port), "--room", str(tmp_path / "r1"))
    assert r.returncode == 2
    assert r.stderr == f"boardgames-tui: port {port} on 127.0.0.1 is in use: choose another with --port\n"  # fmt: skip
    (tmp_path / "afile").write_text("not a folder")
    r = run("serve", "--port", "0", "--room", str(tmp_path / "afile"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "afile" in r.stderr, r.stderr
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        dead = f"postgresql://nobody@127.0.0.1:{free.getsockname()[1]}/none"
    r = run("--store", dead, "serve", "--port", "0", "--room", str(tmp_path / "r2"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("boardgames-tui: the table store cannot be used: ")
    assert "nobody" not in r.stdout


def test_a_room_on_another_store_plays_there(tmp_path: Path) -> None:
    """`--store` (or $BOARDGAMES_STORE) before `serve`: the sessions' tables are there, not in
    the room's own file (the PostgreSQL case is in tests/tables/test_room_store.py)."""
    elsewhere = tmp_path / "shared" / "tables.sqlite"
    store = SQLiteStore(elsewhere)
    tid = store.create("rattus-cartus", parse_seats("alice,bob", "alice"), {}, 3, "alice").id
    room = Room(tmp_path, store=str(elsewhere))
    try:
        assert room.proc.stdout is not None
        said = [room.proc.stdout.readline() for _ in range(5)]
        assert f"tables in {elsewhere}\n" in said, said
        listed = room.run("alice", "alice", "table", "list", "--json")
        assert listed.returncode == 0 and tid in listed.stdout
        assert not (room.dir / "tables.sqlite").exists()
    finally:
        store.close()
        room.close()
