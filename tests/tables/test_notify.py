"""Turn notifications through Apprise, to real servers on 127.0.0.1 (an HTTP server taking
`json://` posts, an aiosmtpd SMTP server taking `mailto://` mail), and `table wait`."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.tables import TableStore, parse_seats
from boardgames_tui.engine.tables.notify import deliver
from boardgames_tui.engine.tables.store import MAX_TRIES, RETRY_SECONDS
from tests.root import ROOT
from tests.tables.conftest import Backend


class Hook:
    """An HTTP server on 127.0.0.1 recording every JSON post: (path, title, message)."""

    def __init__(self, port: int = 0) -> None:
        self.posts: list[tuple[str, str, str]] = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                hook.posts.append((self.path, data["title"], data["message"]))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def hook() -> Iterator[Hook]:
    h = Hook()
    yield h
    h.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[int, list[tuple[list[str], str]]]]:
    """An SMTP server on 127.0.0.1 (aiosmtpd): its port and the mail it took."""
    from aiosmtpd.controller import Controller

    mail: list[tuple[list[str], str]] = []

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            mail.append((list(envelope.rcpt_tos), envelope.content.decode("utf-8", "replace")))
            return "250 OK"

    port = free_port()
    c = Controller(Handler(), hostname="127.0.0.1", port=port)
    c.start()
    yield port, mail
    c.stop()


def wait_for(cond: Any, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return bool(cond())


def cli_env(backend: Backend, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "BOARDGAMES"))}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
    env["BOARDGAMES_STORE"] = backend.location
    return env


@contextlib.contextmanager
def watchers(backend: Backend, tmp_path: Path, n: int) -> Iterator[list[subprocess.Popen[str]]]:
    """`n` processes reading the store (`table wait` for carol, who has no seat): each
    sends what a change owes, racing the others; stopped and reaped at the end."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "boardgames_tui",
                "--user",
                "carol",
                "table",
                "wait",
                "--timeout",
                # longer than any run of a test, however loaded the machine: a watcher must
                # end only when stopped (or when carol, who has no seat, has a turn)
                "3600",
            ],
            cwd=ROOT,
            env=cli_env(backend, tmp_path),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(n)
    ]
    try:
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in procs:
            p.communicate(timeout=10)
        assert all(p.poll() is not None for p in procs)  # nothing left running


def test_one_message_per_turn_over_a_whole_game_with_two_watchers(
    backend: Backend, tmp_path: Path, hook: Hook, smtp: tuple[int, list[tuple[list[str], str]]]
) -> None:
    """alice's turns go to a JSON webhook, bob's by mail; the mover's process sends half
    of them, two watching processes race for the rest: each turn arrives exactly once, never
    one per step of a multi-part turn (the Cathedral of Orléans has many)."""
    port, mail = smtp
    store = backend.open()
    assert store.add_target("alice", hook.url("alice")) == 1
    bob_mail = f"mailto://127.0.0.1:{port}?from=tables@example.com&to=bob@example.com"
    assert store.add_target("bob", bob_mail) == 1
    t = store.create("cathedral-of-orleans", parse_seats("alice,bob", "alice"), {}, 5, "alice")
    expected: list[tuple[str, int]] = []  # (who, moves played) for every change of turn
    steps = 0
    with watchers(backend, tmp_path, 2) as procs:
        time.sleep(0.3)  # the watchers are reading
        while True:
            info, match = store.load(t.id)
            if match.prompt is None:
                break
            mover = info.seats[match.prompt.seat].user
            assert mover is not None
            info = store.append(t.id, mover, match.prompt.moves[0].id, info.moves)
            steps += 1
            if info.to_move not in (None, mover):
                expected.append((str(info.to_move), info.moves))
                if len(expected) % 2:
                    deliver(store)  # the mover's own process
                assert wait_for(lambda: len(hook.posts) + len(mail) >= len(expected), 30), expected
        deliver(store)  # and the end: a game-over message to each of them
        assert wait_for(lambda: len(hook.posts) + len(mail) >= len(expected) + 2, 30)
        time.sleep(0.3)  # anything sent twice would have arrived by now
        assert all(p.poll() is None for p in procs)  # carol never had a turn
    assert len(expected) < steps - 5  # the multi-part turns did not each notify
    # each turn once, and at the end one game-over message each
    turns = [p for p in hook.posts if p[1].startswith("Your turn")]
    assert [p[0].strip("/") for p in turns] == [u for u, _ in expected if u == "alice"]
    assert [p[1] for p in hook.posts if p not in turns] == [
        f"Game over: {match.game.title} at table {t.id}"
    ]
    assert [rcpt for rcpt, _ in mail] == [["bob@example.com"]] * (
        sum(u == "bob" for u, _ in expected) + 1
    )
    _, title, body = turns[-1]
    assert title == f"Your turn: {match.game.title} at table {t.id}"
    assert "Since your last move:" in body and "\n  bob " in body  # his moves, as alice reads them
    assert f"table {t.id}" in mail[0][1] and "Cathedral" in mail[0][1]
    rows = backend.sql("SELECT \"user\", n, state FROM bg_notices WHERE kind = 'turn' ORDER BY n")
    assert [(u, n) for u, n, _ in rows] == expected and {s for *_, s in rows} == {"sent"}
    store.close()


