"""A table's watch on SQLite sleeps while the store's folder is not written (Linux: inotify),
and still wakes its screen at once when another process moves."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.engine.tables.watch import EVERY_SECONDS, TableWatch
from tests.tables.test_cache import _play


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_an_idle_sqlite_watch_asks_only_when_the_file_is_written(tmp_path: Path) -> None:
    a = SQLiteStore(tmp_path / "tables.sqlite")
    tid = a.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann").id
    woken = threading.Event()
    watch = TableWatch(a, tid, woken.set)
    asked: list[float] = []
    version = watch._store.version

    def counted(table_id: Any = None) -> int:
        asked.append(time.monotonic())
        return version(table_id)

    watch._store.version = counted  # type: ignore[method-assign]
    time.sleep(10 * EVERY_SECONDS)  # idle: polling would have asked about ten times
    assert len(asked) <= 1
    _play(a, tid, 1)  # another connection commits a move
    assert woken.wait(10)
    watch.stop()
    watch._thread.join(10)
    assert not watch._thread.is_alive()
    a.close()
