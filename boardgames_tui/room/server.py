"""`boardgames-tui serve`: the room's ssh server (asyncssh).

Identity is the key: public-key authentication only, the ssh user name is the player's name.
Each session is the app in a process of its own on a pseudo-terminal; nothing else goes
through (a few table commands by `exec`; no shell, no sftp, no forwarding).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import shlex
import signal
import struct
import sys
import termios
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from boardgames_tui.engine.tables.store import lookalike
from boardgames_tui.room.folder import CODE_TRIES, WRONG_CODE, Room, RoomError, key_text, taken_like
from boardgames_tui.room.forks import Forked, ForkServer
from boardgames_tui.room.names import name_problem

LOGIN_GRACE = 30.0  # seconds to authenticate
# what the app undoes when it quits (Textual's terminal modes: the kitty keyboard, paste,
# focus and mouse reports, the cursor, the alternate screen), for an app the room hung up
RESTORE_TERMINAL = (
    b"\x1b[<u\x1b[?2048l\x1b[?2004l\x1b[?1004l\x1b[?1016l\x1b[?1000l\x1b[?1003l\x1b[?1015l"
    b"\x1b[?1006l\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
)
FAILS_PER_MINUTE = 20  # refused logins per address and minute before it must wait
DROP_LOG_SECONDS = 60.0  # connections dropped from one address are logged once in this long
HANG_UP_SECONDS = 1.8  # a session's process gets this long to save and go, then SIGKILL
SETTLE_SECONDS = 5.0  # how often the room plays turns whose time ran out and sends reminders
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # holds tui/ (a checkout or site-packages)
TERM_RE = re.compile(r"^[A-Za-z0-9._+-]{1,40}$")
ENV_VALUE_RE = re.compile(r"^[A-Za-z0-9._@=+-]{0,64}$")
TABLE_ID_RE = re.compile(r"^[A-Za-z0-9]{1,12}$")
MOVE_RE = re.compile(r"^[\x21-\x7e]{1,120}$")


@dataclass
class Settings:
    """What the host chose (`serve` options); the limits default to a room of friends
    (`commands.LIMITS`)."""

    store: str | None = None  # --store / $BOARDGAMES_STORE: None is the room's own SQLite file
    host: str = "127.0.0.1"
    port: int = 2222
    invite_only: bool = False
    max_sessions: int = 64  # sessions (the app or a command) at once in the whole room
    idle: float = 3600.0  # seconds without a key before a session is saved and closed
    login_grace: float = LOGIN_GRACE  # seconds a connection has to authenticate
    max_open: int | None = None  # unfinished tables per player (None: the default, 30)
    per_key: int = 3  # sessions (the app or a command) open at once with one key
    channels: int = 4  # channels open at once on one connection
    exec_seconds: float = 30.0  # a table command by exec is stopped after this long
    pending: int = 32  # connections not logged in yet from one address
    registrations: int = 30  # new names registered from one address in an hour
    # the players' notification targets: the schemes allowed (None: the room's default
    # list), and whether one may be on this machine or a private network
    notify_schemes: tuple[str, ...] | None = None
    notify_private: bool = False
    # sessions forked from a process that has imported the app (forks.py): shared pages,
    # a sooner first frame; off, each session is a new interpreter
    fork_server: bool = True

    @property
    def max_connections(self) -> int:
        """Connections at once before the oldest not logged in is dropped."""
        return self.max_sessions * 2 + 16


@dataclass
class State:
    """What the whole server counts: sessions, per key, refused logins per address."""

    settings: Settings
    room: Room
    sessions: set[RoomSession] = field(default_factory=set)
    per_key: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    fails: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    registered: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    # connections not logged in yet, oldest first (a dict keeps the order they came in)
    waiting: dict[RoomConnection, None] = field(default_factory=dict)
    dropped: dict[str, tuple[float, int]] = field(default_factory=dict)  # addr: (logged, since)
    connections: int = 0
    closing: bool = False
    forks: ForkServer | None = None  # the fork server, once started

    def refused_recently(self, addr: str) -> bool:
        return _recent(self.fails[addr], 60) >= FAILS_PER_MINUTE

    def registered_recently(self, addr: str) -> bool:
        """This address has registered as many new names this hour as the room allows."""
        return _recent(self.registered[addr], 3600) >= self.settings.registrations

    def make_room(self, new: RoomConnection) -> None:
        """A connection came in: drop the oldest not logged in (those that have not begun
        to log in first) while its address, or the room, has too many; a flood of bare
        connections so never keeps out a login that is under way."""
        s = self.settings
        same = [c for c in self.waiting if c.addr == new.addr]
        if len(same) > s.pending:
            self._drop(_oldest(same, new), f"more than {s.pending} connections not logged in")
        if self.connections > s.max_connections:
            if self.waiting:
                self._drop(_oldest(list(self.waiting), new), "the room has too many connections")
            else:  # everyone else is logged in: this one goes
                self._drop(new, "the room has too many connections")

    def _drop(self, conn: RoomConnection, why: str) -> None:
        self.waiting.pop(conn, None)
        conn.dropped = True
        if conn.conn is not None:
            conn.conn.abort()
        now = time.monotonic()
        logged, count = self.dropped.get(conn.addr, (0.0, 0))
        count += 1
        if now - logged >= DROP_LOG_SECONDS:  # one line a minute, however many there are
            self.room.log(f"drop {conn.addr}: {count} connection(s), the oldest first: {why}")
            logged, count = now, 0
        self.dropped[conn.addr] = (logged, count)


def _recent(q: deque[float], seconds: float) -> int:
    """How many of the times in `q` are within the last `seconds` (older ones forgotten)."""
    while q and q[0] < time.monotonic() - seconds:
        q.popleft()
    return len(q)


def _oldest(conns: list[RoomConnection], new: RoomConnection) -> RoomConnection:
    """The connection to drop: of those that got least far (nothing sent, an ssh version,
    begun to log in), the oldest; the one that just came only if it is the only one."""
    others = [c for c in conns if c is not new] or [new]
    return min(others, key=lambda c: c.progress())  # min keeps the first (oldest) of a tie


class RoomConnection(asyncssh.SSHServer):
    """One client connection: who it is (name, key) and what it was refused."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.conn: asyncssh.SSHServerConnection | None = None
        self.addr = "?"
        self.name = ""
        self.key = ""  # the key that authenticated, as `type base64`
        self.refusal: str | None = None  # said once, to the client and the log
        self.linking = False  # a new key of a taken name, with a code waiting
        self.authenticated = False
        self.began = False  # it has asked to log in (the ssh handshake is done)
        self.throttled = False  # its address was refused too often: only known keys get in
        self.told_wait = False
        self.dropped = False  # the room closed it to make room
        self.registering = False  # the login registers a free name
        self.channels = 0  # channels open now

    # ---- the connection --------------------------------------------------------------------
    def progress(self) -> int:
        """How far this connection got towards a login: 0 nothing sent, 1 something sent (an
        ssh client says its version at once, often before the room has read it), 2 it asked
        to log in."""
        if self.began:
            return 2
        if self.conn is None or self.conn.get_extra_info("client_version"):
            return 1
        sock = self.conn.get_extra_info("socket")
        try:  # bytes that came but are not read yet
            buf = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except (AttributeError, OSError):
            return 0
        return int(struct.unpack("i", buf)[0] > 0)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.addr = str(peer[0])
        self.state.connections += 1
        self.state.waiting[self] = None
        self.state.make_room(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.state.connections -= 1
        self.state.waiting.pop(self, None)
        if self.dropped:
            return
        if not self.authenticated and "timeout" in str(exc).lower():
            grace = self.state.settings.login_grace
            self.state.room.log(f"refuse {self.addr} {self.name!r}: no login within {grace:g} s")
        elif not self.authenticated and self.refusal is None and self.name:
            self.state.room.log(f"gone {self.addr} {self.name!r}: left before logging in")

    def refuse(self, line: str) -> None:
        """Refuse this login: one line to the client (an auth banner), one in the log."""
        if self.refusal is not None:
            return
        self.refusal = line
        self.state.fails[self.addr].append(time.monotonic())
        self.state.room.log(f"refuse {self.addr} {self.name!r}: {line}")
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(f"boardgames-tui: {line}\r\n")

    # ---- authentication: public keys only --------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.name = username
        self.began = True
        st = self.state
        # an address that was refused too often waits, but for a key the room knows for this
        # name (checked with the key): others at that address, a stranger flooding from it
        # too, still log in
        self.throttled = st.refused_recently(self.addr)
        problem = name_problem(username)
        if problem:
            self.refuse(problem)
        elif st.closing:
            self.refuse("the room is closing")
        elif len(st.sessions) >= st.settings.max_sessions:
            self.refuse(f"the room is full ({st.settings.max_sessions} sessions): try later")
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.refusal is not None:
            return False
        line = key_text(key)
        room = self.state.room
        try:
            players = room.players()
        except RoomError as exc:
            self.refuse(str(exc))
            return False
        player = players.get(username)
        self.linking = False
        if player is not None and any(k.get("key") == line for k in player.get("keys", [])):
            self.key = line
            return True
        if self.throttled:  # said once; a known key offered next still gets in
            if not self.told_wait:
                self.told_wait = True
                why = "too many refused logins from your address: wait a minute"
                room.log(f"refuse {self.addr} {username!r}: {why}")
                if self.conn is not None:
                    with contextlib.suppress(Exception):
                        self.conn.send_auth_banner(f"boardgames-tui: {why}\r\n")
            return False
        if player is not None:
            if room.code_pending(username):
                self.key, self.linking = line, True
                return True
            self.refuse(f"the name {username} belongs to another key")
            return False
        if self.state.settings.invite_only:
            self.refuse(
                "this room is invite-only and does not know your key (ask the host to add it)"
            )
            return False
        owner = next(
            (n for n, p in players.items() if any(k.get("key") == line for k in p["keys"])), None
        )
        if owner is not None:
            self.refuse(f"this key belongs to {owner}: connect as {owner}@…")
            return False
        other = lookalike(username, players)
        if other is not None:
            self.refuse(taken_like(username, other))
            return False
        if self.state.registered_recently(self.addr):
            n = self.state.settings.registrations
            self.refuse(f"{n} new names from your address this hour already: try later")
            return False
        self.key, self.registering = line, True
        return True

    def auth_completed(self) -> None:
        self.authenticated = True
        self.state.waiting.pop(self, None)
        if self.linking:
            self.state.room.log(f"link {self.addr} {self.name!r}: a new key, asking for the code")
            return
        known = self.name in self.state.room.players()
        try:
            why = self.state.room.claim(
                self.name, self.key, register=not self.state.settings.invite_only
            )
        except RoomError as exc:
            why = str(exc)
        if why is not None:  # lost a race for a free name: said when the session starts
            self.refusal = why
            self.state.room.log(f"refuse {self.addr} {self.name!r}: {why}")
            return
        what = "login" if known else "register"
        if self.registering and not known:
            self.state.registered[self.addr].append(time.monotonic())
        self.state.room.log(f"{what} {self.addr} {self.name!r} {_fp(self.key)}")

    # ---- what a connection may ask for -----------------------------------------------------
    def session_requested(self) -> RoomSession:
        limit = self.state.settings.channels
        if self.channels >= limit:
            self.state.room.log(f"refuse {self.addr} {self.name!r}: more than {limit} channels")
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                f"at most {limit} channels at once on one connection",
            )
        self.channels += 1
        return RoomSession(self)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:  # fmt: skip
        self.state.room.log(f"refuse {self.addr} {self.name!r}: port forwarding (-L/-D)")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.state.room.log(f"refuse {self.addr} {self.name!r}: remote forwarding (-R)")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.state.room.log(f"refuse {self.addr} {self.name!r}: socket forwarding")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        self.state.room.log(f"refuse {self.addr} {self.name!r}: socket forwarding")
        return False


