"""Autosave in the background: the newest version of each save is made and written
(atomically, with fsync) off the UI thread, once the move has been drawn, so a move's redraw
never waits for the save's text or the disk."""

from __future__ import annotations

import errno
import threading
import time
from collections.abc import Callable
from pathlib import Path

from boardgames_tui.engine.core import saves

SETTLE = 0.25  # seconds a save waits, so the move is drawn first (and quick moves save once)
Text = str | Callable[[], str]  # a save's text, or what makes it (called in the writer thread)


def failed_line(exc: OSError) -> str:
    """What the player is told when an autosave could not be written (one line)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
    else:
        why = exc.strerror or str(exc)
    return f"Autosave failed: {why}; the last autosave is kept (the game goes on)"


class Autosaver:
    """One writer thread; a newer version of a file replaces a pending older one.

    A save waits `settle` seconds before its text is made and written: the writer thread
    holds Python's interpreter lock while it makes the text, which would otherwise hold up
    the drawing of the very move it saves. Anyone waiting (`flush`, `close`, a finished
    game) has it written at once."""

    def __init__(
        self, on_error: Callable[[str], None] | None = None, settle: float = SETTLE
    ) -> None:
        self._cond = threading.Condition()
        self._pending: dict[Path, Text] = {}
        self._since = 0.0  # when the oldest pending save came (time.monotonic)
        self._hurry = False  # someone waits: the pending saves go out without settling
        self._settle = settle
        self._busy = False
        self._on_error = on_error
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
        self._thread.start()

    def submit(self, path: Path, text: Text, wait: bool = False) -> None:
        """Queue `text` for `path`; with `wait`, return once it is on disk (a finished game:
        nothing may happen before its last move is kept, not even the end screen)."""
        with self._cond:
            if not self._closed:
                if not self._pending:
                    self._since = time.monotonic()
                self._pending[path] = text
                self._hurry = self._hurry or wait
                self._cond.notify_all()
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
            if self._pending:
                self._hurry = True
                self._cond.notify_all()
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
                due = self._since + self._settle
                while not (self._hurry or self._closed) and (left := due - time.monotonic()) > 0:
                    self._cond.wait(left)  # a newer save of the same file replaces this one
                path, text = self._pending.popitem()
                self._hurry = self._hurry and bool(self._pending)
                self._busy = True
            try:
                self._write(path, text)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _write(self, path: Path, text: Text) -> None:
        try:
            saves.atomic_write(path, text if isinstance(text, str) else text())
        except OSError as exc:  # the file on disk is the last one written whole
            if self._on_error:
                self._on_error(failed_line(exc))
        except Exception as exc:  # a save that could not be made: logged, and said
            from boardgames_tui.session.errors import write_error

            log = write_error(f"autosave {path.name}", exc)
            if self._on_error:
                where = f" (the details are in {log})" if log else ""
                self._on_error(
                    f"Autosave failed{where}; the last autosave is kept (the game goes on)"
                )
