"""A table watched from a thread: the screen at a table is woken when the table changes,
instead of asking the store on a timer of its own.

The thread has its own connection to the store. On PostgreSQL it waits on the store's
notifications (LISTEN/NOTIFY): no query while nothing changes. On SQLite it asks `PRAGMA
data_version`: one statement, no read of the tables, until another process commits; only then
the table's revision is read. On Linux it asks only after the kernel said a file of the
store's folder was written (inotify; at most every `every` seconds, and every
`QUIET_SECONDS` anyway); elsewhere, or with no inotify instance left, every `every` seconds.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
from collections.abc import Callable

from .store import StoreError, TableStore

EVERY_SECONDS = 0.15  # SQLite: how often the file is asked whether anything changed
NOTIFY_SECONDS = 1.0  # PostgreSQL: the longest wait on the notifications between checks
QUIET_SECONDS = 60.0  # SQLite with inotify: asked this often anyway (the screen ticks too)
_IN_MODIFY, _IN_MOVED_TO, _IN_CREATE = 0x2, 0x80, 0x100
_IN_NONBLOCK, _IN_CLOEXEC = os.O_NONBLOCK, 0o2000000


class _FolderBell:
    """Linux inotify on a store file's folder: `wait` returns when a file there was written
    (the database or its WAL: another process committed), or when `ring` was called."""

    def __init__(self, path: str) -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:  # no instance left (the user's limit) or no inotify: the caller polls
            raise OSError(ctypes.get_errno(), "inotify_init1")
        folder = os.fsencode(os.path.dirname(os.path.abspath(path)))
        if libc.inotify_add_watch(fd, folder, _IN_MODIFY | _IN_MOVED_TO | _IN_CREATE) < 0:
            os.close(fd)
            raise OSError(ctypes.get_errno(), "inotify_add_watch")
        self.fd = fd
        self._stop_r, self._stop_w = os.pipe()
        self._lock = threading.Lock()  # `ring` never writes to a closed (reused) number

    def wait(self, seconds: float) -> None:
        ready, _, _ = select.select([self.fd, self._stop_r], [], [], seconds)
        if self.fd in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(self.fd, 65536):  # what the kernel said: read, not parsed
                    pass

    def ring(self) -> None:
        with self._lock, contextlib.suppress(OSError):
            if self._stop_w >= 0:
                os.write(self._stop_w, b"\0")

    def close(self) -> None:
        with self._lock:
            for fd in (self.fd, self._stop_r, self._stop_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self.fd = self._stop_r = self._stop_w = -1


def _bell(store: TableStore) -> _FolderBell | None:
    """A bell on the store's file where the kernel offers one (else None: poll)."""
    path = getattr(store, "path", None)
    if not sys.platform.startswith("linux") or not isinstance(path, str):
        return None
    if not os.path.isfile(path):  # an in-memory store, or a URI: nothing on disk to watch
        return None
    try:
        return _FolderBell(path)
    except (OSError, AttributeError):
        return None


class TableWatch:
    """Calls `wake()` (from its thread) each time table `table_id` may have changed, and
    once after the store failed (the screen's own connection then says why)."""

    def __init__(
        self,
        store: TableStore,
        table_id: str,
        wake: Callable[[], None],
        every: float = EVERY_SECONDS,
    ) -> None:
        self.table_id, self.wake, self.every = table_id, wake, every
        self._stop = threading.Event()
        self._store = store.reopen()
        self._version = self._store.version(table_id)
        notifies = type(self._store).wait is not TableStore.wait
        self._bell = None if notifies else _bell(self._store)
        self._thread = threading.Thread(target=self._run, name=f"watch-{table_id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        store, failed = self._store, False
        try:
            while not self._stop.is_set():
                if self._bell is not None:  # asked when the kernel says a file was written
                    self._stop.wait(self.every)  # (what comes meanwhile waits for the next)
                    self._bell.wait(QUIET_SECONDS)
                elif type(store).wait is TableStore.wait:  # nothing to wait on: ask again soon
                    self._stop.wait(self.every)
                else:
                    store.wait(NOTIFY_SECONDS)
                if self._stop.is_set():
                    break
                try:
                    v = store.version(self.table_id)
                except StoreError:
                    if not failed:
                        failed = True
                        self.wake()
                    self._stop.wait(self.every)
                    continue
                if v != self._version or failed:
                    self._version, failed = v, False
                    self.wake()
        finally:
            store.close()
            if self._bell is not None:
                self._bell.close()

    def stop(self) -> None:
        """End the thread (it closes its connection); returns at once."""
        self._stop.set()
        if self._bell is not None:
            self._bell.ring()
