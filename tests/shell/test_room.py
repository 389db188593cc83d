"""The room (`boardgames-tui serve`) against real clients: OpenSSH's `ssh` in a pseudo-terminal,
and asyncssh's client for what `ssh` cannot ask precisely (forwarding, many sessions)."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import random
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from tests.root import ROOT
from tests.shell.ptydriver import PtyApp, base_env, plain
from tests.shell.test_tables_tui import hidden_from

SSH = shutil.which("ssh") or "/usr/bin/ssh"
pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason="needs OpenSSH's client")


class Room:
    """A real `serve` on 127.0.0.1 at a free port, and keys for its players."""

    def __init__(
        self, tmp: Path, *flags: str, store: str | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.tmp = tmp
        self.dir = tmp / "room"
        self.keys = tmp / "keys"
        self.keys.mkdir(parents=True, exist_ok=True)
        self.env = {**base_env(tmp), **(env or {})}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "boardgames_tui",
                *(["--store", store] if store else []),
                "serve",
                "--port",
                "0",
                "--room",
                str(self.dir),
                *flags,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        self.banner = self.proc.stdout.readline()
        assert "listening on 127.0.0.1:" in self.banner, self.banner
        self.port = int(self.banner.split("127.0.0.1:")[1].split()[0])

    def key(self, name: str) -> Path:
        path = self.keys / name
        if not path.exists():
            k = asyncssh.generate_private_key("ssh-ed25519")
            k.write_private_key(str(path))
            path.chmod(0o600)
            k.write_public_key(str(path) + ".pub")
        return path

    def ssh_args(self, key: str, user: str, *extra: str) -> list[str]:
        return [
            SSH,
            "-p",
            str(self.port),
            "-i",
            str(self.key(key)),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            f"UserKnownHostsFile={self.tmp / 'known_hosts'}",
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-o",
            "SendEnv=LANG",
            *extra,
            f"{user}@127.0.0.1",
        ]

    def run(self, key: str, user: str, *command: str, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:  # fmt: skip
        return subprocess.run(
            [*self.ssh_args(key, user, "-n", *extra), *command],
            capture_output=True,
            text=True,
            timeout=20,
        )

    def log(self) -> str:
        return (self.dir / "room.log").read_text()

    def store(self) -> SQLiteStore:
        return SQLiteStore(self.dir / "tables.sqlite")

    def close(self) -> str:
        if self.proc.poll() is not None:
            return "room closed (already)"
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=15)
        return out


class SshPty(PtyApp):
    """OpenSSH's client in a pseudo-terminal (as a player's terminal runs it)."""

    def __init__(self, args: list[str], size: tuple[int, int] = (120, 40)) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
                os.execvpe(args[0], [args[0], "-tt", *args[1:]], env)
            finally:
                os._exit(127)
        self.output = bytearray()

    def wait_for(self, text: str, since: int = 0, limit: float = 30.0) -> str:
        """Read until `text` has shown since output position `since`; the text since then."""
        end = time.time() + limit
        while text not in plain(bytes(self.output[since:])) and time.time() < end:
            self.read(0.05, 0.3)
        shown = plain(bytes(self.output[since:]))
        assert text in shown, (text, shown[-600:])
        return shown

    def resize(self, cols: int, rows: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.kill(self.pid, signal.SIGWINCH)

    def kill(self) -> None:
        """The client goes without a word (a dropped connection)."""
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def in_whole_lines(stderr: str) -> bool:
    """The room's refusal reached the client as whole lines: one at least, each ending with
    its newline (not cut short by the closing channel)."""
    mine = [line for line in stderr.splitlines(True) if "boardgames-tui:" in line]
    return bool(mine) and all(line.endswith("\n") for line in mine)


def room_processes(room: Room) -> list[int]:
    """Sessions' processes of this room that are still running."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if str(room.dir).encode() in cmd and b"serve" not in cmd and not _fork_server(d, cmd):
            out.append(int(d.name))
    return out


