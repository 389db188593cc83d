"""Your turn, wherever you are in the app: the tables where it is the user's turn, counted off
the UI thread (a worker asks the store), and the turn notices due sent from there too.

The app asks every `POLL_SECONDS`; the store's cheap `version()` says whether anything changed
since, so an idle store costs one small read. The worker also ends tables abandoned for
30 days (now and then: any reader may) and sends the notices owed, after the app's own moves
at once (`send`), else when something changed or every `RESEND_SECONDS` (retries).
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

from textual.message import Message

from boardgames_tui.engine.tables import (
    StoreError,
    TableStore,
    is_server_url,
    open_store,
    store_location,
)
from boardgames_tui.engine.tables.store import HEARTBEAT

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
    """The worker's side: its own connection to the store (one worker at a time uses it)."""

    def __init__(self, location: str | None, user: str) -> None:
        self.location = store_location(location)
        self.user = user
        self.store: TableStore | None = None
        self.lock = threading.Lock()
        self._version: int | None = None
        self._sent = 0.0
        self._abandon = 0.0
        self._here = 0.0  # when this session last said it is here (presence)

    def available(self) -> bool:
        """A store to watch: a server, or a file that exists (never made just to watch)."""
        try:
            there = Path(self.location).exists()
        except OSError:  # a folder on its way that may not be searched: opening says why
            there = True
        return self.store is not None or is_server_url(self.location) or there

    def check(self, send: bool = False) -> tuple[str, ...] | None:
        """The your-turn tables if anything changed (or `send`), else None; sends the notices
        due. Never raises: a store that cannot be read now is asked again next time."""
        from boardgames_tui.session.sender import start_sender

        with self.lock:
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
        with self.lock:
            if self.store is not None:
                with contextlib.suppress(StoreError):
                    self.store.gone(self.user)
                self.store.close()
                self.store = None