def _fp(key_line: str) -> str:
    try:
        return str(asyncssh.import_public_key(key_line).get_fingerprint())
    except (ValueError, asyncssh.KeyImportError):
        return "?"


class RoomSession(asyncssh.SSHServerSession[bytes]):
    """One channel: the app on a pseudo-terminal, a table command, or a one-line refusal."""

    def __init__(self, owner: RoomConnection) -> None:
        self.owner = owner
        self.state = owner.state
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.subsystem: str | None = None
        self.proc: asyncio.subprocess.Process | Forked | None = None
        self.master: int | None = None
        self.counted = False
        self.last_input = time.monotonic()
        self._out = bytearray()  # client → app, waiting for the terminal to take it
        self._code = bytearray()  # the one-time code being typed
        self._paused = False
        self._reason = ""  # why the session ended, said to the client after the app has gone
        self._hung_up = False  # the room ended the app: it left the terminal as it had set it
        self._tasks: set[asyncio.Task[Any]] = set()
        self._tries = 0  # wrong codes typed on this connection
        self._channel_open = True

    # ---- requests --------------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        self.term = term_type if TERM_RE.match(term_type or "") else "xterm-256color"
        w, h = term_size[0], term_size[1]
        self.size = (max(1, min(w, 1000)) if w else 80, max(1, min(h, 1000)) if h else 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.subsystem = subsystem
        return True

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (max(1, min(width, 1000)), max(1, min(height, 1000)))
        if self.master is not None:
            _set_size(self.master, *self.size)

    def eof_received(self) -> bool:
        return True  # keep the channel open for the output: the session's end closes it

    # ---- start -----------------------------------------------------------------------------
    def session_started(self) -> None:
        self._spawn(self._start())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def say(self, line: str, status: int = 1, log: bool = True) -> None:
        """One line to the client, the session closed (and the line logged)."""
        if log:
            self.state.room.log(f"refuse {self.owner.addr} {self.owner.name!r}: {line}")
        if self.chan is None:
            return
        nl = "\r\n" if self.term else "\n"
        with contextlib.suppress(Exception):
            self.chan.write_stderr(f"boardgames-tui: {line}{nl}".encode())
            self.chan.exit(status)

    async def _start(self) -> None:
        owner = self.owner
        if owner.refusal is not None:
            self.say(owner.refusal, log=False)
            return
        if self.subsystem is not None:
            self.say(f"only the game is served here (no {self.subsystem[:20]!r} subsystem)")
            return
        if owner.linking:
            if self.term is None:
                self.say("a new key is added in a terminal: connect with ssh -t")
                return
            self._write(
                f"This key is new for {owner.name}. Type the code shown in your other "
                "session (k in the menu) and Enter: "
            )
            return
        plain = plain_command(self.command)
        if self.command is not None and plain is None:
            await self._run_command(self.command)
            return
        if self.term is None:
            self.say(f"the game needs a terminal: ssh -t -p {self._port()} {owner.name}@HOST")
            return
        # `ssh -t … plain [table join ID]`: the line mode (a version without it says so in
        # one line), at the menu or straight at a table
        await self._run_app(plain or [])

    def _port(self) -> int:
        return self.state.settings.port

    def _notify_policy(self) -> Any:
        return notify_policy(self.state.settings)

    def _count(self) -> bool:
        """Count this session (the app or a command) for its key and the room; False, with
        a line to the client, when either is full."""
        st, key = self.state, self.owner.key
        if st.per_key[key] >= st.settings.per_key:
            self.say(f"this key has {st.settings.per_key} sessions open already: close one first")
            return False
        if len(st.sessions) >= st.settings.max_sessions:
            self.say(f"the room is full ({st.settings.max_sessions} sessions): try later")
            return False
        st.sessions.add(self)
        st.per_key[key] += 1
        self.counted = True
        return True

    # ---- the app on a pseudo-terminal ------------------------------------------------------
    def _argv(self, module: str) -> list[str]:
        room, name = self.state.room, self.owner.name
        saves = room.saves_of(name)
        saves.mkdir(parents=True, exist_ok=True, mode=0o700)
        return [
            sys.executable,
            "-m",
            module,
            "--user",
            name,
            "--saves",
            str(saves),
            "--confine",
        ]

    def _env(self) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/"),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
            "SSH_CONNECTION": f"{self.owner.addr} 0 {self.state.settings.host} {self._port()}",
            "BOARDGAMES_ROOM_LOGIN": f"ssh -p {self._port()} {self.owner.name}@HOST",
        }
        env.update({k: v for k, v in os.environ.items() if k.startswith("BOARDGAMES_")})
        if "XDG_STATE_HOME" in os.environ:  # crash reports and the log: the host's to read
            env["XDG_STATE_HOME"] = os.environ["XDG_STATE_HOME"]
        # how a notification tells its reader to reach a table: this room, by ssh
        env["BOARDGAMES_ROOM_PLAY"] = room_play(self.state)
        # the room's store, in the environment rather than on a command line any local user
        # can read (a server URL may carry a password); libpq's own settings (PGPASSFILE,
        # PGSSLMODE, …) as the host gave them to `serve`
        env["BOARDGAMES_STORE"] = self.state.settings.store or str(self.state.room.store_path)
        if self.state.settings.max_open is not None:
            env["BOARDGAMES_MAX_OPEN"] = str(self.state.settings.max_open)
        env.update(self._notify_policy().env())
        env.update({k: v for k, v in os.environ.items() if k.startswith("PG")})
        if self.chan is not None:
            for k, v in self.chan.get_environment().items():
                if (k == "LANG" or k.startswith("LC_")) and ENV_VALUE_RE.match(v) and len(k) < 20:
                    env[k] = v
        if self.term:
            env["TERM"] = self.term
        return env

    async def _run_app(self, extra: list[str]) -> None:
        owner = self.owner
        if not self._count():
            return
        master, slave = os.openpty()
        _set_size(slave, *self.size)
        forks = self.state.forks
        try:
            argv = [*self._argv("boardgames_tui.room.child"), *extra]
            cwd = str(self.state.room.saves_of(owner.name))
            if forks is not None and forks.alive:  # from the process that imported the app
                self.proc = await forks.spawn(argv[3:], self._env(), cwd, slave)
            else:
                self.proc = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    start_new_session=True,
                    env=self._env(),
                    cwd=cwd,
                )
        except OSError as exc:
            os.close(master)
            os.close(slave)
            self._uncount()
            self.say(f"the game could not start: {exc.strerror}")
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        loop = asyncio.get_running_loop()
        loop.add_reader(master, self._from_app)
        self.state.room.log(f"start {owner.addr} {owner.name!r} pid {self.proc.pid}")
        self._spawn(self._idle_watch())
        started = time.monotonic()
        rc = await self.proc.wait()
        self._drain()
        self._close_master()
        self._uncount()
        self.state.room.log(
            f"end {owner.addr} {owner.name!r} pid {self.proc.pid} after {time.monotonic() - started:.1f} s"
        )
        if self.chan is not None:
            with contextlib.suppress(Exception):
                if self._hung_up:  # the app could not put the player's terminal back: do it
                    self.chan.write(RESTORE_TERMINAL)
                if self._reason:
                    self.chan.write(f"\r\nboardgames-tui: {self._reason}\r\n".encode())
                self.chan.exit(max(0, rc))

    def _from_app(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app's side closed
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        if self.chan is not None:
            self.chan.write(data)

    def _drain(self) -> None:
        for _ in range(64):
            if self.master is None:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            if self.chan is not None:
                with contextlib.suppress(Exception):
                    self.chan.write(data)

    def pause_writing(self) -> None:
        if self.master is not None and not self._paused:
            self._paused = True
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_writing(self) -> None:
        if self.master is not None and self._paused:
            self._paused = False
            asyncio.get_running_loop().add_reader(self.master, self._from_app)

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.owner.linking and self.proc is None:
            self._code_typed(data)
            return
        if self.master is None:
            return
        self._out += data
        self._to_app()

    def _to_app(self) -> None:
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        try:
            n = os.write(self.master, self._out)
        except BlockingIOError:
            n = 0
        except OSError:
            self._out.clear()
            return
        del self._out[:n]
        if len(self._out) > 1 << 20:  # a client pasting faster than the app reads: drop it
            self._out.clear()
        with contextlib.suppress(Exception):
            loop.remove_writer(self.master)
        if self._out:
            loop.add_writer(self.master, self._to_app)

    def _close_master(self) -> None:
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        with contextlib.suppress(Exception):
            loop.remove_reader(self.master)
        with contextlib.suppress(Exception):
            loop.remove_writer(self.master)
        with contextlib.suppress(OSError):
            os.close(self.master)
        self.master = None

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.state.sessions.discard(self)
            self.state.per_key[self.owner.key] -= 1

    async def hang_up(self, reason: str = "") -> None:
        """Hang up the app's terminal (it saves and goes); SIGKILL if it lingers."""
        self._reason = self._reason or reason
        self._hung_up = True
        proc = self.proc
        self._close_master()  # the kernel hangs up the terminal: SIGHUP to the app
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), HANG_UP_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            self.state.room.log(f"kill {self.owner.name!r} pid {proc.pid}: did not end on hang-up")

    async def _idle_watch(self) -> None:
        idle = self.state.settings.idle
        while self.proc is not None and self.proc.returncode is None:
            await asyncio.sleep(min(60.0, max(0.2, idle / 4)))
            if time.monotonic() - self.last_input > idle:
                self.state.room.log(f"idle {self.owner.name!r}: closed after {idle:.0f} s")
                await self.hang_up(
                    f"closed after {_duration(idle)} without a key (your game is saved)"
                )
                return

    def connection_lost(self, exc: Exception | None) -> None:
        self.chan = None
        if self._channel_open:
            self._channel_open = False
            self.owner.channels -= 1
        if self.proc is not None and self.proc.returncode is None:
            self._spawn(self.hang_up())

    # ---- a new key: the one-time code ------------------------------------------------------
    def _write(self, text: str) -> None:
        if self.chan is not None:
            self.chan.write(text.encode())

    def _code_typed(self, data: bytes) -> None:
        for b in data:
            if b in (3, 4):  # Ctrl+C, Ctrl+D
                self._write("\r\n")  # the line starts below the prompt
                self.say("no key was added", status=1, log=False)
                return
            if b in (8, 127):
                if self._code:
                    self._code.pop()
                    self._write("\b \b")
            elif b in (10, 13):
                self._write("\r\n")
                self._check_code()
                return
            elif (48 <= b <= 57 or b == 45) and len(self._code) < 12:
                self._code.append(b)
                self._write(chr(b))

    def _check_code(self) -> None:
        owner = self.owner
        why = self.state.room.use_code(owner.name, self._code.decode(), owner.key)
        self._code.clear()
        if why is not None:
            self._tries += 1
            if why == WRONG_CODE and self._tries < CODE_TRIES:  # this connection's tries
                left = CODE_TRIES - self._tries
                self._write(f"{why} ({left} {'try' if left == 1 else 'tries'} left): ")
                return
            if why == WRONG_CODE:  # counted as a refused login: guessing is slowed down
                self.state.fails[owner.addr].append(time.monotonic())
            self.say(why)
            return
        owner.linking = False
        self.state.room.log(f"key {owner.addr} {owner.name!r}: added {_fp(owner.key)}")
        self._write(f"The key is now {owner.name}'s: starting the game…\r\n")
        self._spawn(self._start())

    # ---- exec: the scriptable table commands -----------------------------------------------
    async def _run_command(self, command: str) -> None:
        args = allowed_command(command)
        if args is None:
            self.say(
                "only these commands run here: table list [--json], table show ID [--json], "
                "table play ID MOVE, table say ID TEXT, table leave|reclaim|cancel ID, "
                "table propose ID CHANGE, table agree ID [--no], "
                "table away [--until WHEN|--off], table notify list|add URL [--talk] [--remind "
                "HOURS]|talk N on|off|remove N|test|remind [HOURS] (or connect without a "
                "command to play)"
            )
            return
        if not self._count():
            return
        self.state.room.log(f"exec {self.owner.addr} {self.owner.name!r}: {' '.join(args)}")
        env = self._env()
        env.pop("TERM", None)
        limit = self.state.settings.exec_seconds
        try:
            proc = await asyncio.create_subprocess_exec(
                *self._argv("boardgames_tui.cli.main"),
                *args,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd=str(self.state.room.saves_of(self.owner.name)),
                start_new_session=True,
            )
            self.proc = proc
            try:
                out, err = await asyncio.wait_for(proc.communicate(), limit)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
                self.say(f"the command ran for {limit:g} s and was stopped")
                return
        except OSError as exc:
            self.say(f"the command could not start: {exc.strerror}")
            return
        finally:
            self._uncount()
        if self.term:  # the client's terminal is raw: lines need their carriage return
            out, err = (b.replace(b"\n", b"\r\n") for b in (out, err))
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.write(out)
                self.chan.write_stderr(err)
                self.chan.exit(proc.returncode or 0)