def _fork_server(proc: Path, cmd: bytes) -> bool:
    """The room's fork server while its room runs (a session forked from it shows the same
    command line, but its parent is the fork server, not the room)."""
    if b"boardgames_tui.cli.forks" not in cmd:
        return False
    try:
        status = (proc / "status").read_text()
        parent = status.split("PPid:")[1].split()[0]
        return b"serve" in Path(f"/proc/{parent}/cmdline").read_bytes()
    except (OSError, IndexError):
        return False


def pids_started(room: Room) -> list[int]:
    return [int(line.split(" pid ")[1]) for line in room.log().splitlines() if " start " in line]


def gone_within(pids: list[int], seconds: float) -> bool:
    end = time.time() + seconds
    while time.time() < end:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.05)
    return False


def assert_terminal_restored(raw: bytes) -> None:
    """After `raw`, the terminal is as the app found it: the alternate screen left, the mouse,
    focus and paste reports off, the cursor shown, the line begun at the left margin."""
    for on, off in [
        (b"\x1b[?1049h", b"\x1b[?1049l"),
        (b"\x1b[?1000h", b"\x1b[?1000l"),
        (b"\x1b[?1003h", b"\x1b[?1003l"),
        (b"\x1b[?1006h", b"\x1b[?1006l"),
        (b"\x1b[?1004h", b"\x1b[?1004l"),
        (b"\x1b[?2004h", b"\x1b[?2004l"),
        (b"\x1b[?25l", b"\x1b[?25h"),
        (b"\x1b[>", b"\x1b[<u"),  # the kitty keyboard protocol, pushed and popped
    ]:
        assert raw.rfind(on) < raw.rfind(off), (on, raw[-300:])
    assert raw.endswith(b"\r\n"), raw[-300:]


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    r = Room(tmp_path)
    yield r
    out = r.close()
    assert "room closed" in out
    assert room_processes(r) == []


def test_register_refuse_a_taken_name_and_an_unknown_key_when_invite_only(tmp_path: Path) -> None:
    """The first key to use a free name keeps it; another key for it gets one clear line; a
    bad name too. An invite-only room lets in only keys its host added."""
    r = Room(tmp_path / "open")
    try:
        first = r.run("alice", "alice", "table", "list", "--json")
        assert first.returncode == 0 and json.loads(first.stdout) == []
        taken = r.run("mallory", "alice", "table", "list", "--json")
        assert taken.returncode == 255
        assert "boardgames-tui: the name alice belongs to another key" in taken.stderr
        assert in_whole_lines(taken.stderr)
        assert r.run("alice", "alice", "table", "list").returncode == 0  # still alice's
        bad = r.run("mallory", "a/../b", "table", "list")
        assert bad.returncode == 255 and "boardgames-tui: the name" in bad.stderr
        players = json.loads((r.dir / "players.json").read_text())
        assert list(players) == ["alice"] and len(players["alice"]["keys"]) == 1
        assert (r.dir / "host_key").stat().st_mode & 0o777 == 0o600
        log = r.log()
        assert "register 127.0.0.1 'alice'" in log
        assert "refuse 127.0.0.1 'alice': the name alice belongs to another key" in log
    finally:
        r.close()

    inv = Room(tmp_path / "inv", "--invite-only")
    try:
        inv.key("bob")
        unknown = inv.run("bob", "bob", "table", "list")
        assert unknown.returncode == 255 and "invite-only" in unknown.stderr
        cli = [sys.executable, "-m", "boardgames_tui", "room"]
        add = subprocess.run(
            [*cli, "add", "bob", f"{inv.key('bob')}.pub", "--room", str(inv.dir)],
            cwd=ROOT, env=inv.env, capture_output=True, text=True,
        )  # fmt: skip
        assert add.returncode == 0, add.stderr
        assert inv.run("bob", "bob", "table", "list", "--json").returncode == 0
        listed = subprocess.run(
            [*cli, "list", "--room", str(inv.dir)], cwd=ROOT, env=inv.env, capture_output=True, text=True
        )  # fmt: skip
        assert listed.stdout.startswith("bob  first seen") and "SHA256:" in listed.stdout
        subprocess.run([*cli, "remove", "bob", "--room", str(inv.dir)], cwd=ROOT, env=inv.env, check=True)  # fmt: skip
        assert inv.run("bob", "bob", "table", "list").returncode == 255
    finally:
        inv.close()


