"""An error nothing expected: the game is saved, a report is written to the state folder, and
the player sees one screen saying where it is (in a room: only its name), never a traceback."""

from __future__ import annotations

import asyncio
import os
import textwrap
from pathlib import Path

import pytest
from textual import events

from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.crash import CrashScreen
from boardgames_tui.tui.screens.game import GameScreen
from tests.root import ROOT
from tests.shell.ptydriver import PtyApp, base_env, plain


def reports() -> list[Path]:
    folder = Path(os.environ["XDG_STATE_HOME"]) / "boardgames-tui" / "crashes"
    return sorted(folder.glob("crash-*.txt")) if folder.is_dir() else []


@pytest.mark.parametrize("room", [False, True])
async def test_the_crash_screen_keeps_the_game_and_names_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, room: bool
) -> None:
    def broken(self: GameScreen) -> None:
        raise RuntimeError("inner detail 4711")

    monkeypatch.setattr(GameScreen, "action_log", broken)
    before = set(reports())
    match = Match.new("toy", [Seat("Ann"), Seat("Bob")], seed=3)
    match.settings["handover"] = False
    launch = Launch(saves_dir=str(tmp_path), match=match, crash_screen=True, confine=room)
    app = BoardgamesApp(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1")  # a move: the autosave has something to keep
        # the log key, broken above: the screen that raised stops taking messages, so the
        # key is posted (Pilot would wait for that screen) and the crash screen awaited
        app.post_message(events.Key("l", "l"))
        for _ in range(500):
            if isinstance(app.screen, CrashScreen):
                break
            await asyncio.sleep(0.01)
        assert isinstance(app.screen, CrashScreen)
        await pilot.pause()  # drawn
        shown = app.screen.query_one("#crash-text").render()
        text = str(shown)
        new = sorted(set(reports()) - before)
        assert len(new) == 1 and app.crash_report == new[0]
        report = new[0].read_text()
        assert "inner detail 4711" in report and "RuntimeError" in report
        assert "version:" in report and "game: toy, move 1 of 1" in report
        autosave = saves.latest(tmp_path)
        assert autosave is not None and saves.load(autosave).cursor == 1
        assert autosave.name in report and autosave.name in text
        assert "4711" not in text and "Traceback" not in text
        if room:  # the host's paths stay with the host
            assert new[0].name in text and str(new[0].parent) not in text
        else:
            assert str(new[0]) in text
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 1


SITE = """
from boardgames_tui.tui.screens import menu

def broken(self, *args, **kwargs):
    raise RuntimeError("inner detail 4711")

menu.MenuScreen.action_pick = broken
"""


def test_a_crash_in_a_terminal_shows_the_screen_and_one_line(tmp_path: Path) -> None:
    """The real app in a terminal (a fault planted at start-up): the crash screen, then the
    report's line after the app ends; the traceback only in the report, and with --debug."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(SITE))
    env = base_env(tmp_path, XDG_STATE_HOME=str(tmp_path / "state"))
    env["PYTHONPATH"] = f"{site}{os.pathsep}{env['PYTHONPATH']}"
    app = PtyApp(["--saves", str(tmp_path / "saves")], env, (80, 24))
    app.read_until("Rules")
    os.write(app.fd, b"g")  # the rules key of the menu, broken at start-up
    shown = plain(app.read_until("Something went wrong"))
    assert "Something went wrong" in shown and "crash-" in shown
    os.write(app.fd, b"q")
    rest = plain(app.read_until("A report is in"))
    assert app.close() == 1
    out = shown + rest
    assert "Traceback" not in out and "4711" not in out
    report = next((tmp_path / "state" / "boardgames-tui" / "crashes").glob("crash-*.txt"))
    assert "inner detail 4711" in report.read_text() and str(report) in rest.replace("\r\n", "")


def test_a_crash_in_the_room_shows_the_player_the_screen(tmp_path: Path) -> None:
    """A room's player (OpenSSH's client) sees the crash screen with the report's name, never
    a traceback or a path of the host's; the report is in the host's state folder."""
    from tests.shell.test_room import Room, SshPty

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(SITE))
    state = tmp_path / "state"
    room = Room(
        tmp_path, env={"PYTHONPATH": f"{site}{os.pathsep}{ROOT}", "XDG_STATE_HOME": str(state)}
    )
    try:
        s = SshPty(room.ssh_args("alice", "alice"), size=(80, 24))
        s.wait_for("welcome, alice")
        mark = len(s.output)
        os.write(s.fd, b"g")  # the rules key of the menu, broken at start-up
        # the dialog wraps its sentences at 80 columns: wait for a part that fits a line
        shown = s.wait_for("The room's host has the report", mark)
        assert "Something went wrong" in shown
        [report] = (state / "boardgames-tui" / "crashes").glob("crash-*.txt")
        assert report.name in shown.replace("\r\n", "")
        mark = len(s.output)
        os.write(s.fd, b"q")
        rest = s.wait_for("Connection to 127.0.0.1 closed", mark, 10)
        text = shown + rest
        assert "Traceback" not in text and "4711" not in text
        assert str(tmp_path) not in text
        assert "inner detail 4711" in report.read_text()
        s.close()
    finally:
        room.close()
