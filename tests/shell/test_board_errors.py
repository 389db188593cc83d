"""A plug-in's board that raises (issue 47): the app said nothing and crashed; now the board is
one line saying so, the game goes on, and every move is saved."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.core import Match, Seat, registry, saves
from boardgames_tui.tui.games import BOARDS, ui_for
from boardgames_tui.tui.games.base import Panel
from tests.conformance.test_robust_leaks import screen_text


class BrokenUI:
    """A board with a bug in both of its methods."""

    game_id = "toy"

    def status(self, view: Mapping[str, Any]) -> str:
        raise KeyError("round")

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        raise ValueError("a bug in the plug-in")


UI = BrokenUI()


@pytest.fixture
def broken_toy() -> Iterator[None]:
    """The toy with the broken board while the test runs."""
    import boardgames_tui.tui.games

    before = registry.targets(BOARDS)["toy"]
    registry.register("toy", f"{__name__}:UI", group=BOARDS)
    boardgames_tui.tui.games.RAISE_BOARD_ERRORS = False  # as in the app (the suite raises them)
    try:
        yield
    finally:
        boardgames_tui.tui.games.RAISE_BOARD_ERRORS = True
        registry.register("toy", before, group=BOARDS)


def test_the_board_says_one_line(broken_toy: None) -> None:
    ui = ui_for("toy")
    m = Match.new("toy", ["Ann", "Bob"], seed=3)
    assert ui.status(m.game.view(m.state, 0)) == ""
    [panel] = ui.panels(m.game.view(m.state, 0), 0, False)
    assert "could not be drawn (ValueError)" in str(panel.body) and "saved" in str(panel.body)


async def test_a_broken_board_keeps_the_game_going_and_saved(
    broken_toy: None, tmp_path: Path
) -> None:
    from boardgames_tui.session.crash import log_path
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.screens.game import GameScreen

    m = Match.new("toy", [Seat("Ann"), Seat("Bob", "random")], seed=3)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        text = " ".join(screen_text(app).split())
        assert "The board of this game could not be drawn (ValueError)" in text
        await pilot.press("1", "1")  # Ann chooses a card and takes the stones
        for _ in range(100):  # then the computer plays Bob's turn
            if m.cursor >= 4:
                break
            await pilot.pause(0.05)
        assert m.cursor >= 4 and isinstance(app.screen, GameScreen)
    saved = saves.load(saves.autosave_path(m, tmp_path))
    assert saved.move_ids() == m.move_ids()
    log = log_path()
    assert log is not None and "ValueError: a bug in the plug-in" in log.read_text()