def test_a_target_that_fails_is_retried_later_reported_once_and_never_blocks(
    store: TableStore,
) -> None:
    port = free_port()  # nothing listens there yet
    store.add_target("alice", f"json://127.0.0.1:{port}/a")
    t = store.create("notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob")
    info, match = store.load(t.id)
    assert match.prompt is not None
    began = time.monotonic()
    info = store.append(t.id, "bob", match.prompt.moves[0].id, 0)
    assert info.to_move == "alice" and time.monotonic() - began < 1.0
    now = time.time()
    [(notice, error)] = deliver(store, now)
    assert error and notice.user == "alice"
    assert store.take_failures("alice") == [(1, error)]
    assert store.take_failures("alice") == []  # reported once
    assert deliver(store, now + 1) == []  # not due yet
    assert store.targets("alice")[0].error == error
    hook = Hook(port)
    try:
        [(again, error2)] = deliver(store, now + RETRY_SECONDS + 1)
        assert error2 is None and again.tries == 1
        assert [p[0] for p in hook.posts] == ["/a"]
        assert deliver(store, now + 10 * RETRY_SECONDS) == []  # sent: never again
    finally:
        hook.close()
    assert store.targets("alice")[0].error is None
    assert MAX_TRIES > 1


def test_no_message_for_a_turn_already_played(store: TableStore, hook: Hook) -> None:
    """A message still owed when its turn has passed is dropped, not sent late."""
    store.add_target("alice", hook.url("a"))
    t = store.create("notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob")
    for _ in range(2):
        info, match = store.load(t.id)
        assert match.prompt is not None
        user = info.seats[match.prompt.seat].user
        store.append(t.id, user, match.prompt.moves[0].id, info.moves)
    info = store.info(t.id)
    while info.to_move == "alice":  # play alice's turn out
        _, match = store.load(t.id)
        assert match.prompt is not None
        info = store.append(t.id, "alice", match.prompt.moves[0].id, info.moves)
    assert deliver(store) == [] and hook.posts == []


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_notify_commands(backend: Backend, hook: Hook, capsys: pytest.CaptureFixture[str]) -> None:
    base = ("--user", "alice", "--store", backend.location, "table", "notify")
    rc, out, err = run(capsys, *base, "add", "no-such-scheme://x")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "not a notification URL" in err
    rc, out, _ = run(capsys, *base, "list")
    assert rc == 0 and "No notification targets for alice" in out  # nothing was stored
    rc, out, _ = run(capsys, *base, "add", hook.url("alice?token=s3cret"))
    assert rc == 0 and out.startswith("target 1 for alice: json://127.0.0.1")
    run(capsys, *base, "add", f"json://127.0.0.1:{free_port()}/down")
    rc, out, _ = run(capsys, *base, "list")
    assert rc == 0 and out.count("json://") == 2
    rc, out, _ = run(capsys, *base, "test")
    assert rc == 1 and "1  sent" in out and "2  FAILED" in out
    assert [p[1] for p in hook.posts] == ["boardgames-tui: a test"]
    rc, out, _ = run(capsys, *base, "remove", "2")
    assert rc == 0 and out.strip() == "removed target 2"
    rc, out, err = run(capsys, *base, "remove", "2")
    assert rc == 1 and "no notification target 2" in err
    rc, out, _ = run(capsys, *base, "test")
    assert rc == 0 and out.strip() == "1  sent"
    rc, out, _ = run(
        capsys, "--user", "bob", "--store", backend.location, "table", "notify", "list"
    )
    assert "No notification targets for bob" in out  # each user has their own


def reading(backend: Backend, pid: int) -> bool:
    """Process `pid` has the store open and is watching it (its listener, on PostgreSQL)."""
    if backend.pg:
        return bool(
            backend.sql(
                "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'LISTEN %' "
                "OR query LIKE 'SELECT count(*), coalesce(sum(rev)%'"
            )
        )
    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        return any(os.readlink(f) == backend.location for f in fds.iterdir())
    return False


def test_table_wait_returns_within_a_second_of_the_turn(
    backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = backend.open()
    t = store.create("notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob")
    rc, out, err = run(
        capsys, "--user", "alice", "--store", backend.location, "table", "wait", "--timeout", "0.2"
    )
    assert (
        rc == 1
        and out == ""
        and err.strip() == ("boardgames-tui: not alice's turn at any table within 0.2 s")
    )
    waiter = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "boardgames_tui",
            "--user",
            "alice",
            "table",
            "wait",
            t.id,
            "--timeout",
            "3600",  # it answers the move, never its time-out
        ],
        cwd=ROOT,
        env=cli_env(backend, tmp_path),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for(lambda: reading(backend, waiter.pid), 30)  # started, reading the store
        time.sleep(0.2)
        assert waiter.poll() is None
        _, match = store.load(t.id)
        assert match.prompt is not None
        store.append(t.id, "bob", match.prompt.moves[0].id, 0)
        out, err = waiter.communicate(timeout=600)
    finally:
        if waiter.poll() is None:
            waiter.kill()
            waiter.communicate()
    # the table's id once the turn is committed, and the process gone (how fast is the bench's)
    assert waiter.returncode == 0 and out == f"{t.id}\n", err
    store.close()


