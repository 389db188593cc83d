"""Widgets of the game screen outlive their screen closing under them (a rematch, a table's
poll): each once raised NoMatches, ending the app."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical

from boardgames_tui.tui.widgets.picker import MovePicker


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Vertical(id="box")


async def test_a_picker_removed_while_it_mounts() -> None:
    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        box.mount(MovePicker())  # not awaited: the container goes before the picker mounts
        box.remove()
        await pilot.pause()
        assert app.is_running and not app.query(MovePicker)


async def test_a_board_drawn_after_its_screen_closed() -> None:
    """A late refresh (a table's poll) draws the board of a game screen that a rematch has
    just closed: nothing to draw on, and nothing raised."""
    from boardgames_tui.engine.core import Match, Seat
    from boardgames_tui.tui.games import ui_for
    from boardgames_tui.tui.widgets.board import BoardView

    match = Match.new("notre-dame", [Seat("A"), Seat("B")], seed=1)
    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        board = BoardView(ui_for("notre-dame"), id="board")
        await box.mount(board)
        view = match.game.view(match.state, 0)
        board.show(view, 0, compact=False)
        box.remove()
        await pilot.pause()
        board.show(view, 0, compact=False)
        await pilot.pause()
        assert app.is_running