def plain_command(command: str | None) -> list[str] | None:
    """The app's arguments for `plain` (the line mode's menu) or `plain table join ID` (the
    line mode at a table), else None."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        return None
    if words == ["plain"]:
        return ["--plain"]
    if len(words) == 4 and words[:3] == ["plain", "table", "join"] and TABLE_ID_RE.match(words[3]):
        return ["--plain", "table", "join", words[3]]
    return None


def allowed_command(command: str) -> list[str] | None:
    """The table command `command` asks for, as arguments, or None if it is not allowed."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) < 2 or words[0] != "table":
        return None
    action, rest = words[1], words[2:]
    if action == "list" and rest in ([], ["--json"]):
        return words
    if action == "show" and len(rest) in (1, 2) and TABLE_ID_RE.match(rest[0]):
        return words if rest[1:] in ([], ["--json"]) else None
    if (
        action == "play"
        and len(rest) == 2
        and TABLE_ID_RE.match(rest[0])
        and MOVE_RE.match(rest[1])
    ):
        return words
    # playing over days: the key's own user only (the session's --user), every word checked
    # so that none can be read as another option (--store, --user)
    if action in ("leave", "reclaim", "cancel") and len(rest) == 1 and TABLE_ID_RE.match(rest[0]):
        return words
    if action == "agree" and rest[1:] in ([], ["--no"]) and rest and TABLE_ID_RE.match(rest[0]):
        return words
    if action in ("say", "propose") and len(rest) >= 2 and TABLE_ID_RE.match(rest[0]):
        return words if all(_text_word(w) for w in rest[1:]) else None
    if action == "away" and (
        rest in ([], ["--off"])
        or (len(rest) == 2 and rest[0] == "--until" and UNTIL_RE.match(rest[1]))
    ):
        return words
    if action == "notify":
        return words if _notify_allowed(rest) else None
    return None


