"""A room on a store of its host's choosing (`--store` before `serve`), on both backends: the
sessions' moves land there, by ssh command and by keys in a real ssh client."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from boardgames_tui.engine.tables import parse_seats
from tests.shell.test_room import SSH, Room, SshPty, gone_within, pids_started, room_processes
from tests.tables.conftest import Backend

pytestmark = pytest.mark.skipif(not Path(SSH).exists(), reason="needs OpenSSH's client")


def test_a_room_plays_at_tables_in_the_store_it_was_given(backend: Backend, tmp_path: Path) -> None:  # fmt: skip
    store = backend.open()
    tid = store.create("rattus-cartus", parse_seats("alice,bob", "alice"), {}, 3, "alice").id
    room = Room(tmp_path, store=backend.location)
    try:
        for u in ("alice", "bob"):
            listed = room.run(u, u, "table", "list", "--json")
            assert listed.returncode == 0 and tid in listed.stdout, listed.stderr
        info, match = store.load(tid)
        assert info.to_move is not None
        played = room.run(info.to_move, info.to_move, "table", "play", tid, match.prompt.moves[0].id)  # fmt: skip
        assert played.returncode == 0, played.stderr
        assert store.info(tid).moves == 1
        mover = store.info(tid).to_move
        assert mover is not None
        s = SshPty(room.ssh_args(mover, mover), size=(80, 24))
        s.read_until(f"welcome, {mover}")
        mark = len(s.output)
        s.send(b"\r", quiet=0.2)  # the table is the menu's first row
        s.wait_for("Your turn", mark)
        s.send(b"1", quiet=0.1)
        end = time.time() + 20
        while store.info(tid).moves == 1 and time.time() < end:
            s.read(0.05, 0.2)
        assert store.info(tid).moves == 2  # a key in the ssh session, a row in this store
        s.close()
        assert gone_within(pids_started(room), 2.0)
        assert not (room.dir / "tables.sqlite").exists()
    finally:
        store.close()
        room.close()
    assert room_processes(room) == []