def test_two_players_in_two_ssh_sessions_play_a_hidden_game_to_the_end(room: Room) -> None:
    """alice and bob, each in their own ssh session, at one Notre Dame table: moves by keys
    and by `table play` over ssh, the rest by the host; each screen shows its own cards and
    never one the other holds."""
    store = room.store()
    tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    for u in ("alice", "bob"):  # register both keys (an exec session)
        assert room.run(u, u, "table", "list", "--json").returncode == 0
    ptys = {u: SshPty(room.ssh_args(u, u)) for u in ("alice", "bob")}
    seen: dict[str, set[str]] = {u: set() for u in ptys}

    def note_secrets() -> None:
        _, match = store.load(tid)
        for u, seat in (("alice", 0), ("bob", 1)):
            seen[u] |= hidden_from(match, match.state, match.game.view(match.state, seat))

    try:
        first = ptys["alice"].read_until("your turn")
        assert "welcome, alice" in plain(first)
        ptys["bob"].read_until("welcome, bob")
        mark = {u: len(p.output) for u, p in ptys.items()}
        for p in ptys.values():
            p.send(b"\r", quiet=0.2)  # the table is the menu's first row
        ptys["alice"].wait_for("Your turn", mark["alice"])
        ptys["bob"].wait_for("alice to move", mark["bob"])
        for k in range(4):  # by keys, in each player's own session
            note_secrets()
            mover = store.info(tid).to_move
            assert mover is not None
            # the mover's screen learns of the other's move when it next asks the store: a
            # key typed before it shows "Your turn" would be a key for "bob to move", lost
            ptys[mover].wait_for("Your turn", mark[mover])
            ptys[mover].send(b"1", quiet=0.1)
            deadline = time.time() + 20
            while store.info(tid).moves == k and time.time() < deadline:
                ptys[mover].read(0.05, 0.2)
            assert store.info(tid).moves == k + 1
            mark[mover] = len(ptys[mover].output)  # its next "Your turn" is drawn after this
        for _ in range(2):  # by `table play` over ssh
            note_secrets()
            info, match = store.load(tid)
            assert info.to_move is not None
            done = room.run(
                info.to_move, info.to_move, "table", "play", tid, match.prompt.moves[0].id
            )
            assert done.returncode == 0 and "played" in done.stdout
        rng = random.Random(3)
        while not store.info(tid).finished:  # the rest by the host
            note_secrets()
            info, match = store.load(tid)
            store.append(tid, info.to_move, rng.choice(match.prompt.moves).id, info.moves)
            if info.moves % 10 == 0:
                for p in ptys.values():
                    p.read(0.05, 0.2)
        for p in ptys.values():
            p.read_until("game over")
        texts = {u: plain(bytes(p.output)) for u, p in ptys.items()}
    finally:
        for p in ptys.values():
            p.close()
        store.close()
    assert "Your cards (alice)" in texts["alice"] and "Your cards (bob)" in texts["bob"]
    for u, text in texts.items():
        before_end = text.split("game over")[0]
        assert before_end.count("Your turn") >= 1
        for name in seen[u]:
            assert name not in before_end, (u, name)


