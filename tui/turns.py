"""Your turn, wherever you are in the app: the tables where it is the user's turn, counted off
the UI thread (one thread of the app's, for as long as it runs), and the turn notices due sent
from there too.

The thread waits for the store to change: on PostgreSQL it blocks on the store's notifications
(no query while nothing changes), on SQLite it asks the cheap `version()` every `POLL_SECONDS`
(one `PRAGMA`, no read of the tables while nothing changed). It also ends tables abandoned for
30 days (now and then: any reader may) and sends the notices owed, after the app's own moves
at once (`nudge(send=True)`), else when something changed or every `RESEND_SECONDS` (retries).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the store's modules load in the thread, off the first frame's path
    from boardgames_tui.engine.tables import TableStore

POLL_SECONDS = 2.0
RESEND_SECONDS = 60.0
ABANDON_SECONDS = 600.0


class YourTurns(Message):
    """The tables where it is the user's turn now, the longest waiting first."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        super().__init__()
        self.ids = ids


def turn_text(n: int) -> str:
    """What the app shows: "your turn at 2 tables" (lower case: never read as a table
    screen's own "Your turn: …" prompt)."""
    if n == 0:
        return "no table waits for your move now"
    return f"your turn at {n} table{'' if n == 1 else 's'}"


class TurnWatch:
    """The thread's side: its own connection to the store, used by that thread only (and by
    `close`)."""

    def __init__(self, location: str | None, user: str | Callable[[], str]) -> None:
        self._where, self._who = location, user
        self.location = self.user = ""  # known once `resolve` ran
        self.store: TableStore | None = None
        self.lock = threading.Lock()
        self._version: int | None = None
        self._sent = 0.0
        self._abandon = 0.0
        self._here = 0.0  # when this session last said it is here (presence)
        self._stop = threading.Event()
        self._nudged = threading.Event()  # check again now (the app moved: notices owed)
        self._send = False
        self._thread: threading.Thread | None = None

    def start(self, found: Callable[[tuple[str, ...]], object]) -> None:
        """Watch in a thread of its own until `close`: `found(ids)` (called from that thread)
        with the your-turn tables each time they may have changed."""

        def run() -> None:
            self.resolve()
            while not self._stop.is_set():
                self._nudged.clear()
                send, self._send = self._send, False
                ids = self.check(send) if self.available() else None
                if ids is not None and not self._stop.is_set():
                    found(ids)
                self._pause()

        self._thread = threading.Thread(target=run, name="turns", daemon=True)
        self._thread.start()

    def resolve(self) -> None:
        """Where the store is and who the user is (the login name may need the store's
        module: the thread asks, not the app at start-up)."""
        from boardgames_tui.engine.tables import store_location

        self.location = store_location(self._where)
        self.user = self._who if isinstance(self._who, str) else self._who()

    def nudge(self, send: bool = False) -> None:
        """Check now (with `send`: send the notices owed, after a move made here)."""
        self._send = self._send or send
        self._nudged.set()

    def _pause(self) -> None:
        """Until the store may have changed, a nudge, or `POLL_SECONDS` (a store that
        notifies wakes its listener; a file is asked again then)."""
        from boardgames_tui.engine.tables import TableStore

        store = self.store
        if store is not None and type(store).wait is not TableStore.wait and not self._send:
            store.wait(POLL_SECONDS)  # our own moves notify too: a nudge needs no wake-up
        else:
            self._nudged.wait(POLL_SECONDS)

    def available(self) -> bool:
        """A store to watch: a server, or a file that exists (never made just to watch)."""
        from boardgames_tui.engine.tables import is_server_url

        try:
            there = Path(self.location).exists()
        except OSError:  # a folder on its way that may not be searched: opening says why
            there = True
        return self.store is not None or is_server_url(self.location) or there

    def check(self, send: bool = False) -> tuple[str, ...] | None:
        """The your-turn tables if anything changed (or `send`), else None; sends the notices
        due. Never raises: a store that cannot be read now is asked again next time."""
        from boardgames_tui.engine.tables import StoreError, open_store
        from boardgames_tui.engine.tables.store import HEARTBEAT
        from boardgames_tui.session.sender import start_sender

        with self.lock:
            if self._stop.is_set():  # closed: never opened again
                return None
            try:
                if self.store is None:
                    self.store = open_store(self.location, create_file=False)
                store = self.store
                now = time.monotonic()
                if now - self._here >= HEARTBEAT:  # the others see who is here now
                    self._here = now
                    store.here(self.user)
                if now - self._abandon >= ABANDON_SECONDS:
                    self._abandon = now
                    store.end_abandoned()
                version = store.version()
                changed = version != self._version
                if send or changed or now - self._sent >= RESEND_SECONDS:
                    self._sent = now
                    start_sender(store)
                if not changed and not send:
                    return None
                self._version = version
                mine = sorted(
                    (i for i in store.tables() if i.your_turn(self.user)), key=lambda i: i.updated
                )
                return tuple(i.id for i in mine)
            except StoreError:
                return None

    def close(self) -> None:
        """End the thread (it may still be in a wait: it ends after it) and say goodbye."""
        self._stop.set()
        self._nudged.set()
        with self.lock:
            if self.store is not None:
                from boardgames_tui.engine.tables import StoreError

                with contextlib.suppress(StoreError):
                    self.store.gone(self.user)
                self.store.close()
                self.store = None
