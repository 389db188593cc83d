"""Hostile players against the store, on both backends: each attack is refused or bounded
at its cause (names that pass for another's, seats imposed on others, time given back by
undo, a private table watched by a stranger, notification targets without limit)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from boardgames_tui.engine.tables import (
    Refused,
    StoreError,
    TableStore,
    check_user,
    listed,
    parse_seats,
)
from boardgames_tui.engine.tables.clock import ClockRules, seconds_left
from boardgames_tui.engine.tables.notify import ROOM_SCHEMES, Policy, check_target, send
from tests.root import ROOT
from tests.tables.conftest import Backend
from tests.tables.test_tables import run_at


@pytest.mark.parametrize(
    "name", ["autopilot", "Autopilot", "aut0pi1ot", "me", "ME", "open", "0pen", "greedy", "Random"]
)
def test_the_apps_own_names_and_their_lookalikes_are_reserved(name: str) -> None:
    with pytest.raises(StoreError, match="reserved"):
        check_user(name)


def test_a_name_that_passes_for_a_players_name_is_refused(store: TableStore) -> None:
    """alice plays here: `Alice`, `ALICE`, `a1ice` and `aIice` are refused as a new seat's
    user and as a joiner; alice herself and unlike names are not."""
    store.create("notre-dame", parse_seats("alice,open", "alice"), {}, 1, "alice")
    for fake in ("Alice", "ALICE", "a1ice", "aIice"):
        with pytest.raises(Refused, match=f"the name {fake} looks like alice"):
            store.create("notre-dame", parse_seats(f"{fake},open", fake), {}, 2, fake)
    waiting = store.create("notre-dame", parse_seats("bob,open", "bob"), {}, 3, "bob").id
    with pytest.raises(Refused, match="looks like alice"):
        store.join(waiting, "ALICE")
    assert store.join(waiting, "carol") == 1
    assert store.create("notre-dame", parse_seats("alice,open", "alice"), {}, 4, "alice")


def test_a_seat_at_a_new_table_is_offered_not_imposed(backend: Backend, tmp_path: Path) -> None:
    """mallory makes tables seating alice without sitting there herself: each is an
    invitation alice sees as such, not her turn and not counted toward her limit; her own
    table is not refused; once she accepts one it counts."""
    run = functools.partial(run_at, store=backend.location) if backend.pg else run_at
    base = ("--user", "mallory", "table", "new", "nd", "--seats", "alice,bob", "--max-open", "2")
    ids = []
    for _ in range(3):
        made = run(tmp_path, *base)
        assert made.returncode == 0, made.stderr
        ids.append(made.stdout.split()[-1])
        assert "seats offered to alice, bob: the table starts when they accept" in made.stdout
    listed = json.loads(run(tmp_path, "--user", "alice", "table", "list", "--json").stdout)
    assert {t["id"] for t in listed if t["group"] == "offered"} == set(ids)
    assert not any(t["your_turn"] for t in listed)
    text = run(tmp_path, "--user", "alice", "table", "list").stdout
    assert "Seats offered to you (table join ID accepts):" in text
    own = run(tmp_path, "--user", "alice", "table", "new", "nd", "--seats", "me,open", "--max-open", "2")  # fmt: skip
    assert own.returncode == 0, own.stderr
    assert (
        run(tmp_path, "--user", "alice", "table", "join", ids[0], "--max-open", "2").returncode == 0
    )
    full = run(tmp_path, "--user", "alice", "table", "join", ids[1], "--max-open", "2")
    assert full.returncode == 1 and "sits at 2 unfinished tables already" in full.stderr


def test_a_store_in_a_folder_that_cannot_be_searched_gets_one_line(tmp_path: Path) -> None:
    """The store's folder (or one on its way) has no search permission for this user: each
    command says so in one line, no traceback. Root reads every folder, so a root run drops
    the capabilities that let it (setpriv)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "data").mkdir()
    locked.chmod(0o600)
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root reads every folder, and setpriv is not here to drop that")
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "BOARDGAMES"))}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(locked / "data"))
    try:
        for argv in (["table", "list"], ["table", "new", "nd", "--seats", "me,open"],
                     ["--store", str(locked / "t.sqlite"), "table", "show", "abcde"]):  # fmt: skip
            done = subprocess.run(
                [*prefix, sys.executable, "-m", "boardgames_tui", *argv],
                cwd=ROOT, env=env, text=True, capture_output=True, timeout=60,
            )  # fmt: skip
            assert done.returncode == 1, done
            assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
            assert "cannot be reached: Permission denied" in done.stderr
    finally:
        locked.chmod(0o700)