def test_resize_disconnect_mid_game_then_reconnect_and_resume(room: Room) -> None:
    store = room.store()
    tid = store.create("rattus-cartus", parse_seats("alice,bob", "alice"), {}, 2, "alice").id
    store.close()
    s = SshPty(room.ssh_args("alice", "alice"), size=(120, 40))
    s.read_until("welcome, alice")
    mark = len(s.output)
    s.send(b"\r", quiet=0.2)
    s.wait_for("Your turn", mark)
    mark = len(s.output)
    s.resize(70, 20)  # window-change reaches the app
    assert "now 70×20" in s.wait_for("Make the terminal larger", mark)
    mark = len(s.output)
    s.resize(100, 30)
    s.wait_for("Your turn", mark)
    [pid] = pids_started(room)
    s.kill()  # mid-game, no goodbye
    assert gone_within([pid], 2.0), "the session's process outlived its client by 2 s"
    again = SshPty(room.ssh_args("alice", "alice"))
    again.wait_for("Your turn")  # straight back at the table
    # the table's status line names it (a line drawn when it reads otherwise: it may come
    # in the frame after the move list's)
    assert tid in again.wait_for(tid, 0, 10)
    mark = len(again.output)
    [_, pid2] = pids_started(room)
    assert "room closed (1 sessions ended" in room.close()  # Ctrl+C on the server
    assert "the room has closed (your game is saved)" in again.wait_for("closed", mark, 5)
    raw = bytes(again.output)
    assert_terminal_restored(raw[: raw.rindex(b"boardgames-tui: the room has closed")])
    again.close()
    assert gone_within([pid2], 0.1)
    assert " end " in room.log()


def test_exec_forwarding_subsystems_and_no_pty(room: Room) -> None:
    """Only the table commands run by exec; sftp, -L, -R, -D, and a session without a
    terminal each get one line (or a refused channel) and leave no process."""
    ok = room.run("alice", "alice", "table", "list", "--json")
    assert ok.returncode == 0 and ok.stdout.strip() == "[]"
    for cmd in (["ls"], ["table", "new", "notre-dame", "--seats", "alice,bob"], ["sh", "-c", "id"]):
        no = room.run("alice", "alice", *cmd)
        assert no.returncode == 1 and "boardgames-tui: only these commands run here" in no.stderr
        assert in_whole_lines(no.stderr)
    no_pty = subprocess.run(
        [*room.ssh_args("alice", "alice", "-T")], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20
    )  # fmt: skip
    assert no_pty.returncode == 1 and "the game needs a terminal" in no_pty.stderr
    assert in_whole_lines(no_pty.stderr)
    sftp = subprocess.run(
        [*room.ssh_args("alice", "alice", "-s")[:-1], "alice@127.0.0.1", "sftp"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20,
    )  # fmt: skip
    assert "no 'sftp' subsystem" in sftp.stderr
    fwd = room.run(
        "alice", "alice", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9", "table", "list"
    )
    assert fwd.returncode == 255

    async def forwards() -> list[str]:
        refused = []
        async with asyncssh.connect(
            "127.0.0.1", room.port, username="alice", client_keys=[str(room.key("alice"))],
            known_hosts=None, agent_path=None,
        ) as conn:  # fmt: skip
            for what, call in (
                ("-L", lambda: conn.open_connection("127.0.0.1", 9)),  # -L and -D: direct-tcpip
                ("-R", lambda: conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)),
            ):
                try:
                    await call()
                except (asyncssh.ChannelOpenError, asyncssh.ChannelListenError):
                    refused.append(what)
        return refused

    assert asyncio.run(forwards()) == ["-L", "-R"]
    log = room.log()
    assert "port forwarding (-L/-D)" in log and "remote forwarding (-R)" in log
    assert " start " not in log  # none of these started the app
    assert room_processes(room) == []


def test_twenty_sessions_at_once_reach_the_menu(room: Room) -> None:
    """20 players (asyncssh clients with a pty each) at once: every one sees the menu; the
    memory of each session's process is measured."""
    keys = {f"p{i:02d}": asyncssh.generate_private_key("ssh-ed25519") for i in range(20)}

    async def one(name: str, key: Any) -> tuple[float, Any, Any]:
        t0 = time.monotonic()
        conn = await asyncssh.connect(
            "127.0.0.1", room.port, username=name, client_keys=[key], known_hosts=None, agent_path=None
        )  # fmt: skip
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        got = b""
        while b"welcome" not in plain(got).encode():
            got += await asyncio.wait_for(proc.stdout.read(65536), 60)
        return time.monotonic() - t0, conn, proc

    async def main() -> tuple[list[float], list[int]]:
        done = await asyncio.gather(*(one(n, k) for n, k in keys.items()))
        await asyncio.sleep(0.3)
        rss = []
        for pid in pids_started(room):
            status = Path(f"/proc/{pid}/status").read_text()
            rss.append(int(status.split("VmRSS:")[1].split()[0]))
        for _, conn, _ in done:
            conn.close()
        return [d[0] for d in done], rss

    times, rss = asyncio.run(main())
    assert len(times) == 20 and len(rss) == 20
    print(f"\n20 sessions: first frame median {sorted(times)[10]:.2f} s, max {max(times):.2f} s; "
          f"memory per session {sum(rss) / len(rss) / 1024:.0f} MB")  # fmt: skip
    assert gone_within(pids_started(room), 3.0)


