"""The room's fork server: sessions forked from one process that imported the app, each in a
session of its own on its terminal, and none left once their clients have gone."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from tests.shell.ptydriver import plain
from tests.shell.test_room import Room, gone_within, pids_started, room_processes


def _status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def _session_id(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[3])


async def _menu(port: int, name: str) -> Any:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None, agent_path=None
    )
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    got = b""
    while b"welcome" not in plain(got).encode():
        got += await asyncio.wait_for(proc.stdout.read(65536), 60)
    return conn


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    r = Room(tmp_path)
    yield r
    assert "room closed" in r.close()
    assert room_processes(r) == []


def test_sessions_fork_from_one_server_and_none_is_left(room: Room) -> None:
    """Five players at once: each session's process is a child of the one fork server (not
    of the room), leads a session of its own; when the clients go every session's process
    ends, and when the room closes so does the fork server (the fixture: nothing of the room
    left running)."""

    async def main() -> tuple[list[int], set[int]]:
        conns = await asyncio.gather(*(_menu(room.port, f"f{i}") for i in range(5)))
        pids = pids_started(room)
        parents = {int(_status(p)["PPid"]) for p in pids}
        assert all(_session_id(p) == p for p in pids)
        for conn in conns:
            conn.close()
            await conn.wait_closed()
        return pids, parents

    pids, parents = asyncio.run(main())
    assert len(pids) == 5
    assert len(parents) == 1 and room.proc.pid not in parents
    server = parents.pop()
    assert int(_status(server)["PPid"]) == room.proc.pid
    assert gone_within(pids, 5.0)
    assert room_processes(room) == []  # the fork server waits for more
    assert Path(f"/proc/{server}").exists()
    room.close()
    assert gone_within([server], 5.0)


def test_without_the_fork_server_a_session_is_the_rooms_child(tmp_path: Path) -> None:
    """`serve --no-fork-server`: the session's process is started by the room itself."""
    r = Room(tmp_path, "--no-fork-server")
    try:

        async def main() -> int:
            conn = await _menu(r.port, "solo")
            (pid,) = pids_started(r)
            parent = int(_status(pid)["PPid"])
            conn.close()
            await conn.wait_closed()
            return parent

        assert asyncio.run(main()) == r.proc.pid
        assert gone_within(pids_started(r), 5.0)
    finally:
        assert "room closed" in r.close()
    assert room_processes(r) == []
