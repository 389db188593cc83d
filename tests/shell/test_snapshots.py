"""Snapshot tests of every screen at 80x24 and 120x40 (pytest-textual-snapshot).

After a deliberate UI change: `pytest tests/shell/test_snapshots.py --snapshot-update`, then review
the SVG diffs (and regenerate screenshots/ with `boardgames-tui screenshots`).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames_tui.tui.app import BoardgamesApp, Launch
from tests.conftest import BUILTIN
from tools.screenshots import sample_match, settle

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
GAMES = BUILTIN  # the snapshots are stored for the titles this repository ships
# a fixed, empty saves folder: the menu shows its path
SAVES = Path(tempfile.gettempdir()) / "boardgames-tui-snapshots"
# one folder for every snapshot (the menu shows its path): one worker runs them all, or two
# workers would empty and make it under each other (FileExistsError)
pytestmark = pytest.mark.xdist_group("snapshots")


@pytest.fixture
def saves_dir() -> Iterator[str]:
    shutil.rmtree(SAVES, ignore_errors=True)
    SAVES.mkdir(parents=True)
    yield str(SAVES)
    shutil.rmtree(SAVES, ignore_errors=True)


def app_for(
    saves_dir: str, game_id: str | None = None, handover: bool = False, **kw: object
) -> BoardgamesApp:
    match = sample_match(game_id, **kw) if game_id else None  # type: ignore[arg-type]
    if match is not None:
        match.settings["handover"] = handover
    return BoardgamesApp(Launch(saves_dir=saves_dir, match=match, bot_delay=0.0))


@pytest.mark.parametrize("size", SIZES)
def test_menu(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_for(saves_dir), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_setup(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    async def open_setup(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(app_for(saves_dir), run_before=open_setup, terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game_id", GAMES)
def test_game_screen(snap_compare, saves_dir: str, game_id: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_for(saves_dir, game_id), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_handover(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_for(saves_dir, GAMES[0], handover=True), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_review(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(
        app_for(saves_dir, GAMES[0]), press=["v", "left", "left"], terminal_size=SIZES[size]
    )


@pytest.mark.parametrize("size", SIZES)
def test_rules(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_for(saves_dir, GAMES[0]), press=["g", "_"], terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game_id", GAMES)
def test_end_screen(snap_compare, saves_dir: str, game_id: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(
        app_for(saves_dir, game_id, finish=True), press=["_"], terminal_size=SIZES[size]
    )


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, saves_dir: str, size: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(
        app_for(saves_dir, GAMES[0]), press=["question_mark"], terminal_size=SIZES[size]
    )


@pytest.mark.parametrize("size", SIZES)
def test_settings(snap_compare, saves_dir: str, size: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the screen names its file: a fixed config folder (nothing is written to it)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(SAVES / "config"))

    async def open_settings(pilot) -> None:  # type: ignore[no-untyped-def]
        from boardgames_tui.tui.screens.settings import SettingsScreen

        pilot.app.push_screen(SettingsScreen())
        await settle(pilot)

    assert snap_compare(app_for(saves_dir), run_before=open_settings, terminal_size=SIZES[size])
