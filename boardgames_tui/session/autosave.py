"""Autosave in the background: the newest version of each save is written (atomically, with
fsync) off the UI thread, so a move's redraw never waits for the disk."""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable
from pathlib import Path

from boardgames_tui.engine.core import saves


def failed_line(exc: OSError) -> str:
    """What the player is told when an autosave could not be written (one line)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
    else:
        why = exc.strerror or str(exc)
    return f"Autosave failed: {why}; the last autosave is kept (the game goes on)"


class Autosaver:
    """One writer thread; a newer version of a file replaces a pending older one."""

    def __init__(self, on_error: Callable[[str], None] | None = None) -> None:
        self._cond = threading.Condition()
        self._pending: dict[Path, str] = {}
        self._busy = False
        self._on_error = on_error
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
        self._thread.start()

    def submit(self, path: Path, text: str, wait: bool = False) -> None:
        """Queue `text` for `path`; with `wait`, return once it is on disk (a finished game:
        nothing may happen before its last move is kept, not even the end screen)."""
        with self._cond:
            if not self._closed:
                self._pending[path] = text
                self._cond.notify()
                if not wait:
                    return
                self._cond.wait_for(self._idle, 5.0)
                return
        self._write(path, text)  # closed: written here and now

    def close(self, timeout: float = 5.0) -> None:
        """Write what is pending, then end the writer thread (it holds `on_error`, and with
        it whatever that belongs to: an app that has ended)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything submitted is on disk; False on time-out."""
        with self._cond:
            return self._cond.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        """Everything submitted is on disk (called with the lock held)."""
        return not self._pending and not self._busy

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._pending) or self._closed)
                if not self._pending:  # closed, and everything written
                    return
                path, text = self._pending.popitem()
                self._busy = True
            try:
                self._write(path, text)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _write(self, path: Path, text: str) -> None:
        try:
            saves.atomic_write(path, text)
        except OSError as exc:  # the file on disk is the last one written whole
            if self._on_error:
                self._on_error(failed_line(exc))
