"""Platform conventions: the saves folder where each platform keeps application data (an
existing $XDG_DATA_HOME or ~/.local/share folder keeps working), and an app that starts where
POSIX-only signals do not exist."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import platformdirs
import pytest

from boardgames_tui.engine.core import saves
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.menu import MenuScreen


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A fresh home folder, no $XDG_DATA_HOME, and a platform that keeps application data in
    ~/Library/Application Support (macOS)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)

    def user_data_dir(appname: str, appauthor: object = None, **kw: object) -> str:
        return str(tmp_path / "Library" / "Application Support" / appname)

    monkeypatch.setattr(platformdirs, "user_data_dir", user_data_dir)
    return tmp_path


def test_saves_go_to_the_platform_data_folder(home: Path) -> None:
    assert (
        saves.saves_dir() == home / "Library" / "Application Support" / "boardgames-tui" / "saves"
    )


def test_an_existing_xdg_folder_keeps_working(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    assert saves.saves_dir() == home / "xdg" / "boardgames-tui" / "saves"
    assert saves.saves_dir(home / "mine") == home / "mine"  # --saves wins


def test_the_folder_of_earlier_versions_keeps_working(home: Path) -> None:
    legacy = home / ".local" / "share" / "boardgames-tui" / "saves"
    legacy.mkdir(parents=True)
    assert saves.saves_dir() == legacy


def test_the_default_is_platformdirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Unpatched platformdirs; on Linux that is ~/.local/share, as before."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    expected = Path(platformdirs.user_data_dir("boardgames-tui", appauthor=False)) / "saves"
    assert saves.saves_dir() == expected
    if sys.platform.startswith("linux"):
        assert expected == tmp_path / ".local" / "share" / "boardgames-tui" / "saves"


async def test_app_starts_without_posix_signals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Windows has no SIGHUP: the app starts and shows its menu all the same."""
    monkeypatch.delattr(signal, "SIGHUP")
    installed: list[object] = []
    monkeypatch.setattr(signal, "signal", lambda *a: installed.append(a))
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert installed == []


async def test_app_catches_a_hang_up_where_there_is_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    installed: list[tuple[object, ...]] = []
    monkeypatch.setattr(signal, "signal", lambda *a: installed.append(a))
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert [a[0] for a in installed] == [signal.SIGHUP]