UNTIL_RE = re.compile(r"^[0-9][0-9:. T-]{0,24}[smhd]?$")
HOURS_RE = re.compile(r"^[0-9]{1,5}(\.[0-9]{1,4})?$")


def _text_word(word: str) -> bool:
    """A word of talk: printable, not an option."""
    return bool(word) and not word.startswith("-") and word.isprintable() and len(word) <= 200


def _notify_allowed(rest: list[str]) -> bool:
    if rest in (["list"], ["test"], ["remind"]):
        return True
    if len(rest) == 2 and rest[0] == "remind":
        return bool(HOURS_RE.match(rest[1]))
    if len(rest) == 2 and rest[0] == "remove":
        return rest[1].isdigit() and len(rest[1]) <= 4
    if len(rest) == 3 and rest[0] == "talk":
        return rest[1].isdigit() and len(rest[1]) <= 4 and rest[2] in ("on", "off")
    if rest[:1] == ["add"] and len(rest) >= 2:
        url_ok = _text_word(rest[1]) and len(rest[1]) <= 500 and " " not in rest[1]
        flags = rest[2:]
        if flags[:1] == ["--talk"]:
            flags = flags[1:]
        remind = flags == [] or (
            len(flags) == 2 and flags[0] == "--remind" and bool(HOURS_RE.match(flags[1]))
        )
        return url_ok and remind
    return False


