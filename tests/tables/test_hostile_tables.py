"""Hostile and unlucky tables (issue 29): a long computer think keeps its lease."""

from __future__ import annotations

import threading
import time

from boardgames_tui.engine.tables import parse_seats
from tests.tables.conftest import Backend


def test_a_long_think_renews_the_computer_lease(backend: Backend) -> None:
    """A strong computer thinks 3 leases long: nobody takes its lease meanwhile, and its
    move is played (the lease used to run out, so the move was refused)."""
    from boardgames_tui.engine.tables.computer import play_computers

    store, other = backend.open(), backend.open()
    t = store.create("notre-dame", parse_seats("strong,alice", "alice"), {}, 3, "alice")
    played: list[int] = []
    worker = threading.Thread(
        target=lambda: played.append(
            play_computers(store, t.id, "me", think=0.9, limit=1, lease=0.3)
        )
    )
    worker.start()
    time.sleep(0.6)
    taken = other.take_lease(t.id, "other", 0.3)
    worker.join(30)
    assert not taken and played == [1]
    assert other.info(t.id).moves == 1
    store.close()
    other.close()