def test_another_key_joins_its_player_with_a_one_time_code(room: Room) -> None:
    """`k` in the menu writes a code into the player's folder (done here as the app does); a
    session of the new key types it and plays as alice; a wrong code, or Ctrl+C, gets one
    line."""
    from boardgames_tui.room.folder import Room as Folder

    assert room.run("alice", "alice", "table", "list").returncode == 0
    assert room.run("laptop", "alice", "table", "list").returncode == 255  # no code yet
    code = Folder(room.dir).new_code("alice")

    async def type_code(text: str) -> tuple[str, Any]:
        conn = await asyncssh.connect(
            "127.0.0.1", room.port, username="alice", client_keys=[str(room.key("laptop"))],
            known_hosts=None, agent_path=None,
        )  # fmt: skip
        proc = await conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        got = await asyncio.wait_for(proc.stdout.read(4096), 10)
        proc.stdin.write(text.encode() + b"\r")
        end = time.time() + 30
        while b"welcome" not in plain(got).encode() and b"left): " not in got and time.time() < end:
            chunk = await asyncio.wait_for(proc.stdout.read(65536), 30)
            if not chunk:  # refused: the session ended
                got += await asyncio.wait_for(proc.stderr.read(4096), 5)
                break
            got += chunk
        conn.close()
        return plain(got), proc

    wrong, _ = asyncio.run(type_code("000-000" if code != "000-000" else "111-111"))
    assert "Type the code" in wrong and "that is not the code (4 tries left): " in wrong
    assert "welcome" not in wrong
    given_up, _ = asyncio.run(type_code("12\x03"))  # Ctrl+C: the line starts on its own
    assert "12\r\nboardgames-tui: no key was added\r\n" in given_up, given_up[-200:]
    right, _ = asyncio.run(type_code(code))
    assert "The key is now alice's" in right and "welcome, alice" in right
    assert len(json.loads((room.dir / "players.json").read_text())["alice"]["keys"]) == 2
    assert room.run("laptop", "alice", "table", "list").returncode == 0