def notify_policy(settings: Settings) -> Any:
    """What the host allows its players' notification targets (engine's `Policy`)."""
    from boardgames_tui.engine.tables.notify import ROOM_SCHEMES, Policy

    schemes = ROOM_SCHEMES if settings.notify_schemes is None else settings.notify_schemes
    return Policy(tuple(schemes), settings.notify_private)


def room_play(state: State) -> str:
    """How a notification from this room tells its reader to reach a table: by ssh."""
    return f"ssh -p {state.settings.port} {{user}}@{_host_name(state)}"


async def _settle_loop(state: State) -> None:
    """A table's clock runs while nobody is connected: every few seconds the room plays the
    turns whose time ran out and queues the reminders owed, then starts a sender for what is
    due (the players' screens and commands do it too, but only while one is open)."""
    # the room's own messages are worded and sent as its sessions' are: its ssh line to
    # play, its policy for the targets (the sender inherits this environment)
    os.environ["BOARDGAMES_ROOM_PLAY"] = room_play(state)
    os.environ.update(notify_policy(state.settings).env())
    while not state.closing:
        try:
            await asyncio.to_thread(_settle_once, state)
        except Exception as exc:  # a bot's or a store's bug: logged, the room goes on
            state.room.log(f"settle: {exc!r}")
        await asyncio.sleep(SETTLE_SECONDS)


