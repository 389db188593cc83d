"""The room's fork server: one process that has imported the app once, forking a session's
process for each player who connects.

A session forked from it shares the interpreter's and the app's pages with every other
session (copy-on-write) and skips the imports, so its first frame comes sooner. The server
(`python -m boardgames_tui.room.forks FD ROOM`) is started by the room with one end of a socket
pair: the room sends a session's arguments, environment and folder with its terminal (the
pseudo-terminal's slave, passed as a file descriptor); the server forks, answers with the
child's pid, and says when it ends with its exit status. The child makes the terminal its
controlling terminal in a session of its own, as a process the room started would: a hang-up
still reaches it, and the room still ends its process group. The server ends when the room
closes its end (the room ended, or was killed).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import json
import os
import select
import signal
import socket
import sys
import termios
from collections.abc import Mapping, Sequence
from typing import Any

# the wings a session runs (the app, the line mode, the command line and what they share);
# not the room itself, nor the web front end
PRELOAD = ("cli", "tui", "plain", "session", "engine")
MAX_MESSAGE = 1 << 20  # a request: arguments and environment (a few kilobytes)


# ---- the server's side (its own process) ----------------------------------------------------
def preload() -> None:
    """What every session imports at start-up: the command line, the Textual app and its
    screens, the table store and every game's rules."""
    from boardgames_tui.cli.main import tune_for_remote

    tune_for_remote()  # before Textual is imported (a room's sessions are all remote)
    import importlib
    import pkgutil

    from boardgames_tui.engine.core.registry import game_ids, get_game

    for wing in PRELOAD:
        module = importlib.import_module(f"boardgames_tui.{wing}")
        for found in pkgutil.walk_packages(module.__path__, f"{module.__name__}."):
            with contextlib.suppress(ImportError):  # an optional extra not installed
                importlib.import_module(found.name)
    for gid in game_ids():
        get_game(gid)
    # what is imported stays out of the collector's generations: a collection in a session
    # then never writes to (and so copies) the pages it shares with the others
    gc.collect()
    gc.freeze()


def serve(sock: socket.socket) -> int | None:
    """Fork a session for each request until the room closes the socket (then None). In a
    forked child this returns the session's exit status."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    while True:
        ready, _, _ = select.select([sock.fileno(), wake_r], [], [])
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 512)
            _reap(sock)
        if sock.fileno() not in ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, 1)
        except OSError:
            return None
        if not data:
            return None
        request = json.loads(data)
        if not fds:
            continue
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for fd in (wake_r, wake_w):
                os.close(fd)
            sock.close()
            return _child(fds[0], request)
        os.close(fds[0])
        _send(sock, {"id": request["id"], "pid": pid})


def _send(sock: socket.socket, message: Mapping[str, Any]) -> None:
    with contextlib.suppress(OSError):
        sock.send(json.dumps(message).encode())


def _reap(sock: socket.socket) -> None:
    """Every child that has ended, said to the room with its exit status."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(sock, {"pid": pid, "rc": os.waitstatus_to_exitcode(status)})


def _child(tty: int, request: Mapping[str, Any]) -> int:
    """The session's process: its terminal as the controlling one, then the app."""
    os.setsid()
    fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(tty, fd)
    if tty > 2:
        os.close(tty)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import random

    random.seed()  # not the server's sequence, shared by every session
    from boardgames_tui.cli.main import main

    argv = list(request["argv"])
    sys.argv = ["boardgames-tui", *argv]
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1


# ---- the room's side -------------------------------------------------------------------------
class Forked:
    """A session's process forked by the server: what the room needs of a process."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._done = asyncio.get_running_loop().create_future()

    def ended(self, rc: int) -> None:
        if self.returncode is None:
            self.returncode = rc
            self._done.set_result(rc)

    async def wait(self) -> int:
        return int(await asyncio.shield(self._done))


class ForkServer:
    """The room's handle on its fork server (`start` it, `spawn` sessions, `close` it)."""

    def __init__(self, proc: asyncio.subprocess.Process, sock: socket.socket) -> None:
        self.proc, self.sock = proc, sock
        self._next = 0
        self._asked: dict[int, asyncio.Future[int]] = {}
        self._children: dict[int, Forked] = {}
        self.alive = True
        asyncio.get_running_loop().add_reader(sock.fileno(), self._read)

    @classmethod
    async def start(cls, env: Mapping[str, str], cwd: str) -> ForkServer:
        """The server started (its imports run in the background while the room opens)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "boardgames_tui.room.forks",
                str(theirs.fileno()),
                cwd,  # the room's folder: its processes are told apart by it (`ps`)
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        return cls(proc, ours)

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            message = json.loads(data)
            if "id" in message:
                asked = self._asked.pop(message["id"], None)
                if asked is not None and not asked.done():
                    asked.set_result(int(message["pid"]))
            elif "rc" in message:
                child = self._children.pop(int(message["pid"]), None)
                if child is not None:
                    child.ended(int(message["rc"]))

    def _lost(self) -> None:
        """The server is gone: nothing more will be forked, and its children are watched by
        their pid (they end with their terminals)."""
        self.alive = False
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        for asked in self._asked.values():
            if not asked.done():
                asked.set_exception(OSError("the fork server has ended"))
        self._asked.clear()
        for child in self._children.values():
            asyncio.get_running_loop().create_task(_watch_pid(child))
        self._children.clear()

    async def spawn(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: str, tty: int
    ) -> Forked:
        """A session's process on terminal `tty` (OSError when the server cannot fork)."""
        if not self.alive:
            raise OSError("the fork server has ended")
        self._next += 1
        asked: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._asked[self._next] = asked
        request = {"id": self._next, "argv": list(argv), "env": dict(env), "cwd": cwd}
        try:
            socket.send_fds(self.sock, [json.dumps(request).encode()], [tty])
        except OSError:
            self._asked.pop(self._next, None)
            raise
        pid = await asyncio.wait_for(asked, 30)
        child = Forked(pid)
        self._children[pid] = child
        return child

    async def close(self) -> None:
        """End the server (its children are the room's sessions: ended by the room)."""
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


async def _watch_pid(child: Forked) -> None:
    while os.path.exists(f"/proc/{child.pid}"):
        await asyncio.sleep(0.2)
    child.ended(-1)


def main(args: Sequence[str]) -> int:
    sock = socket.socket(fileno=int(args[0]))
    preload()
    rc = serve(sock)
    return 0 if rc is None else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
