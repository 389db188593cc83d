"""At 80x24 a page of the board fits the rows the move picker leaves, even when a panel was
taller earlier in the game: a panel keeps its tallest height (so the panels below it stay
put) only as far as the page has room."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult

from boardgames_tui.tui.games.base import Panel
from boardgames_tui.tui.widgets.board import BoardView, PanelBox


class Lines:
    """A board of one panel of `view["lines"]` lines."""

    game_id = "lines"

    def status(self, view: Mapping[str, Any]) -> str:
        return ""

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        body = Text("\n".join(f"line {i}" for i in range(view["lines"])))
        return [Panel("town", "Town", body), Panel("more", "More", Text("\n".join(["more"] * 8)))]


class Board(App[None]):
    def compose(self) -> ComposeResult:
        yield BoardView(Lines(), id="board")


async def test_a_panel_once_taller_fits_a_smaller_page() -> None:
    app = Board()
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(BoardView)
        board.room = 20
        board.show({"lines": 12}, 0, compact=True)  # 14 rows with its border
        await pilot.pause()
        board.show({"lines": 9}, 0, compact=True)  # 11 rows: it fits the room of 11 below
        await pilot.pause()
        board.room = 11  # then the move picker grows: 11 rows for the board
        board.refit()
        await pilot.pause()
        town = next(box for box in app.query(PanelBox) if box.has_class("panel-town"))
        assert board.page_rows() <= board.room
        assert town.outer_size.height <= board.room
