"""The game screen draws a position again after every change (at a table: every move of
another seat, on every screen there); lines that read as before are not redrawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Static

from boardgames_tui.engine.core import Match, Seat
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.areas import RecentLines, StatusLine, TabLine, Unchanged


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_same_position_drawn_again_repaints_no_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Before: the status line, the tab line, the recent lines, the one-line log and the
    picker's question were set again, each marked for repainting."""
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bo")], seed=5)
    m.settings["handover"] = False
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0))
    async with app.run_test(size=size) as pilot:
        await pilot.press("1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        lines: list[Widget] = [
            screen.query_one(StatusLine),
            screen.query_one(TabLine),
            screen.query_one(RecentLines),
            screen.query_one("#lastlog", Unchanged),
            screen.query_one("#picker-title", Static),
        ]
        for line in lines:  # drawn since: nothing waits to be repainted
            line._dirty_regions.clear()
        screen.render_board(highlight=False)
        assert [type(w).__name__ for w in lines if w._dirty_regions] == []
        status = screen.query_one(StatusLine)
        before = status._drawn.plain if status._drawn else ""
        await pilot.press("1")  # a move: the status line reads otherwise, and says so
        await pilot.pause()
        assert status._drawn is not None and status._drawn.plain != before
        assert str(status.render()).strip() == status._drawn.plain.strip()
