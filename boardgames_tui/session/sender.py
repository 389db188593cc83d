"""The turn notifications' sender: a process of its own (`python -m boardgames_tui.session.sender`) that a
command, or the app, starts after its own work when messages are due. Nobody waits for it:
a target that answers slowly, or not at all, holds up no player.

Where a room sends for its players, the room's policy (its environment) applies to every
connection the sender opens (`notify.guard_connections`)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading

from boardgames_tui.engine.tables import StoreError, TableStore, open_store

RUN_SECONDS = 60.0  # a sender's whole run: what it has not sent by then, the next one sends


def start_sender(store: TableStore) -> bool:
    """Start a sender for `store` if a message is due there now; never waits for it. True
    if one was started."""
    try:
        if not store.notices_due():
            return False
    except StoreError:
        return False
    env = dict(os.environ, BOARDGAMES_STORE=str(getattr(store, "url", None) or store.path))
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "boardgames_tui.session.sender"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        return True
    return False


def main() -> None:
    from boardgames_tui.engine.tables.notify import Policy, deliver, guard_connections

    guard_connections(Policy.from_env())
    # the whole run has a deadline too: a send past its own is left in its thread
    threading.Timer(RUN_SECONDS, os._exit, (0,)).start()
    with contextlib.suppress(StoreError):
        store = open_store(os.environ.get("BOARDGAMES_STORE"), create_file=False)
        try:
            deliver(store)
        finally:
            store.close()
    sys.stdout.flush()
    os._exit(0)  # now, not after a send still under way in its thread


if __name__ == "__main__":
    main()