def test_table_wait_sees_the_turn_its_own_settling_hands_over(
    backend: Backend, tmp_path: Path
) -> None:
    """alice waits; bob's 2 s run out and the waiting process itself has the computer play
    his turn: the wait ends then, with alice's turn still hers (it once went on waiting,
    and settled her turn too)."""
    waiter = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "boardgames_tui",
            "--user",
            "alice",
            "table",
            "wait",
            "--timeout",
            "8",
        ],
        cwd=ROOT,
        env=cli_env(backend, tmp_path),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    store = backend.open()
    try:
        assert wait_for(lambda: reading(backend, waiter.pid), 30)
        from boardgames_tui.engine.tables.clock import ClockRules

        t = store.create(
            "notre-dame", parse_seats("bob,alice", "bob"), {}, 3, "bob", rules=ClockRules(2.0)
        )
        out, err = waiter.communicate(timeout=20)
    finally:
        if waiter.poll() is None:
            waiter.kill()
            waiter.communicate()
    assert waiter.returncode == 0 and out.strip() == t.id, err
    info = store.info(t.id)
    assert info.your_turn("alice") and info.seats[1].strikes == 0
    assert info.seats[0].strikes == 1
    store.close()


def test_one_game_over_message_to_every_seat_and_no_turn_after_leaving(
    backend: Backend, hook: Hook
) -> None:
    """A whole game: at the end alice and bob each get one "Game over" message with the
    result; a turn message still owed when bob left is never sent, nor one after the end."""
    store = backend.open()
    for user in ("alice", "bob"):
        store.add_target(user, hook.url(user))
    t = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    info, match = store.load(t.id)
    assert match.prompt is not None
    store.append(t.id, "alice", match.prompt.moves[0].id, 0)  # bob's turn: a message owed
    store.leave(t.id, "bob")
    deliver(store)  # before anyone settled his turn: he left, so it is not sent
    assert hook.posts == []
    store.reclaim(t.id, "bob")
    while True:
        info, match = store.load(t.id)
        if info.finished:
            break
        assert match.prompt is not None and info.to_move in ("alice", "bob")
        store.append(t.id, info.to_move, match.prompt.moves[0].id, info.moves)
    turns = len([p for p in hook.posts if p[1].startswith("Your turn")])
    deliver(store)
    assert wait_for(lambda: len([p for p in hook.posts if p[1].startswith("Game over")]) == 2)
    over = [p for p in hook.posts if p[1].startswith("Game over")]
    assert sorted(path for path, _, _ in over) == ["/alice", "/bob"]
    result = match.game.result(match.state).summary
    assert all(result in body and f"over after {info.moves} moves" in body for _, _, body in over)
    deliver(store)
    assert len([p for p in hook.posts if p[1].startswith("Game over")]) == 2  # once each
    assert len([p for p in hook.posts if p[1].startswith("Your turn")]) == turns
    store.close()


def test_talk_reaches_the_targets_that_opted_in(
    backend: Backend, hook: Hook, capsys: pytest.CaptureFixture[str]
) -> None:
    """bob's first target takes the talk (`notify add … --talk`), his second does not;
    alice's words reach the first only, as data; a spectator's words reach no player
    while the game runs; `notify talk N off` stops it."""
    base = ("--user", "bob", "--store", backend.location, "table", "notify")
    rc, out, _ = run(capsys, *base, "add", hook.url("bob-talk"), "--talk")
    assert rc == 0 and "takes the talk" in out
    run(capsys, *base, "add", hook.url("bob-turns"))
    assert "(and talk)" in run(capsys, *base, "list")[1]
    store = backend.open()
    t = store.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 3, "alice")
    store.say(t.id, "alice", "good luck\x1b[31m bob", now=1000.0)
    store.say(t.id, "carol", "psst, bob", now=1000.0)  # a spectator: not for the players
    deliver(store)  # (the hook has each post before it answers: no wait needed)
    assert [p for p, _, _ in hook.posts] == ["/bob-talk"]
    _, title, body = hook.posts[0]
    assert title.startswith(f"alice at table {t.id}: good luck") and "\x1b" not in title + body
    assert "Play: boardgames-tui table show" in body
    rc, out, _ = run(capsys, *base, "talk", "1", "off")
    assert rc == 0 and "no longer takes" in out
    store.say(t.id, "alice", "still there?", now=1002.0)
    deliver(store)
    assert len(hook.posts) == 1
    store.close()
