"""The room's fork server (`python -m boardgames_tui.cli.forks FD ROOM`): one process that has
imported the app once, forking a session's process for each player who connects (the room's
side, and why: `boardgames_tui.room.forks`). It is the command line's wing: what it runs is
the command line, in each forked child.
"""

from __future__ import annotations

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


def main(args: Sequence[str]) -> int:
    sock = socket.socket(fileno=int(args[0]))
    preload()
    rc = serve(sock)
    return 0 if rc is None else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
