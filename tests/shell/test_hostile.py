"""Hostile input (issue 29): sessions without a terminal, markup actions, bounded saves."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from textual.screen import Screen
from textual.widgets import Static

from boardgames_tui.session.terminal import no_terminal_line
from tests.root import ROOT


class _Link(Screen[None]):
    def __init__(self, folder: str) -> None:
        super().__init__()
        self.folder = folder

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(f"[@click=app.screenshot('pwned.svg','{self.folder}')]CLICK HERE[/]", id="l")


async def test_a_markup_action_link_does_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A click on an action link in rendered text runs no action (here: writing a file)."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch

    target = tmp_path / "elsewhere"
    target.mkdir()
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(_Link(str(target)))
        await pilot.pause()
        await pilot.click("#l", offset=(2, 0))
        await pilot.pause()
        await app.run_action(f"screenshot('direct.svg', {str(target)!r})")
        await pilot.pause()
    assert list(target.iterdir()) == []


def cli(
    *args: str, stdin: int | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames_tui", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=stdin,
    )


def test_a_bad_name_is_refused_where_it_enters(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--players` and a save holding a control character or an overlong name: one line."""
    from boardgames_tui.engine.core import Match, Seat, saves

    out = cli("--saves", str(tmp_path), "new", "notre-dame", "--players", "Ann,\x1b]0;x\x07Bob")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "no control, format or bidi" in out.stderr
    assert "\x1b" not in out.stderr
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=1)
    text = saves.dumps(m)
    bad = tmp_path / "bad.toml"
    for name in ("\\u001b[2JBob", "B\\u202eob", "B" * 25):
        bad.write_text(text.replace('"Bob"', f'"{name}"'))
        before = bad.read_bytes()
        out = cli("check", str(bad))
        assert out.returncode == 1 and "seat 2: a name is at most 24" in out.stdout, out.stdout
        assert "\x1b" not in out.stdout and bad.read_bytes() == before


def test_without_a_terminal_the_app_says_so_and_exits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """stdin from /dev/null (ssh -T, a script): one line, exit 2, at once; the commands that
    need no terminal still work."""
    env_saves = ("--saves", str(tmp_path))
    with open(os.devnull) as null:
        for args in ((), ("new", "notre-dame", "--players", "2")):
            # at once: a process that waited for input would run into the time-out
            out = cli(*env_saves, *args, stdin=null.fileno(), timeout=10)
            assert out.returncode == 2, out.stderr
            assert out.stderr == no_terminal_line() + "\n"  # (the environment is ours)
        out = cli("rules", "notre-dame", stdin=null.fileno())
        assert out.returncode == 0 and out.stdout.startswith("# Notre Dame")


def test_the_app_exits_when_its_terminal_goes_away(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The terminal closes mid-game (ssh dropped): the process is gone within 2 s, the game
    autosaved."""
    from boardgames_tui.engine.core import saves
    from tests.shell.ptydriver import PtyApp, base_env

    app = PtyApp(["new", "notre-dame", "--players", "Ann,Bob", "--no-handover"], base_env(tmp_path))
    app.read_until("Notre Dame")
    app.send(b"1", quiet=0.3)
    os.close(app.fd)  # the terminal goes: the kernel hangs up the session
    start = time.monotonic()
    while time.monotonic() - start < 2.0:
        pid, _ = os.waitpid(app.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.05)
    else:
        os.kill(app.pid, 9)
        os.waitpid(app.pid, 0)
        raise AssertionError("the app still runs 2 s after its terminal went away")
    [save] = saves.list_saves(tmp_path / "boardgames-tui" / "saves")
    assert saves.load(save).cursor >= 1


def test_the_app_exits_when_a_terminal_it_does_not_own_goes_away(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A pseudo-terminal that is not the process's controlling terminal sends no SIGHUP when
    its other end closes, only end-of-input (the app used to spin on it, ~10% of a core, for
    as long as nobody killed it): the process is gone within 2 s all the same."""
    import pty
    import select

    from tests.shell.ptydriver import base_env

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames_tui", "new", "notre-dame", "--players", "Ann,Bob"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=base_env(tmp_path),
        cwd=ROOT,
        start_new_session=True,  # a session of its own without taking the pty as its terminal
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    while b"Menu" not in seen and time.monotonic() < deadline:  # the footer: it has drawn
        if select.select([master], [], [], 0.2)[0]:
            seen += os.read(master, 65536)
    assert b"Menu" in seen
    os.close(master)
    try:
        proc.wait(2.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the app still runs 2 s after its terminal went away") from None