def _settle_once(state: State) -> None:
    from boardgames_tui.engine.tables import StoreError, open_store
    from boardgames_tui.engine.tables.computer import settle
    from boardgames_tui.session.sender import start_sender

    try:
        store = open_store(state.settings.store or str(state.room.store_path), create_file=False)
    except StoreError:
        return  # gone for now: the next round tries again
    try:
        settle(store)
        start_sender(store)
    finally:
        store.close()


def _host_name(state: State) -> str:
    """The room's address as players type it: the listening address, or this machine's
    name when it listens on every address."""
    host = state.settings.host
    if host in ("", "0.0.0.0", "::"):
        import socket

        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def _set_size(fd: int, cols: int, rows: int) -> None:
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:g} hour{'s' if seconds > 3600 else ''}"
    return f"{seconds:.0f} s"


# ---- serve ---------------------------------------------------------------------------------
async def start(state: State) -> asyncssh.SSHAcceptor:
    key = state.room.host_key()
    return await asyncssh.create_server(
        lambda: RoomConnection(state),
        state.settings.host,
        state.settings.port,
        server_host_keys=[key],
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=state.settings.login_grace,
        keepalive_interval=30,
        keepalive_count_max=4,
        gss_host=None,
        kbdint_auth=False,
        password_auth=False,
        host_based_auth=False,
        reuse_address=True,
    )


