"""Run the app in a pseudo-terminal, as a terminal or sshd would, for end-to-end tests."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

from tests.root import ROOT

ANSI = re.compile(rb"\x1b\[[0-9;?<>]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")


class PtyApp:
    """The app in a pty of a given size and environment; send keys, read what it wrote."""

    def __init__(
        self, args: list[str], env: dict[str, str], size: tuple[int, int] = (80, 24)
    ) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child must never return into the test runner
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
                os.chdir(ROOT)
                argv = [sys.executable, "-m", "boardgames_tui", *args]
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.output = bytearray()

    def _chunk(self) -> bytes | None:
        """What the app wrote in the next 50 ms (b"" if nothing), None once it has closed."""
        r, _, _ = select.select([self.fd], [], [], 0.05)
        if not r:
            return b""
        try:
            return os.read(self.fd, 65536) or None
        except OSError:
            return None

    def read(self, quiet: float = 0.7, limit: float = 20.0) -> bytes:
        """Read until the app has been quiet for `quiet` seconds; returns what was read."""
        got = bytearray()
        last = time.time()
        end = time.time() + limit
        while time.time() < end:
            data = self._chunk()
            if data is None:
                break
            if data:
                got += data
                last = time.time()
            elif got and time.time() - last > quiet:
                break
        self.output += got
        return bytes(got)

    def read_until(self, text: str, limit: float = 30.0, quiet: float = 0.3) -> bytes:
        """Read until the screen has shown `text` (a busy machine may take a while to draw
        it), then until the app is quiet; returns what was read."""
        got = bytearray()
        end = time.time() + limit
        while time.time() < end and text not in plain(bytes(got)):
            data = self._chunk()
            if data is None:
                break
            got += data
        self.output += got
        return bytes(got) + self.read(quiet, 5.0)

    def send(self, keys: bytes, quiet: float = 0.7) -> bytes:
        os.write(self.fd, keys)
        return self.read(quiet)

    def close(self) -> int:
        try:
            os.write(self.fd, b"\x11")  # ctrl+q
            self.read(0.5, 5)
        except OSError:
            pass
        for _ in range(50):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -9


def plain(data: bytes) -> str:
    """The text of terminal output without escape sequences."""
    return ANSI.sub(b"", data).decode("utf-8", "replace")


def base_env(tmp: Path, **extra: str) -> dict[str, str]:
    # COLUMNS / LINES (set in pytest-xdist's workers) would override the pty's size
    skip = ("PYTEST", "TEXTUAL", "COLORTERM", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if not k.startswith(skip)}
    env.update(
        PYTHONPATH=str(ROOT),
        XDG_DATA_HOME=str(tmp),
        XDG_CONFIG_HOME=str(tmp / "config"),
        BOARDGAMES_BOT_DELAY="0",
        **extra,
    )
    return env
