"""Settings that last (issue 46): one TOML file written by the settings screen and `config`,
read at start; keys remapped by binding id, a clash refused in one line; a bad file said once
and never overwritten unsaid; a room's player has their own file."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.widgets import Select

from boardgames_tui.cli.main import main
from boardgames_tui.engine.core import HUMAN, Match, Seat
from boardgames_tui.tui import settings as settings_mod
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens import keys
from boardgames_tui.tui.screens.dialogs import HelpScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.log import LogScreen
from boardgames_tui.tui.screens.settings import KeyScreen, SettingsScreen
from boardgames_tui.tui.screens.setup import SetupScreen


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config folder of this test's own; the settings file's path."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "boardgames-tui" / "settings.toml"


def two_people() -> Match:
    return Match.new("notre-dame", [Seat("Ann", HUMAN), Seat("Bob", HUMAN)], {}, seed=3)


def test_every_binding_has_an_id_and_none_is_on_ctrl_b() -> None:
    screens: list[type[DOMNode]] = [*keys._screens(), BoardgamesApp]
    for cls in screens:
        ours = [c for c in cls.__mro__ if c.__module__.startswith("tui.")]
        for b in (b for c in ours for b in vars(c).get("BINDINGS", ())):
            assert b.id, f"{cls.__name__}: {b.key} -> {b.action} has no id"
            assert "ctrl+b" not in b.key.split(","), f"{cls.__name__}: {b.action} on Ctrl+B"
    assert {"game.undo", "help", "setup.versus-computers", "app.commands"} <= set(
        keys.binding_ids()
    )


def test_config_set_get_list_and_refusals(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "bell", "off"]) == 0
    assert main(["config", "set", "theme", "textual-light"]) == 0
    assert main(["config", "set", "keys.game.undo", "ctrl+z"]) == 0
    assert main(["config", "set", "computer_speed", "1.5"]) == 0
    capsys.readouterr()
    data = tomllib.loads(config.read_text())
    assert data == {
        "bell": False,
        "theme": "textual-light",
        "computer_speed": 1.5,
        "keys": {"game.undo": "ctrl+z"},
    }
    assert main(["config", "get", "bell"]) == 0
    assert capsys.readouterr().out == "off\n"
    assert main(["config", "get", "keys.game.redo"]) == 0  # not remapped: its default
    assert capsys.readouterr().out == "r\n"
    # a clash, a move's key, an unknown id, a bad value: one line each, nothing changed
    before = config.read_bytes()
    for argv, said in [
        (["keys.game.redo", "ctrl+z"], "ctrl+z is already 'Undo' (game.undo) on the game screen"),
        (["keys.game.redo", "3"], "3 is a move's key on the game screen"),
        (["keys.game.nothing", "x"], "no key binding 'game.nothing'"),
        (["keys.game.redo", "ctrl+p"], "ctrl+p is the app's own key"),
        (["theme", "pink"], "theme: give one of textual-dark"),
        (["computer_speed", "fast"], "computer_speed: give a number of seconds"),
        (["bogus", "1"], "no setting 'bogus'"),
    ]:
        assert main(["config", "set", *argv]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    assert config.read_bytes() == before
    assert main(["config", "list", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "bell = off  #" in out and "names = Ann,Bob,Cy,Dee,Eve,Finn (default)" in out
    assert "keys.game.undo = ctrl+z  # Undo" in out and "keys.game.redo = r (default)" in out


def test_keys_are_checked_against_each_other_as_remapped(config: Path) -> None:
    """Undo and redo swapped: each key is free once the other has moved."""
    config.parent.mkdir(parents=True)
    config.write_text('[keys]\n"game.undo" = "r"\n"game.redo" = "u"\n')
    found = settings_mod.load(config, keys.check)
    assert found.problem is None and found.keys == {"game.undo": "r", "game.redo": "u"}


async def test_a_restart_keeps_the_theme_a_remapped_key_and_the_bell(
    config: Path, tmp_path: Path
) -> None:
    assert main(["config", "set", "theme", "textual-light"]) == 0
    assert main(["config", "set", "keys.game.log", "z"]) == 0
    assert main(["config", "set", "bell", "off"]) == 0
    launch = Launch(saves_dir=str(tmp_path), use_settings=True, handover=False)
    launch.new = {"game": "notre-dame", "seats": two_people().seats, "options": {}, "seed": 3}
    app = BoardgamesApp(launch)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light"
        assert app.launch.bell is False
        assert isinstance(app.screen, GameScreen)
        await pilot.press("l")  # no longer the log's key
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("z")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")  # the game's help names the key as remapped
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.rows or [])
        assert rows["z"].startswith("the whole log") and "l" not in rows


async def test_a_bad_file_is_said_once_and_left_as_it_is(config: Path, tmp_path: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_bytes(b"theme = 'nord'\nbell = maybe\n")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert len(said) == 1 and "is not valid TOML" in said[0] and str(config) in said[0]
        assert app.theme == "textual-dark"  # the defaults, nothing of the bad file
    assert config.read_bytes() == b"theme = 'nord'\nbell = maybe\n"
    assert main(["config", "set", "bell", "on"]) == 1  # refused: fix or remove it first
    assert config.read_bytes() == b"theme = 'nord'\nbell = maybe\n"


async def test_the_settings_screen_writes_the_file_and_refuses_a_clash(
    config: Path, tmp_path: Path
) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await pilot.press(*"settings")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#theme", Select).value = "nord"
        await pilot.pause()
        assert app.theme == "nord"
        assert tomllib.loads(config.read_text())["theme"] == "nord"
        # a key: Enter on its row, then the new key
        rows = screen.query_one("#keys")
        rows.focus()
        ids = list(keys.binding_ids())
        rows.highlighted = ids.index("game.redo")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, KeyScreen)
        await pilot.press("u")  # undo's key
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert "u is already 'Undo' (game.undo) on the game screen" in said
        assert "keys" not in tomllib.loads(config.read_text())
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert tomllib.loads(config.read_text())["keys"] == {"game.redo": "y"}
        assert app.settings.keys == {"game.redo": "y"}


async def test_the_palette_has_the_apps_commands_and_no_screenshot(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Settings" in titles and "Quit" in titles
        assert not any("screenshot" in t.lower() for t in titles)


async def test_the_setup_screen_offers_the_settings_names_and_hand_over(
    config: Path, tmp_path: Path
) -> None:
    assert main(["config", "set", "names", "Zoe,Yan"]) == 0
    assert main(["config", "set", "handover", "off"]) == 0
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen("notre-dame"))
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        while setup.building:  # the seat rows are built after the screen mounts
            await pilot.pause()
        names = [setup.query_one(f"#name-{i}").value for i in range(setup.count)]  # type: ignore[attr-defined]
        assert names[:3] == ["Zoe", "Yan", "Ann"]
        assert setup.query_one("#handover").value is False  # type: ignore[attr-defined]


def test_a_room_player_has_their_own_file(tmp_path: Path, config: Path) -> None:
    """--confine: the file is in the player's folder, never the host's config folder."""
    folder = tmp_path / "room" / "saves" / "ann"
    assert main(["--saves", str(folder), "--confine", "config", "set", "bell", "off"]) == 0
    assert (folder / ".settings" / "settings.toml").is_file()
    assert not config.exists()
    assert settings_mod.config_path(str(folder), confine=True) != settings_mod.config_path()


def test_the_command_line_and_environment_come_before_the_file(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["config", "set", "computer_speed", "1.5"]) == 0
    assert main(["config", "set", "think", "2"]) == 0
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    assert app.launch.bot_delay == 1.5 and app.think == 2.0
    monkeypatch.setenv("BOARDGAMES_BOT_DELAY", "0")
    given = settings_mod.given_settings(argparse.Namespace(think=0.3, bot_delay=None))
    assert given == {"bot_delay", "think"}
    launch = Launch(saves_dir=str(tmp_path), use_settings=True, given=given, bot_delay=0.0)
    launch.think = 0.3
    app = BoardgamesApp(launch)
    assert app.launch.bot_delay == 0.0 and app.think == 0.3


async def test_a_bad_file_with_markup_in_it_is_said_as_plain_text(
    config: Path, tmp_path: Path
) -> None:
    config.parent.mkdir(parents=True)
    config.write_text('names = ["Ann", "[@click=app.quit]x[/]"]\ntheme = 7\n')
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        (note,) = list(app._notifications)
        assert note.markup is False and "theme: give one of" in note.message
        assert app.is_running


async def test_the_menu_shows_and_answers_a_remapped_item_key(config: Path, tmp_path: Path) -> None:
    from textual.widgets import OptionList

    assert main(["config", "set", "keys.menu.rules", "x"]) == 0
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), use_settings=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-options", OptionList)
        rows = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert any(r.startswith(" x   Rules") for r in rows), rows
        await pilot.press("x")
        await pilot.pause()
        from boardgames_tui.tui.screens.load import RulesPickScreen

        assert isinstance(app.screen, RulesPickScreen)
