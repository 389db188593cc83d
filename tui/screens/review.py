"""Review: step through every move with the board as it was; continue from any move."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.widgets.option_list import Option

from engine.core import Match

from ..games import ui_for
from ..widgets.board import BoardView
from ..widgets.picker import SafeOptionList as OptionList
from .dialogs import ConfirmScreen, ScreenHelp

BESIDE_WIDTH = 170  # from this width the move list stands beside the board, else below it


def _numbered(n: int, line: str) -> Table:
    """A move of the list: its number, and its text wrapped in a column of its own."""
    row = Table.grid(padding=(0, 1))
    row.add_column(justify="right", min_width=4, no_wrap=True)
    row.add_column(ratio=1)
    row.add_row(str(n), line)
    return row


class ReviewScreen(ScreenHelp, Screen[int | None]):
    HELP_TITLE = "Review"
    """Dismisses with the move index to continue from, or None to go back unchanged."""

    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("left,p,h", "step(-1)", "Prev"),
        Binding("right,n,l", "step(1)", "Next"),
        Binding("home,a", "jump(0)", "Start", priority=True),
        Binding("end,z", "jump(-1)", "End", priority=True),
        Binding("c", "continue_here", "Continue from here"),
        Binding("tab,right_square_bracket", "cycle(1)", "View", show=False, priority=True),
        Binding("left_square_bracket", "cycle(-1)", show=False),
        Binding("escape,q,v", "close", "Back"),
    ]

    def __init__(self, match: Match, viewer: int | None, allow_continue: bool = True) -> None:
        super().__init__()
        self.match = match
        self.viewer = viewer
        self.index = match.cursor
        self.allow_continue = allow_continue
        self.compact = False

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield Static("", id="tabs")
        with Container(id="review-body"):
            yield BoardView(ui_for(self.match.game.id), id="board")
            yield OptionList(id="review-moves")
        yield Static("", id="lastlog")
        yield Footer()

    def _apply_size(self) -> None:
        w, h = self.app.size
        self.compact = w < 110 or h < 34
        self.set_class(self.compact, "compact")
        self.set_class(w >= BESIDE_WIDTH, "beside")

    def on_mount(self) -> None:
        self._apply_size()
        moves = self.query_one("#review-moves", OptionList)
        opts = [Option(_numbered(0, "setup"), id="0")]
        for i, step in enumerate(self.match.steps, start=1):
            who = self.match.seats[step.seat].name
            line = self._step_text(i) or step.label
            if not line.startswith(who):  # "Ann plays Park", not "Ann: Ann plays Park"
                line = f"{who}: {line}"
            opts.append(Option(_numbered(i, line), id=str(i)))
        moves.add_options(opts)
        self.show_index(self.index)

    def on_resize(self) -> None:
        self._apply_size()
        # the index when the redraw runs: a key may have moved it since the resize
        self.call_after_refresh(lambda: self.show_index(self.index))

    def _step_text(self, i: int) -> str:
        step = self.match.steps[i - 1]
        for ev in step.events:
            line = ev.for_seat(self.viewer)
            if line:
                return line
        return ""

    def show_index(self, index: int) -> None:
        n = len(self.match.steps)
        self.index = max(0, min(n, index))
        state = self.match.state_at(self.index)
        game = self.match.game
        view = game.view(state, self.viewer)
        self.query_one(BoardView).show(view, self.viewer, self.compact, highlight=False)
        ui = ui_for(game.id)
        status = Text(f" Review · {game.title} · move {self.index}/{n}", style="bold")
        st = ui.status(view)
        if st:
            status.append(f" · {st}", style="")
        self.query_one("#status", Static).update(status)
        self._render_tabs()
        lines = []
        if self.index > 0:
            step = self.match.steps[self.index - 1]
            lines = [e.for_seat(self.viewer) for e in step.events]
        text = " · ".join(x for x in lines if x) or ("setup" if self.index == 0 else "")
        self.query_one("#lastlog", Static).update(
            Text(f" ▸ {text}", overflow="ellipsis", no_wrap=True)
        )
        moves = self.query_one("#review-moves", OptionList)
        moves.highlighted = self.index

    @on(OptionList.OptionHighlighted, "#review-moves")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # a highlight we set ourselves arrives later as a message: a stale one is ignored
        if event.option_index != event.option_list.highlighted:
            return
        if event.option.id is not None and int(event.option.id) != self.index:
            self.show_index(int(event.option.id))

    @on(OptionList.OptionSelected, "#review-moves")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.show_index(int(event.option.id))

    def action_step(self, delta: int) -> None:
        self.show_index(self.index + delta)

    def action_jump(self, where: int) -> None:
        self.show_index(len(self.match.steps) if where < 0 else where)

    def _render_tabs(self) -> None:
        """The board's views as tabs (compact layout), as on the game screen."""
        board = self.query_one(BoardView)
        titles = board.tab_titles()
        t = Text(f" Tab ▸ {board.tab + 1}/{len(titles)} ", style="dim")
        for i, title in enumerate(titles):
            if i == board.tab:
                t.append(f" {title} ", style="reverse bold")
            else:
                t.append(f" {title.split()[0]} ")
        t.truncate(self.app.size.width, overflow="ellipsis")
        self.query_one("#tabs", Static).update(t if self.compact else "")

    def action_cycle(self, delta: int) -> None:
        if self.compact:
            self.query_one(BoardView).cycle(delta)
            self._render_tabs()

    def action_continue_here(self) -> None:
        if not self.allow_continue:
            return
        n = len(self.match.steps)
        if self.index == n:
            self.dismiss(self.index)
            return

        def do(ok: bool | None) -> None:
            if ok:
                self.dismiss(self.index)

        self.app.push_screen(
            ConfirmScreen(
                f"Continue from move {self.index}? The {n - self.index} later moves can still be "
                "redone until a different move is played."
            ),
            do,
        )

    def action_close(self) -> None:
        self.dismiss(None)
