"""The room's side of its fork server (`boardgames_tui.cli.forks`): start it, ask it for a
session's process on a pseudo-terminal, learn when that process ends.

A session forked from the server shares the interpreter's and the app's pages with every
other session (copy-on-write) and skips the imports, so its first frame comes sooner. The
room sends a session's arguments, environment and folder with its terminal (the
pseudo-terminal's slave, passed as a file descriptor) over a socket pair; the server forks,
answers with the child's pid, and says when it ends with its exit status. The child makes the
terminal its controlling terminal in a session of its own, as a process the room started
would: a hang-up still reaches it, and the room still ends its process group. The server
ends when the room closes its end (the room ended, or was killed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
from collections.abc import Mapping, Sequence

SERVER = "boardgames_tui.cli.forks"  # the server's module (the top wing: it runs the app)


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
                SERVER,
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
