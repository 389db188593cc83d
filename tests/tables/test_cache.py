"""One cached position: a process does not read back the move it wrote, reads only the moves
that are new, and asks "anything new at this table?" without reading the tables."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator

import pytest

from boardgames_tui.engine.core import Match
from boardgames_tui.engine.core.saves import to_dict
from boardgames_tui.engine.tables import Damaged, TableStore, parse_seats
from boardgames_tui.engine.tables.sqlite import SQLiteStore
from tests.tables.conftest import Backend


def _play(store: TableStore, tid: str, n: int) -> None:
    """`n` moves, each by the seat to move (its first legal move)."""
    for _ in range(n):
        info, match = store.load(tid)
        assert match.prompt is not None
        store.append(tid, info.to_move, match.prompt.moves[0].id, info.moves)


@pytest.fixture
def two(backend: Backend) -> Iterator[tuple[TableStore, TableStore, str]]:
    a, b = backend.open(), backend.open()
    tid = a.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann").id
    yield a, b, tid
    a.close()
    b.close()


def test_the_mover_does_not_read_back_its_move(
    backend: Backend, two: tuple[TableStore, TableStore, str]
) -> None:
    """After its append the mover's load reads no move: rows changed behind the store's back
    (no revision bumped) are not seen by it, while another process, reading them all, finds
    the table damaged."""
    a, b, tid = two
    _play(a, tid, 2)
    backend.sql("UPDATE bg_moves SET move_id = 'nonsense' WHERE table_id = ? AND n = 1", (tid,))
    info, match = a.load(tid)
    assert info.moves == 2 and match.cursor == 2 and match.steps[0].move_id != "nonsense"
    with pytest.raises(Damaged, match="move 1"):
        b.load(tid)


def test_a_reader_reads_only_the_new_moves(
    backend: Backend, two: tuple[TableStore, TableStore, str]
) -> None:
    """Once it has the table, a reader reads only the moves after those it has (an early
    move rewritten behind its back is not read again), and every move again after an undo
    (its revision moved on by more than its moves): then the damage shows."""
    a, b, tid = two
    _play(a, tid, 2)
    assert b.load(tid)[0].moves == 2
    _play(a, tid, 2)
    backend.sql("UPDATE bg_moves SET move_id = 'nonsense' WHERE table_id = ? AND n = 1", (tid,))
    info, match = b.load(tid)
    assert info.moves == match.cursor == 4 and match.steps[0].move_id != "nonsense"
    backend.sql("UPDATE bg_moves SET move_id = ? WHERE table_id = ? AND n = 1",
                (match.steps[0].move_id, tid))  # fmt: skip
    info = a.info(tid)
    last = info.seats[match.steps[-1].seat].user
    assert last is not None
    a.undo(tid, last, 4)
    backend.sql("UPDATE bg_moves SET move_id = 'nonsense' WHERE table_id = ? AND n = 2", (tid,))
    with pytest.raises(Damaged, match="move 2"):
        b.load(tid)


def test_an_undo_keeps_the_cached_match(two: tuple[TableStore, TableStore, str]) -> None:
    """The mover's undo steps its cached match back (no replay) and it stays the table's:
    the next move goes on from it, and another reader agrees."""
    a, b, tid = two
    _play(a, tid, 3)
    before = a.load(tid)[1]
    info = a.info(tid)
    last = info.seats[before.steps[-1].seat].user
    assert last is not None
    a.undo(tid, last, 3)
    info, after = a.load(tid)
    assert after is before and after.cursor == info.moves == 2 and len(after.steps) == 2
    _play(a, tid, 1)
    assert a.load(tid)[1].move_ids() == b.load(tid)[1].move_ids()


def test_truncate_with_nothing_to_drop_keeps_the_position() -> None:
    """`truncate()` at the end of the history keeps the prompt computed for the position."""
    m = Match.new("notre-dame", ["A", "B"], seed=3)
    m.play(m.prompt.moves[0].id)
    prompt = m.prompt
    m.truncate()
    assert m.prompt is prompt
    m.play(m.prompt.moves[0].id)
    m.goto(1)
    m.truncate()
    assert m.length == 1 and m.prompt is not prompt


def test_a_save_reads_the_cached_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing a save at the end of the history asks the game for no new prompt."""
    m = Match.new("notre-dame", ["A", "B"], seed=3)
    m.play(m.prompt.moves[0].id)
    assert m.prompt is not None
    asked: list[object] = []
    real = m.game.prompt

    def prompt(state: object) -> object:
        asked.append(state)
        return real(state)

    monkeypatch.setattr(m.game, "prompt", prompt)
    assert to_dict(m)["finished"] is False
    assert asked == []


def _until(f: object, limit: float = 5.0) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if f():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def test_a_table_version_changes_with_that_table_only(backend: Backend) -> None:
    """`version(table)` changes with a move at that table, not with one at another table nor
    with a session saying it is here; `version()` changes with any table, not with presence."""
    a, b = backend.open(), backend.open()
    one = a.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann").id
    two = a.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 6, "ann").id
    v_one, v_all = b.version(one), b.version()
    _play(a, two, 1)
    assert _until(lambda: b.version() != v_all)  # the other table's change has arrived
    assert b.version(one) == v_one
    v_all = b.version()
    a.here("ann")
    a.look(one, "ann", 0, 0)
    if not backend.pg:  # (PostgreSQL notifies table changes only)
        assert b.version() == v_all and b.version(one) == v_one
    _play(a, one, 1)
    assert _until(lambda: b.version(one) != v_one)
    a.close()
    b.close()


def test_an_idle_table_version_reads_no_table(tmp_path: object) -> None:
    """On SQLite, asking an unchanged store for a table's version runs `PRAGMA data_version`
    and nothing else."""
    store = SQLiteStore(f"{tmp_path}/t.sqlite")
    tid = store.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann").id
    v = store.version(tid)
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    for _ in range(5):
        store.version(tid)
    store.conn.set_trace_callback(None)
    assert seen == ["PRAGMA data_version"] * 5
    other = sqlite3.connect(f"{tmp_path}/t.sqlite")
    with other:
        other.execute("UPDATE bg_tables SET rev = rev + 1 WHERE id = ?", (tid,))
    other.close()
    after = store.version(tid)
    assert after != v and store.version(tid) == after
    store.close()


def test_a_watch_wakes_on_a_move_and_ends_with_its_screen(backend: Backend) -> None:
    """A table's watch (a thread with its own connection) wakes the screen when another
    process moves there (PostgreSQL: by its notification), and its thread ends on `stop`."""
    import threading

    from boardgames_tui.engine.tables.watch import TableWatch

    a, b = backend.open(), backend.open()
    tid = a.create("notre-dame", parse_seats("ann,bo", "ann"), {}, 5, "ann").id
    woken = threading.Event()
    watch = TableWatch(b, tid, woken.set)
    _play(a, tid, 1)
    assert woken.wait(10)
    watch.stop()
    watch._thread.join(10)
    assert not watch._thread.is_alive()
    a.close()
    b.close()