class Trickle:
    """A target on 127.0.0.1 that takes a request, then answers one byte every half second
    for as long as it is let (the 4 s timeout of each read never runs out)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.done.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            with contextlib.suppress(OSError):
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n" + b"x" * 2000:
                    if self.done.wait(0.5):
                        return
                    conn.sendall(bytes([byte]))

    def close(self) -> None:
        self.done.set()
        self.thread.join()
        self.sock.close()


def test_a_send_has_a_hard_deadline_however_its_target_trickles() -> None:
    target = Trickle()
    try:
        t0 = time.monotonic()
        error = send(f"json://127.0.0.1:{target.port}/x", "t", "b", deadline=2)
        took = time.monotonic() - t0
    finally:
        target.close()
    assert error == "the target did not take the message within 2 s"
    # the target never stops trickling: only the deadline ends the send (the margin is for a
    # loaded machine, not a measure of speed)
    assert took < 30, took


def test_a_move_never_waits_for_a_notification(backend: Backend, tmp_path: Path) -> None:
    """bob's target trickles its answer: alice's `table play` returns at once; a sender of
    its own fails the message by its deadline, and is gone."""
    store = backend.open()
    target = Trickle()
    try:
        store.add_target("bob", f"json://127.0.0.1:{target.port}/bob")
        tid = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice").id
        _, match = store.load(tid)
        assert match.prompt is not None
        t0 = time.monotonic()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "BOARDGAMES"))}
        env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
        played = subprocess.run(
            [sys.executable, "-m", "boardgames_tui", "--user", "alice", "--store", backend.location,
             "table", "play", tid, match.prompt.moves[0].id],
            cwd=ROOT, env=env, text=True, capture_output=True, timeout=30,
        )  # fmt: skip
        took = time.monotonic() - t0
        assert played.returncode == 0, played.stderr
        assert took < 10, took  # the sender's deadline: a move that waited would take longer
        end = time.monotonic() + 30
        while not store.targets("bob")[0].error and time.monotonic() < end:
            time.sleep(0.1)
        assert store.targets("bob")[0].error == "the target did not take the message within 10 s"
    finally:
        target.close()
        store.close()


def test_a_room_refuses_targets_on_its_own_network_and_schemes_it_does_not_allow() -> None:
    room = Policy(ROOM_SCHEMES, private=False)
    for url in ("json://127.0.0.1:8080/x", "json://10.1.2.3/x", "jsons://169.254.169.254/x",
                "json://[::1]:80/x", "json://localhost:9/x", "ntfy://192.168.0.9/topic"):  # fmt: skip
        with pytest.raises(StoreError, match="on this machine or a private network"):
            check_target(url, room)
    with pytest.raises(StoreError, match=r"xml:// targets are not allowed here; the host allows ntfy://"):  # fmt: skip
        check_target("xml://example.com/x", room)
    assert check_target("json://127.0.0.1:8080/x", Policy(ROOM_SCHEMES, private=True))
    assert check_target("json://127.0.0.1:8080/x")  # a person sending to themselves


def test_a_sender_for_a_room_never_connects_inside_it() -> None:
    """A name that resolved elsewhere when the target was added may resolve here now: the
    room's sender checks the address each connection really goes to."""
    with socket.create_server(("127.0.0.1", 0)) as inside:
        code = (
            "import socket\n"
            "from boardgames_tui.engine.tables.notify import Policy, guard_connections\n"
            "guard_connections(Policy(('json',), False))\n"
            f"socket.create_connection(('127.0.0.1', {inside.getsockname()[1]}), timeout=5)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 1
    assert (
        "ConnectionRefusedError: 127.0.0.1 is on this machine or a private network" in done.stderr
    )


def test_targets_are_limited_in_number_and_length(store: TableStore) -> None:
    for n in range(1, 6):
        assert store.add_target("alice", f"ntfy://topic{n}") == n
    with pytest.raises(StoreError, match="alice has 5 notification targets, as many as a user may have"):  # fmt: skip
        store.add_target("alice", "ntfy://topic6")
    long = "ntfy://t/" + "x" * 2100
    with pytest.raises(StoreError, match="at most 2048 characters"):
        store.add_target("bob", long)
    with pytest.raises(StoreError, match="characters long: at most 2048"):
        check_target(long)
    assert store.targets("bob") == []


def test_undo_gives_no_time_back(store: TableStore) -> None:
    """The mover used 1000 s of a one-hour turn, moved, took it back: the turn is theirs
    again with 2600 s left, not a fresh hour (play + undo, repeated, was an endless turn)."""
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 1, "alice", rules=ClockRules(3600)
    )
    mover = store.info(t.id).to_move
    assert mover is not None
    store.clock_skew = 1000.0  # type: ignore[attr-defined]
    info, match = store.load(t.id)
    assert match.prompt is not None
    played = store.append(t.id, mover, match.prompt.moves[0].id, info.moves)
    assert played.to_move != mover  # the move ended the turn
    back = store.undo(t.id, mover, played.moves)
    assert back.to_move == mover
    left = seconds_left(back)
    assert left is not None and 2590 <= left <= 2600, left


def test_a_private_table_is_watched_only_by_those_it_lets_in(store: TableStore) -> None:
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 1, "alice", {"private": True}
    )
    with pytest.raises(Refused, match=f"table {t.id} is private: only its players see it"):
        store.check_watch(t.id, "mallory")
    assert store.check_watch(t.id, "bob").id == t.id


def test_players_only_spectators_need_more_than_a_seat_against_the_computer(
    store: TableStore,
) -> None:
    """`--spectators players`: mallory seats herself against the computer, and is still no
    player here; carol, who sits at a table with dave, is."""
    t = store.create(
        "notre-dame", parse_seats("alice,bob", "alice"), {}, 1, "alice", {"spectators": "players"}
    )
    store.create("notre-dame", parse_seats("mallory,greedy", "mallory"), {}, 2, "mallory")
    with pytest.raises(Refused, match="may be watched only by players"):
        store.check_watch(t.id, "mallory")
    assert t.id not in [i.id for _, i in listed(store.tables(), "mallory")]
    store.create("notre-dame", parse_seats("carol,dave", "carol"), {}, 3, "carol")
    assert store.check_watch(t.id, "carol").id == t.id