def banner(state: State, port: int, key: Any) -> list[str]:
    s = state.settings
    where = (
        "open to the network"
        if s.host not in ("127.0.0.1", "localhost", "::1")
        else "this machine only"
    )
    lines = [
        f"boardgames-tui room listening on {s.host}:{port} ({where})",
        f"host key {key.get_fingerprint()} (ed25519): friends can check it on their first login",
        f"tell your friends: ssh -p {port} NAME@{'HOST' if s.host in ('0.0.0.0', '::') else s.host}",
    ]
    if s.host in ("127.0.0.1", "localhost", "::1"):
        lines.append(
            "  (only this machine can connect: --host 0.0.0.0 opens the room to the network)"
        )
    lines.append(
        "invite-only: only keys added with `boardgames-tui room add NAME KEYFILE` get in"
        if s.invite_only
        else "open room: the first key to use a free name keeps it"
    )
    lines.append(f"tables in {_store_label(s.store) if s.store else state.room.store_path}")
    lines.append(f"room folder {state.room.path}; Ctrl+C closes the room (every game is saved)")
    return lines


async def _serve(state: State) -> int:
    try:
        acceptor = await start(state)
    except OSError as exc:
        s = state.settings
        if exc.errno == 98:
            print(
                f"boardgames-tui: port {s.port} on {s.host} is in use: choose another with --port",
                file=sys.stderr,
            )
        else:
            print(
                f"boardgames-tui: cannot listen on {s.host}:{s.port}: {exc.strerror}",
                file=sys.stderr,
            )
        return 2
    port = acceptor.get_port()
    state.settings.port = port
    if state.settings.fork_server:
        try:
            state.forks = await ForkServer.start(_fork_env(state), str(state.room.path))
        except OSError as exc:  # each session is then an interpreter of its own
            state.room.log(f"fork server: could not start ({exc.strerror or exc})")
    state.room.log(f"open {state.settings.host}:{port} invite_only={state.settings.invite_only}")
    for line in banner(state, port, state.room.host_key()):
        print(line, flush=True)
    settling = asyncio.get_running_loop().create_task(_settle_loop(state))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    state.closing = True
    settling.cancel()
    acceptor.close()
    sessions = list(state.sessions)
    await asyncio.gather(
        *(s.hang_up("the room has closed (your game is saved)") for s in sessions),
        return_exceptions=True,
    )
    for session in sessions:  # the line reaches the client once the app has gone
        if session.proc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.proc.wait(), 3)
    await asyncio.sleep(0.2)
    if state.forks is not None:
        await state.forks.close()
    state.room.log(f"close: {len(sessions)} sessions ended")
    print(f"room closed ({len(sessions)} sessions ended, every game saved)", flush=True)
    return 0


