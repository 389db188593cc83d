"""Two hosts, one PostgreSQL store: two rooms (two ports, standing in for two machines) on one
schema. A player on one sees a move made through the other, and a player can move through
one host, then the other, in the middle of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgames_tui.engine.tables import parse_seats
from tests.shell.test_room import SSH, Room, SshPty, gone_within, pids_started, room_processes
from tests.tables.conftest import Backend

pytestmark = [
    pytest.mark.skipif(not Path(SSH).exists(), reason="needs OpenSSH's client"),
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
]


def test_two_rooms_on_one_postgresql_share_a_game(backend: Backend, tmp_path: Path) -> None:
    store = backend.open()
    tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    one = Room(tmp_path / "one", store=backend.location)
    two = Room(tmp_path / "two", store=backend.location)
    try:
        info, match = store.load(tid)
        first, other = info.to_move, next(s.user for s in info.seats if s.user != info.to_move)
        assert first is not None and other is not None and match.prompt is not None
        # `other` watches the table on host two; `first` moves through host one
        screen = SshPty(two.ssh_args(other, other), size=(120, 40))
        screen.read_until(f"welcome, {other}")
        mark = len(screen.output)
        screen.send(b"\r", quiet=0.2)  # the table is the menu's first row
        screen.wait_for(f"{first} to move", mark)
        mark = len(screen.output)
        played = one.run(first, first, "table", "play", tid, match.prompt.moves[0].id)
        assert played.returncode == 0, played.stderr
        screen.wait_for("Your turn", mark)  # seen on host two, woken by the notification
        screen.send(b"1", quiet=0.1)  # `other` moves by a key on host two
        while store.info(tid).moves < 2:
            screen.read(0.05, 0.2)
        # `first` now plays through host two, then through host one: one game, two doors
        doors = [two, one]
        for _ in range(40):
            info, match = store.load(tid)
            if not doors or match.prompt is None:
                break
            who = info.to_move
            assert who is not None
            room = doors.pop(0) if who == first else two
            moved = room.run(who, who, "table", "play", tid, match.prompt.moves[0].id)
            assert moved.returncode == 0, moved.stderr
        assert doors == []
        screen.close()
        assert gone_within(pids_started(two), 5.0)
    finally:
        store.close()
        for room in (one, two):
            room.close()
    assert room_processes(one) == [] and room_processes(two) == []
