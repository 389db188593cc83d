"""A table watched from a thread: the screen at a table is woken when the table changes,
instead of asking the store on a timer of its own.

The thread has its own connection to the store. On PostgreSQL it waits on the store's
notifications (LISTEN/NOTIFY): no query while nothing changes. On SQLite it asks `PRAGMA
data_version` every `every` seconds: one statement, no read of the tables, until another
process commits; only then the table's revision is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .store import StoreError, TableStore

EVERY_SECONDS = 0.15  # SQLite: how often the file is asked whether anything changed
NOTIFY_SECONDS = 1.0  # PostgreSQL: the longest wait on the notifications between checks


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
        self._thread = threading.Thread(target=self._run, name=f"watch-{table_id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        store, failed = self._store, False
        try:
            while not self._stop.is_set():
                if type(store).wait is TableStore.wait:  # nothing to wait on: ask again soon
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

    def stop(self) -> None:
        """End the thread (it closes its connection); returns at once."""
        self._stop.set()