def _fork_env(state: State) -> dict[str, str]:
    """The fork server's environment: what every session's has in common (each session's
    own is set in its process after the fork; Textual's settings for a remote terminal are
    read once, at import, and are the same for all)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/"),
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH", "")) if p
        ),
        "SSH_CONNECTION": f"127.0.0.1 0 {state.settings.host} {state.settings.port}",
        "TERM": "xterm-256color",
        "PYTHONUTF8": "1",
    }
    env.update({k: v for k, v in os.environ.items() if k.startswith(("BOARDGAMES_", "PG"))})
    return env


def _store_label(location: str) -> str:
    """A store's location to print: a server URL without its user and password."""
    return location.rsplit("@", 1)[-1] if "://" in location else location


def _check_store(settings: Settings, room: Room) -> str | None:
    """Why the room's table store cannot be used (one line), or None: said at start, not
    to each player who logs in."""
    from boardgames_tui.engine.tables import StoreError, open_store

    try:
        open_store(settings.store or str(room.store_path)).close()
    except StoreError as exc:
        return f"the table store cannot be used: {exc}"
    return None


def serve(settings: Settings, room: Room) -> int:
    """Run the room until Ctrl+C (or SIGTERM); 2 if it cannot start."""
    try:
        room.prepare()
        room.host_key()
    except RoomError as exc:
        print(f"boardgames-tui: {exc}", file=sys.stderr)
        return 2
    problem = _check_store(settings, room)
    if problem:
        print(f"boardgames-tui: {problem}", file=sys.stderr)
        return 2
    return asyncio.run(_serve(State(settings, room)))