def test_over_days_commands_by_exec_for_the_keys_own_user(tmp_path: Path) -> None:
    """A room's player sets up notifications, reminders, away, leave, reclaim and cancel by
    exec, as the key's own user; a turn's message says how to reach the table by ssh; a
    target on the host's own machine, an injected option and a host path are refused or
    never shown. (The host lets targets on this machine in: the test's webhook is one.)"""
    from tests.tables.test_notify import Hook, wait_for

    hook = Hook()
    room = Room(tmp_path, "--notify-private")
    try:
        room.run("alice", "alice", "table", "list")  # registers alice (and the store)
        room.run("bob", "bob", "table", "list")
        store = room.store()
        tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
        add = room.run("bob", "bob", "table", "notify", "add", hook.url("bob"), "--remind", "3")
        assert add.returncode == 0 and "target 1 for bob" in add.stdout, add.stderr
        listed = room.run("bob", "bob", "table", "notify", "list")
        assert listed.returncode == 0 and f"127.0.0.1:{hook.port}" in listed.stdout
        assert room.run("alice", "alice", "table", "notify", "list").stdout.startswith(
            "No notification targets for alice"
        )  # each key its own user
        remind = room.run("bob", "bob", "table", "notify", "remind")
        assert "after 3 hours" in remind.stdout
        local = room.run("bob", "bob", "table", "notify", "add", "syslog://")
        assert local.returncode == 2 and "syslog:// targets are not allowed here" in local.stderr
        for sneaky in (
            ["table", "say", tid, "--store", "/tmp/x", "hi"],
            ["table", "notify", "add", "--store=/tmp/x"],
            ["table", "away", "--user", "bob"],
            ["table", "leave", tid, "--user", "bob"],
        ):
            no = room.run("bob", "bob", *sneaky)
            assert no.returncode == 1 and "only these commands run here" in no.stderr, sneaky
        away = room.run("bob", "bob", "table", "away", "--until", "3d")
        assert away.returncode == 0 and "bob is away until" in away.stdout, away.stderr
        assert room.run("bob", "bob", "table", "away", "--off").returncode == 0
        _, match = store.load(tid)
        assert match.prompt is not None
        played = room.run("alice", "alice", "table", "play", tid, match.prompt.moves[0].id)
        assert played.returncode == 0, played.stderr  # bob's turn: a message, sent at once
        assert wait_for(lambda: len(hook.posts) == 1)
        body = hook.posts[0][2]
        assert f"Play: ssh -p {room.port} bob@127.0.0.1" in body, body
        assert "boardgames-tui table" not in body and str(room.dir) not in body
        prop = room.run("alice", "alice", "table", "propose", tid, "limit", "24h")
        assert prop.returncode == 0 and "waiting for bob" in prop.stdout, prop.stderr
        agree = room.run("bob", "bob", "table", "agree", tid)
        assert agree.returncode == 0 and "agreed and done" in agree.stdout
        assert store.info(tid).rules.turn_limit == 24 * 3600
        leave = room.run("bob", "bob", "table", "leave", tid)
        assert leave.returncode == 0 and "you left table" in leave.stdout
        assert store.info(tid).seats[1].pilot == "left"
        back = room.run("bob", "bob", "table", "reclaim", tid)
        assert back.returncode == 0 and "play seat 2" in back.stdout, back.stderr
        said = room.run("bob", "bob", "table", "say", tid, "good", "game")
        assert said.returncode == 0 and "said at table" in said.stdout
        waiting = store.create("notre-dame", parse_seats("alice,open", "alice"), {}, 5, "alice")
        no = room.run("bob", "bob", "table", "cancel", waiting.id)
        assert no.returncode == 1 and "only alice" in no.stderr
        gone = room.run("alice", "alice", "table", "cancel", waiting.id)
        assert gone.returncode == 0 and "cancelled" in gone.stdout
        unknown = room.run("alice", "alice", "table", "show", waiting.id)
        assert unknown.returncode == 1 and str(room.dir) not in unknown.stderr
        store.close()
    finally:
        hook.close()
        assert "room closed" in room.close()
        assert room_processes(room) == []


def test_the_line_mode_joins_a_table_by_exec_and_talks(room: Room) -> None:
    """`ssh -t … plain table join ID`: the line mode straight at a shared table, where
    `say` talks (kept with the table) and `quit` leaves; a bad id is not run."""
    room.run("alice", "alice", "table", "list")
    store = room.store()
    tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    s = SshPty([*room.ssh_args("alice", "alice"), "plain", "table", "join", tid], size=(80, 24))
    s.wait_for(f"Table {tid}: Notre Dame")
    s.wait_for("alice to decide")
    mark = len(s.output)
    s.send(b"say hello from the line mode\r", quiet=0.3)
    s.wait_for("» you: hello from the line mode", mark)
    assert [t.text for t in store.talk(tid, "bob")] == ["hello from the line mode"]
    mark = len(s.output)
    s.send(b"quit\r", quiet=0.3)
    s.wait_for(f"Left table {tid}", mark)
    s.close()
    bad = room.run("alice", "alice", "plain", "table", "join", "--store=/tmp/x")
    assert bad.returncode == 1 and "only these commands run here" in bad.stderr
    store.close()
