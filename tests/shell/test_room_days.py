"""A room over days (issue 43): what comes due while nobody is connected happens anyway."""

from __future__ import annotations

import time
from pathlib import Path

from boardgames_tui.engine.tables import parse_seats
from boardgames_tui.engine.tables.clock import ClockRules
from tests.shell.test_room import Room, room_processes
from tests.tables.test_notify import Hook


def until_posted(hook: Hook, path: str, title: str, limit: float = 60.0) -> list[str]:
    """The titles posted, path first ("/bob Your turn: …"), once one to `path` starts with
    `title` (or all that came within `limit` seconds)."""
    end = time.time() + limit
    while time.time() < end:
        if any(p == path and t.startswith(title) for p, t, _ in hook.posts):
            break
        time.sleep(0.1)
    return [f"{p} {t}" for p, t, _ in hook.posts]


def test_a_room_with_nobody_in_it_reminds_and_plays_a_turn_whose_time_ran_out(
    tmp_path: Path,
) -> None:
    """Played over the room: a reminder was queued only when someone opened the Tables
    screen or ran a command, and sent at the next move, stale by then; a turn that ran out
    while nobody was connected waited for the next person to connect. A room is up all the
    time: it reminds alice within her turn, the computer plays the turn when it runs out,
    and bob hears of his turn, with the room's ssh line to play it."""
    room = Room(tmp_path, "--notify-private")
    hook = Hook()
    try:
        store = room.store()
        store.add_target("alice", hook.url("alice"))
        store.add_target("bob", hook.url("bob"))
        store.set_remind("alice", 2 / 3600)  # 2 s into her turn
        seats = parse_seats("alice,bob", "alice")
        tid = store.create("notre-dame", seats, {}, 3, "alice", rules=ClockRules(8.0)).id
        titles = until_posted(hook, "/bob", "Your turn")
        kinds = [t.split(":")[0] for t in titles]
        assert "/bob Your turn" in kinds, titles
        assert "/alice Reminder" in kinds[: kinds.index("/bob Your turn")], titles
        body = next(m for p, t, m in hook.posts if p == "/bob")
        assert f"ssh -p {room.port} bob@127.0.0.1" in body, body
        assert str(tmp_path) not in body  # no path of the host's
        info, _ = store.load(tid)
        assert info.moves >= 1 and info.seats[0].strikes == 1
        store.close()
    finally:
        hook.close()
        assert "room closed" in room.close()
        assert room_processes(room) == []
