"""Turn messages to a player who has the table on their screen: none (they see it), and
one again once they have left it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardgames_tui.engine.tables import TableStore, parse_seats
from boardgames_tui.engine.tables.notify import deliver
from boardgames_tui.session.table_source import TableSource
from tests.tables.test_notify import Hook


@pytest.fixture
def hook() -> Iterator[Hook]:
    h = Hook()
    yield h
    h.close()


def turns(store: TableStore) -> list[str]:
    """Who the turn messages due now went to (sent to the loopback server)."""
    return [n.user for n, error in deliver(store) if n.kind == "turn" and error is None]


def plays(store: TableStore, table_id: str, user: str) -> None:
    """`user` plays their whole turn through the store (the first option at each decision)."""
    info = store.info(table_id)
    while info.to_move == user:
        _, match = store.load(table_id)
        assert match.prompt is not None
        info = store.append(table_id, user, match.prompt.moves[0].id, info.moves)


def test_no_turn_message_while_the_table_is_on_the_players_screen(
    store: TableStore, hook: Hook
) -> None:
    """alice at the table (the line mode's source: connected, the table open) gets no "Your
    turn" for the turns she sees come; bob, not there, still gets his; once alice has left
    the table she gets hers again."""
    for user in ("alice", "bob"):
        store.add_target(user, hook.url(user))
    t = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    alice = TableSource(store, t.id, "alice", presence=True)
    alice.poll()  # her screen: here, and the table as it is
    for _ in range(2):
        while alice.info.to_move == "alice":  # she plays on her screen
            _, match = store.load(t.id)
            assert match.prompt is not None
            alice.play(match.prompt.moves[0].id)
        assert turns(store) == ["bob"]
        plays(store, t.id, "bob")
        alice.poll()
        assert turns(store) == []  # her turn, on her screen
    alice.close()  # she leaves the table (and the line mode says she has gone)
    plays(store, t.id, "alice")
    assert turns(store) == ["bob"]
    plays(store, t.id, "bob")
    assert turns(store) == ["alice"]
