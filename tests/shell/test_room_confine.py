"""`--confine` (a room's sessions): a save is a name inside the player's own saves folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from boardgames_tui.room.names import name_problem
from boardgames_tui.session.confine import ConfineError, confined_path
from tests.root import ROOT
from tests.shell.ptydriver import base_env


@pytest.mark.parametrize(
    "name",
    ["../bob/x", "/etc/passwd", "a/b", "a\\b", ".place", "..", "", "x\x00y", "~bob", "a" * 81],
)
def test_a_path_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfineError, match="not a path"):
        confined_path(name, tmp_path)


def test_a_name_stays_in_the_folder_even_through_a_link(tmp_path: Path) -> None:
    mine, other = tmp_path / "alice", tmp_path / "bob"
    mine.mkdir()
    other.mkdir()
    assert confined_path("my game", mine) == (mine / "my game.toml").resolve()
    assert confined_path("x.toml", mine) == (mine / "x.toml").resolve()
    (mine / "link.toml").symlink_to(other / "secret.toml")
    with pytest.raises(ConfineError):
        confined_path("link", mine)


def test_load_and_review_take_only_a_name(tmp_path: Path) -> None:
    (tmp_path / "bob").mkdir()
    example = next((ROOT / "saves").glob("*.toml"))
    for cmd in (["load", str(example)], ["review", "../bob/x"]):
        r = subprocess.run(
            [sys.executable, "-m", "boardgames_tui", "--confine", "--saves", str(tmp_path / "a"), *cmd],
            cwd=ROOT, env=base_env(tmp_path), capture_output=True, text=True, timeout=20,
        )  # fmt: skip
        assert r.returncode == 2 and "not a path" in r.stderr


@pytest.mark.parametrize(
    "name", ["al\u202eice", "a\x1b[2J", "a" * 25, "open", "strong", "a b", "\u00e9\u00e9"]
)
def test_bad_names_get_one_line(name: str) -> None:
    problem = name_problem(name)
    assert problem and "\n" not in problem and "\x1b" not in problem


def test_good_names_pass() -> None:
    assert name_problem("alice") is None and name_problem("Bob_2.x") is None


async def test_a_room_session_saves_and_loads_only_in_its_own_folder(tmp_path: Path) -> None:
    from textual.widgets import Static

    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.dialogs import MessageScreen
    from boardgames_tui.tui.screens.load import LoadScreen
    from boardgames_tui.tui.screens.menu import MenuScreen

    mine, other = tmp_path / "alice", tmp_path / "bob"
    other.mkdir()
    launch = Launch(
        saves_dir=str(mine),
        new={"game": "toy", "seats": [], "options": {}, "seed": 3},
        handover=False,
        bot_delay=0.0,
        user="alice",
        store=str(tmp_path / "tables.sqlite"),
        confine=True,
    )
    from boardgames_tui.engine.core import Seat

    launch.new["seats"] = [Seat("alice"), Seat("bob")]  # type: ignore[index]
    app = BoardgamesApp(launch)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "save" in (mine / ".place.json").read_text()  # a reconnect comes back here
        await pilot.press("1", "1", "s")
        await pilot.pause()
        inp = app.screen.query_one("#save-path", Input)
        assert inp.value == "toy-3"  # a name, never another player's path
        inp.value = "../bob/x"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen) and "not a path" in app.screen.text
        await pilot.press("enter", "s")
        await pilot.pause()
        app.screen.query_one("#save-path", Input).value = "mine"
        await pilot.press("enter")
        await pilot.pause()
        assert (mine / "mine.toml").exists() and list(other.iterdir()) == []
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not (mine / ".place.json").exists()
        title = app.screen.query_one("#menu-title", Static).render()
        assert "welcome, alice" in str(title)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        assert app.screen.files and all(f.parent == mine for f in app.screen.files)
